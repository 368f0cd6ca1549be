/* The options the library takes from the option layer; see options.h. */
#include "k8s/options.h"

#include <unistd.h>

int pk_threads_resolve(int requested, bool *capped)
{
	if (capped)
		*capped = requested > PK_THREADS_MAX;
	if (requested > 0)
		return requested > PK_THREADS_MAX ? PK_THREADS_MAX : requested;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores > PK_THREADS_AUTO_MAX ? PK_THREADS_AUTO_MAX : cores < 1 ? 1 : (int)cores;
}

void pk_engine_opts_default(pk_engine_opts *o)
{
	pk_feature_gates_default(&o->gates);
	o->threads = pk_threads_resolve(0, NULL);
	pk_engine_opts_finish(o);
}

void pk_engine_opts_finish(pk_engine_opts *o)
{
	pk_release_profile_of(&o->release, &o->gates);
}
