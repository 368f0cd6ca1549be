/* CEL's checker, as far as DRA's device selectors need it: resolves names
 * (the `device` variable, macro variables), expands the macros (has, all,
 * exists, exists_one, cel.bind), knows the functions, and gives each node a
 * static type, so that what cel-go's checker rejects (an int compared with
 * a string, a result that is not bool, an undeclared name) is a compile
 * error here too. Types only known at run time are T_DYN (an attribute's
 * value) and checked by the evaluator with the same rules (cel_overload). */
#include "k8s/cel_int.h"

#include <stdio.h>
#include <string.h>

typedef struct scope_var { cel_str name; int slot; cel_type t; } scope_var;

typedef struct checker {
	pk_cel_program *prog;
	scope_var vars[CEL_MAX_VARS];
	int nvars;
	char *err;
	size_t errsize;
	int line, col;
	int depth;
	bool failed;
} checker;

static bool cfail(checker *c, const cel_node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool cfail(checker *c, const cel_node *n, const char *fmt, ...)
{
	if (c->failed)
		return false;
	c->failed = true;
	c->line = n->line;
	c->col = n->col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errsize, fmt, ap);
	va_end(ap);
	return false;
}

static bool str_is(cel_str s, const char *w) { return s.n == strlen(w) && strncmp(s.p, w, s.n) == 0; }

const char *cel_type_name(cel_type t)
{
	static const char *const names[] = {
		[T_DYN] = "dyn", [T_BOOL] = "bool", [T_INT] = "int", [T_STRING] = "string",
		[T_VERSION] = "kubernetes.Semver", [T_QUANTITY] = "kubernetes.Quantity", [T_LIST] = "list(dyn)",
		[T_DEVICE] = "kubernetes.DRADevice", [T_AMAP] = "map(string, map(string, dyn))",
		[T_CMAP] = "map(string, map(string, kubernetes.Quantity))", [T_ADOM] = "map(string, dyn)",
		[T_CDOM] = "map(string, kubernetes.Quantity)",
	};
	return names[t];
}

static bool is_map(cel_type t) { return t == T_AMAP || t == T_CMAP || t == T_ADOM || t == T_CDOM; }

/* Functions: name, how it is called, how many arguments (after the receiver). */
typedef struct fndef { const char *name; cel_fn fn; bool global, member; int min, max; } fndef;

static const fndef functions[] = {
	{"size", F_SIZE, true, true, 0, 0},      {"int", F_INT, true, false, 0, 0},
	{"string", F_STRING, true, false, 0, 0}, {"semver", F_SEMVER, true, false, 1, 2},
	{"isSemver", F_ISSEMVER, true, false, 1, 2}, {"quantity", F_QUANTITY, true, false, 1, 1},
	{"isQuantity", F_ISQUANTITY, true, false, 1, 1}, {"startsWith", F_STARTSWITH, false, true, 1, 1},
	{"endsWith", F_ENDSWITH, false, true, 1, 1}, {"contains", F_CONTAINS, false, true, 1, 1},
	{"lowerAscii", F_LOWER, false, true, 0, 0}, {"upperAscii", F_UPPER, false, true, 0, 0},
	{"matches", F_MATCHES, true, true, 1, 1}, {"find", F_FIND, false, true, 1, 1},
	{"split", F_SPLIT, false, true, 1, 1},     {"includes", F_INCLUDES, false, true, 1, 1},
	{"isGreaterThan", F_ISGREATER, false, true, 1, 1}, {"isLessThan", F_ISLESS, false, true, 1, 1},
	{"compareTo", F_COMPARETO, false, true, 1, 1}, {"major", F_MAJOR, false, true, 0, 0},
	{"minor", F_MINOR, false, true, 0, 0},     {"patch", F_PATCH, false, true, 0, 0},
	{"sign", F_SIGN, false, true, 0, 0},       {"asInteger", F_ASINTEGER, false, true, 0, 0},
	{"isInteger", F_ISINTEGER, false, true, 0, 0}, {"add", F_ADD, false, true, 1, 1},
	{"sub", F_SUB, false, true, 1, 1},
};

/* Known to CEL or to the Kubernetes libraries, not to this interpreter. */
static const char *const refused[] = {
	"map", "filter", "transformList", "transformMap", "optMap", "optFlatMap", "double", "uint", "bytes",
	"dyn", "type", "duration", "timestamp", "getFullYear", "getHours", "asApproximateFloat", "charAt",
	"indexOf", "lastIndexOf", "replace", "substring", "trim", "join", "format", "reverse", "quote",
	"findAll", "isSorted", "sum", "min", "max", "url", "isURL", "ip", "isIP", "cidr",
	"isCIDR", "sets", "lists", "math", "strings", "base64", "optional", "jsonpatch", "flatten",
	"distinct", "range", "slice", "sort", "sortBy", "first", "last", "exists_one_of", "all_of", NULL,
};

cel_type cel_overload(int fn, cel_type recv, const cel_type *args, int nargs, bool *ok);
cel_type cel_binop_type(int op, cel_type l, cel_type r, bool *ok);
const char *cel_op_name(int op);
const char *cel_fn_name(int fn);

static bool check(checker *c, cel_node **pn);

static bool push_var(checker *c, const cel_node *at, cel_str name, cel_type t, int *slot)
{
	if (c->nvars == CEL_MAX_VARS)
		return cfail(c, at, "not supported by this interpreter: more than %d nested macro variables", CEL_MAX_VARS);
	c->vars[c->nvars] = (scope_var){name, c->nvars, t};
	*slot = c->nvars++;
	if (c->prog->nvars < c->nvars)
		c->prog->nvars = c->nvars;
	return true;
}

static bool macro_var(checker *c, const cel_node *call, const cel_node *v, cel_str *name)
{
	if (v->k != N_IDENT)
		return cfail(c, v, "%.*s() variable name must be a simple identifier", (int)call->s.n, call->s.p);
	*name = v->s;
	return true;
}

static bool check_compr(checker *c, cel_node *n, int kind)
{
	cel_str name = {0};
	if (!check(c, &n->a[0]) || !macro_var(c, n, n->a[1], &name))
		return false;
	cel_type rt = n->a[0]->st;
	if (rt != T_DYN && rt != T_LIST && !is_map(rt))
		return cfail(c, n->a[0], "expression of type '%s' cannot be range of a comprehension (must be list, map, or dynamic)", cel_type_name(rt));
	int slot = 0;
	if (!push_var(c, n, name, rt == T_LIST || rt == T_DYN ? T_DYN : T_STRING, &slot) || !check(c, &n->a[2]))
		return false;
	c->nvars--;
	if (n->a[2]->st != T_BOOL && n->a[2]->st != T_DYN)
		return cfail(c, n->a[2], "found no matching overload for '_&&_' applied to '(bool, %s)'", cel_type_name(n->a[2]->st));
	n->k = N_COMPR;
	n->op = kind;
	n->slot = slot;
	n->st = T_BOOL;
	return true;
}

static bool check_bind(checker *c, cel_node *n)
{
	cel_str name = {0};
	if (n->na != 4)
		return cfail(c, n, "cel.bind() takes a variable, a value and an expression");
	if (!macro_var(c, n, n->a[1], &name) || !check(c, &n->a[2]))
		return false;
	int slot = 0;
	if (!push_var(c, n, name, n->a[2]->st, &slot) || !check(c, &n->a[3]))
		return false;
	c->nvars--;
	n->k = N_BIND;
	n->slot = slot;
	n->a[0] = n->a[2];
	n->a[1] = n->a[3];
	n->na = 2;
	n->st = n->a[1]->st;
	return true;
}

static bool check_has(checker *c, cel_node *n)
{
	if (n->na != 1 || n->a[0]->k != N_SELECT)
		return cfail(c, n, "invalid argument to has() macro");
	cel_node *sel = n->a[0];
	if (!check(c, &sel->a[0]))
		return false;
	cel_type t = sel->a[0]->st;
	if (t == T_DEVICE) {
		if (!str_is(sel->s, "driver") && !str_is(sel->s, "attributes") && !str_is(sel->s, "capacity") &&
		    !str_is(sel->s, "allowMultipleAllocations"))
			return cfail(c, sel, "undefined field '%.*s'", (int)sel->s.n, sel->s.p);
	} else if (t != T_DYN && !is_map(t)) {
		return cfail(c, sel, "type '%s' does not support field selection", cel_type_name(t));
	}
	n->k = N_HAS;
	n->s = sel->s;
	n->a[0] = sel->a[0];
	n->st = T_BOOL;
	return true;
}

static bool check_call(checker *c, cel_node *n)
{
	cel_str name = n->s;
	if (n->receiver && n->a[0]->k == N_IDENT && str_is(n->a[0]->s, "cel")) {
		if (str_is(name, "bind"))
			return check_bind(c, n);
		return cfail(c, n, "undeclared reference to 'cel.%.*s'", (int)name.n, name.p);
	}
	if (!n->receiver && str_is(name, "has"))
		return check_has(c, n);
	if (n->receiver && n->na == 3) {
		static const char *const macros[] = {"all", "exists", "exists_one"};
		for (int k = 0; k < 3; k++)
			if (str_is(name, macros[k]))
				return check_compr(c, n, k);
	}
	for (int i = 0; refused[i]; i++)
		if (str_is(name, refused[i]))
			return cfail(c, n, "not supported by this interpreter: the function or macro '%s'", refused[i]);
	const fndef *f = NULL;
	for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
		if (str_is(name, functions[i].name) && (n->receiver ? functions[i].member : functions[i].global))
			f = &functions[i];
	if (!f)
		return cfail(c, n, "undeclared reference to '%.*s'", (int)name.n, name.p);
	for (int i = 0; i < n->na; i++)
		if (!check(c, &n->a[i]))
			return false;
	/* size(x), int(x), string(x), matches(s, re) take their first argument as the receiver */
	bool has_recv = n->receiver || f->fn == F_SIZE || f->fn == F_INT || f->fn == F_STRING || f->fn == F_MATCHES;
	if (has_recv && n->na == 0)
		return cfail(c, n, "found no matching overload for '%s' applied to '()'", f->name);
	n->receiver = has_recv;
	int first = has_recv ? 1 : 0;
	int nargs = n->na - first;
	cel_type recv = has_recv ? n->a[0]->st : T_DYN;
	if (nargs < f->min || nargs > f->max)
		return cfail(c, n, "found no matching overload for '%s' applied to %d argument(s)", f->name, nargs);
	cel_type at[2] = {T_DYN, T_DYN};
	for (int i = 0; i < nargs; i++)
		at[i] = n->a[first + i]->st;
	bool ok;
	n->st = cel_overload(f->fn, recv, at, nargs, &ok);
	if (!ok) {
		if (nargs == 0)
			return cfail(c, n, "found no matching overload for '%s' applied to '%s.()'", f->name, cel_type_name(recv));
		return cfail(c, n, "found no matching overload for '%s' applied to '%s%s(%s%s%s)'", f->name,
			     first ? cel_type_name(recv) : "", first ? "." : "", cel_type_name(at[0]),
			     nargs > 1 ? ", " : "", nargs > 1 ? cel_type_name(at[1]) : "");
	}
	n->op = f->fn;
	cel_fold(n);
	if (f->fn == F_MATCHES || f->fn == F_FIND) {
		cel_node *pat = n->a[n->na - 1];
		if (pat->k != N_STRING)
			return cfail(c, pat, "not supported by this interpreter: %s() with a pattern that is not a string literal", f->name);
		char why[160];
		if (!(n->re = cel_re_compile(c->prog, pat->s, why, sizeof why)))
			return cfail(c, pat, "%s", why);
	}
	return true;
}

static bool check_select(checker *c, cel_node *n)
{
	if (!check(c, &n->a[0]))
		return false;
	cel_type t = n->a[0]->st;
	if (t == T_DEVICE) {
		static const struct { const char *f; cel_type t; } fields[] = {
			{"driver", T_STRING}, {"attributes", T_AMAP}, {"capacity", T_CMAP}, {"allowMultipleAllocations", T_BOOL}};
		for (int i = 0; i < 4; i++)
			if (str_is(n->s, fields[i].f)) {
				n->st = fields[i].t;
				return true;
			}
		return cfail(c, n, "undefined field '%.*s'", (int)n->s.n, n->s.p);
	}
	switch (t) {
	case T_AMAP: n->st = T_ADOM; return true;
	case T_CMAP: n->st = T_CDOM; return true;
	case T_ADOM: n->st = T_DYN; return true;
	case T_CDOM: n->st = T_QUANTITY; return true;
	case T_DYN: n->st = T_DYN; return true;
	default: return cfail(c, n, "type '%s' does not support field selection", cel_type_name(t));
	}
}

static bool check_index(checker *c, cel_node *n)
{
	if (!check(c, &n->a[0]) || !check(c, &n->a[1]))
		return false;
	cel_type t = n->a[0]->st, k = n->a[1]->st;
	bool ok = true;
	switch (t) {
	case T_AMAP: n->st = T_ADOM; ok = k == T_STRING || k == T_DYN; break;
	case T_CMAP: n->st = T_CDOM; ok = k == T_STRING || k == T_DYN; break;
	case T_ADOM: n->st = T_DYN; ok = k == T_STRING || k == T_DYN; break;
	case T_CDOM: n->st = T_QUANTITY; ok = k == T_STRING || k == T_DYN; break;
	case T_LIST: n->st = T_DYN; ok = k == T_INT || k == T_DYN; break;
	case T_DYN: n->st = T_DYN; break;
	default: ok = false;
	}
	if (!ok)
		return cfail(c, n, "found no matching overload for '_[_]' applied to '(%s, %s)'", cel_type_name(t), cel_type_name(k));
	return true;
}

static bool check_ident(checker *c, cel_node *n)
{
	for (int i = c->nvars - 1; i >= 0; i--)
		if (c->vars[i].name.n == n->s.n && memcmp(c->vars[i].name.p, n->s.p, n->s.n) == 0) {
			n->k = N_VAR;
			n->slot = c->vars[i].slot;
			n->st = c->vars[i].t;
			return true;
		}
	if (str_is(n->s, "device")) {
		n->st = T_DEVICE;
		return true;
	}
	return cfail(c, n, "undeclared reference to '%.*s'", (int)n->s.n, n->s.p);
}

static bool check_bool_operand(checker *c, const cel_node *n, const char *op, cel_type other)
{
	if (n->st == T_BOOL || n->st == T_DYN)
		return true;
	return cfail(c, n, "found no matching overload for '%s' applied to '(%s, %s)'", op, cel_type_name(n->st), cel_type_name(other));
}

static bool check_node(checker *c, cel_node **pn);

/* The tree's depth bounds the evaluator's recursion: a chain of && or +
 * nests one level per operand, which the parser's limit does not count. */
static bool check(checker *c, cel_node **pn)
{
	if (++c->depth > CEL_MAX_TREE_DEPTH)
		return cfail(c, *pn, "expression recursion limit exceeded: more than %d nested operations", CEL_MAX_TREE_DEPTH);
	bool ok = check_node(c, pn);
	c->depth--;
	return ok;
}

static bool check_node(checker *c, cel_node **pn)
{
	cel_node *n = *pn;
	bool ok;
	switch (n->k) {
	case N_BOOL: n->st = T_BOOL; return true;
	case N_INT: n->st = T_INT; return true;
	case N_STRING: n->st = T_STRING; return true;
	case N_LIST:
		for (int i = 0; i < n->na; i++)
			if (!check(c, &n->a[i]))
				return false;
		if (n->na > CEL_MAX_VALS / 4)
			return cfail(c, n, "not supported by this interpreter: a list literal of more than %d elements", CEL_MAX_VALS / 4);
		n->st = T_LIST;
		return true;
	case N_IDENT: return check_ident(c, n);
	case N_SELECT: return check_select(c, n);
	case N_INDEX: return check_index(c, n);
	case N_CALL: return check_call(c, n);
	case N_NOT:
	case N_NEG:
		if (!check(c, &n->a[0]))
			return false;
		n->st = n->k == N_NOT ? T_BOOL : T_INT;
		if (n->a[0]->st != T_DYN && n->a[0]->st != n->st)
			return cfail(c, n, "found no matching overload for '%s' applied to '(%s)'", n->k == N_NOT ? "!_" : "-_", cel_type_name(n->a[0]->st));
		return true;
	case N_AND:
	case N_OR:
		n->st = T_BOOL;
		for (int i = 0; i < n->na; i++)
			if (!check(c, &n->a[i]) || !check_bool_operand(c, n->a[i], n->k == N_AND ? "_&&_" : "_||_", T_BOOL))
				return false;
		return true;
	case N_COND:
		for (int i = 0; i < 3; i++)
			if (!check(c, &n->a[i]))
				return false;
		if (n->a[0]->st != T_BOOL && n->a[0]->st != T_DYN)
			return cfail(c, n->a[0], "found no matching overload for '_?_:_' applied to '(%s, ...)'", cel_type_name(n->a[0]->st));
		n->st = n->a[1]->st == n->a[2]->st ? n->a[1]->st : T_DYN;
		return true;
	case N_BINARY:
		if (!check(c, &n->a[0]) || !check(c, &n->a[1]))
			return false;
		n->st = cel_binop_type(n->op, n->a[0]->st, n->a[1]->st, &ok);
		if (!ok)
			return cfail(c, n, "found no matching overload for '%s' applied to '(%s, %s)'", cel_op_name(n->op),
				     cel_type_name(n->a[0]->st), cel_type_name(n->a[1]->st));
		return true;
	default:
		return cfail(c, n, "internal error: unexpected node");
	}
}

bool cel_check(pk_cel_program *p, cel_node **root, char *err, size_t errsize, int *line, int *col);

bool cel_check(pk_cel_program *p, cel_node **root, char *err, size_t errsize, int *line, int *col)
{
	checker c = {.prog = p, .err = err, .errsize = errsize};
	if (check(&c, root) && (*root)->st != T_BOOL && (*root)->st != T_DYN)
		cfail(&c, *root, "must evaluate to bool or the unknown type, not %s", cel_type_name((*root)->st));
	*line = c.line;
	*col = c.col;
	return !c.failed;
}
