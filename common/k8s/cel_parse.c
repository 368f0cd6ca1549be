/* CEL's grammar (cel-spec langdef.md) for DRA's device selectors: lexer and
 * recursive-descent parser into a raw tree, which cel_check.c resolves and
 * types. What CEL has but this interpreter does not (doubles, uints, bytes,
 * null, map literals, messages) is refused by name with its position. */
#include "k8s/cel_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
	K_EOF, K_IDENT, K_INT, K_STRING, K_PUNCT,
} tkind;

typedef struct token {
	tkind k;
	const char *p;           /* K_PUNCT: the operator text; K_IDENT: the name */
	size_t n;
	uint64_t i;              /* K_INT: magnitude */
	cel_str s;               /* K_STRING: decoded text (program memory) */
	int line, col;
} token;

typedef struct parser {
	pk_cel_program *prog;
	const char *src, *cur, *end;   /* end: the NUL */
	int line, col;           /* of cur */
	token t;                 /* the current token */
	int depth;
	char *err;
	size_t errsize;
	int eline, ecol;
	bool failed;
} parser;

static bool fail_at(parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool fail_at(parser *ps, int line, int col, const char *fmt, ...)
{
	if (ps->failed)
		return false;
	ps->failed = true;
	ps->eline = line;
	ps->ecol = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errsize, fmt, ap);
	va_end(ap);
	return false;
}

int cel_utf8_len(const unsigned char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	int len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
	if (len == 0 || (size_t)len > n)
		return 0;
	for (int i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	uint32_t c = len == 2 ? (s[0] & 0x1Fu) : len == 3 ? (s[0] & 0x0Fu) : (s[0] & 0x07u);
	for (int i = 1; i < len; i++)
		c = c << 6 | (s[i] & 0x3Fu);
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return len;
}

/* Moves past one code point (checked by the caller). */
static void advance(parser *ps, int bytes)
{
	if (*ps->cur == '\n') {
		ps->line++;
		ps->col = 1;
	} else {
		ps->col++;
	}
	ps->cur += bytes;
}

static size_t left(const parser *ps) { return (size_t)(ps->end - ps->cur); }

static bool skip_space(parser *ps)
{
	for (;;) {
		char c = *ps->cur;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(ps, 1);
		} else if (c == '/' && ps->cur[1] == '/') {
			while (*ps->cur && *ps->cur != '\n') {
				int n = cel_utf8_len((const unsigned char *)ps->cur, left(ps));
				if (n == 0)
					return fail_at(ps, ps->line, ps->col, "invalid UTF-8 in a comment");
				advance(ps, n);
			}
		} else {
			return true;
		}
	}
}

static void put_utf8(char *out, size_t *o, uint32_t c)
{
	if (c < 0x80) {
		out[(*o)++] = (char)c;
	} else if (c < 0x800) {
		out[(*o)++] = (char)(0xC0 | c >> 6);
		out[(*o)++] = (char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		out[(*o)++] = (char)(0xE0 | c >> 12);
		out[(*o)++] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[(*o)++] = (char)(0x80 | (c & 0x3F));
	} else {
		out[(*o)++] = (char)(0xF0 | c >> 18);
		out[(*o)++] = (char)(0x80 | ((c >> 12) & 0x3F));
		out[(*o)++] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[(*o)++] = (char)(0x80 | (c & 0x3F));
	}
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* One escape sequence after the backslash; appends its text. */
static bool lex_escape(parser *ps, char *out, size_t *o)
{
	int line = ps->line, col = ps->col - 1;
	char c = *ps->cur;
	const char *simple = "\\\\\"\"''``??a\ab\bf\fn\nr\rt\tv\v";
	for (const char *q = simple; *q; q += 2)
		if (c == q[0]) {
			out[(*o)++] = q[1];
			advance(ps, 1);
			return true;
		}
	int digits = c == 'x' || c == 'X' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : c >= '0' && c <= '3' ? 3 : 0;
	if (digits == 0)
		return fail_at(ps, line, col, "Syntax error: invalid escape sequence '\\%c' in a string", c >= ' ' && c < 0x7f ? c : '?');
	bool octal = c >= '0' && c <= '3';
	uint32_t v = 0;
	if (!octal)
		advance(ps, 1);
	for (int i = 0; i < digits; i++) {
		char d = *ps->cur;
		int h = octal ? (d >= '0' && d <= '7' ? d - '0' : -1) : hexval(d);
		if (h < 0)
			return fail_at(ps, line, col, "Syntax error: invalid escape sequence in a string");
		v = v * (octal ? 8 : 16) + (uint32_t)h;
		advance(ps, 1);
	}
	if (digits == 2 || octal) {
		if (v >= 0x80) /* a byte, not a code point: only meaningful in bytes literals */
			return fail_at(ps, line, col, "not supported: escape of a non-ASCII byte in a string (bytes literals)");
	} else if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		return fail_at(ps, line, col, "Syntax error: invalid Unicode code point in escape");
	}
	put_utf8(out, o, v);
	return true;
}

/* Bytes of a string literal's body from s up to its closing quote (or to
 * where it breaks off unterminated). */
static size_t literal_span(const char *s, char q, bool triple, bool raw)
{
	const char *p = s;
	while (*p) {
		if (!raw && *p == '\\' && p[1]) {
			p += 2;
			continue;
		}
		if (*p == q && (!triple || (p[1] == q && p[2] == q)))
			break;
		if (!triple && (*p == '\n' || *p == '\r'))
			break;
		p++;
	}
	return (size_t)(p - s);
}

static bool lex_string(parser *ps, bool raw)
{
	int line = ps->line, col = ps->col;
	if (raw)
		advance(ps, 1);
	char q = *ps->cur;
	bool triple = ps->cur[1] == q && ps->cur[2] == q;
	for (int i = 0; i < (triple ? 3 : 1); i++)
		advance(ps, 1);
	size_t cap = literal_span(ps->cur, q, triple, raw) + 1; /* decoding never lengthens */
	char *out = cel_alloc(ps->prog, cap);
	if (!out)
		return fail_at(ps, line, col, "out of memory");
	size_t o = 0;
	for (;;) {
		char c = *ps->cur;
		if (c == '\0' || (!triple && (c == '\n' || c == '\r')))
			return fail_at(ps, line, col, "Syntax error: unterminated string");
		if (c == q && (!triple || (ps->cur[1] == q && ps->cur[2] == q))) {
			for (int i = 0; i < (triple ? 3 : 1); i++)
				advance(ps, 1);
			break;
		}
		if (c == '\\' && !raw) {
			advance(ps, 1);
			if (!lex_escape(ps, out, &o))
				return false;
			continue;
		}
		int n = cel_utf8_len((const unsigned char *)ps->cur, left(ps));
		if (n == 0)
			return fail_at(ps, ps->line, ps->col, "invalid UTF-8 in a string literal");
		memcpy(out + o, ps->cur, (size_t)n);
		o += (size_t)n;
		advance(ps, n);
	}
	out[o] = '\0';
	ps->t.k = K_STRING;
	ps->t.s = (cel_str){out, o};
	return true;
}

static bool lex_number(parser *ps)
{
	const char *s = ps->cur;
	int col = ps->col;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	const char *e = d;
	while (hex ? hexval(*e) >= 0 : (*e >= '0' && *e <= '9'))
		e++;
	if (e == d)
		return fail_at(ps, ps->line, col, "Syntax error: invalid hexadecimal literal");
	if (!hex && (*e == '.' || *e == 'e' || *e == 'E'))
		return fail_at(ps, ps->line, col, "not supported by this interpreter: double literals");
	if (*e == 'u' || *e == 'U')
		return fail_at(ps, ps->line, col, "not supported by this interpreter: unsigned integer literals (uint)");
	if ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || *e == '_')
		return fail_at(ps, ps->line, col, "Syntax error: invalid number literal");
	uint64_t v = 0;
	for (const char *p = d; p < e; p++) {
		unsigned dig = (unsigned)(hex ? hexval(*p) : *p - '0');
		unsigned base = hex ? 16 : 10;
		if (v > (UINT64_MAX - dig) / base)
			return fail_at(ps, ps->line, col, "invalid int literal: out of range");
		v = v * base + dig;
	}
	if (v > (uint64_t)INT64_MAX + 1)
		return fail_at(ps, ps->line, col, "invalid int literal: out of range");
	ps->t.k = K_INT;
	ps->t.i = v;
	while (ps->cur < e)
		advance(ps, 1);
	return true;
}

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static bool next(parser *ps)
{
	if (!skip_space(ps))
		return false;
	ps->t = (token){.line = ps->line, .col = ps->col, .p = ps->cur};
	char c = *ps->cur;
	if (c == '\0') {
		ps->t.k = K_EOF;
		return true;
	}
	if ((c == 'r' || c == 'R') && (ps->cur[1] == '"' || ps->cur[1] == '\''))
		return lex_string(ps, true);
	if ((c == 'b' || c == 'B') && (ps->cur[1] == '"' || ps->cur[1] == '\'' ||
	    ((ps->cur[1] == 'r' || ps->cur[1] == 'R') && (ps->cur[2] == '"' || ps->cur[2] == '\''))))
		return fail_at(ps, ps->line, ps->col, "not supported by this interpreter: bytes literals");
	if (c == '"' || c == '\'')
		return lex_string(ps, false);
	if (c >= '0' && c <= '9')
		return lex_number(ps);
	if (is_ident_start(c)) {
		const char *e = ps->cur;
		while (is_ident_char(*e))
			e++;
		ps->t.k = K_IDENT;
		ps->t.n = (size_t)(e - ps->cur);
		while (ps->cur < e)
			advance(ps, 1);
		return true;
	}
	static const char *const ops[] = {"&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "+", "-", "*", "/",
					  "%", "?", ":", ".", ",", "(", ")", "[", "]", "{", "}", NULL};
	for (int i = 0; ops[i]; i++) {
		size_t n = strlen(ops[i]);
		if (strncmp(ps->cur, ops[i], n) == 0) {
			ps->t.k = K_PUNCT;
			ps->t.p = ops[i];
			ps->t.n = n;
			for (size_t j = 0; j < n; j++)
				advance(ps, 1);
			return true;
		}
	}
	int n = cel_utf8_len((const unsigned char *)ps->cur, left(ps));
	if (n == 0)
		return fail_at(ps, ps->line, ps->col, "invalid UTF-8");
	if (c == '=' || c == '&' || c == '|')
		return fail_at(ps, ps->line, ps->col, "Syntax error: token recognition error at: '%c' (CEL writes ==, &&, ||)", c);
	return fail_at(ps, ps->line, ps->col, "Syntax error: token recognition error at: '%.*s'", n, ps->cur);
}

static bool is_punct(const parser *ps, const char *op)
{
	return ps->t.k == K_PUNCT && strcmp(ps->t.p, op) == 0;
}

static bool is_word(const parser *ps, const char *w)
{
	return ps->t.k == K_IDENT && ps->t.n == strlen(w) && strncmp(ps->t.p, w, ps->t.n) == 0;
}

static bool unexpected(parser *ps)
{
	if (ps->t.k == K_EOF)
		return fail_at(ps, ps->t.line, ps->t.col, "Syntax error: unexpected end of expression");
	int n = ps->t.k == K_PUNCT || ps->t.k == K_IDENT ? (int)ps->t.n : 1;
	if (ps->t.k == K_STRING)
		return fail_at(ps, ps->t.line, ps->t.col, "Syntax error: unexpected string literal");
	if (ps->t.k == K_INT)
		return fail_at(ps, ps->t.line, ps->t.col, "Syntax error: unexpected number");
	return fail_at(ps, ps->t.line, ps->t.col, "Syntax error: mismatched input '%.*s'", n, ps->t.p);
}

static bool expect(parser *ps, const char *op)
{
	if (!is_punct(ps, op)) {
		if (ps->failed)
			return false;
		unexpected(ps);
		snprintf(ps->err + strlen(ps->err), ps->errsize - strlen(ps->err), " expecting '%s'", op);
		return false;
	}
	return next(ps);
}

static cel_node *node(parser *ps, cel_nkind k, int line, int col, int na)
{
	cel_node *n = cel_alloc(ps->prog, sizeof *n);
	if (n && na > 0)
		n->a = cel_alloc(ps->prog, (size_t)na * sizeof *n->a);
	if (!n || (na > 0 && !n->a)) {
		fail_at(ps, line, col, "out of memory");
		return NULL;
	}
	n->k = k;
	n->line = line;
	n->col = col;
	n->na = na;
	return n;
}

static cel_node *parse_expr(parser *ps);

/* Comma-separated expressions up to close; into a grown array. */
static bool parse_list(parser *ps, const char *close, cel_node ***out, int *count, cel_node *first)
{
	int cap = 4, n = 0;
	cel_node **v = cel_alloc(ps->prog, (size_t)cap * sizeof *v);
	if (!v)
		return fail_at(ps, ps->t.line, ps->t.col, "out of memory");
	if (first)
		v[n++] = first;
	bool need_comma = false;
	while (!is_punct(ps, close)) {
		if (need_comma && !expect(ps, ","))
			return false;
		if (need_comma && is_punct(ps, close)) /* a trailing comma */
			break;
		cel_node *e = parse_expr(ps);
		if (!e)
			return false;
		if (n == cap) {
			cel_node **w = cel_alloc(ps->prog, (size_t)cap * 2 * sizeof *w);
			if (!w)
				return fail_at(ps, ps->t.line, ps->t.col, "out of memory");
			memcpy(w, v, (size_t)n * sizeof *v);
			v = w;
			cap *= 2;
		}
		v[n++] = e;
		need_comma = true;
	}
	*out = v;
	*count = n;
	return next(ps);
}

static cel_node *parse_call(parser *ps, cel_node *receiver, cel_str name, int line, int col)
{
	cel_node **args;
	int n;
	if (!next(ps) || !parse_list(ps, ")", &args, &n, receiver))
		return NULL;
	cel_node *c = node(ps, N_CALL, line, col, 0);
	if (!c)
		return NULL;
	c->s = name;
	c->a = args;
	c->na = n;
	c->receiver = receiver != NULL;
	return c;
}

static const char *const reserved[] = {"as", "break", "const", "continue", "else", "for", "function", "if",
				       "import", "let", "loop", "package", "namespace", "return", "var", "void",
				       "while", NULL};

static cel_node *parse_primary(parser *ps)
{
	int line = ps->t.line, col = ps->t.col;
	cel_node *n = NULL;
	if (ps->t.k == K_INT) {
		if (ps->t.i > (uint64_t)INT64_MAX) {
			fail_at(ps, line, col, "invalid int literal: out of range");
			return NULL;
		}
		if ((n = node(ps, N_INT, line, col, 0)))
			n->i = (int64_t)ps->t.i;
	} else if (ps->t.k == K_STRING) {
		if ((n = node(ps, N_STRING, line, col, 0)))
			n->s = ps->t.s;
	} else if (is_word(ps, "true") || is_word(ps, "false")) {
		if ((n = node(ps, N_BOOL, line, col, 0)))
			n->i = is_word(ps, "true");
	} else if (is_word(ps, "null")) {
		fail_at(ps, line, col, "not supported by this interpreter: null");
		return NULL;
	} else if (ps->t.k == K_IDENT) {
		for (int i = 0; reserved[i]; i++)
			if (is_word(ps, reserved[i])) {
				fail_at(ps, line, col, "Syntax error: reserved identifier: %s", reserved[i]);
				return NULL;
			}
		if (is_word(ps, "in")) {
			unexpected(ps);
			return NULL;
		}
		cel_str name = {ps->t.p, ps->t.n};
		if (!next(ps))
			return NULL;
		if (is_punct(ps, "("))
			return parse_call(ps, NULL, name, line, col);
		if (is_punct(ps, "{")) {
			fail_at(ps, line, col, "not supported by this interpreter: message construction");
			return NULL;
		}
		if ((n = node(ps, N_IDENT, line, col, 0)))
			n->s = name;
		return n;
	} else if (is_punct(ps, "(")) {
		if (!next(ps) || !(n = parse_expr(ps)) || !expect(ps, ")"))
			return NULL;
		return n;
	} else if (is_punct(ps, "[")) {
		cel_node **v;
		int cnt;
		if (!next(ps) || !parse_list(ps, "]", &v, &cnt, NULL) || !(n = node(ps, N_LIST, line, col, 0)))
			return NULL;
		n->a = v;
		n->na = cnt;
		return n;
	} else if (is_punct(ps, "{")) {
		fail_at(ps, line, col, "not supported by this interpreter: map literals");
		return NULL;
	} else if (is_punct(ps, ".")) {
		fail_at(ps, line, col, "not supported by this interpreter: leading-dot (root-scoped) identifiers");
		return NULL;
	} else {
		unexpected(ps);
		return NULL;
	}
	if (!n || !next(ps))
		return NULL;
	return n;
}

static cel_node *parse_member(parser *ps)
{
	cel_node *n = parse_primary(ps);
	while (n) {
		int line = ps->t.line, col = ps->t.col;
		if (is_punct(ps, ".")) {
			if (!next(ps))
				return NULL;
			if (ps->t.k != K_IDENT) {
				unexpected(ps);
				return NULL;
			}
			cel_str name = {ps->t.p, ps->t.n};
			line = ps->t.line;
			col = ps->t.col;
			if (!next(ps))
				return NULL;
			if (is_punct(ps, "(")) {
				n = parse_call(ps, n, name, line, col);
				continue;
			}
			cel_node *s = node(ps, N_SELECT, line, col, 1);
			if (!s)
				return NULL;
			s->a[0] = n;
			s->s = name;
			n = s;
		} else if (is_punct(ps, "[")) {
			cel_node *x = node(ps, N_INDEX, line, col, 2);
			if (!x || !next(ps) || !(x->a[1] = parse_expr(ps)) || !expect(ps, "]"))
				return NULL;
			x->a[0] = n;
			n = x;
		} else {
			break;
		}
	}
	return n;
}

static bool enter(parser *ps)
{
	if (++ps->depth > CEL_MAX_DEPTH)
		return fail_at(ps, ps->t.line, ps->t.col, "expression recursion limit exceeded: nested deeper than %d", CEL_MAX_DEPTH);
	return true;
}

static cel_node *parse_unary(parser *ps)
{
	int line = ps->t.line, col = ps->t.col;
	if (!enter(ps))
		return NULL;
	cel_node *n;
	if (is_punct(ps, "!") || is_punct(ps, "-")) {
		bool neg = is_punct(ps, "-");
		if (!next(ps))
			return NULL;
		if (neg && ps->t.k == K_INT) { /* -9223372036854775808 is a literal */
			uint64_t v = ps->t.i;
			if (!(n = node(ps, N_INT, line, col, 0)) || !next(ps))
				return NULL;
			n->i = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
			/* a member after the literal binds to it: -1.x is -(1.x), rare; refuse */
			if (is_punct(ps, ".") || is_punct(ps, "[")) {
				fail_at(ps, ps->t.line, ps->t.col, "not supported by this interpreter: member access on a negative literal");
				return NULL;
			}
		} else {
			cel_node *x = parse_unary(ps);
			if (!x || !(n = node(ps, neg ? N_NEG : N_NOT, line, col, 1)))
				return NULL;
			n->a[0] = x;
		}
	} else {
		n = parse_member(ps);
	}
	ps->depth--;
	return n;
}

static cel_node *binary(parser *ps, cel_nkind k, int op, cel_node *l, cel_node *r, int line, int col)
{
	cel_node *n = node(ps, k, line, col, 2);
	if (!n)
		return NULL;
	n->op = op;
	n->a[0] = l;
	n->a[1] = r;
	return n;
}

typedef struct opdef { const char *text; int op; } opdef;

/* One left-associative level of binary operators. */
static cel_node *parse_level(parser *ps, int level);

static const opdef levels[][8] = {
	{{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}, {"in", OP_IN}, {NULL, 0}},
	{{"+", OP_ADD}, {"-", OP_SUB}, {NULL, 0}},
	{{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {NULL, 0}},
};

static cel_node *parse_level(parser *ps, int level)
{
	if (level == 3)
		return parse_unary(ps);
	cel_node *l = parse_level(ps, level + 1);
	while (l) {
		const opdef *d = levels[level];
		while (d->text && !(strcmp(d->text, "in") == 0 ? is_word(ps, "in") : is_punct(ps, d->text)))
			d++;
		if (!d->text)
			break;
		int line = ps->t.line, col = ps->t.col;
		cel_node *r;
		if (!next(ps) || !(r = parse_level(ps, level + 1)))
			return NULL;
		l = binary(ps, N_BINARY, d->op, l, r, line, col);
	}
	return l;
}

/* a && b && c as one node of all its operands: && and || are associative
 * in CEL (errors included), and a long chain does not nest. */
static cel_node *parse_logical(parser *ps, bool is_or)
{
	const char *op = is_or ? "||" : "&&";
	cel_node *first = is_or ? parse_logical(ps, false) : parse_level(ps, 0);
	if (!first || !is_punct(ps, op))
		return first;
	cel_node *n = node(ps, is_or ? N_OR : N_AND, ps->t.line, ps->t.col, 0);
	int cap = 0;
	if (!n)
		return NULL;
	for (cel_node *x = first; x;) {
		if (n->na == cap) {
			cap = cap ? cap * 2 : 4;
			cel_node **w = cel_alloc(ps->prog, (size_t)cap * sizeof *w);
			if (!w)
				return NULL;
			if (n->na)
				memcpy(w, n->a, (size_t)n->na * sizeof *w);
			n->a = w;
		}
		n->a[n->na++] = x;
		if (!is_punct(ps, op))
			break;
		if (!next(ps) || !(x = is_or ? parse_logical(ps, false) : parse_level(ps, 0)))
			return NULL;
	}
	return n;
}

static cel_node *parse_expr(parser *ps)
{
	if (!enter(ps))
		return NULL;
	cel_node *c = parse_logical(ps, true);
	if (c && is_punct(ps, "?")) {
		cel_node *n = node(ps, N_COND, ps->t.line, ps->t.col, 3);
		if (!n || !next(ps) || !(n->a[1] = parse_logical(ps, true)) || !expect(ps, ":") || !(n->a[2] = parse_expr(ps)))
			return NULL;
		n->a[0] = c;
		c = n;
	}
	ps->depth--;
	return c;
}

bool cel_check(pk_cel_program *p, cel_node **root, char *err, size_t errsize, int *line, int *col);

bool cel_parse(pk_cel_program *p, const char *expr, char *err, size_t errsize, int *line, int *col)
{
	parser ps = {.prog = p, .src = expr, .cur = expr, .end = expr + strlen(expr), .line = 1, .col = 1, .err = err, .errsize = errsize};
	cel_node *root = NULL;
	if (next(&ps) && (root = parse_expr(&ps)) && ps.t.k != K_EOF)
		unexpected(&ps);
	if (ps.failed || !root) {
		if (!ps.failed)
			fail_at(&ps, ps.t.line, ps.t.col, "Syntax error");
		*line = ps.eline;
		*col = ps.ecol;
		return false;
	}
	if (!cel_check(p, &root, err, errsize, line, col))
		return false;
	p->root = root;
	return true;
}
