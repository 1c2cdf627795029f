// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl -batch FILE and apply FILE: the commands of a file, one a line,
 * as iproute2's -batch reads them. Each line runs as that command would
 * from the command line, in a child process: mrcctl's commands exit on a
 * usage or a kernel error, and a child's exit leaves the batch free to
 * report it and stop, or go on (-force). Every message of a line's command
 * starts with "FILE:LINE: ".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mrcctl.h"

#define BATCH_WORDS_MAX	256	/* the words of a line */
#define BATCH_WHERE_MAX	4352	/* "FILE:LINE: " */

struct batch_line {
	unsigned int no;	/* its line number */
	char *buf;		/* the line, which argv's words point into */
	int argc;
	char **argv;
};

struct batch {
	const char *name;	/* the file as messages name it */
	struct batch_line *l;
	unsigned int n;
};

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/*
 * split @s in place into words: blanks separate them, "..." and '...'
 * quote, and a word starting with '#' starts a comment. The number of
 * words, or -1 with @why.
 */
static int split(char *s, char **w, const char **why)
{
	char *d, end, q;
	int n = 0;

	for (;;) {
		while (blank(*s))
			s++;
		if (!*s || *s == '#')
			return n;
		if (n == BATCH_WORDS_MAX) {
			*why = "too many words";
			return -1;
		}
		w[n++] = d = s;
		while (*s && !blank(*s)) {
			if (*s != '"' && *s != '\'') {
				*d++ = *s++;
				continue;
			}
			q = *s++;
			while (*s && *s != q)
				*d++ = *s++;
			if (!*s) {
				*why = "unterminated quote";
				return -1;
			}
			s++;
		}
		end = *s;
		*d = '\0';	/* may be where end was */
		if (end)
			s++;
	}
}

/*
 * read @file ("-": stdin) whole and split its lines before any runs: a
 * line that does not split stops the batch before it changes anything,
 * and no child shares a stream being read (exiting, a child moves a
 * stream's file offset). 0, or 2 after the errors.
 */
static int batch_read(struct batch *b, const char *file)
{
	FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *w[BATCH_WORDS_MAX];
	const char *why;
	unsigned int no = 0;
	size_t size = 0;
	int n, ret = 0;

	b->name = strcmp(file, "-") ? file : "stdin";
	if (!in) {
		pr_err("%s: %s\n", file, strerror(errno));
		return 2;
	}
	while (getline(&line, &size, in) >= 0) {
		no++;
		n = split(line, w, &why);
		if (n < 0) {
			pr_err("%s:%u: %s\n", b->name, no, why);
			ret = 2;
		}
		if (n <= 0)
			continue;
		b->l = xrealloc(b->l, (b->n + 1) * sizeof(*b->l));
		b->l[b->n].no = no;
		b->l[b->n].buf = line;
		b->l[b->n].argc = n;
		b->l[b->n].argv = xrealloc(NULL, (n + 1) * sizeof(char *));
		memcpy(b->l[b->n].argv, w, n * sizeof(char *));
		b->l[b->n].argv[n] = NULL;
		b->n++;
		line = NULL;	/* kept: its words point into it */
		size = 0;
	}
	if (ferror(in)) {
		pr_err("%s: %s\n", b->name, strerror(errno));
		ret = 2;
	}
	free(line);
	if (in != stdin)
		fclose(in);
	return ret;
}

/* the profile a profile line names, and whether it brings it online */
struct profile_line {
	const char *obj, *kind;	/* cc profile, ev fmt or ev profile */
	const char *dev;
	unsigned long long id;
	bool online;
};

/*
 * @l a profile line ("cc profile set", "ev fmt set", "ev profile set")?
 * Its words are pairs, but for ev profile's "replace OLD NEW [ denied ]
 * [ all ]"; a line that does not parse is its command's to refuse.
 */
static bool profile_line(const struct batch_line *l, struct profile_line *p)
{
	char **w = l->argv;
	int i;

	if (l->argc < 3 || strcmp(w[2], "set"))
		return false;
	if (!(!strcmp(w[0], "cc") && !strcmp(w[1], "profile")) &&
	    !(!strcmp(w[0], "ev") && (!strcmp(w[1], "profile") ||
				      !strcmp(w[1], "fmt"))))
		return false;
	memset(p, 0, sizeof(*p));
	p->obj = w[0];
	p->kind = w[1];
	for (i = 3; i + 1 < l->argc;) {
		if (!strcmp(w[i], "replace")) {
			for (i += 3; i < l->argc && (!strcmp(w[i], "denied") ||
						     !strcmp(w[i], "all"));)
				i++;
			continue;
		}
		if (!strcmp(w[i], "dev"))
			p->dev = w[i + 1];
		else if (!strcmp(w[i], "id"))
			p->id = strtoull(w[i + 1], NULL, 0);
		else if (!strcmp(w[i], "state"))
			p->online = !strcmp(w[i + 1], "online");
		i += 2;
	}
	return p->dev && p->id;
}

/* does a line after line @i bring the profile line @i names online? */
static bool online_later(const struct batch *b, unsigned int i)
{
	struct profile_line p, q;
	unsigned int j;

	if (!profile_line(&b->l[i], &p))
		return false;
	for (j = i + 1; j < b->n; j++)
		if (profile_line(&b->l[j], &q) && q.online &&
		    !strcmp(p.obj, q.obj) && !strcmp(p.kind, q.kind) &&
		    !strcmp(p.dev, q.dev) && p.id == q.id)
			return true;
	return false;
}

/* one line's command in a child: its exit status */
static int batch_one(struct ctx *c, const struct batch *b,
		     const struct batch_line *l)
{
	static char where[BATCH_WHERE_MAX];
	pid_t pid;
	int st;

	if (l->argv[0][0] == '-') {
		pr_err("%s:%u: \"%s\": options go on mrcctl's command line\n",
		       b->name, l->no, l->argv[0]);
		return 2;
	}
	if (!strcmp(l->argv[0], "apply")) {
		pr_err("%s:%u: apply runs a file of its own, not in a batch\n",
		       b->name, l->no);
		return 2;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		pr_err("%s:%u: fork: %s\n", b->name, l->no, strerror(errno));
		return 1;
	}
	if (!pid) {
		snprintf(where, sizeof(where), "%s:%u: ", b->name, l->no);
		err_where = where;
		c->online_later = c->apply && online_later(b, l - b->l);
		st = mrcctl_run(c, l->argc, l->argv);
		mrcnl_close(&c->nl);
		exit(st);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			pr_err("%s:%u: waitpid: %s\n", b->name, l->no,
			       strerror(errno));
			return 1;
		}
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	pr_err("%s:%u: killed by signal %d\n", b->name, l->no, WTERMSIG(st));
	return 1;
}

/* the lines of @file in order: 0, or the exit status of the first failed */
static int batch_file(struct ctx *c, const char *file)
{
	struct batch b = {};
	unsigned int i, failed = 0;
	int ret, first = 0;

	ret = batch_read(&b, file);
	for (i = 0; !ret && i < b.n; i++) {
		ret = batch_one(c, &b, &b.l[i]);
		if (!ret)
			continue;
		failed++;
		first = first ? first : ret;
		if (!c->force && i + 1 < b.n)
			pr_err("%s: stopped at line %u; -force runs every line\n",
			       b.name, b.l[i].no);
		if (c->force)
			ret = 0;
	}
	if (failed && c->force)
		pr_err("%s: %u of %u commands failed\n", b.name, failed, b.n);
	for (i = 0; i < b.n; i++) {
		free(b.l[i].buf);
		free(b.l[i].argv);
	}
	free(b.l);
	return first ? first : ret;
}

int batch_run(struct ctx *c, const char *file)
{
	return batch_file(c, file);
}

/* apply FILE */
int apply_run(struct ctx *c, int argc, char **argv)
{
	if (!argc)
		die_usage("apply: missing FILE");
	if (argc > 1)
		die_usage("apply: unexpected argument \"%s\"", argv[1]);
	c->apply = true;
	return batch_file(c, argv[0]);
}
