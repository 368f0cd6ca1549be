#include "apiq.h"

#include <stddef.h>
#include "k8s/gates.h"

int apiq_parse_gates(apiq_gates *g, const char *spec, char *err, size_t errsize)
{
	static const pk_gate_field known[] = {
		{ "SchedulerAsyncPreemption", offsetof(apiq_gates, async_preemption) },
		{ "SchedulerAsyncAPICalls", offsetof(apiq_gates, async_api_calls) },
	};
	return pk_gates_parse_fields(spec, known, sizeof known / sizeof known[0], g, err, errsize);
}
