/* Small typed accessors over cJSON trees of Kubernetes objects.
 * Every accessor tolerates NULL and wrong types (returns the fallback). */
#ifndef PK_K8S_JSON_H
#define PK_K8S_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* Member of an object by exact (case-sensitive) name; NULL if absent or obj is
 * not an object. With duplicate keys the LAST one wins, as in Go's decoder. */
const cJSON *pk_get(const cJSON *obj, const char *key);
/* The members of obj named in names (NULL-terminated, at most 64) in one
 * pass over its members: out[i] is what pk_get(obj, names[i]) returns. For
 * decoders that read many members of one object. */
void pk_get_members(const cJSON *obj, const char *const *names, const cJSON **out);
/* Dotted path lookup: pk_getp(pod, "spec.priorityClassName"); no indices. */
const cJSON *pk_getp(const cJSON *obj, const char *path);

/* String member or NULL (wrong type -> NULL). */
const char *pk_str(const cJSON *obj, const char *path);
/* String member or fallback. */
const char *pk_str_or(const cJSON *obj, const char *path, const char *fallback);
/* true if member is JSON true. */
bool pk_bool(const cJSON *obj, const char *path);

/* Exact integer view of a JSON number: fails (returns false) when the value is
 * not a number, has a fraction, or lies beyond +-2^53 (cJSON keeps doubles). */
bool pk_num_int64(const cJSON *num, int64_t *out);
/* Integer member at path; false if absent or not an exact integer. */
bool pk_int64(const cJSON *obj, const char *path, int64_t *out);

/* Identity helpers. */
const char *pk_kind(const cJSON *obj);        /* "kind" or "" */
const char *pk_api_version(const cJSON *obj); /* "apiVersion" or "" */
const char *pk_name(const cJSON *obj);        /* metadata.name or "" */
const char *pk_namespace(const cJSON *obj);   /* metadata.namespace or "" */
const char *pk_uid(const cJSON *obj);         /* metadata.uid or "" */

/* {"namespace":…, "name":…, "uid":…} reference object (fields omitted when empty
 * except name). Caller owns the result. */
cJSON *pk_ref_new(const cJSON *obj);

/* RFC 3339 timestamp ("2024-01-02T03:04:05Z", optional fraction and offset) to
 * Unix nanoseconds. false if malformed. */
bool pk_parse_time(const char *s, int64_t *unix_nanos);

#endif
