/* The CEL interpreter (cel.h). Placeholder until the interpreter lands:
 * every expression is refused by name, so that no selector ever matches
 * by default. */
#include "k8s/cel.h"

#include <stdio.h>

pk_cel_program *pk_cel_compile(const char *expr, char *err, size_t errsize)
{
	snprintf(err, errsize, "CEL expression \"%s\": not supported yet (column 1)", expr);
	return NULL;
}

pk_cel_result pk_cel_eval_device(const pk_cel_program *p, const pk_cel_device *d, char *err, size_t errsize)
{
	(void)p;
	(void)d;
	snprintf(err, errsize, "CEL: not supported yet");
	return PK_CEL_ERROR;
}

void pk_cel_free(pk_cel_program *p)
{
	(void)p;
}
