/* The one input reader of preemptkit.
 *
 * Reads files named as operands ("-" = stdin; directories are recursed for
 * *.yaml, *.yml, *.json in sorted order) and hands every Kubernetes object to
 * a callback, one at a time, in input order:
 *   - JSON: one object; a List (any object with an "items" array: the items are
 *     streamed one by one, the List is never held whole); a top-level array
 *     (elements streamed); concatenated values / NDJSON; RFC 7464 json-seq.
 *   - YAML: multi-document, via libyaml events, typed as kubectl types it
 *     (YAML 1.1 as go-yaml v2 resolves it). A List document's items are
 *     streamed too.
 * An input that starts with gzip's magic bytes (1f 8b), a file or stdin, is
 * inflated on the fly (concatenated members too) and read as its text.
 * Format is sniffed per input: first significant byte '{', '[' or 0x1E means
 * JSON, anything else YAML (so JSON preceded by '#' comments goes through the
 * YAML path, as kubectl does).
 *
 * Problems are handed to the same callback as records of type PK_REC_ERROR,
 * so a validator can count them as findings and a planner as trouble.
 * An input that is not text (a NUL or another control byte, or bytes that
 * are not UTF-8, in its first block) is refused at once with one error; a
 * gzip stream is checked to its end (CRC-32 and length of every member).
 */
#ifndef PK_READER_H
#define PK_READER_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "../diag.h"

/* Bounds on hostile input. Zero fields take the defaults below. */
typedef struct pk_limits {
	size_t max_record_bytes;  /* one object's text; default 256 MiB */
	int max_depth;            /* nesting; default 1000 (cJSON's own limit) */
	long max_alias_expansions;/* YAML nodes produced through aliases; default 1,000,000 */
	long max_records;         /* objects per run; default 0 = unlimited */
} pk_limits;

#define PK_DEFAULT_MAX_RECORD_BYTES ((size_t)256 << 20)
#define PK_DEFAULT_MAX_DEPTH 1000
#define PK_DEFAULT_MAX_ALIAS_EXPANSIONS 1000000L

typedef enum {
	PK_REC_OBJECT,   /* obj is a parsed JSON value (usually an object) */
	PK_REC_ERROR,    /* the input could not be read here; see error/err_type */
	PK_REC_WARNING,  /* something worth saying that did not stop reading (e.g. duplicate key) */
} pk_rec_type;

/* Pseudo-types of decode problems, named like pc-validate's `type` values. */
typedef enum {
	PK_ERR_NONE,
	PK_ERR_PARSE,          /* ParseError: syntax, truncation, invalid UTF-8, limits */
	PK_ERR_IO,             /* cannot open/read: always trouble, never a finding */
	PK_ERR_DUPLICATE_FIELD,/* DuplicateField: a key repeated in one mapping */
	PK_ERR_TYPE,           /* TypeError: e.g. non-string map key, number beyond exact range */
	PK_ERR_LIMIT,          /* a pk_limits bound was hit (reported as ParseError) */
} pk_err_type;

typedef struct pk_posmap pk_posmap;  /* node -> source position (YAML inputs) */

typedef struct pk_record {
	pk_rec_type type;
	cJSON *obj;              /* PK_REC_OBJECT: owned by the reader; set to NULL to take it.
	                            PK_REC_ERROR: the value of a document that is not
	                            a mapping, else NULL */
	pk_origin origin;        /* where the object (or the problem) starts */
	const pk_posmap *pos;    /* per-node positions, or NULL (JSON inputs: record only) */
	pk_err_type err_type;    /* PK_REC_ERROR / PK_REC_WARNING */
	const char *message;     /* PK_REC_ERROR / PK_REC_WARNING text */
	const char *field;       /* dotted path of the offending key (duplicates), or NULL */
	int in_list;             /* 1 if the object was an item of a List / array */
	int in_sequence;         /* 1 if it was an element of a top-level array or
	                            YAML sequence, not of a List's items (kubectl
	                            rejects such documents; a pipeline reads them) */
	const char *text;        /* JSON inputs: the object's source text from
	                            origin on, valid during the callback (else NULL);
	                            see pk_json_locate */
	size_t text_len;
} pk_record;

/* Called after each input (file or stdin) has been read, also one that held
 * no document, with the callback's ctx: for tools that account for files. */
typedef void (*pk_file_fn)(void *ctx, const char *file);

/* Called instead of reading a file that is not Kubernetes objects (see
 * io/nonobject.h), with why as a short phrase. */
typedef void (*pk_skip_fn)(void *ctx, const char *file, const char *why);

/* Return 0 to go on, non-zero to stop reading (pk_read_paths returns it). */
typedef int (*pk_record_fn)(void *ctx, pk_record *rec);

typedef struct pk_reader_opts {
	pk_limits limits;
	int threads;            /* parse workers for large JSON inputs; 0 = automatic */
	int report_duplicates;  /* emit PK_REC_WARNING for duplicate keys (JSON + YAML) */
	int node_positions;     /* also record per-node positions for JSON inputs
	                           (YAML always has them); costs a second pass
	                           over each object's text: for validators */
	const char *progress;     /* when set (the program name), large JSON inputs
	                           report "N MB, M objects" on stderr about once
	                           a second, on one line that is cleared at the
	                           end; the CLI sets it when stderr is a terminal */
	const char *const *prune; /* NULL-terminated "parent.member" names (e.g.
	                           "metadata.managedFields") left out of JSON
	                           objects before they are built: a tool that
	                           never reads them parses much less. Ignored
	                           with node_positions. */
	int scan_bytewise;        /* find item boundaries a byte at a time only,
	                           without the 64-byte fast lane: for tests that
	                           compare the two */
	pk_file_fn file_done;     /* optional; see pk_file_fn */
	void (*list_begun)(void *ctx, const char *item_kind);
	                          /* optional: called with the callback's ctx
	                           when a typed List ("VolumeAttachmentList")
	                           begins, before its items, also an empty one:
	                           for a tool to which a kind read but empty
	                           differs from a kind not read */
	pk_skip_fn skip_file;     /* optional: when set, a file recognised by its
	                           name or first bytes as not Kubernetes objects
	                           (io/nonobject.h: a Helm template, a
	                           kustomization, CI configuration, ...) is not
	                           parsed; this is called instead */
	const char *stream_end_of;/* for a stage that reads another stage's
	                           records: the name of that stage ("victims").
	                           Each input must then end with its StreamEnd
	                           record (io/writer.h), which is taken here and
	                           not delivered; an input that ends without it
	                           (the stage before was cut, killed or failed)
	                           or that holds nothing at all (it wrote
	                           nothing) is a PK_REC_ERROR of type PK_ERR_IO
	                           after its records. NULL: no such check. */
} pk_reader_opts;

/* Read every path (NULL/0 paths = stdin). Returns 0 when all inputs were read
 * (possibly with PK_REC_ERROR records delivered), the callback's non-zero
 * value if it stopped, or -1 if nothing could be read at all (already
 * delivered as PK_REC_ERROR with PK_ERR_IO). */
int pk_read_paths(const pk_reader_opts *opts, char *const *paths, size_t npaths,
                  pk_record_fn fn, void *ctx);

/* A name a directory walk takes: *.yaml, *.yml or *.json. */
int pk_manifest_name(const char *name);

/* Read len bytes of text as if they were the file named name (records
 * carry name as their file): for inputs that do not come from the file
 * system, such as a git blob. */
int pk_read_named_buffer(const pk_reader_opts *opts, const char *buf, size_t len, const char *name,
                         pk_record_fn fn, void *ctx);

/* Position of a node of rec->obj (YAML inputs), else the record's origin. */
pk_origin pk_record_node_origin(const pk_record *rec, const cJSON *node);

/* Position for a field path like "spec.podGroups[0].policy.gang.minCount":
 * the deepest node along the path that has a known position. For JSON
 * inputs without node positions the object's text is scanned for the path
 * (pk_json_locate): call it where a finding is reported, not per object. */
pk_origin pk_record_path_origin(const pk_record *rec, const char *path);

/* Where the member at path (as above) of a JSON object starts, found by
 * scanning text, not by parsing it. text[0] stands at line:col; the object
 * starts at at->line:at->col (at or after text[0]), and at is moved to the
 * value of the deepest member found along the path (unchanged if none).
 * Returns the offset of the object's start in text, so that a caller
 * locating several objects of one file in order can go on from there. */
size_t pk_json_locate(const char *text, size_t len, long line, long col, const char *path, pk_origin *at);

/* Parse one JSON text (no streaming); for tests and small side inputs.
 * On failure returns NULL and describes the problem in err (may be NULL). */
cJSON *pk_parse_json_text(const char *text, size_t len, char *err, size_t errsize);

/* Convert YAML text (one document) into JSON; for tests and fuzzers. */
cJSON *pk_parse_yaml_text(const char *text, size_t len, char *err, size_t errsize);

#endif
