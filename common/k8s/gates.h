/* --feature-gates "A=true,B=false" as Kubernetes' component-base parses it:
 * comma-separated Name=value pairs, values as Go's strconv.ParseBool, the
 * same error texts. One parser for every tool; each knows its own gates. */
#ifndef PK_GATES_H
#define PK_GATES_H

#include <stdbool.h>
#include <stddef.h>

/* Called once per pair; return non-zero (with a message in err) to reject. */
typedef int (*pk_gate_fn)(void *ctx, const char *name, bool value, char *err, size_t errsize);
/* Returns 0, or -1 with a message in err. */
int pk_gates_each(const char *spec, pk_gate_fn fn, void *ctx, char *err, size_t errsize);

/* The common case: gates are bool fields of a struct, named in a table;
 * an unknown gate is "unrecognized feature gate: Name". */
typedef struct pk_gate_field {
	const char *name;
	size_t offset;            /* offsetof(the struct, its bool field) */
} pk_gate_field;
int pk_gates_parse_fields(const char *spec, const pk_gate_field *fields, size_t nfields, void *gates, char *err,
                          size_t errsize);

/* strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False. */
bool pk_parse_go_bool(const char *s, bool *out);

#endif
