// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_kunit: the KUnit suites of mrc. Loading the module runs them; results
 * are in dmesg and /sys/kernel/debug/kunit/<suite>/results (KTAP).
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for mrc");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
