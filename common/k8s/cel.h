/* CEL for Dynamic Resource Allocation's device selectors: the smallest
 * interpreter of what staging/src/k8s.io/dynamic-resource-allocation/cel
 * compiles (the `device` variable: driver, attributes and capacity by
 * domain; comparisons, logical operators, `in`, `has`, string and list
 * functions, quantity and semver values), with upstream's type rules and
 * cost limit. An expression outside what it supports is a compile error
 * that names the construct and its position, never true or false.
 *
 * A program is compiled once (per DeviceClass selector and per request
 * selector) and evaluated for many devices. Evaluation allocates nothing and
 * only reads the program (threads may evaluate one program at once); it
 * takes about 30 KB of stack. */
#ifndef PK_K8S_CEL_H
#define PK_K8S_CEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A device attribute's or capacity's value, as a ResourceSlice gives it. */
typedef enum {
	PK_CEL_V_BOOL,     /* attribute "bool" */
	PK_CEL_V_INT,      /* attribute "int" */
	PK_CEL_V_STRING,   /* attribute "string" */
	PK_CEL_V_VERSION,  /* attribute "version" (semver text in s) */
	PK_CEL_V_QUANTITY, /* capacity "value" (milli units in milli) */
	PK_CEL_V_LIST,     /* a list-type attribute (DRAListTypeAttributes): items */
} pk_cel_vkind;

typedef struct pk_cel_attr {
	const char *domain;   /* the qualified name's domain, or the driver's for an unqualified one */
	const char *name;     /* the name without its domain */
	pk_cel_vkind kind;
	bool b;
	int64_t i;
	const char *s;
	int64_t milli;
	const struct pk_cel_attr *items; /* PK_CEL_V_LIST: its values (kind and value; no list) */
	int nitems;
} pk_cel_attr;

/* What a selector sees of one device (CEL's `device`). */
typedef struct pk_cel_device {
	const char *driver;
	const pk_cel_attr *attrs;       /* device.attributes[domain].name */
	int nattrs;
	const pk_cel_attr *capacity;    /* device.capacity[domain].name (quantities) */
	int ncapacity;
	bool allow_multiple_allocations; /* device.allowMultipleAllocations */
} pk_cel_device;

typedef struct pk_cel_program pk_cel_program;

/* Compiles expr; NULL with a message in err (what is wrong or unsupported,
 * and the 1-based column) when it does not compile. */
pk_cel_program *pk_cel_compile(const char *expr, char *err, size_t errsize);

/* The same, with the error's position apart: *line and *col (1-based,
 * columns in code points) where it is, 0 when the error has none; err then
 * holds the message without the position. */
pk_cel_program *pk_cel_compile_at(const char *expr, int *line, int *col, char *err, size_t errsize);

/* Whether a compile error (err from pk_cel_compile or pk_cel_compile_at)
 * says the expression uses a construct this interpreter does not support,
 * rather than that the expression is wrong: upstream's cel-go may accept
 * it, so the expression is not known to be invalid. */
bool pk_cel_error_unsupported(const char *err);

typedef enum { PK_CEL_FALSE, PK_CEL_TRUE, PK_CEL_ERROR } pk_cel_result;

/* Evaluates p for device d: PK_CEL_ERROR with a message in err for a
 * runtime error (a missing attribute without has(), a type mismatch, the
 * cost limit), as upstream's evaluation fails. */
pk_cel_result pk_cel_eval_device(const pk_cel_program *p, const pk_cel_device *d, char *err, size_t errsize);

void pk_cel_free(pk_cel_program *p);

#endif
