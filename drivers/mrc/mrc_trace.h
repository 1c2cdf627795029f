/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of mrc (trace system "mrc"):
 *   mrc_ev_state  an EV of an RC QP changed health (GOOD <-> ASSUMED_BAD,
 *                 DENIED): the same change the "ev" netlink group carries
 *   mrc_cc        congestion control of an RC QP took feedback (an ACK, a
 *                 trim NACK, a timeout): what it saw and the window after
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrc

#if !defined(_MRC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MRC_TRACE_H

#include <linux/tracepoint.h>

#include "mrc.h"
#include "mrc_cc.h"

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
	    TP_fast_assign(mrc_assign_str(dev, dev_name(&mdev->ib_dev.dev));
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

TRACE_EVENT(mrc_cc,
	    TP_PROTO(struct mrc_dev *mdev, u32 qpn, u8 what, u32 bytes,
		     u32 rtt_ns, bool ecn, u32 inflight,
		     const struct mrc_cc *cc),
	    TP_ARGS(mdev, qpn, what, bytes, rtt_ns, ecn, inflight, cc),
	    TP_STRUCT__entry(__string(dev, dev_name(&mdev->ib_dev.dev))
			     __field(u32, qpn)
			     __field(u8, what)
			     __field(bool, ecn)
			     __field(u32, bytes)
			     __field(u32, rtt_ns)
			     __field(u32, inflight)
			     __field(u32, cwnd)
			     __field(u32, max_cwnd)
			     __field(u32, base_rtt)
			     __field(u32, avg_delay)),
	    TP_fast_assign(mrc_assign_str(dev, dev_name(&mdev->ib_dev.dev));
			   __entry->qpn = qpn;
			   __entry->what = what;
			   __entry->ecn = ecn;
			   __entry->bytes = bytes;
			   __entry->rtt_ns = rtt_ns;
			   __entry->inflight = inflight;
			   __entry->cwnd = cc->cwnd;
			   __entry->max_cwnd = cc->max_cwnd;
			   __entry->base_rtt = cc->base_rtt;
			   __entry->avg_delay = mrc_cc_avg_delay(cc);),
	    TP_printk("dev=%s qpn=%u %s bytes=%u rtt=%u ecn=%d inflight=%u cwnd=%u max_cwnd=%u base_rtt=%u avg_delay=%u",
		      __get_str(dev), __entry->qpn,
		      __print_symbolic(__entry->what,
				       { MRC_CC_EV_ACK, "ack" },
				       { MRC_CC_EV_NACK, "nack" },
				       { MRC_CC_EV_TIMEOUT, "timeout" }),
		      __entry->bytes, __entry->rtt_ns, __entry->ecn,
		      __entry->inflight, __entry->cwnd, __entry->max_cwnd,
		      __entry->base_rtt, __entry->avg_delay)
);

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mrc_trace
#include <trace/define_trace.h>
