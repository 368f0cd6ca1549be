/* NDJSON output: one compact JSON value per line, keys in insertion order
 * (build records with cJSON in the order the contract documents).
 * Write errors are remembered; pk_out_finish() reports them once.
 * EPIPE ends the program quietly, as SIGPIPE would (git's check_pipe). */
#ifndef PK_WRITER_H
#define PK_WRITER_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "../diag.h"

typedef struct pk_out {
	FILE *fp;
	int failed;          /* a write failed (not EPIPE) */
	long records;        /* records written */
} pk_out;

void pk_out_init(pk_out *o, FILE *fp);
/* Write v compactly followed by '\n'. Returns 0 or -1 on write error. */
int pk_out_json(pk_out *o, const cJSON *v);
/* The same for a record already printed compactly (text, no newline). */
int pk_out_record_text(pk_out *o, const char *text);
/* Bytes as they are (the HTML writer escapes before it calls this). */
int pk_out_write(pk_out *o, const char *buf, size_t len);
/* Plain text output for tables (printf-like). */
int pk_out_printf(pk_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The record that closes a complete NDJSON answer, written last by a stage
 * whose records another stage reads (victims, preempt-plan, apiq-sim):
 *   {"kind":"StreamEnd","producer":"victims","kubernetesVersion":"1.37","records":12}
 * records: how many records this output held before it. A stage whose
 * input was cut, or that failed, writes no StreamEnd, so that the stage
 * after it knows the answer is not whole (pk_reader_opts.stream_end_of)
 * even when the shell does not (a pipeline without `set -o pipefail`).
 * Not for tables or pages: only NDJSON is read by another stage. */
#define PK_STREAM_END_KIND "StreamEnd"
int pk_out_stream_end(pk_out *o, const char *producer, const char *k8s_version);
/* Flush and close-check; reports "write error: ..." through d. Returns
 * PK_EXIT_OK or PK_EXIT_TROUBLE. */
int pk_out_finish(pk_out *o, pk_diag *d);

#endif
