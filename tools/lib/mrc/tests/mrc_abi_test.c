// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: the OCP MRC API's structures have the layout the published
 * headers give them on x86_64 (sizes and the offsets a layout slip would
 * move), so that a program built against those headers runs with this
 * library. Checked at build time; the program only says so.
 */
#include <stddef.h>
#include <stdio.h>

#include <mrc_ctl.h>

#define SIZE(t, n)	_Static_assert(sizeof(struct t) == (n), #t)
#define OFF(t, m, n)	_Static_assert(offsetof(struct t, m) == (n), #t "." #m)

SIZE(mrc_device_attr, 20);
SIZE(mrc_context_attr, 8);
SIZE(mrc_qp_hint_attr, 140);
SIZE(mrc_qp_hint_init_attr, 140);
SIZE(mrc_qp_init_attr, 72);
OFF(mrc_qp_init_attr, send_ops_flags, 56);
OFF(mrc_qp_init_attr, protocol_version, 64);
SIZE(mrc_qp_attr, 176);
OFF(mrc_qp_attr, timeout, 6);
OFF(mrc_qp_attr, profile, 8);
OFF(mrc_qp_attr, retry, 24);
OFF(mrc_qp_attr, qp_hint, 32);
OFF(mrc_qp_attr, cap, 40);
OFF(mrc_qp_attr, vendor_cfg, 44);
SIZE(mrc_async_event, 16);
SIZE(mrc_ctl_device_attr, 72);
OFF(mrc_ctl_device_attr, cc, 48);
OFF(mrc_ctl_device_attr, phy_port_mask, 64);
SIZE(mrc_ctl_port_attr, 4);
SIZE(mrc_ctl_ev_fmt_field, 1);
SIZE(mrc_ctl_ev_fmt_profile_attr, 168);
SIZE(mrc_ctl_ev, 33);
SIZE(mrc_ctl_ev_field, 20);
SIZE(mrc_ctl_ev_op_entry, 76);
SIZE(mrc_ctl_ev_profile_attr, 216);
OFF(mrc_ctl_ev_profile_attr, ev_op, 40);
OFF(mrc_ctl_ev_profile_attr, vendor_cfg, 88);
SIZE(mrc_ctl_cc_profile_attr, 152);
SIZE(mrc_ctl_cc_nscc_cfg, 52);
OFF(mrc_ctl_cc_nscc_cfg, qa_gate, 40);
SIZE(mrc_ctl_ev_event, 56);
OFF(mrc_ctl_ev_event, drop_count, 44);
SIZE(mrc_ctl_ep_req, 88);
OFF(mrc_ctl_ep_req, req_ev, 44);
OFF(mrc_ctl_ep_req, op, 80);
SIZE(mrc_ctl_ep_rsp, 12);

_Static_assert(MRC_API_CURRENT_VERSION == 0x01000001, "version");
_Static_assert(MRC_CTL_API_CURRENT_VERSION == 0x01000001, "ctl version");
_Static_assert((unsigned int)MRC_QP_VENDOR_CFG == 0x80000000u, "mask");
_Static_assert((unsigned int)MRC_CTL_EV_UNKNOWN == 0x80000000u, "state");

int main(void)
{
	uint32_t cur, last, vcur, vlast;

	mrc_query_version(&cur, &last, &vcur, &vlast);
	if (cur != MRC_API_CURRENT_VERSION ||
	    last != MRC_API_LAST_SUPPORTED_VERSION ||
	    vcur != MRC_VENDOR_API_CURRENT_VERSION) {
		printf("not ok - mrc_query_version: 0x%x 0x%x 0x%x\n", cur, last, vcur);
		return 1;
	}
	mrc_ctl_query_version(&cur, &last, &vcur, &vlast);
	if (cur != MRC_CTL_API_CURRENT_VERSION ||
	    vcur != MRC_CTL_VENDOR_API_CURRENT_VERSION) {
		printf("not ok - mrc_ctl_query_version: 0x%x 0x%x\n", cur, vcur);
		return 1;
	}
	printf("ok - the OCP structures' layout, the API versions\n");
	return 0;
}
