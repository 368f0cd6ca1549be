/* DynamicResources in the preemption dry run as KEP-5690 proposes
 * (kubernetes/enhancements#6113, "DRA Preemption": not merged, in no
 * release), behind --dra-preemption=kep-5690 (the snapshot's dra_kep5690).
 * Through Kubernetes 1.37 the plugin has no PreFilterExtensions: evicting a
 * pod frees none of its devices for the preemptor, and its Filter's
 * rejections are UnschedulableAndUnresolvable, so no node that lacks
 * devices is a candidate. The proposal gives the plugin RemovePod/AddPod: a
 * victim's claim is released in the dry run when every pod it is reserved
 * for is a victim (one shared with a pod that stays is not), and only a
 * claim whose devices are all published for the node by spec.nodeName
 * (node-local slices: network-attached and multi-node devices are out of
 * its scope). A claim allocated and reserved for no pod is no victim's,
 * and stays. Nothing is released for a pod of a PodGroup (the proposal
 * leaves workload-aware preemption out: the group stays pending).
 *
 * The released claims are read from the cycle's outstanding moves (the
 * pods the dry run has taken off the node), so that the reprieve, which
 * adds victims back one by one, sees their claims held again with no state
 * of its own to keep in step. Nothing shared is written: the allocator runs
 * on a view of the set whose held-device index leaves the released claims
 * out (dry runs may run on threads). */
#include "sched/engine/filter/dra_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "sched/engine/filter/cycle.h"
#include "sched/engine/filter/dra_nodealloc.h"
#include "sched/engine/preempt/preempt.h"
#include "sched/engine/reasons.h"

/* The reservedFor entry (uid, name) is a pod of namespace ns the dry run
 * has taken off ni (a victim), not the preemptor itself. */
static bool taken_off(const pk_cycle *c, const pk_nodeinfo *ni, const pk_pod *preemptor, const char *ns,
                      const char *uid, const char *name)
{
	for (int i = 0; i < c->nmoves; i++) {
		const pk_cycle_move *m = &c->moves[i];
		const pk_pod *p = m->pod;
		if (m->ni != ni || m->mult != -1 || m->nomination || p == preemptor ||
		    (*p->uid && strcmp(p->uid, preemptor->uid) == 0) || strcmp(p->namespace_, ns) != 0)
			continue;
		if (*uid && *p->uid ? strcmp(p->uid, uid) == 0 : strcmp(p->name, name) == 0)
			return true;
	}
	return false;
}

/* Is device d of a claim published for the node by a slice pinned to it
 * (spec.nodeName)? first/n: the node's pinned slices in set->pinned. */
static bool node_local(const pk_dra_set *set, long first, long n, const pk_dra_device_ref *d)
{
	for (long k = first; k < first + n; k++) {
		const pk_dra_slice *sl = &set->slices[set->pinned[k]];
		if (sl->driver != d->driver || sl->pool != d->pool)
			continue;
		for (int i = 0; i < sl->ndevices; i++)
			if (sl->devices[i].name == d->device)
				return true;
	}
	return false;
}

/* Does the dry run release claim h on ni: reserved for pods, every one of
 * them a victim here, its devices node-local here? */
static bool released(const pk_cycle *c, const pk_nodeinfo *ni, const pk_pod *preemptor, const pk_dra_claim *h,
                     long first, long n)
{
	if (h->nreserved == 0)
		return false;
	for (int i = 0; i < h->nreserved; i++)
		if (!taken_off(c, ni, preemptor, h->namespace_, h->reserved_uids[i], h->reserved_names[i]))
			return false;
	for (int j = 0; j < h->ndevices; j++)
		if (!node_local(c->s->dra, first, n, &h->devices[j]))
			return false;
	return true;
}

/* The claims holding devices of ni's pinned slices that the dry run
 * releases, into out (room for every device of those slices): how many. */
static int released_claims(const pk_cycle *c, const pk_nodeinfo *ni, const pk_pod *preemptor,
                           const pk_dra_claim ***out)
{
	const pk_dra_set *set = c->s->dra;
	long first, n;
	pk_dra_slices_of_node(set, ni->node->name, &first, &n);
	int cap = 0;
	for (long k = first; k < first + n; k++)
		cap += set->slices[set->pinned[k]].ndevices;
	*out = NULL;
	if (cap == 0)
		return 0;
	const pk_dra_claim **rel = pk_xmalloc(sizeof *rel * (size_t)cap);
	int nrel = 0;
	for (long k = first; k < first + n; k++) {
		const pk_dra_slice *sl = &set->slices[set->pinned[k]];
		for (int i = 0; i < sl->ndevices; i++) {
			const pk_dra_claim *h = pk_dra_holder(set, sl->driver, sl->pool, sl->devices[i].name);
			bool seen = false;
			for (int j = 0; h && !seen && j < nrel; j++)
				seen = rel[j] == h;
			if (h && !seen && released(c, ni, preemptor, h, first, n))
				rel[nrel++] = h;
		}
	}
	if (!nrel)
		free(rel);
	else
		*out = rel;
	return nrel;
}

static bool among(const pk_dra_claim *const *list, int n, const pk_dra_claim *c)
{
	for (int i = 0; i < n; i++)
		if (list[i] == c)
			return true;
	return false;
}

/* The set as the Filter sees it in a dry run: its held-device index
 * without the released claims and with the devices held for nominated
 * preemptors, and a snapshot that points to it. Nothing shared changes. */
typedef struct held_pair {
	const pk_dra_device_ref *ref;
	const pk_dra_claim *claim;
} held_pair;

typedef struct held_view {
	pk_dra_set set;
	pk_snapshot snap;
	held_pair *pairs;
	long npairs;
	pk_dra_device_ref **refs;       /* the holds' device refs, one allocation each */
	int nrefs;
} held_view;

static void view_open(held_view *v, const pk_snapshot *s, const pk_dra_claim *const *rel, int nrel)
{
	const pk_dra_set *set = s->dra;
	*v = (held_view){ .set = *set, .snap = *s };
	v->snap.dra = &v->set;
	v->pairs = pk_xmalloc(sizeof *v->pairs * (size_t)(set->nheld + 1));
	for (long i = 0; i < set->nheld; i++)
		if (!among(rel, nrel, set->held_by[i]))
			v->pairs[v->npairs++] = (held_pair){ set->held[i], set->held_by[i] };
	v->set.held = NULL;
	v->set.held_by = NULL;
	v->set.nheld = 0;
}

/* The held index's order (pk_dra_ref_cmp), which pk_dra_holder searches. */
static int pair_cmp(const void *a, const void *b)
{
	return pk_dra_ref_cmp(((const held_pair *)a)->ref, ((const held_pair *)b)->ref);
}

/* The pairs as the set's index (sorted when holds were added). */
static void view_index(held_view *v, bool sort)
{
	if (sort && v->npairs > 1)
		qsort(v->pairs, (size_t)v->npairs, sizeof *v->pairs, pair_cmp);
	free(v->set.held);
	free(v->set.held_by);
	v->set.held = pk_xmalloc(sizeof *v->set.held * (size_t)(v->npairs + 1));
	v->set.held_by = pk_xmalloc(sizeof *v->set.held_by * (size_t)(v->npairs + 1));
	for (long i = 0; i < v->npairs; i++) {
		v->set.held[i] = v->pairs[i].ref;
		v->set.held_by[i] = v->pairs[i].claim;
	}
	v->set.nheld = v->npairs;
}

static void view_close(held_view *v)
{
	free(v->pairs);
	free(v->set.held);
	free(v->set.held_by);
	for (int i = 0; i < v->nrefs; i++)
		free(v->refs[i]);
	free(v->refs);
}

/* The devices the allocator picks for nominated pod p on node as the view
 * stands, held from now on in the view (the proposal's claim nomination:
 * AddPod of a nominated preemptor holds its simulated allocation against
 * pods of its priority or lower). */
static void view_hold(held_view *v, const pk_pod *p, const pk_node *node)
{
	const dra_res *r = pk_dra_resolution(p);
	if (!r || !r->applies || r->reject.code != PK_CODE_SUCCESS)
		return;
	const pk_dra_claim *holder = NULL;
	for (int i = 0; !holder && i < r->nclaims; i++)
		holder = r->claims[i]->allocated ? NULL : r->claims[i];
	alloc_out o = { 0 };
	bool error;
	if (!holder || !pk_dra_allocatable(&v->snap, r, node, &error, NULL, 0, &o))
		return;
	if (o.ndevs) {
		pk_dra_device_ref *refs = pk_xmalloc(sizeof *refs * (size_t)o.ndevs);
		v->refs = pk_xrealloc(v->refs, (size_t)(v->nrefs + 1), sizeof *v->refs);
		v->refs[v->nrefs++] = refs;
		v->pairs = pk_xrealloc(v->pairs, (size_t)(v->npairs + o.ndevs + 1), sizeof *v->pairs);
		for (int i = 0; i < o.ndevs; i++) {
			const dev_at *d = &o.devs[i];
			refs[i] = (pk_dra_device_ref){ .request = "", .driver = d->slice->driver, .pool = d->slice->pool,
				                       .device = d->dev->name };
		}
		/* an admin-access pick holds nothing (allocateddevices.go) */
		for (int q = 0; o.count && q < o.nwants; q++)
			for (int j = 0; j < o.count[q] && !(o.admin && o.admin[q]); j++)
				v->pairs[v->npairs++] = (held_pair){ &refs[o.first[q] + j], holder };
		view_index(v, true);
	}
	pk_dra_alloc_out_free(&o);
}

/* Does a nominated pod among extra hold devices (a claim to allocate)? */
static bool holds_any(pk_pod *const *extra, int nextra)
{
	for (int i = 0; i < nextra; i++)
		if (extra[i]->con->dra && pk_dra_allocates(extra[i]))
			return true;
	return false;
}

/* The Filter on s, then its node-allocatable footprint check (KEP-5517)
 * on the same snapshot: the devices the allocator picks there. */
static bool fits_on(const pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, const pk_res *add,
                    pk_status *out)
{
	return pk_dra_node_fits(s, pod, ni->node, out) && pk_dra_nodealloc_fits(s, pod, ni, add, out);
}

bool pk_dra_node_fits_in_cycle(const pk_cycle *c, const pk_pod *pod, const pk_nodeinfo *ni, pk_pod *const *extra,
                               int nextra, const pk_res *add, pk_status *out)
{
	const pk_snapshot *s = c->s;
	if (!s->dra_kep5690)
		return fits_on(s, pod, ni, add, out);
	const pk_dra_claim **rel = NULL;
	/* a pod of a PodGroup is out of the proposal's scope (its workload-aware
	 * preemption does not call RemovePod): nothing is released for it */
	bool grouped = (pod->con->pod_group && *pod->con->pod_group) ||
	               (pod->con->workload_pod_group && *pod->con->workload_pod_group);
	int nrel = c->nmoves && !grouped ? released_claims(c, ni, pod, &rel) : 0;
	bool ok;
	if (nrel || holds_any(extra, nextra)) {
		held_view v;
		view_open(&v, s, rel, nrel);
		view_index(&v, false);
		for (int i = 0; i < nextra; i++)
			if (extra[i]->con->dra && pk_dra_allocates(extra[i]))
				view_hold(&v, extra[i], ni->node);
		ok = fits_on(&v.snap, pod, ni, add, out);
		view_close(&v);
	} else {
		ok = fits_on(s, pod, ni, add, out);
	}
	free(rel);
	/* With RemovePod, evicting the holders may make room: the proposal's
	 * Filter leaves the node to preemption (Unschedulable), where the
	 * release's rejection is UnschedulableAndUnresolvable. */
	if (!ok && out->code == PK_CODE_UNSCHEDULABLE_UNRESOLVABLE && out->nreasons == 1 &&
	    strcmp(out->reasons[0], PK_R_DRA_CANNOT_ALLOCATE) == 0)
		out->code = PK_CODE_UNSCHEDULABLE;
	return ok;
}

void pk_dra_kep5690_assume(pk_snapshot *s, dra_res *r)
{
	bool unallocated = false;
	for (int i = 0; i < r->nclaims; i++)
		unallocated |= !r->claims[i]->allocated;
	if (s->dra_kep5690 && r->reject.code == PK_CODE_SUCCESS && unallocated)
		r->proposal = PK_DRA_KEP5690_ASSUMPTION; /* a warning of its own after r->assumes' */
}

/* ---- what each victim frees (reports) ----------------------------------------------- */

/* Is reservedFor entry (uid, name) of a claim in namespace ns the victim v? */
static bool is_victim(const pk_victim_ref *v, const char *ns, const char *uid, const char *name)
{
	if (strcmp(v->namespace_, ns) != 0)
		return false;
	return *uid && *v->uid ? strcmp(v->uid, uid) == 0 : strcmp(v->name, name) == 0;
}

static bool among_victims(const pk_victim_ref *victims, int n, const char *ns, const char *uid, const char *name)
{
	for (int i = 0; i < n; i++)
		if (is_victim(&victims[i], ns, uid, name))
			return true;
	return false;
}

/* Why the proposal's dry run keeps claim h of victim v (reserved for it),
 * into why ("" when it releases it): the rule of released() above, said. */
static void kept_why(const pk_dra_set *set, const pk_pod *preemptor, const char *node, const pk_victim_ref *victims,
                     int n, const pk_dra_claim *h, char *why, size_t size)
{
	why[0] = '\0';
	if ((preemptor->con->pod_group && *preemptor->con->pod_group) ||
	    (preemptor->con->workload_pod_group && *preemptor->con->workload_pod_group)) {
		snprintf(why, size, "the preemptor is a PodGroup member: the proposal releases no claim for it");
		return;
	}
	for (int i = 0; i < h->nreserved; i++)
		if (!among_victims(victims, n, h->namespace_, h->reserved_uids[i], h->reserved_names[i])) {
			snprintf(why, size, "shared with %s/%s, which stays", h->namespace_, h->reserved_names[i]);
			return;
		}
	long first, np;
	pk_dra_slices_of_node(set, node, &first, &np);
	for (int j = 0; j < h->ndevices; j++)
		if (!node_local(set, first, np, &h->devices[j])) {
			snprintf(why, size, "device %s/%s/%s is not published for node %s alone (spec.nodeName): the "
			         "proposal releases node-local claims only", h->devices[j].driver, h->devices[j].pool,
			         h->devices[j].device, node);
			return;
		}
}

/* Claim i of the set's input claims, then of those made in the run. */
static const pk_dra_claim *claim_at(const pk_dra_set *set, long i)
{
	return i < set->nclaims ? &set->claims[i] : set->made[i - set->nclaims];
}

static bool reserved_for_victim(const pk_dra_claim *h, const pk_victim_ref *v)
{
	for (int i = 0; i < h->nreserved; i++)
		if (is_victim(v, h->namespace_, h->reserved_uids[i], h->reserved_names[i]))
			return true;
	return false;
}

/* The devices of victim v's allocated claims, appended to out (grown). */
static void victim_devices(const pk_dra_set *set, const pk_pod *preemptor, const char *node,
                           const pk_victim_ref *victims, int n, const pk_victim_ref *v, pk_victim_device **out,
                           int *nout, int *cap)
{
	for (long i = 0; i < set->nclaims + set->nmade; i++) {
		const pk_dra_claim *h = claim_at(set, i);
		if (!h->allocated || !h->ndevices || !reserved_for_victim(h, v))
			continue;
		char why[sizeof out[0]->why];
		kept_why(set, preemptor, v->node && *v->node ? v->node : node, victims, n, h, why, sizeof why);
		for (int j = 0; j < h->ndevices; j++) {
			if (*nout == *cap) {
				*cap = *cap ? 2 * *cap : 8;
				*out = pk_xrealloc(*out, (size_t)*cap, sizeof **out);
			}
			pk_victim_device *d = &(*out)[(*nout)++];
			*d = (pk_victim_device){ h->namespace_, h->name, h->devices[j].driver, h->devices[j].pool,
				                 h->devices[j].device, "" };
			snprintf(d->why, sizeof d->why, "%s", why);
		}
	}
}

pk_victim_device *pk_dra_victims_devices(const pk_snapshot *s, const pk_pod *preemptor, const char *node,
                                         pk_victim_ref *victims, int n)
{
	if (!s->dra_kep5690 || !s->dra || !n)
		return NULL;
	pk_victim_device *all = NULL;
	int nall = 0, cap = 0;
	int *first = pk_xmalloc(sizeof *first * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		first[i] = nall;
		victim_devices(s->dra, preemptor, node, victims, n, &victims[i], &all, &nall, &cap);
	}
	first[n] = nall;
	for (int i = 0; nall && i < n; i++) { /* pointers once the block has stopped moving */
		victims[i].devices = first[i + 1] > first[i] ? all + first[i] : NULL;
		victims[i].ndevices = (uint16_t)(first[i + 1] - first[i] > UINT16_MAX ? UINT16_MAX : first[i + 1] - first[i]);
	}
	free(first);
	return all;
}
