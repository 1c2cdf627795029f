// SPDX-License-Identifier: GPL-2.0
/* mrcctl: words and keyword arguments of the command line */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mrcctl.h"

#define DEV_NAME_MAX	63	/* the family's max-len of dev-name */

/* a decimal number without sign, space or trailing garbage, <= @max */
bool parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > max)
		return false;
	*v = n;
	return true;
}

/* a 32-bit number: decimal, or hex after 0x (EV values, masks) */
bool parse_num32(const char *s, uint32_t *v)
{
	unsigned long long n;
	size_t len;

	if (strncasecmp(s, "0x", 2))
		return parse_u32(s, UINT32_MAX, v);
	s += 2;
	len = strlen(s);
	if (!len || len > 8 || strspn(s, "0123456789abcdefABCDEF") != len)
		return false;
	n = strtoull(s, NULL, 16);
	*v = n;
	return true;
}

/*
 * An EV of an exp or gen profile as hex digits, optionally after 0x: 1 to
 * 64, the first the EV's first 4 bits (bit 7 of byte 0 on), the rest
 * zero, as the kernel reads ev-bytes. @b gets the bytes given (*@len).
 */
bool parse_ev_bytes(const char *s, uint8_t *b, size_t *len)
{
	size_t n, i;
	char d[2];

	if (!strncasecmp(s, "0x", 2))
		s += 2;
	n = strlen(s);
	if (!n || n > 2 * EV_BYTES_MAX ||
	    strspn(s, "0123456789abcdefABCDEF") != n)
		return false;
	memset(b, 0, EV_BYTES_MAX);
	for (i = 0; i < n; i++) {
		d[0] = s[i];
		d[1] = '\0';
		b[i / 2] |= strtoul(d, NULL, 16) << (i % 2 ? 0 : 4);
	}
	*len = (n + 1) / 2;
	return true;
}

/* a uSID: 1 to 4 hex digits, optionally after 0x, not 0 */
bool parse_usid(const char *s, uint16_t *v)
{
	size_t len;

	if (!strncasecmp(s, "0x", 2))
		s += 2;
	len = strlen(s);
	if (!len || len > 4 || strspn(s, "0123456789abcdefABCDEF") != len)
		return false;
	*v = strtoul(s, NULL, 16);
	return *v != 0;
}

void parse_addr(const char *s, struct in6_addr *a)
{
	if (inet_pton(AF_INET6, s, a) != 1)
		die_usage("invalid IPv6 address \"%s\"", s);
}

void parse_dev_name(const char *name)
{
	if (strlen(name) > DEV_NAME_MAX)
		die_usage("device name \"%s\" is too long", name);
}

/* a keyword argument's value (struct arg in mrcctl.h) */
static void arg_value(const char *cmd, struct arg *a, const char *val)
{
	a->set = true;
	a->str = val;
	switch (a->type) {
	case ARG_DEV:
		parse_dev_name(val);
		break;
	case ARG_U32:
		if (!parse_u32(val, a->max, &a->u32) || a->u32 < a->min)
			die_usage("%s: invalid %s \"%s\" (%" PRIu32 "..%" PRIu32 ")",
				  cmd, a->key, val, a->min, a->max);
		break;
	case ARG_ADDR:
		parse_addr(val, &a->addr);
		break;
	case ARG_STR:
		break;
	}
}

void parse_args(const char *cmd, struct arg **args, int argc, char **argv)
{
	struct arg **a;

	for (; argc > 0; argc -= 2, argv += 2) {
		for (a = args; *a && strcmp((*a)->key, argv[0]); a++)
			;
		if (!*a)
			die_usage("%s: unknown argument \"%s\"", cmd, argv[0]);
		if ((*a)->set)
			die_usage("%s: \"%s\" given twice", cmd, argv[0]);
		if (argc < 2)
			die_usage("%s: missing value after \"%s\"", cmd, argv[0]);
		arg_value(cmd, *a, argv[1]);
	}
}

void parse_need(const char *cmd, const struct arg *a)
{
	if (!a->set)
		die_usage("%s: missing \"%s\"", cmd, a->key);
}

/* @alias is another name of @a: at most one given; then @a is that one */
void parse_alias(const char *cmd, struct arg *a, const struct arg *alias)
{
	if (a->set && alias->set)
		die_usage("%s: \"%s\" and \"%s\" are the same argument, give one",
			  cmd, a->key, alias->key);
	if (alias->set)
		*a = *alias;
}

/* "[ dev DEV ]" of plane show and stats */
const char *parse_opt_dev(const char *cmd, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg *args[] = { &dev, NULL };

	parse_args(cmd, args, argc, argv);
	return dev.str;
}
