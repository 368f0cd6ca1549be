/* Fixed-size objects for timed mode, carved from the base's arena in
 * chunks and reused through a free list: memory follows the most objects
 * alive at once, not how many were ever made; all go with the pool. The
 * free list's ends are inline: every request, call and pod comes from it. */
#ifndef APIQ_POOL_H
#define APIQ_POOL_H

#include <stddef.h>
#include <string.h>

#include "base/arena.h"

typedef struct apiq_pool {
	size_t size;      /* of one object: at least a pointer */
	void *free;       /* the free list, linked through each object's first bytes */
	pk_arena arena;
} apiq_pool;

void apiq_pool_init(apiq_pool *pl, size_t size);
/* A new chunk of objects onto the empty free list (out of memory ends the run). */
void apiq_pool_refill(apiq_pool *pl);
/* Every object, in use or not. */
void apiq_pool_free(apiq_pool *pl);

/* A zeroed object. */
static inline void *apiq_pool_get(apiq_pool *pl)
{
	if (!pl->free)
		apiq_pool_refill(pl);
	void **obj = pl->free;
	pl->free = *obj;
	memset(obj, 0, pl->size);
	return obj;
}

static inline void apiq_pool_put(apiq_pool *pl, void *obj)
{
	*(void **)obj = pl->free;
	pl->free = obj;
}

#endif
