#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/strtab.h"

_Static_assert((int)PK_EXIT_TROUBLE == (int)PK_EXIT_OUT_OF_MEMORY, "out of memory is trouble (README, Exit status)");

void pk_diag_init(pk_diag *d, const char *prog)
{
	d->prog = prog;
	d->out = stderr;
	d->quiet_warnings = 0;
	d->errors = 0;
	d->warnings = 0;
	d->causes = NULL;
	d->ncauses = d->causes_cap = 0;
}

const char *pk_origin_format(const pk_origin *at, char *buf, size_t size)
{
	if (!at || !at->file) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	if (at->line > 0 && at->col > 0)
		snprintf(buf, size, "%s:%ld:%ld", at->file, at->line, at->col);
	else if (at->line > 0)
		snprintf(buf, size, "%s:%ld", at->file, at->line);
	else
		snprintf(buf, size, "%s", at->file);
	return buf;
}

void pk_diag_vreport(pk_diag *d, pk_severity sev, const pk_origin *at, const char *fmt, va_list ap)
{
	char where[4096];

	if (sev == PK_SEV_ERROR)
		d->errors++;
	else if (sev == PK_SEV_WARNING)
		d->warnings++;
	if (sev == PK_SEV_WARNING && d->quiet_warnings)
		return;
	pk_origin_format(at, where, sizeof where);
	fprintf(d->out, "%s: ", d->prog);
	if (where[0])
		fprintf(d->out, "%s: ", where);
	if (sev == PK_SEV_WARNING)
		fputs("warning: ", d->out);
	else if (sev == PK_SEV_NOTE)
		fputs("note: ", d->out);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
}

void pk_diag_report(pk_diag *d, pk_severity sev, const pk_origin *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pk_diag_vreport(d, sev, at, fmt, ap);
	va_end(ap);
}

static pk_diag_cause *find_cause(pk_diag *d, const char *key)
{
	for (size_t i = 0; i < d->ncauses; i++)
		if (strcmp(d->causes[i].key, key) == 0)
			return &d->causes[i];
	return NULL;
}

long pk_diag_warn_once(pk_diag *d, const char *key, const pk_origin *at, const char *fmt, ...)
{
	pk_diag_cause *c = find_cause(d, key);
	if (c) {
		d->warnings++;
		return ++c->count;
	}
	d->causes = pk_grow(d->causes, &d->causes_cap, d->ncauses + 1, sizeof *d->causes);
	char message[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	d->causes[d->ncauses++] = (pk_diag_cause){ pk_xstrdup(key), pk_xstrdup(message), 1 };
	if (d->causes_in_output)
		d->warnings++;
	else
		pk_diag_report(d, PK_SEV_WARNING, at, "%s", message);
	return 1;
}

bool pk_diag_same_terminal(int fd_a, int fd_b)
{
	struct stat a, b;
	return isatty(fd_a) && isatty(fd_b) && fstat(fd_a, &a) == 0 && fstat(fd_b, &b) == 0 && a.st_rdev == b.st_rdev &&
	       a.st_ino == b.st_ino;
}

void pk_diag_finish(pk_diag *d)
{
	for (size_t i = 0; i < d->ncauses; i++) {
		pk_diag_cause *c = &d->causes[i];
		if (c->count > 1 && !d->quiet_warnings && !d->causes_in_output)
			fprintf(d->out, "%s: warning: %ld more: %s\n", d->prog, c->count - 1, c->key);
		free(c->key);
		free(c->message);
	}
	free(d->causes);
	d->causes = NULL;
	d->ncauses = d->causes_cap = 0;
}

size_t pk_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = pk_xmalloc((lb + 1) * sizeof *row);
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

const char *pk_nearest_word(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t d = pk_edit_distance(word, candidates[i]);
		if (d < best_d)
			best = candidates[i], best_d = d;
	}
	/* a typo, not another word: at most a third of the word's letters */
	size_t limit = strlen(word) / 3 + 1;
	return best && best_d <= limit ? best : NULL;
}

/* ---- --max-findings ---- */

typedef struct cap_count {
	long shown, errors, warnings, notes;  /* the last three: not shown */
} cap_count;

bool pk_diag_cap_take(pk_diag_cap *c, const char *file, pk_severity sev)
{
	if (c->max <= 0)
		return true;
	if (!c->files) {
		c->files = pk_xcalloc(1, sizeof *c->files);
		pk_strmap_init(c->files);
	}
	const char *key = file ? file : "-";
	cap_count *n = pk_strmap_get(c->files, key);
	if (!n) {
		n = pk_xcalloc(1, sizeof *n);
		pk_strmap_put(c->files, key, n);
	}
	if (n->shown < c->max) {
		n->shown++;
		return true;
	}
	if (sev == PK_SEV_ERROR)
		n->errors++, c->left_errors++;
	else if (sev == PK_SEV_WARNING)
		n->warnings++, c->left_warnings++;
	else
		n->notes++;
	return false;
}

void pk_diag_cap_say(const pk_diag_cap *c, pk_diag *d)
{
	if (!c->files || !c->files->keys)
		return;
	/* ids are dense, in the order the inputs first had a finding */
	for (uint32_t id = 0; id < pk_strtab_count(c->files->keys); id++) {
		const char *file = pk_strtab_str(c->files->keys, id);
		const cap_count *n = pk_strmap_get(c->files, file);
		long left = n ? n->errors + n->warnings + n->notes : 0;
		if (!left)
			continue;
		pk_origin at = {.file = file};
		pk_diag_report(d, PK_SEV_NOTE, &at,
		               "%ld more finding%s of this input not shown (%ld error%s, %ld warning%s): --max-findings %ld "
		               "shows the first %ld of each input, 0 shows all",
		               left, left == 1 ? "" : "s", n->errors, n->errors == 1 ? "" : "s", n->warnings,
		               n->warnings == 1 ? "" : "s", c->max, c->max);
	}
}

void pk_diag_cap_free(pk_diag_cap *c)
{
	if (c->files) {
		pk_strmap_free(c->files, free);
		free(c->files);
	}
	c->files = NULL;
}
