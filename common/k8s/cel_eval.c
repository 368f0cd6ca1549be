/* The CEL evaluator: walks a checked tree for one device. Nothing is
 * allocated: lists and made strings live in the evaluation's arenas on the
 * C stack (reset after each step of a comprehension), and the recursion is
 * bounded by the parser's depth limit.
 *
 * Cost: one unit per node evaluated, per comprehension step and per
 * regular-expression step, against upstream's runtime limit
 * (resourceapi.CELSelectorExpressionMaxCost = 1,000,000). cel-go's runtime
 * cost is of the same order (about one unit per operation, more for string
 * and list functions by their size) but not identical: an expression near
 * the limit may stop here where upstream does not, or the reverse. */
#include "k8s/cel_int.h"
#include "k8s/quantity.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>


cel_type cel_overload(int fn, cel_type recv, const cel_type *args, int nargs, bool *ok);
cel_type cel_binop_type(int op, cel_type l, cel_type r, bool *ok);
const char *cel_op_name(int op);

bool cel_efail(cel_ev *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

bool cel_efail(cel_ev *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, e->errsize, fmt, ap);
	va_end(ap);
	return false;
}

const char *cel_op_name(int op)
{
	static const char *const names[] = {
		[OP_EQ] = "_==_", [OP_NE] = "_!=_", [OP_LT] = "_<_", [OP_LE] = "_<=_", [OP_GT] = "_>_",
		[OP_GE] = "_>=_", [OP_IN] = "@in", [OP_ADD] = "_+_", [OP_SUB] = "_-_", [OP_MUL] = "_*_",
		[OP_DIV] = "_/_", [OP_MOD] = "_%_",
	};
	return names[op];
}

static bool is_map(cel_type t) { return t == T_AMAP || t == T_CMAP || t == T_ADOM || t == T_CDOM; }

/* Operand types of an operator, static (T_DYN: any) or run-time. */
cel_type cel_binop_type(int op, cel_type l, cel_type r, bool *ok)
{
	bool dyn = l == T_DYN || r == T_DYN;
	cel_type known = l == T_DYN ? r : l;
	*ok = true;
	switch (op) {
	case OP_EQ:
	case OP_NE:
		*ok = dyn || l == r || (is_map(l) && is_map(r));
		return T_BOOL;
	case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		*ok = (dyn || l == r) && (known == T_DYN || known == T_INT || known == T_STRING || known == T_BOOL);
		return T_BOOL;
	case OP_IN:
		*ok = r == T_DYN || r == T_LIST || (is_map(r) && (l == T_STRING || l == T_DYN));
		return T_BOOL;
	case OP_ADD:
		*ok = (dyn || l == r) && (known == T_DYN || known == T_INT || known == T_STRING || known == T_LIST);
		return known;
	default:
		*ok = (dyn || l == r) && (known == T_DYN || known == T_INT);
		return T_INT;
	}
}

/* A function's overloads: what it takes and gives (T_DYN: any). */
cel_type cel_overload(int fn, cel_type recv, const cel_type *a, int n, bool *ok)
{
#define IS(t, want) ((t) == T_DYN || (t) == (want))
	cel_type a0 = n > 0 ? a[0] : T_DYN, a1 = n > 1 ? a[1] : T_DYN;
	*ok = true;
	switch (fn) {
	case F_SIZE: *ok = IS(recv, T_STRING) || recv == T_LIST || is_map(recv); return T_INT;
	case F_INT: *ok = IS(recv, T_INT) || recv == T_STRING; return T_INT;
	case F_STRING: *ok = IS(recv, T_STRING) || recv == T_INT || recv == T_BOOL; return T_STRING;
	case F_SEMVER: *ok = IS(a0, T_STRING) && IS(a1, T_BOOL); return T_VERSION;
	case F_ISSEMVER: *ok = IS(a0, T_STRING) && IS(a1, T_BOOL); return T_BOOL;
	case F_QUANTITY: *ok = IS(a0, T_STRING); return T_QUANTITY;
	case F_ISQUANTITY: *ok = IS(a0, T_STRING); return T_BOOL;
	case F_STARTSWITH: case F_ENDSWITH: case F_CONTAINS: case F_MATCHES:
		*ok = IS(recv, T_STRING) && IS(a0, T_STRING); return T_BOOL;
	case F_LOWER: case F_UPPER: *ok = IS(recv, T_STRING); return T_STRING;
	case F_FIND: *ok = IS(recv, T_STRING) && IS(a0, T_STRING); return T_STRING;
	case F_SPLIT: *ok = IS(recv, T_STRING) && IS(a0, T_STRING); return T_LIST;
	case F_INCLUDES: /* list-type attributes: a scalar attribute is a list of one */
		*ok = recv == T_DYN || recv == T_LIST || recv == T_BOOL || recv == T_INT || recv == T_STRING || recv == T_VERSION;
		return T_BOOL;
	case F_ISGREATER: case F_ISLESS: case F_COMPARETO:
		if (recv == T_DYN)
			*ok = a0 == T_DYN || a0 == T_VERSION || a0 == T_QUANTITY;
		else
			*ok = (recv == T_VERSION || recv == T_QUANTITY) && IS(a0, recv);
		return fn == F_COMPARETO ? T_INT : T_BOOL;
	case F_MAJOR: case F_MINOR: case F_PATCH: *ok = IS(recv, T_VERSION); return T_INT;
	case F_SIGN: case F_ASINTEGER: *ok = IS(recv, T_QUANTITY); return T_INT;
	case F_ISINTEGER: *ok = IS(recv, T_QUANTITY); return T_BOOL;
	case F_ADD: case F_SUB: *ok = IS(recv, T_QUANTITY) && (a0 == T_DYN || a0 == T_QUANTITY || a0 == T_INT); return T_QUANTITY;
	default: *ok = false; return T_DYN;
	}
#undef IS
}

const char *cel_fn_name(int fn);

const char *cel_fn_name(int fn)
{
	static const char *const names[] = {
		[F_SIZE] = "size", [F_INT] = "int", [F_STRING] = "string", [F_SEMVER] = "semver",
		[F_ISSEMVER] = "isSemver", [F_QUANTITY] = "quantity", [F_ISQUANTITY] = "isQuantity",
		[F_STARTSWITH] = "startsWith", [F_ENDSWITH] = "endsWith", [F_CONTAINS] = "contains",
		[F_LOWER] = "lowerAscii", [F_UPPER] = "upperAscii", [F_MATCHES] = "matches", [F_FIND] = "find",
		[F_SPLIT] = "split", [F_INCLUDES] = "includes", [F_ISGREATER] = "isGreaterThan",
		[F_ISLESS] = "isLessThan", [F_COMPARETO] = "compareTo", [F_MAJOR] = "major", [F_MINOR] = "minor",
		[F_PATCH] = "patch", [F_SIGN] = "sign", [F_ASINTEGER] = "asInteger", [F_ISINTEGER] = "isInteger",
		[F_ADD] = "add", [F_SUB] = "sub",
	};
	return names[fn];
}

/* ---- the device ---- */

static bool str_eq(cel_str a, const char *b)
{
	b = b ? b : "";
	return strlen(b) == a.n && memcmp(a.p, b, a.n) == 0;
}

static cel_str cstr(const char *s) { return (cel_str){s ? s : "", s ? strlen(s) : 0}; }

static const pk_cel_attr *entries(const cel_ev *e, bool cap, int *n)
{
	*n = cap ? e->d->ncapacity : e->d->nattrs;
	return cap ? e->d->capacity : e->d->attrs;
}

static const pk_cel_attr *find_entry(const cel_ev *e, bool cap, cel_str dom, cel_str name)
{
	int n;
	const pk_cel_attr *a = entries(e, cap, &n);
	for (int i = 0; i < n; i++)
		if (str_eq(dom, a[i].domain) && str_eq(name, a[i].name))
			return &a[i];
	return NULL;
}

static bool has_domain(const cel_ev *e, bool cap, cel_str dom)
{
	int n;
	const pk_cel_attr *a = entries(e, cap, &n);
	for (int i = 0; i < n; i++)
		if (str_eq(dom, a[i].domain))
			return true;
	return false;
}

static bool entry_value(cel_ev *e, const pk_cel_attr *a, cel_val *out)
{
	switch (a->kind) {
	case PK_CEL_V_LIST:
		if (!cel_new_list(e, a->nitems, out))
			return false;
		for (int i = 0; i < a->nitems; i++) {
			if (a->items[i].kind == PK_CEL_V_LIST)
				return cel_efail(e, "attribute %s: a list of lists", a->name);
			pk_cel_attr item = a->items[i];
			item.domain = a->domain;
			item.name = a->name;
			if (!entry_value(e, &item, &e->vals[out->u.l.off + i]))
				return false;
		}
		return true;
	case PK_CEL_V_BOOL: *out = (cel_val){.t = T_BOOL, .u.b = a->b}; return true;
	case PK_CEL_V_INT: *out = (cel_val){.t = T_INT, .u.i = a->i}; return true;
	case PK_CEL_V_STRING: *out = (cel_val){.t = T_STRING, .u.s = cstr(a->s)}; return true;
	case PK_CEL_V_QUANTITY: *out = (cel_val){.t = T_QUANTITY, .u.milli = a->milli}; return true;
	case PK_CEL_V_VERSION: {
		const char *why;
		out->t = T_VERSION;
		if (cel_semver_parse(cstr(a->s), false, &out->u.v, &why))
			return true;
		return cel_efail(e, "attribute %s/%s: parse semantic version: %s", a->domain ? a->domain : "", a->name, why);
	}
	}
	return cel_efail(e, "attribute %s: unsupported attribute value", a->name);
}

/* m[key] for the device's maps: a missing domain is an empty map (as
 * upstream's mapper gives), a missing name "no such key". */
static bool map_get(cel_ev *e, const cel_val *m, cel_str key, cel_val *out)
{
	switch (m->t) {
	case T_AMAP:
	case T_CMAP:
		*out = (cel_val){.t = m->t == T_AMAP ? T_ADOM : T_CDOM, .u.s = key};
		return true;
	case T_ADOM:
	case T_CDOM: {
		const pk_cel_attr *a = find_entry(e, m->t == T_CDOM, m->u.s, key);
		if (!a)
			return cel_efail(e, "no such key: %.*s", (int)key.n, key.p);
		return entry_value(e, a, out);
	}
	default:
		return cel_efail(e, "no such overload: %s[string]", cel_type_name(m->t));
	}
}

static bool map_has(const cel_ev *e, const cel_val *m, cel_str key)
{
	if (m->t == T_AMAP || m->t == T_CMAP)
		return has_domain(e, m->t == T_CMAP, key);
	return find_entry(e, m->t == T_CDOM, m->u.s, key) != NULL;
}

/* ---- arenas ---- */

bool cel_new_list(cel_ev *e, int n, cel_val *out)
{
	if (n > CEL_MAX_VALS - e->nvals)
		return cel_efail(e, "not supported by this interpreter: lists of more than %d elements in one evaluation", CEL_MAX_VALS);
	*out = (cel_val){.t = T_LIST, .u.l = {e->nvals, n}};
	e->nvals += n;
	return true;
}

char * cel_new_chars(cel_ev *e, size_t n)
{
	if (n > CEL_MAX_CHARS - e->nchars) {
		cel_efail(e, "not supported by this interpreter: strings of more than %d bytes made in one evaluation", CEL_MAX_CHARS);
		return NULL;
	}
	char *p = e->chars + e->nchars;
	e->nchars += n;
	return p;
}

bool cel_charge(cel_ev *e, uint64_t units)
{
	e->cost += units;
	if (e->cost > CEL_COST_LIMIT)
		return cel_efail(e, "operation cancelled: actual cost limit exceeded (%d, upstream's CELSelectorExpressionMaxCost)", CEL_COST_LIMIT);
	return true;
}

/* ---- values ---- */

static bool eval(cel_ev *e, const cel_node *n, cel_val *out);


static const char *go_type(cel_type t)
{
	switch (t) {
	case T_BOOL: return "types.Bool";
	case T_INT: return "types.Int";
	case T_STRING: return "types.String";
	case T_VERSION: return "cel.Semver";
	case T_QUANTITY: return "cel.Quantity";
	default: return cel_type_name(t);
	}
}

bool cel_equal(cel_ev *e, const cel_val *a, const cel_val *b, bool *eq)
{
	if (is_map(a->t) || a->t == T_DEVICE)
		return cel_efail(e, "not supported by this interpreter: comparing maps or objects with ==");
	if (a->t != b->t) { /* heterogeneous equality: values of different types differ */
		*eq = false;
		return true;
	}
	switch (a->t) {
	case T_BOOL: *eq = a->u.b == b->u.b; return true;
	case T_INT: *eq = a->u.i == b->u.i; return true;
	case T_STRING: *eq = a->u.s.n == b->u.s.n && memcmp(a->u.s.p, b->u.s.p, a->u.s.n) == 0; return true;
	case T_VERSION: *eq = cel_semver_cmp(&a->u.v, &b->u.v) == 0; return true;
	case T_QUANTITY: *eq = a->u.milli == b->u.milli; return true;
	case T_LIST:
		*eq = a->u.l.n == b->u.l.n;
		for (int i = 0; *eq && i < a->u.l.n; i++)
			if (!cel_equal(e, &e->vals[a->u.l.off + i], &e->vals[b->u.l.off + i], eq))
				return false;
		return true;
	default:
		return cel_efail(e, "internal error: equality of %s", cel_type_name(a->t));
	}
}

static int compare(const cel_val *a, const cel_val *b)
{
	if (a->t == T_INT)
		return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
	if (a->t == T_BOOL)
		return (int)a->u.b - (int)b->u.b;
	size_t n = a->u.s.n < b->u.s.n ? a->u.s.n : b->u.s.n;
	int c = memcmp(a->u.s.p, b->u.s.p, n);
	return c != 0 ? (c < 0 ? -1 : 1) : a->u.s.n < b->u.s.n ? -1 : a->u.s.n > b->u.s.n;
}

static bool arith(cel_ev *e, int op, int64_t a, int64_t b, int64_t *r)
{
	bool over = false;
	switch (op) {
	case OP_ADD: over = __builtin_add_overflow(a, b, r); break;
	case OP_SUB: over = __builtin_sub_overflow(a, b, r); break;
	case OP_MUL: over = __builtin_mul_overflow(a, b, r); break;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return cel_efail(e, op == OP_DIV ? "division by zero" : "modulus by zero");
		if (a == INT64_MIN && b == -1)
			return cel_efail(e, "integer overflow");
		*r = op == OP_DIV ? a / b : a % b;
		return true;
	}
	return over ? cel_efail(e, "integer overflow") : true;
}

static bool binary(cel_ev *e, const cel_node *n, cel_val *out)
{
	cel_val l, r;
	if (!eval(e, n->a[0], &l) || !eval(e, n->a[1], &r))
		return false;
	bool ok, eq;
	cel_binop_type(n->op, l.t, r.t, &ok);
	if (!ok && n->op != OP_EQ && n->op != OP_NE) /* == of values of two types: false (heterogeneous equality) */
		return cel_efail(e, "no such overload: %s(%s, %s)", cel_op_name(n->op), cel_type_name(l.t), cel_type_name(r.t));
	out->t = T_BOOL;
	switch (n->op) {
	case OP_EQ:
	case OP_NE:
		if (!cel_equal(e, &l, &r, &eq))
			return false;
		out->u.b = n->op == OP_EQ ? eq : !eq;
		return true;
	case OP_LT: out->u.b = compare(&l, &r) < 0; return true;
	case OP_LE: out->u.b = compare(&l, &r) <= 0; return true;
	case OP_GT: out->u.b = compare(&l, &r) > 0; return true;
	case OP_GE: out->u.b = compare(&l, &r) >= 0; return true;
	case OP_IN:
		if (r.t != T_LIST) {
			if (l.t != T_STRING)
				return cel_efail(e, "no such overload: @in(%s, %s)", cel_type_name(l.t), cel_type_name(r.t));
			out->u.b = map_has(e, &r, l.u.s);
			return true;
		}
		out->u.b = false;
		for (int i = 0; i < r.u.l.n && !out->u.b; i++)
			if (!cel_equal(e, &l, &e->vals[r.u.l.off + i], &out->u.b))
				return false;
		return true;
	default:
		break;
	}
	if (l.t == T_STRING) {
		char *p = cel_new_chars(e, l.u.s.n + r.u.s.n);
		if (!p)
			return false;
		memcpy(p, l.u.s.p, l.u.s.n);
		memcpy(p + l.u.s.n, r.u.s.p, r.u.s.n);
		*out = (cel_val){.t = T_STRING, .u.s = {p, l.u.s.n + r.u.s.n}};
		return true;
	}
	if (l.t == T_LIST) {
		if (!cel_new_list(e, l.u.l.n + r.u.l.n, out))
			return false;
		memcpy(&e->vals[out->u.l.off], &e->vals[l.u.l.off], (size_t)l.u.l.n * sizeof l);
		memcpy(&e->vals[out->u.l.off + l.u.l.n], &e->vals[r.u.l.off], (size_t)r.u.l.n * sizeof r);
		return true;
	}
	out->t = T_INT;
	return arith(e, n->op, l.u.i, r.u.i, &out->u.i);
}

/* && and || of all their operands: commutative, an error absorbed by a
 * deciding value (false for &&, true for ||), as CEL defines them. */
static bool logical(cel_ev *e, const cel_node *n, cel_val *out)
{
	bool decide = n->k == N_OR; /* the value that decides */
	char first_err[256];
	first_err[0] = '\0';
	bool failed = false;
	for (int i = 0; i < n->na; i++) {
		cel_val v;
		int mark = e->nvals;
		size_t cmark = e->nchars;
		bool ok = eval(e, n->a[i], &v);
		e->nvals = mark;
		e->nchars = cmark;
		if (ok && v.t != T_BOOL)
			ok = cel_efail(e, "no such overload: %s(%s)", n->k == N_OR ? "_||_" : "_&&_", cel_type_name(v.t));
		if (ok && v.u.b == decide) {
			*out = (cel_val){.t = T_BOOL, .u.b = decide};
			return true;
		}
		if (!ok && e->cost > CEL_COST_LIMIT) /* the limit stops the evaluation: not absorbed */
			return false;
		if (!ok && !failed) {
			failed = true;
			snprintf(first_err, sizeof first_err, "%s", e->err);
		}
	}
	if (failed)
		return cel_efail(e, "%s", first_err);
	*out = (cel_val){.t = T_BOOL, .u.b = !decide};
	return true;
}

/* The keys (of a map) or elements (of a list) a comprehension walks. */
static int range_size(const cel_ev *e, const cel_val *r)
{
	if (r->t == T_LIST)
		return r->u.l.n;
	int n;
	entries(e, r->t == T_CMAP || r->t == T_CDOM, &n);
	return n;
}

static bool range_item(const cel_ev *e, const cel_val *r, int i, cel_val *out)
{
	if (r->t == T_LIST) {
		*out = e->vals[r->u.l.off + i];
		return true;
	}
	int n;
	const pk_cel_attr *a = entries(e, r->t == T_CMAP || r->t == T_CDOM, &n);
	if (r->t == T_ADOM || r->t == T_CDOM) {
		if (!str_eq(r->u.s, a[i].domain))
			return false;
		*out = (cel_val){.t = T_STRING, .u.s = cstr(a[i].name)};
		return true;
	}
	for (int j = 0; j < i; j++) /* each domain once */
		if (strcmp(a[j].domain ? a[j].domain : "", a[i].domain ? a[i].domain : "") == 0)
			return false;
	*out = (cel_val){.t = T_STRING, .u.s = cstr(a[i].domain)};
	return true;
}

static bool comprehension(cel_ev *e, const cel_node *n, cel_val *out)
{
	cel_val r;
	if (!eval(e, n->a[0], &r))
		return false;
	if (r.t != T_LIST && !is_map(r.t))
		return cel_efail(e, "got '%s', expected iterable type", go_type(r.t));
	char first_err[256];
	first_err[0] = '\0';
	bool failed = false;
	int count = 0, size = range_size(e, &r);
	for (int i = 0; i < size; i++) {
		if (!range_item(e, &r, i, &e->vars[n->slot]))
			continue;
		cel_val v;
		int mark = e->nvals;
		size_t cmark = e->nchars;
		bool ok = cel_charge(e, 1) && eval(e, n->a[2], &v);
		e->nvals = mark;
		e->nchars = cmark;
		if (ok && v.t != T_BOOL)
			ok = cel_efail(e, "no such overload: _&&_(bool, %s)", cel_type_name(v.t));
		if (!ok && (n->op == C_EXISTS_ONE || e->cost > CEL_COST_LIMIT))
			return false;
		if (!ok) {
			if (!failed)
				snprintf(first_err, sizeof first_err, "%s", e->err);
			failed = true;
			continue;
		}
		if (n->op == C_ALL && !v.u.b) {
			*out = (cel_val){.t = T_BOOL, .u.b = false};
			return true;
		}
		if (n->op == C_EXISTS && v.u.b) {
			*out = (cel_val){.t = T_BOOL, .u.b = true};
			return true;
		}
		count += v.u.b;
	}
	if (failed)
		return cel_efail(e, "%s", first_err);
	*out = (cel_val){.t = T_BOOL, .u.b = n->op == C_ALL ? true : n->op == C_EXISTS ? false : count == 1};
	return true;
}

static bool select_field(cel_ev *e, const cel_node *n, const cel_val *obj, cel_val *out)
{
	if (obj->t == T_DEVICE) {
		if (str_eq(n->s, "driver"))
			*out = (cel_val){.t = T_STRING, .u.s = cstr(e->d->driver)};
		else if (str_eq(n->s, "attributes"))
			*out = (cel_val){.t = T_AMAP};
		else if (str_eq(n->s, "capacity"))
			*out = (cel_val){.t = T_CMAP};
		else
			*out = (cel_val){.t = T_BOOL, .u.b = e->d->allow_multiple_allocations};
		return true;
	}
	if (!is_map(obj->t))
		return cel_efail(e, "no such overload: %s does not support field selection", cel_type_name(obj->t));
	return map_get(e, obj, n->s, out);
}

static bool index_value(cel_ev *e, const cel_val *c, const cel_val *k, cel_val *out)
{
	if (c->t == T_LIST) {
		if (k->t != T_INT)
			return cel_efail(e, "no such overload: _[_](list, %s)", cel_type_name(k->t));
		if (k->u.i < 0 || k->u.i >= c->u.l.n)
			return cel_efail(e, "index out of range: %" PRId64, k->u.i);
		*out = e->vals[c->u.l.off + k->u.i];
		return true;
	}
	if (!is_map(c->t) || k->t != T_STRING)
		return cel_efail(e, "no such overload: _[_](%s, %s)", cel_type_name(c->t), cel_type_name(k->t));
	return map_get(e, c, k->u.s, out);
}

static bool eval_call(cel_ev *e, const cel_node *n, cel_val *out)
{
	cel_val recv = {.t = T_DYN}, args[2];
	int first = n->receiver ? 1 : 0, nargs = n->na - first;
	if (n->receiver && !eval(e, n->a[0], &recv))
		return false;
	for (int i = 0; i < nargs; i++)
		if (!eval(e, n->a[first + i], &args[i]))
			return false;
	cel_type at[2] = {nargs > 0 ? args[0].t : T_DYN, nargs > 1 ? args[1].t : T_DYN};
	bool ok;
	cel_overload(n->op, recv.t, at, nargs, &ok);
	if (!ok || (n->receiver && recv.t == T_DYN))
		return cel_efail(e, "no such overload: %s.%s(%s%s%s)", cel_type_name(recv.t), cel_fn_name(n->op),
			     nargs > 0 ? cel_type_name(at[0]) : "", nargs > 1 ? ", " : "", nargs > 1 ? cel_type_name(at[1]) : "");
	return cel_call(e, n->op, n->re, &recv, args, nargs, out);
}

static bool eval(cel_ev *e, const cel_node *n, cel_val *out)
{
	if (!cel_charge(e, 1))
		return false;
	switch (n->k) {
	case N_BOOL: *out = (cel_val){.t = T_BOOL, .u.b = n->i != 0}; return true;
	case N_INT: *out = (cel_val){.t = T_INT, .u.i = n->i}; return true;
	case N_STRING: *out = (cel_val){.t = T_STRING, .u.s = n->s}; return true;
	case N_IDENT: *out = (cel_val){.t = T_DEVICE}; return true;
	case N_VAR: *out = e->vars[n->slot]; return true;
	case N_LIST:
		if (!cel_new_list(e, n->na, out))
			return false;
		for (int i = 0; i < n->na; i++)
			if (!eval(e, n->a[i], &e->vals[out->u.l.off + i]))
				return false;
		return true;
	case N_SELECT: {
		cel_val obj;
		return eval(e, n->a[0], &obj) && select_field(e, n, &obj, out);
	}
	case N_INDEX: {
		cel_val c, k;
		return eval(e, n->a[0], &c) && eval(e, n->a[1], &k) && index_value(e, &c, &k, out);
	}
	case N_HAS: {
		cel_val obj;
		if (!eval(e, n->a[0], &obj))
			return false;
		if (obj.t != T_DEVICE && !is_map(obj.t))
			return cel_efail(e, "invalid type for field selection: %s", cel_type_name(obj.t));
		*out = (cel_val){.t = T_BOOL, .u.b = obj.t == T_DEVICE || map_has(e, &obj, n->s)};
		return true;
	}
	case N_NOT:
	case N_NEG: {
		cel_val v;
		if (!eval(e, n->a[0], &v))
			return false;
		if (v.t != (n->k == N_NOT ? T_BOOL : T_INT))
			return cel_efail(e, "no such overload: %s(%s)", n->k == N_NOT ? "!_" : "-_", cel_type_name(v.t));
		if (n->k == N_NOT) {
			*out = (cel_val){.t = T_BOOL, .u.b = !v.u.b};
			return true;
		}
		if (v.u.i == INT64_MIN)
			return cel_efail(e, "integer overflow");
		*out = (cel_val){.t = T_INT, .u.i = -v.u.i};
		return true;
	}
	case N_BINARY: return binary(e, n, out);
	case N_AND:
	case N_OR: return logical(e, n, out);
	case N_COND: {
		cel_val c;
		if (!eval(e, n->a[0], &c))
			return false;
		if (c.t != T_BOOL)
			return cel_efail(e, "no such overload: _?_:_(%s, ...)", cel_type_name(c.t));
		return eval(e, n->a[c.u.b ? 1 : 2], out);
	}
	case N_CALL: return eval_call(e, n, out);
	case N_COMPR: return comprehension(e, n, out);
	case N_BIND:
		return eval(e, n->a[0], &e->vars[n->slot]) && eval(e, n->a[1], out);
	case N_CONST:
		*out = n->cv;
		return true;
	}
	return cel_efail(e, "internal error: unexpected node");
}

/* Upstream converts every attribute before it evaluates (DeviceMatches):
 * a version that does not parse fails the device whatever the expression
 * reads. */
static bool versions_parse(cel_ev *e)
{
	for (int i = 0; i < e->d->nattrs; i++) {
		const pk_cel_attr *a = &e->d->attrs[i];
		int n = a->kind == PK_CEL_V_LIST ? a->nitems : 1;
		for (int k = 0; k < n; k++) {
			const pk_cel_attr *x = a->kind == PK_CEL_V_LIST ? &a->items[k] : a;
			cel_version v;
			const char *why;
			if (x->kind == PK_CEL_V_VERSION && !cel_semver_parse(cstr(x->s), false, &v, &why))
				return cel_efail(e, "attribute %s/%s: parse semantic version: %s", a->domain ? a->domain : "", a->name, why);
		}
	}
	return true;
}

void cel_fold(cel_node *n)
{
	if (n->k != N_CALL || (n->op != F_QUANTITY && n->op != F_SEMVER && n->op != F_ISQUANTITY && n->op != F_ISSEMVER))
		return;
	for (int i = 0; i < n->na; i++)
		if (n->a[i]->k != N_STRING && n->a[i]->k != N_BOOL)
			return;
	char err[128];
	cel_ev ev = {.err = err, .errsize = sizeof err, .d = &(const pk_cel_device){0}};
	cel_val v;
	if (eval(&ev, n, &v)) { /* strings in v point into the program's literals */
		n->cv = v;
		n->k = N_CONST;
	}
}

pk_cel_result pk_cel_eval_device(const pk_cel_program *p, const pk_cel_device *d, char *err, size_t errsize)
{
	static const pk_cel_device none = {0};
	cel_ev ev; /* the arenas need no zeroing: written before they are read */
	cel_ev *e = &ev;
	e->d = d ? d : &none;
	e->cost = 0;
	e->err = err;
	e->errsize = errsize;
	e->nvals = 0;
	e->nchars = 0;
	cel_val v;
	if (!p || !p->root) {
		snprintf(err, errsize, "CEL: no program");
		return PK_CEL_ERROR;
	}
	if (!versions_parse(e) || !eval(e, p->root, &v))
		return PK_CEL_ERROR;
	if (v.t != T_BOOL) { /* cel-go's TypeName(): "list", "map", "int" ... */
		snprintf(err, errsize, "CEL result of type %s could not be converted to bool",
			 v.t == T_LIST ? "list" : is_map(v.t) ? "map" : cel_type_name(v.t));
		return PK_CEL_ERROR;
	}
	return v.u.b ? PK_CEL_TRUE : PK_CEL_FALSE;
}
