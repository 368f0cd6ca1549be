/* What the option layer (common/cli.c) decides once for the library: the
 * release answered for with its feature gates at their final values, and
 * the number of threads. The reader, the engine and the simulators take
 * them from here; no main copies them field by field. */
#ifndef PK_OPTIONS_H
#define PK_OPTIONS_H

#include <stdbool.h>

#include "k8s/gates.h"
#include "k8s/profile.h"

/* The one thread-count rule, for the reader's parse workers, the engine's
 * node and dry-run workers and the record writers alike: --threads N asks
 * for N, at most PK_THREADS_MAX (more is capped, and the option layer says
 * so on stderr); without it (0) one thread per CPU, at most
 * PK_THREADS_AUTO_MAX. The answer is the same for any count. */
#define PK_THREADS_MAX 8
#define PK_THREADS_AUTO_MAX 4

/* The rule above: 1..PK_THREADS_MAX. *capped (may be NULL) says whether
 * a request above PK_THREADS_MAX was lowered. */
int pk_threads_resolve(int requested, bool *capped);

typedef struct pk_engine_opts {
	pk_feature_gates gates;   /* final values, for gates.k8s_minor */
	pk_release_profile release; /* computed once from gates (pk_engine_opts_finish):
	                           * what the library reads about the release */
	int threads;              /* resolved by pk_threads_resolve: >= 1 */
	/* --dra-preemption=kep-5690 (victims, preempt-plan --simulate and
	 * --replay; pk_cli_dra_preemption): the snapshot's dra_kep5690 */
	bool dra_kep5690;
} pk_engine_opts;

/* Our defaults: the newest release, its default gates, automatic threads. */
void pk_engine_opts_default(pk_engine_opts *o);
/* Once the gates and the release are final: the release profile. */
void pk_engine_opts_finish(pk_engine_opts *o);

#endif
