#include "io/writer.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pk_out_init(pk_out *o, FILE *fp)
{
	o->fp = fp;
	o->failed = 0;
	o->records = 0;
}

/* A closed pipe means the reader is done with us (`| head`): leave as SIGPIPE
 * would, silently, even if SIGPIPE was inherited as ignored (git's check_pipe). */
static void check_pipe(int err)
{
	if (err == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		_exit(141);
	}
}

static int note_failure(pk_out *o)
{
	check_pipe(errno);
	o->failed = 1;
	return -1;
}

int pk_out_record_text(pk_out *o, const char *text)
{
	if (!text) {
		o->failed = 1;
		return -1;
	}
	size_t len = strlen(text);
	if (fwrite(text, 1, len, o->fp) != len || putc('\n', o->fp) == EOF)
		return note_failure(o);
	o->records++;
	return 0;
}

int pk_out_json(pk_out *o, const cJSON *v)
{
	char *text = cJSON_PrintUnformatted(v);
	int rc = pk_out_record_text(o, text);
	free(text);
	return rc;
}

int pk_out_stream_end(pk_out *o, const char *producer, const char *k8s_version)
{
	cJSON *end = cJSON_CreateObject();
	cJSON_AddStringToObject(end, "kind", PK_STREAM_END_KIND);
	cJSON_AddStringToObject(end, "producer", producer);
	if (k8s_version)
		cJSON_AddStringToObject(end, "kubernetesVersion", k8s_version);
	cJSON_AddNumberToObject(end, "records", (double)o->records);
	int rc = pk_out_json(o, end);
	cJSON_Delete(end);
	return rc;
}

int pk_out_write(pk_out *o, const char *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, o->fp) != len)
		return note_failure(o);
	return 0;
}

int pk_out_printf(pk_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vfprintf(o->fp, fmt, ap);
	va_end(ap);
	return n < 0 ? note_failure(o) : 0;
}

int pk_out_finish(pk_out *o, pk_diag *d)
{
	if (fflush(o->fp) == EOF)
		note_failure(o);
	if (ferror(o->fp))
		o->failed = 1;
	if (o->failed) {
		pk_diag_report(d, PK_SEV_ERROR, NULL, "write error: %s", strerror(errno ? errno : EIO));
		return PK_EXIT_TROUBLE;
	}
	return PK_EXIT_OK;
}
