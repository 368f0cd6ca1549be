/* resource.Quantity, as the apiserver parses it.
 * Values are kept exactly as int64 milli-units (1 = 0.001). Quantities whose
 * milli-value does not fit in int64, or that need more precision than
 * milli-units, are rounded up as Quantity.MilliValue() does, or rejected when
 * out of range. */
#ifndef PK_QUANTITY_H
#define PK_QUANTITY_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

typedef enum {
	PK_QTY_OK = 0,
	PK_QTY_EMPTY,        /* "" */
	PK_QTY_SYNTAX,       /* not <signedNumber><suffix> */
	PK_QTY_BAD_SUFFIX,   /* unknown suffix */
	PK_QTY_RANGE,        /* |value| too large for int64 milli-units */
} pk_qty_status;

/* Parse a quantity string into milli-units (rounding fractions of a milli-unit
 * up, away from zero as MilliValue does for positive values). */
pk_qty_status pk_qty_parse(const char *s, int64_t *milli);
/* Same for a JSON value: strings as above, numbers (YAML `cpu: 1`) as decimal. */
pk_qty_status pk_qty_from_json(const cJSON *v, int64_t *milli);
/* Human message for a status, e.g. "quantities must match the regular expression ...". */
const char *pk_qty_strerror(pk_qty_status st);

/* Format milli-units canonically for output: "1500m", "2", "128Mi" is NOT
 * attempted; bytes print as plain integers. */
void pk_qty_format(int64_t milli, char *buf, unsigned size);

#endif
