/* The CEL interpreter's library values: semantic versions as DRA's
 * semverlib parses them (blang/semver's strict Parse; with normalize, a "v"
 * prefix, missing minor/patch and leading zeros allowed), and the subset of
 * RE2 that matches() and find() accept here: literals, '.', classes, \d \w
 * \s and their negations, ^ $, and the quantifiers * + ? {n,m} (greedy or
 * lazy). Groups, alternation and Unicode classes are refused by name. A
 * backtracking matcher gives RE2's answers for this subset (leftmost-first,
 * as RE2 does for Perl syntax); its steps are charged to the cost. */
#include "k8s/cel_int.h"

#include <stdio.h>
#include <string.h>

static bool all_digits(cel_str s)
{
	if (s.n == 0)
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
	return true;
}

static bool ident_chars(cel_str s)
{
	if (s.n == 0)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'))
			return false;
	}
	return true;
}

static bool parse_u64(cel_str s, uint64_t *v)
{
	*v = 0;
	for (size_t i = 0; i < s.n; i++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(s.p[i] - '0');
	}
	return true;
}

/* Dot-separated identifiers of a prerelease or build: each non-empty, of
 * [0-9A-Za-z-]; a prerelease's numeric ones without leading zeros. */
static bool valid_idents(cel_str s, bool pre, const char **why)
{
	size_t start = 0;
	for (size_t i = 0; i <= s.n; i++) {
		if (i < s.n && s.p[i] != '.')
			continue;
		cel_str id = {s.p + start, i - start};
		if (id.n == 0) {
			*why = pre ? "Prerelease is empty" : "Build meta data is empty";
			return false;
		}
		if (!ident_chars(id)) {
			*why = pre ? "Invalid character(s) found in prerelease" : "Invalid character(s) found in build meta data";
			return false;
		}
		if (pre && all_digits(id) && id.n > 1 && id.p[0] == '0') {
			*why = "Numeric PreRelease version must not contain leading zeroes";
			return false;
		}
		start = i + 1;
	}
	return true;
}

bool cel_semver_parse(cel_str s, bool normalize, cel_version *v, const char **why)
{
	*v = (cel_version){0};
	if (s.n == 0) {
		*why = "Version string empty";
		return false;
	}
	if (normalize && s.p[0] == 'v') {
		s.p++;
		s.n--;
	}
	size_t core = 0;
	while (core < s.n && s.p[core] != '-' && s.p[core] != '+')
		core++;
	cel_str parts[3];
	int np = 0;
	size_t start = 0;
	for (size_t i = 0; i <= core; i++) {
		if (i < core && s.p[i] != '.')
			continue;
		if (np == 3) {
			*why = "No Major.Minor.Patch elements found";
			return false;
		}
		parts[np++] = (cel_str){s.p + start, i - start};
		start = i + 1;
	}
	if (np < 3 && !normalize) {
		*why = "No Major.Minor.Patch elements found";
		return false;
	}
	uint64_t *num[] = {&v->major, &v->minor, &v->patch};
	for (int i = 0; i < np; i++) {
		if (!all_digits(parts[i])) {
			*why = i == 0 ? "Invalid character(s) found in major number"
			     : i == 1 ? "Invalid character(s) found in minor number" : "Invalid character(s) found in patch number";
			return false;
		}
		if (!normalize && parts[i].n > 1 && parts[i].p[0] == '0') {
			*why = i == 0 ? "Major number must not contain leading zeroes"
			     : i == 1 ? "Minor number must not contain leading zeroes" : "Patch number must not contain leading zeroes";
			return false;
		}
		if (!parse_u64(parts[i], num[i])) {
			*why = i == 0 ? "major number out of range" : "version number out of range";
			return false;
		}
	}
	cel_str rest = {s.p + core, s.n - core};
	if (rest.n > 0 && rest.p[0] == '-') {
		size_t e = 1;
		while (e < rest.n && rest.p[e] != '+')
			e++;
		v->pre = (cel_str){rest.p + 1, e - 1};
		if (!valid_idents(v->pre, true, why))
			return false;
		rest.p += e;
		rest.n -= e;
	}
	if (rest.n > 0 && !valid_idents((cel_str){rest.p + 1, rest.n - 1}, false, why))
		return false;
	return true;
}

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

/* Precedence of prerelease identifiers (semver 2.0.0 §11). */
static int cmp_pre(cel_str a, cel_str b)
{
	if (a.n == 0 || b.n == 0)
		return a.n == 0 && b.n == 0 ? 0 : a.n == 0 ? 1 : -1;
	size_t i = 0, j = 0;
	while (i <= a.n && j <= b.n) {
		size_t ie = i, je = j;
		while (ie < a.n && a.p[ie] != '.')
			ie++;
		while (je < b.n && b.p[je] != '.')
			je++;
		cel_str x = {a.p + i, ie - i}, y = {b.p + j, je - j};
		bool xn = all_digits(x), yn = all_digits(y);
		int c;
		if (xn && yn) {
			uint64_t u, w;
			parse_u64(x, &u);
			parse_u64(y, &w);
			c = cmp_u64(u, w);
		} else if (xn != yn) {
			c = xn ? -1 : 1;
		} else {
			int m = memcmp(x.p, y.p, x.n < y.n ? x.n : y.n);
			c = m != 0 ? (m < 0 ? -1 : 1) : cmp_u64(x.n, y.n);
		}
		if (c != 0)
			return c;
		i = ie + 1;
		j = je + 1;
		if (i > a.n || j > b.n)
			return i > a.n && j > b.n ? 0 : i > a.n ? -1 : 1;
	}
	return 0;
}

int cel_semver_cmp(const cel_version *a, const cel_version *b)
{
	int c = cmp_u64(a->major, b->major);
	if (c == 0)
		c = cmp_u64(a->minor, b->minor);
	if (c == 0)
		c = cmp_u64(a->patch, b->patch);
	return c != 0 ? c : cmp_pre(a->pre, b->pre);
}

/* ---- regular expressions ---- */

typedef enum { RI_CHAR, RI_ANY, RI_CLASS, RI_BOL, RI_EOL } ri_kind;

typedef struct re_item {
	ri_kind k;
	unsigned char c[4];
	int clen;
	unsigned char set[16];  /* ASCII only */
	bool neg;               /* a negated class also matches every non-ASCII code point */
	int min, max;           /* max -1: unbounded */
	bool lazy;
} re_item;

struct cel_re {
	re_item *items;
	int n;
};


static void set_add(re_item *it, int lo, int hi)
{
	for (int c = lo; c <= hi; c++)
		it->set[c >> 3] |= (unsigned char)(1u << (c & 7));
}

/* \d \w \s (and \D \W \S as negations) into it; false for other letters. */
static bool perl_class(re_item *it, char e, bool *negated)
{
	char l = e >= 'A' && e <= 'Z' ? (char)(e + 32) : e;
	*negated = e != l;
	if (l == 'd') {
		set_add(it, '0', '9');
	} else if (l == 'w') {
		set_add(it, '0', '9');
		set_add(it, 'a', 'z');
		set_add(it, 'A', 'Z');
		set_add(it, '_', '_');
	} else if (l == 's') {
		set_add(it, '\t', '\n');
		set_add(it, '\f', '\r');
		set_add(it, ' ', ' ');
	} else {
		return false;
	}
	return true;
}

static int simple_escape(char e)
{
	switch (e) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'a': return '\a';
	default:
		if (e > ' ' && e < 0x7f && !((e >= '0' && e <= '9') || (e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z')))
			return e;
		return -1;
	}
}

static bool refuse(char *why, size_t whysize, const char *what)
{
	snprintf(why, whysize, "not supported by this interpreter: %s in a regular expression", what);
	return false;
}

static bool parse_class(const char **pp, const char *end, re_item *it, char *why, size_t whysize)
{
	const char *p = *pp + 1;
	it->k = RI_CLASS;
	if (p < end && *p == '^') {
		it->neg = true;
		p++;
	}
	bool first = true;
	while (p < end && (*p != ']' || first)) {
		first = false;
		int lo;
		if ((unsigned char)*p >= 0x80)
			return refuse(why, whysize, "a non-ASCII character in a class");
		if (*p == '[' && p + 1 < end && p[1] == ':')
			return refuse(why, whysize, "a POSIX class [[:name:]]");
		if (*p == '\\') {
			if (p + 1 >= end)
				return snprintf(why, whysize, "error parsing regexp: trailing backslash at end of expression"), false;
			bool neg;
			if (perl_class(it, p[1], &neg)) {
				if (neg)
					return refuse(why, whysize, "a negated Perl class inside [ ]");
				p += 2;
				continue;
			}
			if ((lo = simple_escape(p[1])) < 0)
				return refuse(why, whysize, "this escape inside [ ]");
			p += 2;
		} else {
			lo = (unsigned char)*p++;
		}
		int hi = lo;
		if (p + 1 < end && *p == '-' && p[1] != ']') {
			p++;
			if (*p == '\\') {
				if (p + 1 >= end || (hi = simple_escape(p[1])) < 0)
					return refuse(why, whysize, "this escape inside [ ]");
				p += 2;
			} else if ((unsigned char)*p >= 0x80) {
				return refuse(why, whysize, "a non-ASCII character in a class");
			} else {
				hi = (unsigned char)*p++;
			}
			if (hi < lo)
				return snprintf(why, whysize, "error parsing regexp: invalid character class range"), false;
		}
		set_add(it, lo, hi);
	}
	if (p >= end)
		return snprintf(why, whysize, "error parsing regexp: missing closing ]"), false;
	*pp = p + 1;
	return true;
}

/* {n}, {n,}, {n,m}; false (a literal '{', as RE2 reads it) when not one. */
static bool parse_repeat(const char **pp, const char *end, int *min, int *max)
{
	const char *p = *pp + 1;
	int a = 0, b;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9' && a <= 1001)
		a = a * 10 + (*p++ - '0');
	b = a;
	if (p < end && *p == ',') {
		p++;
		b = -1;
		if (p < end && *p >= '0' && *p <= '9')
			for (b = 0; p < end && *p >= '0' && *p <= '9' && b <= 1001; p++)
				b = b * 10 + (*p - '0');
	}
	if (p >= end || *p != '}')
		return false;
	*min = a;
	*max = b;
	*pp = p + 1;
	return true;
}

static bool parse_atom(const char **pp, const char *end, re_item *it, char *why, size_t whysize)
{
	const char *p = *pp;
	char c = *p;
	if (c == '(' || c == ')')
		return refuse(why, whysize, "a group ( )");
	if (c == '|')
		return refuse(why, whysize, "alternation |");
	if (c == '*' || c == '+' || c == '?')
		return snprintf(why, whysize, "error parsing regexp: missing argument to repetition operator: `%c`", c), false;
	if (c == '[')
		return parse_class(pp, end, it, why, whysize);
	if (c == '.') {
		it->k = RI_ANY;
	} else if (c == '^' || c == '$') {
		it->k = c == '^' ? RI_BOL : RI_EOL;
	} else if (c == '\\') {
		if (p + 1 >= end)
			return snprintf(why, whysize, "error parsing regexp: trailing backslash at end of expression"), false;
		bool neg;
		int e;
		if (perl_class(it, p[1], &neg)) {
			it->k = RI_CLASS;
			it->neg = neg;
		} else if ((e = simple_escape(p[1])) >= 0) {
			it->k = RI_CHAR;
			it->c[0] = (unsigned char)e;
			it->clen = 1;
		} else {
			char what[40];
			snprintf(what, sizeof what, "the escape \\%c", p[1] > ' ' && p[1] < 0x7f ? p[1] : '?');
			return refuse(why, whysize, what);
		}
		*pp = p + 2;
		return true;
	} else {
		int n = cel_utf8_len((const unsigned char *)p, (size_t)(end - p));
		it->k = RI_CHAR;
		it->clen = n > 0 ? n : 1;
		memcpy(it->c, p, (size_t)it->clen);
		*pp = p + it->clen;
		return true;
	}
	*pp = p + 1;
	return true;
}

cel_re *cel_re_compile(pk_cel_program *prog, cel_str pattern, char *why, size_t whysize)
{
	cel_re *re = cel_alloc(prog, sizeof *re);
	if (!re || !(re->items = cel_alloc(prog, (pattern.n + 1) * sizeof *re->items))) {
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	const char *p = pattern.p, *end = pattern.p + pattern.n;
	if (pattern.n >= 2 && p[0] == '(' && p[1] == '?')
		return refuse(why, whysize, "flags (?...)"), NULL;
	while (p < end) {
		re_item *it = &re->items[re->n];
		*it = (re_item){.min = 1, .max = 1};
		if (!parse_atom(&p, end, it, why, whysize))
			return NULL;
		re->n++;
		int min = 1, max = 1;
		bool quantified = false;
		if (p < end && (*p == '*' || *p == '+' || *p == '?')) {
			min = *p == '+';
			max = *p == '?' ? 1 : -1;
			p++;
			quantified = true;
		} else if (p < end && *p == '{') {
			quantified = parse_repeat(&p, end, &min, &max);
		}
		if (!quantified)
			continue;
		if (min > 1000 || max > 1000 || (max >= 0 && max < min))
			return snprintf(why, whysize, "error parsing regexp: invalid repeat count"), NULL;
		if (it->k == RI_BOL || it->k == RI_EOL)
			return refuse(why, whysize, "a repeated anchor"), NULL;
		it->min = min;
		it->max = max;
		if (p < end && *p == '?') {
			it->lazy = true;
			p++;
		}
		if (p < end && (*p == '*' || *p == '+' || *p == '?'))
			return snprintf(why, whysize, "error parsing regexp: invalid nested repetition operator"), NULL;
	}
	return re;
}

/* Bytes the item's atom matches at s[pos], or -1. */
static int atom_at(const re_item *it, cel_str s, size_t pos)
{
	if (pos >= s.n)
		return -1;
	unsigned char c = (unsigned char)s.p[pos];
	int cp = cel_utf8_len((const unsigned char *)s.p + pos, s.n - pos);
	if (cp == 0)
		cp = 1; /* RE2 reads an invalid byte as U+FFFD */
	switch (it->k) {
	case RI_CHAR:
		return pos + (size_t)it->clen <= s.n && memcmp(s.p + pos, it->c, (size_t)it->clen) == 0 ? it->clen : -1;
	case RI_ANY:
		return c == '\n' ? -1 : cp;
	case RI_CLASS:
		if (c >= 0x80)
			return it->neg ? cp : -1;
		return ((it->set[c >> 3] >> (c & 7)) & 1) != it->neg ? 1 : -1;
	default:
		return -1;
	}
}

typedef struct re_run { const cel_re *re; cel_str s; uint64_t *steps; uint64_t budget; } re_run;

static long match_from(re_run *r, int i, size_t pos);

/* Item i repeated count times so far, ending at pos. */
static long repeat(re_run *r, int i, size_t pos, int count)
{
	const re_item *it = &r->re->items[i];
	if (++*r->steps > r->budget)
		return -2;
	long got;
	if (it->lazy && count >= it->min && (got = match_from(r, i + 1, pos)) != -1)
		return got;
	int len;
	if ((it->max < 0 || count < it->max) && (len = atom_at(it, r->s, pos)) > 0) {
		got = repeat(r, i, pos + (size_t)len, count + 1);
		if (got != -1)
			return got;
	}
	if (!it->lazy && count >= it->min)
		return match_from(r, i + 1, pos);
	return -1;
}

static long match_from(re_run *r, int i, size_t pos)
{
	if (++*r->steps > r->budget)
		return -2;
	if (i == r->re->n)
		return (long)pos;
	const re_item *it = &r->re->items[i];
	if (it->k == RI_BOL)
		return pos == 0 ? match_from(r, i + 1, pos) : -1;
	if (it->k == RI_EOL)
		return pos == r->s.n ? match_from(r, i + 1, pos) : -1;
	return repeat(r, i, pos, 0);
}

int cel_re_find(const cel_re *re, cel_str s, size_t *start, size_t *len, uint64_t *steps, uint64_t budget)
{
	if (s.n > CEL_RE_MAX_SUBJECT)
		return -3;
	re_run r = {re, s, steps, budget};
	for (size_t pos = 0; pos <= s.n;) {
		long end = match_from(&r, 0, pos);
		if (end == -2)
			return -2;
		if (end >= 0) {
			*start = pos;
			*len = (size_t)end - pos;
			return 1;
		}
		if (pos == s.n)
			break;
		int cp = cel_utf8_len((const unsigned char *)s.p + pos, s.n - pos);
		pos += cp > 0 ? (size_t)cp : 1;
	}
	return 0;
}
