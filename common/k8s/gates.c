#include "k8s/gates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pk_parse_go_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcmp(s, yes[i]) == 0)
			return *out = true, true;
		if (strcmp(s, no[i]) == 0)
			return *out = false, true;
	}
	return false;
}

int pk_gates_each(const char *spec, pk_gate_fn fn, void *ctx, char *err, size_t errsize)
{
	char *copy = strdup(spec), *save = NULL;
	int rc = 0;

	if (!copy) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		char *eq = strchr(tok, '=');
		bool value;
		if (!eq) {
			snprintf(err, errsize, "missing bool value for %s", tok);
			rc = -1;
			break;
		}
		*eq = '\0';
		if (!pk_parse_go_bool(eq + 1, &value)) {
			snprintf(err, errsize, "invalid value of %s=%s, err: invalid syntax", tok, eq + 1);
			rc = -1;
			break;
		}
		if (fn(ctx, tok, value, err, errsize) != 0)
			rc = -1;
	}
	free(copy);
	return rc;
}

typedef struct fields_ctx {
	const pk_gate_field *fields;
	size_t n;
	void *gates;
} fields_ctx;

static int set_field(void *ctx, const char *name, bool value, char *err, size_t errsize)
{
	fields_ctx *f = ctx;
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->fields[i].name, name) == 0) {
			*(bool *)((char *)f->gates + f->fields[i].offset) = value;
			return 0;
		}
	snprintf(err, errsize, "unrecognized feature gate: %s", name);
	return -1;
}

int pk_gates_parse_fields(const char *spec, const pk_gate_field *fields, size_t nfields, void *gates, char *err,
                          size_t errsize)
{
	fields_ctx f = { fields, nfields, gates };
	return pk_gates_each(spec, set_field, &f, err, errsize);
}
