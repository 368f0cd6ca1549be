/* The functions a DRA selector may call, on evaluated operands whose
 * overload cel_overload() has accepted: CEL's standard size/int/string and
 * string functions, the Kubernetes extended strings (lowerAscii, upperAscii,
 * split) and regex (find) libraries, DRA's semver library and the Kubernetes
 * quantity library (with quantities as exact milli-units, quantity.h). */
#include "k8s/cel_int.h"
#include "k8s/quantity.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int sign_of(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static bool find_str(cel_str hay, cel_str needle, size_t from, size_t *at)
{
	for (size_t i = from; i + needle.n <= hay.n; i++)
		if (memcmp(hay.p + i, needle.p, needle.n) == 0) {
			*at = i;
			return true;
		}
	return false;
}

static bool split(cel_ev *e, cel_str s, cel_str sep, cel_val *out)
{
	/* count first, so that the elements are contiguous in the arena */
	int n = 0;
	size_t at, pos = 0;
	if (sep.n == 0) {
		for (pos = 0; pos < s.n; n++) {
			int cp = cel_utf8_len((const unsigned char *)s.p + pos, s.n - pos);
			pos += cp > 0 ? (size_t)cp : 1;
		}
	} else {
		for (n = 1; find_str(s, sep, pos, &at); n++)
			pos = at + sep.n;
	}
	if (!cel_new_list(e, n, out))
		return false;
	pos = 0;
	for (int i = 0; i < n; i++) {
		cel_val *v = &e->vals[out->u.l.off + i];
		size_t end;
		if (sep.n == 0) {
			int cp = cel_utf8_len((const unsigned char *)s.p + pos, s.n - pos);
			end = pos + (cp > 0 ? (size_t)cp : 1);
		} else {
			end = find_str(s, sep, pos, &at) ? at : s.n;
		}
		*v = (cel_val){.t = T_STRING, .u.s = {s.p + pos, end - pos}};
		pos = end + sep.n;
	}
	return cel_charge(e, (uint64_t)s.n / 10);
}

static bool change_case(cel_ev *e, cel_str s, bool upper, cel_val *out)
{
	char *p = cel_new_chars(e, s.n);
	if (!p)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (upper && c >= 'a' && c <= 'z')
			c = (char)(c - 32);
		else if (!upper && c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		p[i] = c;
	}
	*out = (cel_val){.t = T_STRING, .u.s = {p, s.n}};
	return cel_charge(e, (uint64_t)s.n / 10);
}

static bool to_int(cel_ev *e, const cel_val *v, cel_val *out)
{
	if (v->t == T_INT) {
		*out = *v;
		return true;
	}
	cel_str s = v->u.s;
	size_t i = 0;
	bool neg = s.n > 0 && (s.p[0] == '-' || s.p[0] == '+') ? s.p[i++] == '-' : false;
	uint64_t m = 0;
	if (i == s.n)
		return cel_efail(e, "strconv.ParseInt: parsing \"%.*s\": invalid syntax", (int)s.n, s.p);
	for (; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return cel_efail(e, "strconv.ParseInt: parsing \"%.*s\": invalid syntax", (int)s.n, s.p);
		if (m > ((uint64_t)INT64_MAX + 1 - (uint64_t)(s.p[i] - '0')) / 10)
			return cel_efail(e, "strconv.ParseInt: parsing \"%.*s\": value out of range", (int)s.n, s.p);
		m = m * 10 + (uint64_t)(s.p[i] - '0');
	}
	if (!neg && m > (uint64_t)INT64_MAX)
		return cel_efail(e, "strconv.ParseInt: parsing \"%.*s\": value out of range", (int)s.n, s.p);
	*out = (cel_val){.t = T_INT, .u.i = neg ? (int64_t)(0 - m) : (int64_t)m};
	return true;
}

static bool to_string(cel_ev *e, const cel_val *v, cel_val *out)
{
	if (v->t == T_STRING) {
		*out = *v;
		return true;
	}
	char buf[32];
	int n = v->t == T_BOOL ? snprintf(buf, sizeof buf, "%s", v->u.b ? "true" : "false")
			       : snprintf(buf, sizeof buf, "%" PRId64, v->u.i);
	char *p = cel_new_chars(e, (size_t)n);
	if (!p)
		return false;
	memcpy(p, buf, (size_t)n);
	*out = (cel_val){.t = T_STRING, .u.s = {p, (size_t)n}};
	return true;
}

static bool quantity(cel_ev *e, cel_str s, bool check_only, cel_val *out)
{
	char buf[128];
	int64_t milli = 0;
	pk_qty_status st = PK_QTY_SYNTAX;
	if (s.n < sizeof buf && !memchr(s.p, '\0', s.n)) {
		memcpy(buf, s.p, s.n);
		buf[s.n] = '\0';
		st = pk_qty_parse(buf, &milli);
	}
	if (check_only) {
		*out = (cel_val){.t = T_BOOL, .u.b = st == PK_QTY_OK};
		return true;
	}
	if (st != PK_QTY_OK)
		return cel_efail(e, "quantity(\"%.*s\"): %s", (int)(s.n > 64 ? 64 : s.n), s.p, pk_qty_strerror(st));
	*out = (cel_val){.t = T_QUANTITY, .u.milli = milli};
	return true;
}

static bool semver(cel_ev *e, const cel_val *args, int nargs, bool check_only, cel_val *out)
{
	bool normalize = nargs > 1 && args[1].u.b;
	cel_version v;
	const char *why;
	bool ok = cel_semver_parse(args[0].u.s, normalize, &v, &why);
	if (check_only) {
		*out = (cel_val){.t = T_BOOL, .u.b = ok};
		return true;
	}
	if (!ok)
		return cel_efail(e, "semver(\"%.*s\"): %s", (int)(args[0].u.s.n > 64 ? 64 : args[0].u.s.n), args[0].u.s.p, why);
	*out = (cel_val){.t = T_VERSION, .u.v = v};
	return true;
}

/* isGreaterThan, isLessThan, compareTo of two versions or two quantities. */
static bool order(cel_ev *e, int fn, const cel_val *a, const cel_val *b, cel_val *out)
{
	if (a->t != b->t)
		return cel_efail(e, "no such overload: %s.%s(%s)", cel_type_name(a->t), cel_fn_name(fn), cel_type_name(b->t));
	int c = a->t == T_VERSION ? cel_semver_cmp(&a->u.v, &b->u.v) : sign_of(a->u.milli, b->u.milli);
	if (fn == F_COMPARETO)
		*out = (cel_val){.t = T_INT, .u.i = c};
	else
		*out = (cel_val){.t = T_BOOL, .u.b = fn == F_ISGREATER ? c > 0 : c < 0};
	return true;
}

static bool quantity_arith(cel_ev *e, int fn, int64_t milli, const cel_val *arg, cel_val *out)
{
	int64_t other = arg->u.milli, r;
	if (arg->t == T_INT && __builtin_mul_overflow(arg->u.i, (int64_t)1000, &other))
		return cel_efail(e, "quantity overflow");
	if (fn == F_ADD ? __builtin_add_overflow(milli, other, &r) : __builtin_sub_overflow(milli, other, &r))
		return cel_efail(e, "quantity overflow");
	*out = (cel_val){.t = T_QUANTITY, .u.milli = r};
	return true;
}

static bool regex(cel_ev *e, int fn, const cel_re *re, cel_str s, cel_val *out)
{
	size_t start = 0, len = 0;
	uint64_t steps = 0;
	int got = cel_re_find(re, s, &start, &len, &steps, CEL_COST_LIMIT - (e->cost < CEL_COST_LIMIT ? e->cost : CEL_COST_LIMIT) + 1);
	if (got == -3)
		return cel_efail(e, "not supported by this interpreter: %s() on a string over %d bytes", cel_fn_name(fn), CEL_RE_MAX_SUBJECT);
	if (!cel_charge(e, steps))
		return false;
	if (fn == F_MATCHES)
		*out = (cel_val){.t = T_BOOL, .u.b = got == 1};
	else
		*out = (cel_val){.t = T_STRING, .u.s = got == 1 ? (cel_str){s.p + start, len} : (cel_str){"", 0}};
	return true;
}

static bool includes(cel_ev *e, const cel_val *recv, const cel_val *x, cel_val *out)
{
	bool eq = false;
	if (recv->t != T_LIST) /* a scalar attribute is a list of one value */
		return cel_equal(e, recv, x, &eq) && (*out = (cel_val){.t = T_BOOL, .u.b = eq}, true);
	for (int i = 0; i < recv->u.l.n && !eq; i++) {
		if (i >= CEL_MAX_ATTR_VALUES)
			return cel_efail(e, "'includes' function cannot be applied to lists longer than %d values", CEL_MAX_ATTR_VALUES);
		if (!cel_equal(e, &e->vals[recv->u.l.off + i], x, &eq))
			return false;
	}
	*out = (cel_val){.t = T_BOOL, .u.b = eq};
	return true;
}

static bool size(cel_ev *e, const cel_val *v, cel_val *out)
{
	int64_t n = 0;
	if (v->t == T_STRING) { /* code points */
		for (size_t i = 0; i < v->u.s.n; n++) {
			int cp = cel_utf8_len((const unsigned char *)v->u.s.p + i, v->u.s.n - i);
			i += cp > 0 ? (size_t)cp : 1;
		}
	} else if (v->t == T_LIST) {
		n = v->u.l.n;
	} else {
		int count = v->t == T_AMAP || v->t == T_ADOM ? e->d->nattrs : e->d->ncapacity;
		const pk_cel_attr *a = v->t == T_AMAP || v->t == T_ADOM ? e->d->attrs : e->d->capacity;
		for (int i = 0; i < count; i++) {
			const char *dom = a[i].domain ? a[i].domain : "";
			if (v->t == T_ADOM || v->t == T_CDOM) {
				n += strlen(dom) == v->u.s.n && memcmp(dom, v->u.s.p, v->u.s.n) == 0;
				continue;
			}
			bool seen = false;
			for (int j = 0; j < i && !seen; j++)
				seen = strcmp(a[j].domain ? a[j].domain : "", dom) == 0;
			n += !seen;
		}
	}
	*out = (cel_val){.t = T_INT, .u.i = n};
	return true;
}

bool cel_call(cel_ev *e, int fn, const cel_re *re, const cel_val *recv, const cel_val *args, int nargs, cel_val *out)
{
	cel_str s = recv->t == T_STRING ? recv->u.s : (cel_str){"", 0};
	cel_str a0 = nargs > 0 && args[0].t == T_STRING ? args[0].u.s : (cel_str){"", 0};
	size_t at;
	switch (fn) {
	case F_SIZE: return size(e, recv, out);
	case F_INT: return to_int(e, recv, out);
	case F_STRING: return to_string(e, recv, out);
	case F_SEMVER: return semver(e, args, nargs, false, out);
	case F_ISSEMVER: return semver(e, args, nargs, true, out);
	case F_QUANTITY: return quantity(e, a0, false, out);
	case F_ISQUANTITY: return quantity(e, a0, true, out);
	case F_STARTSWITH:
		*out = (cel_val){.t = T_BOOL, .u.b = a0.n <= s.n && memcmp(s.p, a0.p, a0.n) == 0};
		return true;
	case F_ENDSWITH:
		*out = (cel_val){.t = T_BOOL, .u.b = a0.n <= s.n && memcmp(s.p + s.n - a0.n, a0.p, a0.n) == 0};
		return true;
	case F_CONTAINS:
		*out = (cel_val){.t = T_BOOL, .u.b = find_str(s, a0, 0, &at)};
		return cel_charge(e, (uint64_t)s.n / 10);
	case F_LOWER:
	case F_UPPER: return change_case(e, s, fn == F_UPPER, out);
	case F_MATCHES:
	case F_FIND: return regex(e, fn, re, s, out);
	case F_SPLIT: return split(e, s, a0, out);
	case F_INCLUDES: return includes(e, recv, &args[0], out);
	case F_ISGREATER:
	case F_ISLESS:
	case F_COMPARETO: return order(e, fn, recv, &args[0], out);
	case F_MAJOR: *out = (cel_val){.t = T_INT, .u.i = (int64_t)recv->u.v.major}; return true;
	case F_MINOR: *out = (cel_val){.t = T_INT, .u.i = (int64_t)recv->u.v.minor}; return true;
	case F_PATCH: *out = (cel_val){.t = T_INT, .u.i = (int64_t)recv->u.v.patch}; return true;
	case F_SIGN: *out = (cel_val){.t = T_INT, .u.i = sign_of(recv->u.milli, 0)}; return true;
	case F_ISINTEGER: *out = (cel_val){.t = T_BOOL, .u.b = recv->u.milli % 1000 == 0}; return true;
	case F_ASINTEGER:
		if (recv->u.milli % 1000 != 0)
			return cel_efail(e, "cannot convert value to integer");
		*out = (cel_val){.t = T_INT, .u.i = recv->u.milli / 1000};
		return true;
	case F_ADD:
	case F_SUB: return quantity_arith(e, fn, recv->u.milli, &args[0], out);
	}
	return cel_efail(e, "internal error: unknown function");
}
