/* Partitionable devices' counters on one node (dra_int.h), as the
 * structured allocator checks them (allocator_incubating.go
 * checkAvailableCounters, deallocateCountersForDevice): each pool's
 * counter sets are what its slices' sharedCounters declare, less what the
 * pool's allocated devices consume (held ones, admin-access results aside,
 * and shared ones once, DRAConsumableCapacity); a
 * device that consumes counters is allocated only while no counter of its
 * pool is used beyond what is available, the devices picked so far
 * included. */
#include "sched/engine/filter/dra_int.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "k8s/dra.h"

typedef struct pool_ctrs {
	const char *driver, *pool;      /* interned */
	int first, n;                   /* its counters in the flat arrays */
} pool_ctrs;

struct dra_counters {
	pool_ctrs *pools;
	int npools;
	const char **set_name, **name;  /* per counter: its set and name (interned) */
	int64_t *avail, *used;          /* per counter */
	int ncounters;
	/* per device of the node: its pool (-1: consumes nothing) and what it
	 * takes, as (counter index, amount) pairs */
	int *dev_pool, *take_first, *take_n;
	int *take_ctr;
	int64_t *take_amt;
};

/* The first of the set's slices of (driver, pool): the set keeps them
 * sorted by driver, pool, then name. */
static long pool_begin(const pk_dra_set *s, const pk_dra_slice *sl)
{
	long i = sl - s->slices;
	while (i > 0 && s->slices[i - 1].driver == sl->driver && s->slices[i - 1].pool == sl->pool)
		i--;
	return i;
}

static int counter_index(const dra_counters *c, const pool_ctrs *p, const char *set, const char *name)
{
	for (int k = p->first; k < p->first + p->n; k++)
		if (c->set_name[k] == set && c->name[k] == name)
			return k;
	return -1;
}

static int pool_of(dra_counters *c, const pk_dra_set *s, const pk_dra_slice *sl);

/* Every counter the pool's slices declare (a set named twice: the first),
 * less what its held devices consume (negative: none left). */
static int add_pool(dra_counters *c, const pk_dra_set *s, const pk_dra_slice *sl)
{
	long begin = pool_begin(s, sl), end = begin;
	int cap = 0;
	for (end = begin; end < s->nslices && s->slices[end].driver == sl->driver && s->slices[end].pool == sl->pool;
	     end++)
		for (int k = 0; k < s->slices[end].nshared; k++)
			cap += s->slices[end].shared[k].ncounters;
	c->pools = pk_xrealloc(c->pools, (size_t)c->npools + 1, sizeof *c->pools);
	pool_ctrs *p = &c->pools[c->npools];
	*p = (pool_ctrs){ sl->driver, sl->pool, c->ncounters, 0 };
	size_t want = (size_t)(c->ncounters + cap + 1);
	c->set_name = pk_xrealloc(c->set_name, want, sizeof *c->set_name);
	c->name = pk_xrealloc(c->name, want, sizeof *c->name);
	c->avail = pk_xrealloc(c->avail, want, sizeof *c->avail);
	c->used = pk_xrealloc(c->used, want, sizeof *c->used);
	for (long i = begin; i < end; i++)
		for (int k = 0; k < s->slices[i].nshared; k++) {
			const pk_dra_counter_set *cs = &s->slices[i].shared[k];
			for (int j = 0; j < cs->ncounters; j++) {
				if (counter_index(c, p, cs->name, cs->counters[j].name) >= 0)
					continue;
				int at = p->first + p->n++;
				c->set_name[at] = cs->name;
				c->name[at] = cs->counters[j].name;
				c->avail[at] = cs->counters[j].milli;
				c->used[at] = 0;
			}
		}
	c->ncounters += p->n;
	for (long i = begin; i < end; i++)
		for (int d = 0; d < s->slices[i].ndevices; d++) {
			const pk_dra_device *dv = &s->slices[i].devices[d];
			long first; /* allocated: held, or shared (IsDeviceAllocated: its counters once) */
			if (!dv->nconsumes || (!pk_dra_holder(s, sl->driver, sl->pool, dv->name) &&
			                       !pk_dra_shares_of(s, sl->driver, sl->pool, dv->name, &first)))
				continue;
			for (int k = 0; k < dv->nconsumes; k++)
				for (int j = 0; j < dv->consumes[k].ncounters; j++) {
					int at = counter_index(c, p, dv->consumes[k].name, dv->consumes[k].counters[j].name);
					if (at >= 0) /* validation keeps them declared */
						c->avail[at] -= dv->consumes[k].counters[j].milli;
				}
		}
	return c->npools++;
}

static int pool_of(dra_counters *c, const pk_dra_set *s, const pk_dra_slice *sl)
{
	for (int k = 0; k < c->npools; k++)
		if (c->pools[k].driver == sl->driver && c->pools[k].pool == sl->pool)
			return k;
	return add_pool(c, s, sl);
}

dra_counters *pk_dra_counters_new(const pk_dra_set *s, const dev_at *devs, int ndevs)
{
	int ntake = 0;
	for (int d = 0; d < ndevs; d++)
		for (int k = 0; k < devs[d].dev->nconsumes; k++)
			ntake += devs[d].dev->consumes[k].ncounters;
	if (!ntake)
		return NULL;
	dra_counters *c = pk_xcalloc(1, sizeof *c);
	c->dev_pool = pk_xmalloc(sizeof *c->dev_pool * (size_t)ndevs);
	c->take_first = pk_xmalloc(sizeof *c->take_first * (size_t)ndevs);
	c->take_n = pk_xcalloc((size_t)ndevs, sizeof *c->take_n);
	c->take_ctr = pk_xmalloc(sizeof *c->take_ctr * (size_t)ntake);
	c->take_amt = pk_xmalloc(sizeof *c->take_amt * (size_t)ntake);
	int at = 0;
	for (int d = 0; d < ndevs; d++) {
		const pk_dra_device *dv = devs[d].dev;
		c->dev_pool[d] = -1;
		c->take_first[d] = at;
		if (!dv->nconsumes)
			continue;
		c->dev_pool[d] = pool_of(c, s, devs[d].slice);
		const pool_ctrs *p = &c->pools[c->dev_pool[d]];
		for (int k = 0; k < dv->nconsumes; k++)
			for (int j = 0; j < dv->consumes[k].ncounters; j++) {
				int ci = counter_index(c, p, dv->consumes[k].name, dv->consumes[k].counters[j].name);
				if (ci < 0)
					continue; /* an undeclared counter: not checked (validation refuses it) */
				c->take_ctr[at] = ci;
				c->take_amt[at++] = dv->consumes[k].counters[j].milli;
				c->take_n[d]++;
			}
	}
	return c;
}

static void add_use(dra_counters *c, int d, int sign)
{
	for (int k = c->take_first[d]; k < c->take_first[d] + c->take_n[d]; k++)
		c->used[c->take_ctr[k]] += sign * c->take_amt[k];
}

bool pk_dra_counters_take(dra_counters *c, int d)
{
	if (!c || c->dev_pool[d] < 0)
		return true;
	add_use(c, d, 1);
	/* every counter of the pool, as upstream checks them all */
	const pool_ctrs *p = &c->pools[c->dev_pool[d]];
	for (int k = p->first; k < p->first + p->n; k++)
		if (c->used[k] > c->avail[k]) {
			add_use(c, d, -1);
			return false;
		}
	return true;
}

void pk_dra_counters_give(dra_counters *c, int d)
{
	if (c && c->dev_pool[d] >= 0)
		add_use(c, d, -1);
}

void pk_dra_counters_free(dra_counters *c)
{
	if (!c)
		return;
	free(c->pools);
	free(c->set_name);
	free(c->name);
	free(c->avail);
	free(c->used);
	free(c->dev_pool);
	free(c->take_first);
	free(c->take_n);
	free(c->take_ctr);
	free(c->take_amt);
	free(c);
}
