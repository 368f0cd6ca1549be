/* Consumable capacity on one node (dra_int.h; KEP-5075,
 * DRAConsumableCapacity), as the structured allocator checks and records
 * it (internal/incubating consumable_capacity.go CmpRequestOverCapacity,
 * GetConsumedCapacityFromRequest; allocator_incubating.go allocateDevice).
 *
 * Every capacity of a device is consumed by every request that gets it:
 * the request's amount for that capacity rounded up by the capacity's
 * requestPolicy (validRange from min by step, else the first validValue
 * not below it), or, unrequested, the policy's default, else the whole
 * capacity. A device fits a request when the request names only
 * capacities the device has, no consumed amount breaks the policy (above
 * max, off the step, not a valid value; the default always passes) and
 * what the device's shares already consume (results with a shareID), what
 * the picks so far consume and this amount stay within each capacity. A
 * device without allowMultipleAllocations is checked so but stays one
 * claim's; one with it is shared by any number of requests and claims, its
 * consumption recorded in the result with a shareID.
 *
 * Names match as written (1.35 to 1.37 look a request's name up in the
 * device's capacity map as it is; "memory" does not find
 * "<driver>/memory"). Amounts are milli-units (k8s/quantity.h), exact for
 * the quantities DRA drivers publish. */
#include "sched/engine/filter/dra_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "k8s/dra.h"

struct dra_capacity {
	const dev_at *devs;
	int ndevs;
	bool *shared;                   /* per device: allows multiple allocations */
	int *first;                     /* per device: its capacities in the flat arrays */
	int64_t *allocated;             /* per capacity: what the device's shares consume */
	int64_t *allocating;            /* per capacity: what the picks so far consume */
	int *nallocating;               /* per device: picks sharing it now */
	bool *allocated_any;            /* per device: it has shares already */
};

/* A capacity's name as written and its policy (none: dv->policies NULL) */
static const char *cap_key(const pk_dra_device *dv, int k)
{
	return dv->policies ? dv->policies[k].key : dv->capacity[k].name;
}

static const pk_dra_capacity_policy no_policy;

static const pk_dra_capacity_policy *cap_policy(const pk_dra_device *dv, int k)
{
	return dv->policies ? &dv->policies[k] : &no_policy;
}

static const pk_dra_capacity_amount *requested(const pk_dra_request *rq, const char *key)
{
	for (int i = 0; i < rq->ncapacity; i++)
		if (rq->capacity[i].key == key)
			return &rq->capacity[i];
	return NULL;
}

/* requestsContainNonExistCapacity: a name the device does not have */
static bool names_missing(const pk_dra_device *dv, const pk_dra_request *rq)
{
	for (int i = 0; i < rq->ncapacity; i++) {
		int k = 0;
		while (k < dv->ncapacity && cap_key(dv, k) != rq->capacity[i].key)
			k++;
		if (k == dv->ncapacity)
			return true;
	}
	return false;
}

/* min + step * ceil((v - min) / step), or INT64_MAX past the range */
static int64_t round_up_step(int64_t v, int64_t min, int64_t step)
{
	__int128 n = ((__int128)v - min + step - 1) / step, r = min + n * step;
	return r > INT64_MAX ? INT64_MAX : (int64_t)r;
}

/* calculateConsumedCapacity */
static int64_t consumed_of(const pk_dra_capacity_policy *p, int64_t value, const pk_dra_capacity_amount *req)
{
	if (!req)
		return p->has_default ? p->def : value;
	if (!p->has_policy)
		return req->milli;
	if (p->has_range) {
		if (req->milli < p->min)
			return p->min;
		return p->has_step ? round_up_step(req->milli, p->min, p->step) : req->milli;
	}
	for (int i = 0; i < p->nvalid; i++)
		if (req->milli <= p->valid_values[i])
			return p->valid_values[i];
	return req->milli;
}

/* violatesPolicy */
static bool violates(const pk_dra_capacity_policy *p, int64_t v)
{
	if (!p->has_policy || (p->has_default && v == p->def))
		return false;
	if (p->has_range)
		return (p->has_max && v > p->max) || (p->has_step && (v - p->min) % p->step != 0);
	if (p->nvalid == 0)
		return false;
	for (int i = 0; i < p->nvalid; i++)
		if (v == p->valid_values[i])
			return false;
	return true;
}

dra_capacity *pk_dra_capacity_new(const pk_dra_set *s, const dev_at *devs, int ndevs)
{
	if ((s->off & PK_DRA_OFF_CONSUMABLE_CAPACITY) ||
	    !(s->multi_alloc_devices || s->capacity_requests || s->capacity_policies))
		return NULL;
	dra_capacity *c = pk_xcalloc(1, sizeof *c);
	c->devs = devs;
	c->ndevs = ndevs;
	c->shared = pk_xcalloc((size_t)ndevs + 1, sizeof *c->shared);
	c->first = pk_xmalloc(sizeof *c->first * (size_t)(ndevs + 1));
	c->nallocating = pk_xcalloc((size_t)ndevs + 1, sizeof *c->nallocating);
	c->allocated_any = pk_xcalloc((size_t)ndevs + 1, sizeof *c->allocated_any);
	int n = 0;
	for (int d = 0; d < ndevs; d++) {
		c->first[d] = n;
		n += devs[d].dev->ncapacity;
		c->shared[d] = devs[d].dev->multi_alloc;
	}
	c->allocated = pk_xcalloc((size_t)n + 1, sizeof *c->allocated);
	c->allocating = pk_xcalloc((size_t)n + 1, sizeof *c->allocating);
	for (int d = 0; d < ndevs; d++) {
		long at, k = pk_dra_shares_of(s, devs[d].slice->driver, devs[d].slice->pool, devs[d].dev->name, &at);
		c->allocated_any[d] = k > 0;
		const pk_dra_device *dv = devs[d].dev;
		for (long i = at; i < at + k; i++) /* the aggregated capacity, by name as written */
			for (int j = 0; j < s->shared[i]->nconsumed; j++)
				for (int q = 0; q < dv->ncapacity; q++)
					if (cap_key(dv, q) == s->shared[i]->consumed[j].key)
						c->allocated[c->first[d] + q] += s->shared[i]->consumed[j].milli;
	}
	return c;
}

void pk_dra_capacity_free(dra_capacity *c)
{
	if (!c)
		return;
	free(c->shared);
	free(c->first);
	free(c->allocated);
	free(c->allocating);
	free(c->nallocating);
	free(c->allocated_any);
	free(c);
}

bool pk_dra_capacity_shared(const dra_capacity *c, int d)
{
	return c && c->shared[d];
}

bool pk_dra_capacity_in_use(const dra_capacity *c, int d)
{
	return c && (c->allocated_any[d] || c->nallocating[d] > 0);
}

bool pk_dra_capacity_fits(const dra_capacity *c, int d, const pk_dra_request *rq, bool allocating)
{
	if (!c)
		return true;
	const pk_dra_device *dv = c->devs[d].dev;
	if (names_missing(dv, rq))
		return false;
	for (int k = 0; k < dv->ncapacity; k++) {
		const pk_dra_capacity_policy *p = cap_policy(dv, k);
		int64_t v = consumed_of(p, dv->capacity[k].milli, requested(rq, cap_key(dv, k)));
		if (violates(p, v))
			return false;
		__int128 total = (__int128)c->allocated[c->first[d] + k] + v;
		if (allocating)
			total += c->allocating[c->first[d] + k];
		if (total > dv->capacity[k].milli)
			return false;
	}
	return true;
}

static void add_consumed(dra_capacity *c, int d, const pk_dra_request *rq, int sign)
{
	const pk_dra_device *dv = c->devs[d].dev;
	for (int k = 0; k < dv->ncapacity; k++)
		c->allocating[c->first[d] + k] +=
			sign * consumed_of(cap_policy(dv, k), dv->capacity[k].milli, requested(rq, cap_key(dv, k)));
	c->nallocating[d] += sign;
}

void pk_dra_capacity_take(dra_capacity *c, int d, const pk_dra_request *rq)
{
	if (pk_dra_capacity_shared(c, d))
		add_consumed(c, d, rq, 1);
}

void pk_dra_capacity_give(dra_capacity *c, int d, const pk_dra_request *rq)
{
	if (pk_dra_capacity_shared(c, d))
		add_consumed(c, d, rq, -1);
}

pk_dra_capacity_amount *pk_dra_capacity_consumed(const pk_dra_device *dv, const pk_dra_request *rq, pk_arena *arena,
                                                 int *n)
{
	*n = dv->ncapacity;
	if (!dv->ncapacity)
		return NULL;
	pk_dra_capacity_amount *v = pk_arena_alloc(arena, sizeof *v * (size_t)dv->ncapacity);
	pk_dra_capacity_consumed_into(dv, rq, v);
	return v;
}

void pk_dra_capacity_consumed_into(const pk_dra_device *dv, const pk_dra_request *rq, pk_dra_capacity_amount *v)
{
	for (int k = 0; k < dv->ncapacity; k++)
		v[k] = (pk_dra_capacity_amount){ cap_key(dv, k), consumed_of(cap_policy(dv, k), dv->capacity[k].milli,
			                                                          requested(rq, cap_key(dv, k))) };
}

const char *pk_dra_share_id(const pk_snapshot *s, const char *claim, int index)
{
	char id[700];
	snprintf(id, sizeof id, "%s-share-%d", claim, index);
	return pk_intern(s->strs, id);
}

void pk_dra_share_result(pk_snapshot *s, const pk_dra_claim *c, pk_dra_device_ref *x, const pk_dra_device *dv,
                         const pk_dra_request *rq, int index)
{
	x->share_id = pk_dra_share_id(s, c->name, index);
	x->consumed = pk_dra_capacity_consumed(dv, rq, &s->arena, &x->nconsumed);
}

static const pk_dra_request *asks_capacity(const pk_dra_request *rq, int n)
{
	for (int i = 0; i < n; i++) {
		if (rq[i].has_capacity)
			return &rq[i];
		const pk_dra_request *sub = asks_capacity(rq[i].subs, rq[i].nsubs);
		if (sub)
			return sub;
	}
	return NULL;
}

bool pk_dra_capacity_ignored(const pk_snapshot *s, const dra_res *r, char *text, size_t size)
{
	if (!(s->dra->off & PK_DRA_OFF_CONSUMABLE_CAPACITY) || !s->dra->capacity_requests)
		return false;
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		const pk_dra_request *rq = c->allocated ? NULL : asks_capacity(c->requests, c->nrequests);
		if (!rq)
			continue;
		snprintf(text, size,
		         "ResourceClaim %s/%s, request %s: has capacity requests, but the DRAConsumableCapacity feature "
		         "is disabled in this release: its capacity requests are ignored and devices that allow multiple "
		         "allocations are given to one claim each, as the stable allocator does; the incubating allocator "
		         "(used when one of its other features is on) fails the claim with that message instead, and the "
		         "apiserver drops the field from claims made while the gate is off",
		         c->namespace_, c->name, rq->name);
		return true;
	}
	return false;
}
