/* apiq-sim: shared options of the two modes. */
#ifndef APIQ_H
#define APIQ_H

#include <stdbool.h>
#include <stddef.h>
#include "cli.h"
#include "calltypes.h"

typedef struct apiq_gates {
	bool async_preemption;   /* SchedulerAsyncPreemption: Beta, on since 1.33 */
	bool async_api_calls;    /* SchedulerAsyncAPICalls: off by default (#135903) */
} apiq_gates;

/* The gates apiq-sim reads, from the shared --feature-gates. */
void apiq_gates_from(apiq_gates *g, const pk_feature_gates *fg);

/* step mode: replay operations; returns the exit status. */
int apiq_step_main(pk_cli *cli, const apiq_types *types, const apiq_gates *gates,
                   char *const *paths, size_t npaths);

#endif
