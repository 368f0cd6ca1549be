/* The CEL interpreter's insides (cel.h), shared by its parser (cel_parse.c),
 * evaluator (cel_eval.c) and library (cel_lib.c): the syntax tree, the
 * types and values, and the functions it knows. Nobody else includes this. */
#ifndef PK_K8S_CEL_INT_H
#define PK_K8S_CEL_INT_H
#include "k8s/cel.h"
#include "base/arena.h"

#include <stdarg.h>

/* Upstream's runtime budget: resourceapi.CELSelectorExpressionMaxCost. */
#define CEL_COST_LIMIT 1000000
/* Nesting depth of the parser and so of the evaluator's recursion (cel-go's
 * default parser recursion limit is 250). */
#define CEL_MAX_DEPTH 250
/* Depth of the checked tree, which bounds the checker's and evaluator's
 * recursion (a && b && ... nests one level per operand). */
#define CEL_MAX_TREE_DEPTH 1000
/* Per evaluation, on the C stack: list elements and made strings. */
#define CEL_MAX_VALS 512
#define CEL_MAX_CHARS 8192
#define CEL_MAX_VARS 16
/* resourceapi.ResourceSliceMaxAttributeValuesPerDevice: includes() refuses
 * longer lists (upstream's compile_test.go: the cost of includes is 48). */
#define CEL_MAX_ATTR_VALUES 48

/* Types, both static (the checker's, with T_DYN for "known at run time
 * only", CEL's dyn) and of run-time values (never T_DYN). */
typedef enum {
	T_DYN, T_BOOL, T_INT, T_STRING, T_VERSION, T_QUANTITY, T_LIST,
	T_DEVICE,     /* the `device` object */
	T_AMAP,       /* device.attributes: domain -> map */
	T_CMAP,       /* device.capacity: domain -> map */
	T_ADOM,       /* device.attributes[domain]: name -> attribute */
	T_CDOM,       /* device.capacity[domain]: name -> quantity */
} cel_type;

const char *cel_type_name(cel_type t);      /* CEL's name: "int", "map(string, dyn)" ... */

typedef struct cel_str { const char *p; size_t n; } cel_str;

typedef struct cel_version {
	uint64_t major, minor, patch;
	cel_str pre;                             /* prerelease, without '-'; n == 0: none */
} cel_version;

typedef struct cel_val {
	cel_type t;
	union {
		bool b;
		int64_t i;
		cel_str s;                           /* T_STRING; T_ADOM/T_CDOM: the domain */
		cel_version v;
		int64_t milli;                       /* T_QUANTITY */
		struct { int off, n; } l;            /* T_LIST: elements in the evaluation's value arena */
	} u;
} cel_val;

/* A compiled regular expression (the RE2 subset cel_lib.c supports). */
typedef struct cel_re cel_re;

typedef enum {
	N_BOOL, N_INT, N_STRING, N_LIST, N_IDENT, N_VAR, N_SELECT, N_INDEX,
	N_NOT, N_NEG, N_BINARY, N_AND, N_OR, N_COND, N_HAS, N_CALL, N_COMPR, N_BIND,
	N_CONST,                /* a call of literals folded at compile time: cv */
} cel_nkind;

typedef enum {
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_IN,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
} cel_op;

/* The functions it knows (global or receiver style). */
typedef enum {
	F_SIZE, F_INT, F_STRING, F_SEMVER, F_ISSEMVER, F_QUANTITY, F_ISQUANTITY,
	F_STARTSWITH, F_ENDSWITH, F_CONTAINS, F_LOWER, F_UPPER, F_MATCHES, F_FIND, F_SPLIT,
	F_INCLUDES, F_ISGREATER, F_ISLESS, F_COMPARETO, F_MAJOR, F_MINOR, F_PATCH,
	F_SIGN, F_ASINTEGER, F_ISINTEGER, F_ADD, F_SUB,
} cel_fn;

typedef enum { C_ALL, C_EXISTS, C_EXISTS_ONE } cel_compr;

typedef struct cel_node cel_node;
struct cel_node {
	cel_nkind k;
	int line, col;          /* 1-based, in code points */
	cel_type st;            /* static type */
	int op;                 /* cel_op, cel_fn or cel_compr */
	int slot;               /* N_VAR, N_COMPR, N_BIND: the variable's slot */
	bool receiver;          /* N_CALL: a[0] is the receiver */
	int64_t i;
	cel_str s;              /* N_STRING, N_IDENT, N_SELECT (field name) */
	const cel_re *re;       /* N_CALL matches/find: the compiled pattern */
	cel_val cv;             /* N_CONST */
	cel_node **a;           /* operands / arguments */
	int na;
};

struct pk_cel_program {
	pk_arena arena;
	cel_node *root;
	int nvars;
};

/* Zeroed memory of a program, freed with it (out of memory ends the run,
 * base/alloc.h: the NULL checks of its callers never fire). */
void *cel_alloc(pk_cel_program *p, size_t size);

/* Parser: the tree, checked; false with a message in err. */
bool cel_parse(pk_cel_program *p, const char *expr, char *err, size_t errsize, int *line, int *col);

/* Library (cel_lib.c). */
bool cel_semver_parse(cel_str s, bool normalize, cel_version *v, const char **why);
int cel_semver_cmp(const cel_version *a, const cel_version *b);
/* Compiles pattern; NULL with a message in why (what it does not support). */
cel_re *cel_re_compile(pk_cel_program *p, cel_str pattern, char *why, size_t whysize);
/* Leftmost-first match of re in s: 1 with its start and length, 0 when
 * none; -2 when *steps (the work, charged to the cost) passes budget; -3
 * when s is longer than the matcher takes (CEL_RE_MAX_SUBJECT bytes). */
int cel_re_find(const cel_re *re, cel_str s, size_t *start, size_t *len, uint64_t *steps, uint64_t budget);
#define CEL_RE_MAX_SUBJECT 1024

/* One evaluation (cel_eval.c): the device, the cost so far, the macro
 * variables, and the arenas of list elements and made strings. */
typedef struct cel_ev {
	const pk_cel_device *d;
	uint64_t cost;
	char *err;
	size_t errsize;
	cel_val vars[CEL_MAX_VARS];
	int nvals;
	size_t nchars;
	cel_val vals[CEL_MAX_VALS];
	char chars[CEL_MAX_CHARS];
} cel_ev;

bool cel_efail(cel_ev *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool cel_charge(cel_ev *e, uint64_t units);            /* false: the cost limit */
bool cel_new_list(cel_ev *e, int n, cel_val *out);
char *cel_new_chars(cel_ev *e, size_t n);
bool cel_equal(cel_ev *e, const cel_val *a, const cel_val *b, bool *eq);
/* Folds n, a call of quantity(), semver(), isQuantity() or isSemver() on
 * literals, into N_CONST when it evaluates without error (an error stays
 * for the evaluation, as upstream reports it there). */
void cel_fold(cel_node *n);
/* Function fn (checked: the overload exists) on its evaluated operands. */
bool cel_call(cel_ev *e, int fn, const cel_re *re, const cel_val *recv, const cel_val *args, int nargs, cel_val *out);
const char *cel_fn_name(int fn);

int cel_utf8_len(const unsigned char *s, size_t n);  /* bytes of the code point at s, 0 if invalid */

#endif
