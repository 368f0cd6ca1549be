#include "apiq.h"

void apiq_gates_from(apiq_gates *g, const pk_feature_gates *fg)
{
	g->async_preemption = pk_gate_on(fg, PK_GATE_SCHEDULER_ASYNC_PREEMPTION);
	g->async_api_calls = pk_gate_on(fg, PK_GATE_SCHEDULER_ASYNC_API_CALLS);
}
