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

/* "Name=bool,..." onto g; -1 with a message in err on a bad list. */
int apiq_parse_gates(apiq_gates *g, const char *spec, char *err, size_t errsize);

/* step mode: replay operations; returns the exit status. */
int apiq_step_main(pk_cli *cli, const apiq_types *types, const apiq_gates *gates,
                   char *const *paths, size_t npaths);

#endif
