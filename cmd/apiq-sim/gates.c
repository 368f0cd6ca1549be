#include "apiq.h"

#include <stdio.h>
#include <string.h>

static int parse_bool(const char *v, bool *out)
{
	if (strcmp(v, "true") == 0)
		*out = true;
	else if (strcmp(v, "false") == 0)
		*out = false;
	else
		return -1;
	return 0;
}

int apiq_parse_gates(apiq_gates *g, const char *spec, char *err, size_t errsize)
{
	char buf[512];
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errsize, "feature gate list too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		bool v;
		if (!eq || parse_bool(eq + 1, &v) < 0) {
			snprintf(err, errsize, "invalid feature gate '%s' (want Name=true|false)", item);
			return -1;
		}
		*eq = '\0';
		if (strcmp(item, "SchedulerAsyncPreemption") == 0)
			g->async_preemption = v;
		else if (strcmp(item, "SchedulerAsyncAPICalls") == 0)
			g->async_api_calls = v;
		else {
			snprintf(err, errsize, "unknown feature gate '%s'", item);
			return -1;
		}
	}
	return 0;
}
