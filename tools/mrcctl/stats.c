// SPDX-License-Identifier: GPL-2.0
/* mrcctl stats: the counters of every plane and path, as two tables */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

/* @t as a JSON array of objects, at @depth */
static void json_array(struct ctx *c, const struct recs *t, int depth)
{
	unsigned int i;

	putchar('[');
	for (i = 0; i < t->n; i++) {
		if (i)
			putchar(',');
		rec_indent(c, depth + 1);
		rec_json(c, &t->r[i], depth + 1);
	}
	if (t->n)
		rec_indent(c, depth);
	putchar(']');
}

struct column {
	const char *key;
	unsigned int width;
	bool num;		/* right-aligned */
};

static void table_cell(const struct column *col, bool first, const char *s)
{
	printf("%s%*s", first ? "" : "  ",
	       col->num ? (int)col->width : -(int)col->width, s);
}

/* a column's width and alignment: those of its widest value */
static void table_column(struct column *col, const struct recs *t)
{
	const struct field *f;
	unsigned int i;

	col->width = strlen(col->key);
	for (i = 0; i < t->n; i++) {
		f = rec_find(&t->r[i], col->key);
		if (f && strlen(rec_field_val(&t->r[i], f)) > col->width)
			col->width = strlen(rec_field_val(&t->r[i], f));
		if (f && f->num)
			col->num = true;
	}
}

/* the fields @keys of @t as a table, under their keys in capitals */
static void table_print(const struct recs *t, const char *const *keys)
{
	struct column cols[REC_FIELDS] = {};
	const struct field *f;
	unsigned int i, j, n;
	char hdr[32];

	for (n = 0; keys[n]; n++) {
		cols[n].key = keys[n];
		table_column(&cols[n], t);
	}
	for (j = 0; j < n; j++) {
		for (i = 0; keys[j][i] && i < sizeof(hdr) - 1; i++)
			hdr[i] = toupper((unsigned char)keys[j][i]);
		hdr[i] = '\0';
		table_cell(&cols[j], !j, hdr);
	}
	putchar('\n');
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < n; j++) {
			f = rec_find(&t->r[i], keys[j]);
			table_cell(&cols[j], !j, f ? rec_field_val(&t->r[i], f) : "-");
		}
		putchar('\n');
	}
}

static const char *const plane_cols[] = {
	"dev", "plane", "netdev", "state", "tx_packets", "tx_bytes",
	"rx_packets", "rx_bytes", "retrans", "losses", NULL
};

static const char *const path_cols[] = {
	"dev", "peer", "plane", "path", "mode", "tx_packets", "tx_bytes", NULL
};

static void stats_print(struct ctx *c, const struct recs *planes,
			const struct recs *paths)
{
	if (!c->json) {
		table_print(planes, plane_cols);
		putchar('\n');
		table_print(paths, path_cols);
		return;
	}
	putchar('{');
	rec_json_key(c, 1, "planes");
	json_array(c, planes, 1);
	putchar(',');
	rec_json_key(c, 1, "paths");
	json_array(c, paths, 1);
	rec_indent(c, 0);
	puts("}");
}

int stats_show(struct ctx *c, int argc, char **argv)
{
	const char *dev = parse_opt_dev("stats", argc, argv);
	struct recs planes = {}, paths = {};
	int ret;

	nl_open(c);
	c->collect = &planes;
	ret = plane_dump(c, dev);
	c->collect = &paths;
	if (!ret)
		ret = path_dump(c, dev, NULL);
	c->collect = NULL;
	if (!ret)
		stats_print(c, &planes, &paths);
	free(planes.r);
	free(paths.r);
	return ret;
}
