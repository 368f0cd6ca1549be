/* A plugin's status: its code, the plugin, upstream's reasons. */
#include "sched/engine/engine.h"

#include <string.h>

const char *pk_code_name(pk_code c)
{
	switch (c) {
	case PK_CODE_SUCCESS: return "Success";
	case PK_CODE_ERROR: return "Error";
	case PK_CODE_UNSCHEDULABLE: return "Unschedulable";
	case PK_CODE_UNSCHEDULABLE_UNRESOLVABLE: return "UnschedulableAndUnresolvable";
	}
	return "Unknown";
}

const pk_status pk_status_success = { .code = PK_CODE_SUCCESS };

void pk_status_set(pk_status *s, pk_code code, const char *plugin, const char *reason)
{
	memset(s, 0, sizeof *s);
	s->code = code;
	s->plugin = plugin;
	if (reason)
		pk_status_add_reason(s, reason);
}

void pk_status_add_reason(pk_status *s, const char *reason)
{
	if (s->nreasons < PK_STATUS_MAX_REASONS)
		s->reasons[s->nreasons++] = reason;
}
