/* resource.Quantity: <sign?><digits>[.<digits>]<suffix>, suffix one of
 * Ki Mi Gi Ti Pi Ei | m "" k M G T P E | e<int> E<int>.
 * Arithmetic is exact in 128 bits; the result is milli-units, rounded up
 * (away from zero) when the quantity is finer than a milli-unit. */
#include "k8s/quantity.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef __int128 i128;

#define PK_I128_SAFE ((i128)1 << 120)

/* Significant digits of the number part: coefficient and decimal scale. */
typedef struct decimal {
	i128 coef;     /* without sign */
	int scale;     /* value = coef * 10^-scale */
	int negative;
} decimal;

static int parse_number(const char **ps, decimal *d)
{
	const char *s = *ps;
	int int_digits = 0, frac_digits = 0, significant = 0;

	d->coef = 0;
	d->scale = 0;
	d->negative = 0;
	if (*s == '+' || *s == '-')
		d->negative = *s++ == '-';
	for (; isdigit((unsigned char)*s); s++, int_digits++) {
		if (d->coef == 0 && *s == '0')
			continue;
		if (++significant > 36)
			return PK_QTY_RANGE;
		d->coef = d->coef * 10 + (*s - '0');
	}
	if (*s == '.') {
		s++;
		const char *frac = s;
		while (isdigit((unsigned char)*s))
			s++;
		frac_digits = (int)(s - frac);
		/* trailing zeros of the fraction carry no value */
		int keep = frac_digits;
		while (keep > 0 && frac[keep - 1] == '0')
			keep--;
		for (int i = 0; i < keep; i++) {
			if (d->coef != 0 || frac[i] != '0')
				if (++significant > 36)
					return PK_QTY_RANGE;
			d->coef = d->coef * 10 + (frac[i] - '0');
			d->scale++;
		}
	}
	if (int_digits == 0 && frac_digits == 0)
		return PK_QTY_SYNTAX;
	*ps = s;
	return PK_QTY_OK;
}

/* Suffix -> (base-2 shift) or (base-10 exponent). */
static int parse_suffix(const char *s, int *pow2, int *pow10)
{
	static const struct { const char *sfx; int p2, p10; } table[] = {
		{"Ki", 10, 0}, {"Mi", 20, 0}, {"Gi", 30, 0}, {"Ti", 40, 0}, {"Pi", 50, 0}, {"Ei", 60, 0},
		{"n", 0, -9}, {"u", 0, -6}, {"m", 0, -3}, {"", 0, 0}, {"k", 0, 3}, {"M", 0, 6},
		{"G", 0, 9}, {"T", 0, 12}, {"P", 0, 15}, {"E", 0, 18},
	};

	*pow2 = 0;
	*pow10 = 0;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(s, table[i].sfx) == 0) {
			*pow2 = table[i].p2;
			*pow10 = table[i].p10;
			return PK_QTY_OK;
		}
	if (*s == 'e' || *s == 'E') {
		const char *p = s + 1;
		int neg = 0, v = 0, n = 0;
		if (*p == '+' || *p == '-')
			neg = *p++ == '-';
		for (; isdigit((unsigned char)*p); p++, n++)
			if (v < 100000)
				v = v * 10 + (*p - '0');
		if (n == 0 || *p)
			return PK_QTY_BAD_SUFFIX;
		*pow10 = neg ? -v : v;
		return PK_QTY_OK;
	}
	return PK_QTY_BAD_SUFFIX;
}

pk_qty_status pk_qty_parse(const char *s, int64_t *milli)
{
	decimal d;
	int pow2, pow10, st;

	if (!s || !*s)
		return PK_QTY_EMPTY;
	if ((st = parse_number(&s, &d)) != PK_QTY_OK)
		return (pk_qty_status)st;
	if ((st = parse_suffix(s, &pow2, &pow10)) != PK_QTY_OK)
		return (pk_qty_status)st;

	i128 v = d.coef;
	if (v == 0) {
		*milli = 0;
		return PK_QTY_OK;
	}
	for (int i = 0; i < pow2; i++) {
		v <<= 1;
		if (v > PK_I128_SAFE)
			return PK_QTY_RANGE;
	}
	/* milli = v * 10^(pow10 + 3 - scale), rounded up */
	int e = pow10 + 3 - d.scale;
	for (; e > 0; e--) {
		v *= 10;
		if (v > PK_I128_SAFE)
			return PK_QTY_RANGE;
	}
	int inexact = 0;
	for (; e < 0 && v != 0; e++) {
		inexact |= (v % 10) != 0;
		v /= 10;
	}
	if (e < 0)          /* all digits shifted out: smaller than one milli-unit */
		v = 0, inexact = 1;
	if (inexact)
		v += 1;
	if (v > INT64_MAX)
		return PK_QTY_RANGE;
	*milli = d.negative ? -(int64_t)v : (int64_t)v;
	return PK_QTY_OK;
}

pk_qty_status pk_qty_from_json(const cJSON *v, int64_t *milli)
{
	char buf[64];

	if (cJSON_IsString(v))
		return pk_qty_parse(v->valuestring, milli);
	if (cJSON_IsNumber(v)) {
		snprintf(buf, sizeof buf, "%.15g", v->valuedouble);
		if (strchr(buf, 'e')) {   /* 1e+20 -> "1e20" form the grammar accepts */
			char *p = strchr(buf, 'e');
			if (p[1] == '+')
				memmove(p + 1, p + 2, strlen(p + 2) + 1);
		}
		return pk_qty_parse(buf, milli);
	}
	return PK_QTY_SYNTAX;
}

const char *pk_qty_strerror(pk_qty_status st)
{
	switch (st) {
	case PK_QTY_OK: return "ok";
	case PK_QTY_EMPTY: return "quantities must not be empty";
	case PK_QTY_SYNTAX:
		return "quantities must match the regular expression "
		       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
	case PK_QTY_BAD_SUFFIX: return "unable to parse quantity's suffix";
	case PK_QTY_RANGE: return "quantity is too large";
	}
	return "invalid quantity";
}

void pk_qty_format(int64_t milli, char *buf, unsigned size)
{
	if (milli % 1000 == 0)
		snprintf(buf, size, "%" PRId64, milli / 1000);
	else
		snprintf(buf, size, "%" PRId64 "m", milli);
}
