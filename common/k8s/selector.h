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
void pk_selector_free(pk_selector *s);
/* Same requirements in the same order (a cheap test, not set equality). */
bool pk_selector_equal(const pk_selector *a, const pk_selector *b);

#endif
