#include "k8s/selector.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "base/alloc.h"

static int add_req(pk_selector *s, const char *key, pk_sel_op op)
{
	s->reqs = pk_xrealloc(s->reqs, (size_t)s->nreqs + 1, sizeof *s->reqs);
	pk_sel_req *r = &s->reqs[s->nreqs++];
	r->key = pk_xstrdup(key);
	r->op = op;
	r->values = NULL;
	r->nvalues = 0;
	return 0;
}

static int add_value(pk_sel_req *r, const char *v)
{
	r->values = pk_xrealloc(r->values, (size_t)r->nvalues + 1, sizeof *r->values);
	r->values[r->nvalues++] = pk_xstrdup(v);
	return 0;
}

static void reset(pk_selector *s)
{
	s->is_nil = false;
	s->reqs = NULL;
	s->nreqs = 0;
}

int pk_selector_compile_map(const cJSON *map, pk_selector *out)
{
	reset(out);
	if (!cJSON_IsObject(map))
		return 0;
	for (const cJSON *kv = map->child; kv; kv = kv->next) {
		if (!cJSON_IsString(kv)) {   /* map[string]string: the apiserver would not decode it */
			pk_selector_free(out);
			out->is_nil = true;
			return -1;
		}
		if (add_req(out, kv->string, PK_SEL_IN) || add_value(&out->reqs[out->nreqs - 1], kv->valuestring))
			return -1;
	}
	return 0;
}

static int parse_op(const char *op, bool node_ops, pk_sel_op *out)
{
	static const struct { const char *name; pk_sel_op op; bool node_only; } ops[] = {
		{"In", PK_SEL_IN, false}, {"NotIn", PK_SEL_NOT_IN, false},
		{"Exists", PK_SEL_EXISTS, false}, {"DoesNotExist", PK_SEL_DOES_NOT_EXIST, false},
		{"Gt", PK_SEL_GT, true}, {"Lt", PK_SEL_LT, true},
	};
	for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(op, ops[i].name) == 0 && (node_ops || !ops[i].node_only)) {
			*out = ops[i].op;
			return 0;
		}
	return -1;
}

/* One requirement {key, operator, values}; checks value counts as the
 * apiserver's LabelSelectorAsSelector / NodeSelectorRequirementsAsSelector do. */
static int compile_expr(const cJSON *e, bool node_ops, pk_selector *out, char *err, unsigned errsize)
{
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(e, "key");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(e, "operator");
	const cJSON *vals = cJSON_GetObjectItemCaseSensitive(e, "values");
	pk_sel_op o;

	if (!cJSON_IsString(key)) {
		snprintf(err, errsize, "selector requirement has no key");
		return -1;
	}
	if (parse_op(cJSON_IsString(op) ? op->valuestring : NULL, node_ops, &o)) {
		snprintf(err, errsize, "%s is not a valid label selector operator",
		         cJSON_IsString(op) ? op->valuestring : "(none)");
		return -1;
	}
	int n = cJSON_IsArray(vals) ? cJSON_GetArraySize(vals) : 0;
	if ((o == PK_SEL_IN || o == PK_SEL_NOT_IN) && n == 0) {
		snprintf(err, errsize, "for 'in', 'notin' operators, values set can't be empty");
		return -1;
	}
	if ((o == PK_SEL_EXISTS || o == PK_SEL_DOES_NOT_EXIST) && n != 0) {
		snprintf(err, errsize, "values set must be empty for exists and does not exist");
		return -1;
	}
	if ((o == PK_SEL_GT || o == PK_SEL_LT) && n != 1) {
		snprintf(err, errsize, "for 'Gt', 'Lt' operators, exactly one value is required");
		return -1;
	}
	if (add_req(out, key->valuestring, o))
		return -1;
	for (const cJSON *v = vals ? vals->child : NULL; v; v = v->next)
		if (add_value(&out->reqs[out->nreqs - 1], cJSON_IsString(v) ? v->valuestring : ""))
			return -1;
	return 0;
}

static int compile_exprs(const cJSON *exprs, bool node_ops, pk_selector *out, char *err, unsigned errsize)
{
	for (const cJSON *e = cJSON_IsArray(exprs) ? exprs->child : NULL; e; e = e->next)
		if (compile_expr(e, node_ops, out, err, errsize)) {
			pk_selector_free(out);
			out->is_nil = true;   /* an invalid selector matches nothing */
			return -1;
		}
	return 0;
}

int pk_selector_compile(const cJSON *sel, pk_selector *out, char *err, unsigned errsize)
{
	reset(out);
	if (!sel || cJSON_IsNull(sel) || !cJSON_IsObject(sel)) {
		out->is_nil = true;
		return sel && !cJSON_IsNull(sel) ? -1 : 0;
	}
	const cJSON *labels = cJSON_GetObjectItemCaseSensitive(sel, "matchLabels");
	const cJSON *exprs = cJSON_GetObjectItemCaseSensitive(sel, "matchExpressions");
	if ((labels && !cJSON_IsNull(labels) && !cJSON_IsObject(labels)) ||
	    (exprs && !cJSON_IsNull(exprs) && !cJSON_IsArray(exprs))) {
		snprintf(err, errsize, "matchLabels must be a map and matchExpressions a list");
		out->is_nil = true;
		return -1;
	}
	if (pk_selector_compile_map(labels, out)) {
		snprintf(err, errsize, "matchLabels values must be strings");
		return -1;
	}
	return compile_exprs(exprs, false, out, err, errsize);
}

int pk_selector_compile_node_reqs(const cJSON *reqs, pk_selector *out, char *err, unsigned errsize)
{
	reset(out);
	return compile_exprs(reqs, true, out, err, errsize);
}

/* The value of key in a labels object, "" for a member that is no string
 * (the last of a repeated key, as pk_get reads it). */
static const char *label_value(const cJSON *labels, const char *key)
{
	const cJSON *v = pk_get(labels, key);
	if (!v)
		return NULL;
	return cJSON_IsString(v) ? v->valuestring : "";
}

static bool in_values(const pk_sel_req *r, const char *v)
{
	for (int i = 0; i < r->nvalues; i++)
		if (strcmp(r->values[i], v) == 0)
			return true;
	return false;
}

static bool parse_long(const char *s, long long *out)
{
	char *end;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return *s && !*end && errno == 0;
}

const char *pk_labels_value(const pk_labels *labels, const char *key)
{
	for (uint32_t i = 0; labels && i < labels->n; i++) {
		const pk_label_pair *kv = pk_labels_pair(labels, i);
		if (kv->key == key || strcmp(kv->key, key) == 0)
			return kv->value;
	}
	return NULL;
}

/* Does requirement r hold for a map where its key has value v (NULL:
 * absent)? */
static bool req_matches(const pk_sel_req *r, const char *v)
{
	long long have, want;

	switch (r->op) {
	case PK_SEL_IN: return v && in_values(r, v);
	case PK_SEL_NOT_IN: return !v || !in_values(r, v);
	case PK_SEL_EXISTS: return v != NULL;
	case PK_SEL_DOES_NOT_EXIST: return v == NULL;
	case PK_SEL_GT:
	case PK_SEL_LT:
		if (!v || !parse_long(v, &have) || !parse_long(r->values[0], &want))
			return false;
		return r->op == PK_SEL_GT ? have > want : have < want;
	}
	return false;
}

bool pk_selector_matches(const pk_selector *s, const cJSON *labels)
{
	if (s->is_nil)
		return false;
	for (int i = 0; i < s->nreqs; i++)
		if (!req_matches(&s->reqs[i], label_value(labels, s->reqs[i].key)))
			return false;
	return true;
}

bool pk_selector_matches_labels(const pk_selector *s, const pk_labels *labels)
{
	if (s->is_nil)
		return false;
	for (int i = 0; i < s->nreqs; i++)
		if (!req_matches(&s->reqs[i], pk_labels_value(labels, s->reqs[i].key)))
			return false;
	return true;
}

bool pk_selector_equal(const pk_selector *a, const pk_selector *b)
{
	if (a->is_nil != b->is_nil || a->nreqs != b->nreqs)
		return false;
	for (int i = 0; i < a->nreqs; i++) {
		const pk_sel_req *x = &a->reqs[i], *y = &b->reqs[i];
		if (x->op != y->op || x->nvalues != y->nvalues || strcmp(x->key, y->key) != 0)
			return false;
		for (int j = 0; j < x->nvalues; j++)
			if (strcmp(x->values[j], y->values[j]) != 0)
				return false;
	}
	return true;
}

void pk_selector_free(pk_selector *s)
{
	for (int i = 0; i < s->nreqs; i++) {
		for (int j = 0; j < s->reqs[i].nvalues; j++)
			free(s->reqs[i].values[j]);
		free(s->reqs[i].values);
		free(s->reqs[i].key);
	}
	free(s->reqs);
	s->reqs = NULL;
	s->nreqs = 0;
}
