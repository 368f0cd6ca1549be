#include "k8s/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const cJSON *pk_get(const cJSON *obj, const char *key)
{
	const cJSON *found = NULL;

	if (!cJSON_IsObject(obj))
		return NULL;
	for (const cJSON *c = obj->child; c; c = c->next)
		if (c->string && c->string[0] == key[0] && strcmp(c->string, key) == 0)
			found = c;   /* last duplicate wins, as in encoding/json */
	return found;
}

void pk_get_members(const cJSON *obj, const char *const *names, const cJSON **out)
{
	int n = 0;
	while (names[n])
		out[n++] = NULL;
	if (!cJSON_IsObject(obj))
		return;
	for (const cJSON *c = obj->child; c; c = c->next) {
		if (!c->string)
			continue;
		for (int i = 0; i < n; i++)
			if (names[i][0] == c->string[0] && strcmp(names[i], c->string) == 0) {
				out[i] = c;   /* a later duplicate replaces it, as in pk_get */
				break;
			}
	}
}

const cJSON *pk_getp(const cJSON *obj, const char *path)
{
	char key[256];

	while (obj && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		obj = pk_get(obj, key);
		path += n + (dot ? 1 : 0);
	}
	return obj;
}

const char *pk_str(const cJSON *obj, const char *path)
{
	const cJSON *v = pk_getp(obj, path);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *pk_str_or(const cJSON *obj, const char *path, const char *fallback)
{
	const char *s = pk_str(obj, path);
	return s ? s : fallback;
}

bool pk_bool(const cJSON *obj, const char *path)
{
	return cJSON_IsTrue(pk_getp(obj, path));
}

#define PK_EXACT_LIMIT 9007199254740992.0 /* 2^53 */

bool pk_num_int64(const cJSON *num, int64_t *out)
{
	if (!cJSON_IsNumber(num))
		return false;
	double d = num->valuedouble;
	if (!isfinite(d) || d != floor(d) || fabs(d) > PK_EXACT_LIMIT)
		return false;
	*out = (int64_t)d;
	return true;
}

bool pk_int64(const cJSON *obj, const char *path, int64_t *out)
{
	return pk_num_int64(pk_getp(obj, path), out);
}

const char *pk_kind(const cJSON *obj) { return pk_str_or(obj, "kind", ""); }
const char *pk_api_version(const cJSON *obj) { return pk_str_or(obj, "apiVersion", ""); }
const char *pk_name(const cJSON *obj) { return pk_str_or(obj, "metadata.name", ""); }
const char *pk_namespace(const cJSON *obj) { return pk_str_or(obj, "metadata.namespace", ""); }
const char *pk_uid(const cJSON *obj) { return pk_str_or(obj, "metadata.uid", ""); }

cJSON *pk_ref_new(const cJSON *obj)
{
	cJSON *ref = cJSON_CreateObject();

	if (*pk_namespace(obj))
		cJSON_AddStringToObject(ref, "namespace", pk_namespace(obj));
	cJSON_AddStringToObject(ref, "name", pk_name(obj));
	if (*pk_uid(obj))
		cJSON_AddStringToObject(ref, "uid", pk_uid(obj));
	return ref;
}

static bool digits(const char *s, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

bool pk_parse_time(const char *s, int64_t *unix_nanos)
{
	int y, mo, d, h, mi, sec;

	if (!s || strlen(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
	    s[13] != ':' || s[16] != ':')
		return false;
	if (!digits(s, 4, &y) || !digits(s + 5, 2, &mo) || !digits(s + 8, 2, &d) ||
	    !digits(s + 11, 2, &h) || !digits(s + 14, 2, &mi) || !digits(s + 17, 2, &sec))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return false;
	const char *p = s + 19;
	int64_t frac = 0;
	if (*p == '.') {
		int n = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, n++)
			if (n < 9)
				frac = frac * 10 + (*p - '0');
		if (n == 0)
			return false;
		for (; n < 9; n++)
			frac *= 10;
	}
	int64_t offset = 0;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh, om;
		if (!digits(p + 1, 2, &oh) || p[3] != ':' || !digits(p + 4, 2, &om))
			return false;
		offset = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
		p += 6;
	} else {
		return false;
	}
	if (*p)
		return false;
	int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
	*unix_nanos = secs * 1000000000 + frac;
	return true;
}
