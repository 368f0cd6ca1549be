/* metav1.LabelSelector (matchLabels + matchExpressions) compiled once and
 * matched many times. Also used for nodeSelector maps (matchLabels only). */
#ifndef PK_SELECTOR_H
#define PK_SELECTOR_H

#include <stdbool.h>
#include <cjson/cJSON.h>

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
/* A label map packed as string pairs (what a decoded pod keeps: 16 bytes a
 * label where a cJSON object costs 64): kv[2i] a key, kv[2i+1] its value. */
typedef struct pk_labels {
	int n;
	const char *kv[];
} pk_labels;
/* The value of key in a packed map (NULL: no labels), the last one if the
 * key is repeated (as the matchers read it), or NULL. */
const char *pk_labels_value(const pk_labels *labels, const char *key);
/* The same matching over a packed map (NULL: no labels). */
bool pk_selector_matches_labels(const pk_selector *s, const pk_labels *labels);
void pk_selector_free(pk_selector *s);
/* Same requirements in the same order (a cheap test, not set equality). */
bool pk_selector_equal(const pk_selector *a, const pk_selector *b);

#endif
