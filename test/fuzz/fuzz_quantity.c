/* libFuzzer: resource.Quantity strings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "k8s/quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	int64_t m;
	char buf[32];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (pk_qty_parse(s, &m) == PK_QTY_OK)
		pk_qty_format(m, buf, sizeof buf);
	free(s);
	return 0;
}
