#include "diag.h"

#include <stdio.h>

void pk_diag_init(pk_diag *d, const char *prog)
{
	d->prog = prog;
	d->out = stderr;
	d->quiet_warnings = 0;
	d->errors = 0;
	d->warnings = 0;
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
