// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_guard: proves the VM harness catches kernel reports.
 *
 *   insmod mrc_guard.ko trigger=warn	a WARN()
 *   insmod mrc_guard.ko trigger=oob	a heap out-of-bounds write (KASAN)
 *   insmod mrc_guard.ko trigger=leak	an unreferenced allocation (kmemleak)
 *
 * Never load this outside the test VM.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *trigger = "";
module_param(trigger, charp, 0444);
MODULE_PARM_DESC(trigger, "warn, oob or leak");

static noinline void guard_oob(void)
{
	size_t len = 16;
	char *p = kmalloc(len, GFP_KERNEL);

	if (!p)
		return;
	OPTIMIZER_HIDE_VAR(len);
	p[len] = 'x';		/* one past the end */
	kfree(p);
}

static noinline void guard_leak(void)
{
	unsigned int i;
	char *p;

	/* Several objects: a stale copy of the last pointer may survive in a
	 * (cached) stack that kmemleak scans, the earlier ones cannot.
	 */
	for (i = 0; i < 8; i++) {
		p = kmalloc(64 + 8 * i, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(p);
		if (p)
			memset(p, 0x5a, 64 + 8 * i);
	}
}

static int __init guard_init(void)
{
	if (!strcmp(trigger, "warn"))
		WARN(1, "mrc_guard: deliberate warning\n");
	else if (!strcmp(trigger, "oob"))
		guard_oob();
	else if (!strcmp(trigger, "leak"))
		guard_leak();
	else
		return -EINVAL;
	pr_info("mrc_guard: triggered %s\n", trigger);
	return 0;
}

static void __exit guard_exit(void)
{
}

module_init(guard_init);
module_exit(guard_exit);
MODULE_DESCRIPTION("mrc test harness guard: deliberate kernel reports");
MODULE_LICENSE("GPL");
