/* A record built field by field, in the order its contract gives, into
 * one of two targets: a cJSON tree (to nest in a larger record), or compact
 * text straight away, byte for byte what cJSON_PrintUnformatted prints for
 * that tree (test_emit checks it) but without the tree's allocations. The
 * same function describes a record for both, so a record has one encoder;
 * text serves those printed by the tens of thousands (a 65,000-node
 * cluster's Candidate records).
 *
 *   pk_emit e;
 *   pk_emit_text(&e);                  or pk_emit_tree(&e)
 *   pk_emit_object(&e, NULL);
 *   pk_emit_string(&e, "node", name);  key NULL inside an array
 *   pk_emit_end(&e);
 *   char *text = pk_emit_text_done(&e);  or cJSON *o = pk_emit_tree_done(&e)
 *
 * As with cJSON_Add*ToObject, a NULL string adds nothing. Out of memory
 * aborts, as elsewhere in the tools. */
#ifndef PK_IO_EMIT_H
#define PK_IO_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

enum { PK_EMIT_DEPTH = 16 };

typedef struct pk_emit {
	bool text;
	int depth;
	/* text */
	char *buf;
	size_t len, cap;
	bool comma;                     /* the next value follows another */
	char close[PK_EMIT_DEPTH];      /* '}' or ']' for each container open */
	/* tree */
	cJSON *root;
	cJSON *open[PK_EMIT_DEPTH];     /* the containers begun and not ended */
} pk_emit;

void pk_emit_text(pk_emit *e);
void pk_emit_tree(pk_emit *e);

void pk_emit_object(pk_emit *e, const char *key);
void pk_emit_array(pk_emit *e, const char *key);
void pk_emit_end(pk_emit *e);

void pk_emit_string(pk_emit *e, const char *key, const char *s);
/* A string of n bytes (s need not end there). */
void pk_emit_string_n(pk_emit *e, const char *key, const char *s, size_t n);
void pk_emit_number(pk_emit *e, const char *key, double v);
void pk_emit_bool(pk_emit *e, const char *key, bool b);
void pk_emit_null(pk_emit *e, const char *key);
/* A value held as a cJSON tree (a decoded record's member): a tree gets a
 * copy, text what cJSON_PrintUnformatted prints for it. NULL adds nothing. */
void pk_emit_item(pk_emit *e, const char *key, const cJSON *item);

/* The text (malloc'd, NUL-terminated; e is spent). */
char *pk_emit_text_done(pk_emit *e);
/* The tree (the caller's; e is spent). */
cJSON *pk_emit_tree_done(pk_emit *e);

#endif
