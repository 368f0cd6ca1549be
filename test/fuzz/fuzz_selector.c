/* libFuzzer: label selectors and node selector requirements from JSON. */
#include <stdint.h>
#include "k8s/selector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON *v = cJSON_ParseWithLength((const char *)data, size);
	cJSON *labels = cJSON_Parse("{\"app\":\"web\",\"tier\":\"1\",\"n\":\"42\",\"empty\":\"\"}");
	pk_selector s;
	char err[200];

	if (pk_selector_compile(v, &s, err, sizeof err) == 0)
		(void)pk_selector_matches(&s, labels);
	pk_selector_free(&s);
	if (pk_selector_compile_node_reqs(v, &s, err, sizeof err) == 0)
		(void)pk_selector_matches(&s, labels);
	pk_selector_free(&s);
	if (pk_selector_compile_map(v, &s) == 0)
		(void)pk_selector_matches(&s, labels);
	pk_selector_free(&s);
	cJSON_Delete(v);
	cJSON_Delete(labels);
	return 0;
}
