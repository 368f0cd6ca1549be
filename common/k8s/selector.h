/* metav1.LabelSelector (matchLabels + matchExpressions) compiled once and
 * matched many times. Also used for nodeSelector maps (matchLabels only). */
#ifndef PK_SELECTOR_H
#define PK_SELECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "base/strtab.h"

typedef enum { PK_SEL_IN, PK_SEL_NOT_IN, PK_SEL_EXISTS, PK_SEL_DOES_NOT_EXIST,
               PK_SEL_GT, PK_SEL_LT /* node selector terms only */ } pk_sel_op;

typedef struct pk_sel_req {
	char *key;
	pk_sel_op op;
	char **values;
	int nvalues;
} pk_sel_req;

typedef struct pk_selector {
	bool is_nil;        /* selector absent (JSON null / missing): matches nothing */
	pk_sel_req *reqs;   /* matchLabels become In with one value */
	int nreqs;
} pk_selector;

/* Compile a LabelSelector JSON object. NULL/absent -> is_nil. Returns 0 on
 * success, -1 on an invalid selector with a message in err (e.g. unknown
 * operator, In without values); the selector then matches nothing. */
int pk_selector_compile(const cJSON *sel, pk_selector *out, char *err, unsigned errsize);
/* Compile a NodeSelectorRequirement list (nodeAffinity matchExpressions,
 * operators In/NotIn/Exists/DoesNotExist/Gt/Lt). */
int pk_selector_compile_node_reqs(const cJSON *reqs, pk_selector *out, char *err, unsigned errsize);
/* Compile a plain map {k: v} (nodeSelector, matchLabels). */
int pk_selector_compile_map(const cJSON *map, pk_selector *out);
/* Match against a labels object ({k: "v"}), which may be NULL (no labels).
 * An empty, non-nil selector matches everything. */
bool pk_selector_matches(const pk_selector *s, const cJSON *labels);
/* A label map packed for millions of pods: each (key, value) pair is kept
 * once by the string table and numbered; a map is its count and the 32-bit
 * numbers of its pairs, 4 bytes a label where a cJSON object costs 64.
 * Pair number id is chunks[id >> PK_LABEL_CHUNK_BITS][id & (chunk - 1)]. */
typedef pk_str_pair pk_label_pair;

enum { PK_LABEL_CHUNK_BITS = PK_PAIR_CHUNK_BITS };

typedef struct pk_labels {
	pk_label_pair *const *chunks; /* the table's pairs (stable while it lives) */
	uint32_t n;
	uint32_t ids[];
} pk_labels;

static inline const pk_label_pair *pk_labels_pair(const pk_labels *l, uint32_t i)
{
	uint32_t id = l->ids[i];
	return &l->chunks[id >> PK_LABEL_CHUNK_BITS][id & ((1u << PK_LABEL_CHUNK_BITS) - 1)];
}
/* The one label lookup: the value of key in a packed map (NULL: no
 * labels), or NULL. Keys of a packed map are unique (pk_intern_labels keeps
 * a repeated key's last value, as encoding/json does); key may be interned
 * in the map's table (compared by address first) or not. */
const char *pk_labels_value(const pk_labels *labels, const char *key);
/* The same matching over a packed map (NULL: no labels). */
bool pk_selector_matches_labels(const pk_selector *s, const pk_labels *labels);
void pk_selector_free(pk_selector *s);
/* Same requirements in the same order (a cheap test, not set equality). */
bool pk_selector_equal(const pk_selector *a, const pk_selector *b);

#endif
