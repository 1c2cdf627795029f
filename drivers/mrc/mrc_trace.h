/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of mrc (trace system "mrc"):
 *   mrc_ev_state  an EV of an RC QP changed health (GOOD <-> ASSUMED_BAD,
 *                 DENIED): the same change the "ev" netlink group carries
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrc

#if !defined(_MRC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MRC_TRACE_H

#include <linux/tracepoint.h>

#include "mrc.h"

TRACE_EVENT(mrc_ev_state,
	    TP_PROTO(struct mrc_dev *mdev, u32 qpn, u32 index,
		     const struct mrc_ev *e, const struct mrc_ev_change *chg,
		     u8 cause),
	    TP_ARGS(mdev, qpn, index, e, chg, cause),
	    TP_STRUCT__entry(__string(dev, dev_name(&mdev->ib_dev.dev))
			     __field(u32, qpn)
			     __field(u32, index)
			     __field(u32, value)
			     __field(u8, plane)
			     __field(u8, path)
			     __field(u8, old)
			     __field(u8, new)
			     __field(u8, cause)
			     __field(s16, backup)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qpn;
			   __entry->index = index;
			   __entry->value = e->value;
			   __entry->plane = e->plane;
			   __entry->path = e->path;
			   __entry->old = chg->old;
			   __entry->new = chg->new;
			   __entry->cause = cause;
			   __entry->backup = chg->backup;),
	    TP_printk("dev=%s qpn=%u ev=%u value=0x%08x plane=%u path=%u %s -> %s cause=%s backup=%d",
		      __get_str(dev), __entry->qpn, __entry->index, __entry->value,
		      __entry->plane, __entry->path,
		      __print_symbolic(__entry->old,
				       { MRC_EV_STATE_GOOD, "GOOD" },
				       { MRC_EV_STATE_SKIP, "SKIP" },
				       { MRC_EV_STATE_ASSUMED_BAD, "ASSUMED_BAD" },
				       { MRC_EV_STATE_DENIED, "DENIED" }),
		      __print_symbolic(__entry->new,
				       { MRC_EV_STATE_GOOD, "GOOD" },
				       { MRC_EV_STATE_SKIP, "SKIP" },
				       { MRC_EV_STATE_ASSUMED_BAD, "ASSUMED_BAD" },
				       { MRC_EV_STATE_DENIED, "DENIED" }),
		      __print_symbolic(__entry->cause,
				       { MRC_EV_CAUSE_LOSS, "loss" },
				       { MRC_EV_CAUSE_PROBE, "probe" },
				       { MRC_EV_CAUSE_DENY, "deny" },
				       { MRC_EV_CAUSE_ALLOW, "allow" }),
		      __entry->backup)
);

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mrc_trace
#include <trace/define_trace.h>
