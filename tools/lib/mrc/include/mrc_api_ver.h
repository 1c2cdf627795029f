/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * libmrc: versions of the OCP MRC application API (mrc.h) and of its vendor
 * extension. A version is MAJOR.MINOR.SUBMINOR packed as 8.8.16 bits.
 *
 * A program may define MRC_API_VER_USED (and MRC_VENDOR_API_VER_USED)
 * before including mrc.h to build against an older interface; left
 * undefined, or set to MRC_API_VER_LATEST, it gets the current one.
 */
#ifndef LIBMRC_MRC_API_VER_H
#define LIBMRC_MRC_API_VER_H

#define MRC_API_VER_MAJOR_OFFSET	24
#define MRC_API_VER_MINOR_OFFSET	16
#define MRC_API_VER_SUBMINOR_OFFSET	0

#define MRC_API_VER(major, minor, subminor)			\
	(((major) << MRC_API_VER_MAJOR_OFFSET) |		\
	 ((minor) << MRC_API_VER_MINOR_OFFSET) |		\
	 ((subminor) << MRC_API_VER_SUBMINOR_OFFSET))

#define MRC_API_VER_LATEST		MRC_API_VER(0xFF, 0xFF, 0xFFFF)

#define MRC_API_CURRENT_VERSION		MRC_API_VER(1, 0, 1)
#define MRC_API_LAST_SUPPORTED_VERSION	MRC_API_VER(0, 0, 0)

#if !defined(MRC_API_VER_USED)
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#elif MRC_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#endif

#if MRC_API_VER_USED > MRC_API_CURRENT_VERSION
#error "MRC_API_VER_USED: newer than this library's MRC_API_CURRENT_VERSION"
#elif MRC_API_VER_USED < MRC_API_LAST_SUPPORTED_VERSION
#error "MRC_API_VER_USED: older than MRC_API_LAST_SUPPORTED_VERSION"
#elif MRC_API_VER_USED == MRC_API_LAST_SUPPORTED_VERSION
#warning "MRC_API_VER_USED is the oldest version supported, which may be dropped"
#endif

#define MRC_VENDOR_API_CURRENT_VERSION		MRC_API_VER(1, 0, 0)
#define MRC_VENDOR_API_LAST_SUPPORTED_VERSION	MRC_API_VER(0, 0, 0)

#if !defined(MRC_VENDOR_API_VER_USED)
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#elif MRC_VENDOR_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_VENDOR_API_VER_USED > MRC_VENDOR_API_CURRENT_VERSION
#error "MRC_VENDOR_API_VER_USED: newer than MRC_VENDOR_API_CURRENT_VERSION"
#elif MRC_VENDOR_API_VER_USED < MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_VENDOR_API_VER_USED: older than MRC_VENDOR_API_LAST_SUPPORTED_VERSION"
#elif MRC_VENDOR_API_VER_USED == MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_VENDOR_API_VER_USED is the oldest version supported, which may be dropped"
#endif

#endif /* LIBMRC_MRC_API_VER_H */
