/* Reader internals shared by the JSON stream scanner, the YAML converter and
 * the record post-processing. Not for tools. */
#ifndef PK_IO_INTERNAL_H
#define PK_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "io/reader.h"

/* ---- node positions ---------------------------------------------------- */
typedef struct pk_pos { const cJSON *node; long line, col; } pk_pos;
struct pk_posmap {
	pk_pos *slots;       /* open addressing on the node pointer */
	size_t cap, count;
};
pk_posmap *pk_posmap_new(void);
void pk_posmap_put(pk_posmap *m, const cJSON *node, long line, long col);
bool pk_posmap_get(const pk_posmap *m, const cJSON *node, long *line, long *col);
void pk_posmap_free(pk_posmap *m);

/* Walk JSON text and its parsed tree in lockstep (cJSON keeps member order)
 * to record where every node starts. text must be the text obj came from. */
void pk_posmap_from_json_text(pk_posmap *m, const cJSON *obj, const char *text, size_t len,
                              long line0, long col0);

/* ---- delivery ------------------------------------------------------------ */
/* Everything a producer (JSON or YAML path) needs to hand records out. */
typedef struct pk_sink {
	const pk_reader_opts *opts;
	pk_limits lim;            /* opts->limits with defaults applied */
	pk_record_fn fn;
	void *ctx;
	const char *file;         /* display name of the current input */
	long records;             /* objects delivered so far (all inputs) */
	long opened;              /* operands that could be opened (all inputs) */
	int stop;                 /* callback's non-zero value */
	/* Where delivered trees go after the callback: NULL = cJSON_Delete.
	 * The JSON path hands them back to the thread that built them, which
	 * frees them in its own malloc arena. */
	void (*dispose)(void *ctx, cJSON *obj);
	void *dispose_ctx;
	char list_kind[128];      /* item kind implied by a typed List ("Node" for a NodeList) */
	char list_api[128];
	int top_sequence;         /* the items being streamed are a top-level array/sequence's */
	const char *text;         /* JSON: the text of the object being delivered */
	size_t text_len;
	/* The current input (file or stdin), for opts->stream_end_of: */
	long input_records;       /* objects delivered from it */
	long input_errors;        /* PK_REC_ERRORs delivered for it */
	int input_closed;         /* the last object read was a StreamEnd */
	int input_empty;          /* it held no document at all */
} pk_sink;

/* A List is about to stream its items; env holds the members seen before
 * "items" (NULL: the elements of a top-level array or YAML sequence). API servers omit kind/apiVersion on the items of typed lists
 * (NodeList, PodList): they are filled in from the List. */
void pk_sink_begin_list(pk_sink *s, const cJSON *env);

/* What the per-object checks found (duplicate keys, numbers beyond exact
 * range): a list, built where the object was parsed (a worker thread for
 * large JSON inputs) and delivered in order with it. */
typedef struct pk_finding {
	pk_err_type et;
	long line, col;
	char field[1024];
	char message[300];
	struct pk_finding *next;
} pk_finding;
#define PK_NOT_CHECKED ((pk_finding *)-1)

pk_finding *pk_check_object(const pk_reader_opts *opts, const cJSON *obj, const pk_posmap *pos, long line,
                            long col);

/* Deliver a parsed value: checks (non-object top level, duplicate keys,
 * numbers beyond exact range), then the callback. Takes ownership of obj and
 * pos. Returns non-zero when reading must stop. */
int pk_sink_object(pk_sink *s, cJSON *obj, pk_posmap *pos, long line, long col, long item, long doc,
                   int in_list);
/* The same for an object already checked: found is pk_check_object's list
 * (owned; may be NULL), or PK_NOT_CHECKED. */
int pk_sink_checked_object(pk_sink *s, cJSON *obj, pk_posmap *pos, long line, long col, long item, long doc,
                           int in_list, pk_finding *found);
/* Deliver a problem. */
int pk_sink_error(pk_sink *s, pk_rec_type type, pk_err_type et, long line, long col, long item,
                  long doc, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 9, 10)));

/* ---- producers --------------------------------------------------------- */
/* fd is read to its end. prefix holds bytes already read for sniffing. */
int pk_json_stream(pk_sink *s, int fd, const char *prefix, size_t nprefix);
int pk_yaml_stream(pk_sink *s, int fd, const char *prefix, size_t nprefix);

/* Copy the object text src to dst (at least len bytes) without the members
 * named in drop ("metadata.managedFields": a member of a member of the
 * object); returns the new length. src must be bracket-balanced. */
#define PK_PRUNE_MAX 96
typedef struct pk_prune_set {
	const char *pat[PK_PRUNE_MAX];
	int depth[PK_PRUNE_MAX];
	const char *last[PK_PRUNE_MAX]; /* the member name the pattern ends with */
	size_t last_len[PK_PRUNE_MAX];
	int n;
	/* The patterns are ordered by depth, then by the length of the name
	 * they end with: those that can match a member of depth d whose name
	 * is k bytes long (names of 63 bytes or more share k = 63) are
	 * first[d][k] .. first[d][k] + count[d][k] - 1. Most members have no
	 * pattern to compare with at all. */
	unsigned char first[8][64], count[8][64];
} pk_prune_set;
void pk_prune_compile(const char *const *drop, pk_prune_set *set);
size_t pk_prune_members(const char *src, size_t len, char *dst, const pk_prune_set *drop);

/* UTF-8 validation; returns the offset of the first bad byte or len. */
size_t pk_utf8_check(const unsigned char *p, size_t len);

#endif
