/* Diagnostics: one way to say where and what, for every tool.
 *
 * Text form (stderr):  prog: file:line:col: message
 * Tools that report findings as data (pc-validate -o json) build their own
 * records from pk_origin; this module is for operational messages.
 */
#ifndef PK_DIAG_H
#define PK_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit statuses shared by all tools (see EXIT STATUS in the man pages). */
enum {
	PK_EXIT_OK = 0,       /* success / something selected / plan possible */
	PK_EXIT_FINDING = 1,  /* negative finding: invalid manifest, nothing selected, no plan */
	PK_EXIT_TROUBLE = 2,  /* usage, I/O, parse or limit trouble */
};

/* Where a record or a node came from. line and col are 1-based; 0 = unknown.
 * item is the index inside a List's items or a top-level array, -1 if none. */
typedef struct pk_origin {
	const char *file;   /* "-" or "<stdin>" for standard input; not owned */
	long line;
	long col;
	long item;
	long doc;           /* 0-based YAML document / JSON value index in the file */
} pk_origin;

typedef enum { PK_SEV_ERROR, PK_SEV_WARNING, PK_SEV_NOTE } pk_severity;

/* A warning whose cause can repeat (one per pod, say): printed once, counted. */
typedef struct pk_diag_cause {
	char *key;          /* what makes two warnings the same cause */
	char *message;      /* the first occurrence's text, without prog and origin */
	long count;
} pk_diag_cause;

/* Per-run diagnostic context, owned by main. */
typedef struct pk_diag {
	const char *prog;
	FILE *out;          /* normally stderr */
	int quiet_warnings; /* suppress PK_SEV_WARNING text */
	/* The causes (pk_diag_warn_once) are printed with the output, under a
	 * table on the same terminal: not again here. */
	int causes_in_output;
	long errors;
	long warnings;
	pk_diag_cause *causes;
	size_t ncauses, causes_cap;
} pk_diag;

void pk_diag_init(pk_diag *d, const char *prog);

/* prog: file:line:col: [warning: ]message  (origin may be NULL). */
void pk_diag_report(pk_diag *d, pk_severity sev, const pk_origin *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void pk_diag_vreport(pk_diag *d, pk_severity sev, const pk_origin *at, const char *fmt, va_list ap);

/* An assumption or a repeated problem: the first warning with a given cause
 * key is printed in full ("prog: file:line: warning: message"); later ones
 * with the same key are only counted. pk_diag_finish prints the counts.
 * Returns the number of times the cause has now been seen. */
long pk_diag_warn_once(pk_diag *d, const char *key, const pk_origin *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Whether two descriptors are the same terminal (stdout and stderr of a
 * run in a terminal): both ttys, the same device and inode. Each
 * assumption is then said once: under the table, not again on stderr. */
bool pk_diag_same_terminal(int fd_a, int fd_b);
/* "prog: warning: N more: <key>" for each cause seen more than once; frees
 * the causes. Call once, at the end of the run. */
void pk_diag_finish(pk_diag *d);

/* --max-findings: of one input, the first max findings are shown and the
 * others only counted, so that a log piped in by mistake gives a short
 * answer. Keyed by the input's name. */
typedef struct pk_diag_cap {
	long max;                 /* 0: every finding is shown */
	struct pk_strmap *files;  /* name -> counts; NULL until the first finding */
	long left_errors, left_warnings;  /* not shown, all inputs */
} pk_diag_cap;

/* Whether a finding of file with severity sev is shown (true) or only
 * counted (false). */
bool pk_diag_cap_take(pk_diag_cap *c, const char *file, pk_severity sev);
/* One note per input with findings not shown: how many, of which
 * severities, and how to see them. */
void pk_diag_cap_say(const pk_diag_cap *c, pk_diag *d);
void pk_diag_cap_free(pk_diag_cap *c);

/* The smallest number of single-character edits that turn a into b. */
size_t pk_edit_distance(const char *a, const char *b);
/* The candidate nearest to word, or NULL when none is near enough to be a
 * likely typo (for "did you mean ...?"). */
const char *pk_nearest_word(const char *word, const char *const *candidates, size_t n);

/* Format "file:line:col" (omitting unknown parts) into buf. */
const char *pk_origin_format(const pk_origin *at, char *buf, size_t size);

#endif
