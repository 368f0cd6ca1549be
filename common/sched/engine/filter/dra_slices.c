/* What DRA places on a node (dra.h): the ResourceSlices that publish
 * devices there, found through the set's index by node (k8s/dra.c) rather
 * than by a look at every slice (on a GPU cluster each node has its own
 * slice, and the allocator asks for a node's devices once per node and
 * pod), and whether an allocated claim may be used there. */
#include "sched/engine/filter/dra.h"

#include <limits.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "sched/engine/filter/filter.h"

static bool slice_on_node(const pk_dra_slice *sl, const pk_node *n)
{
	if (*sl->node_name)
		return sl->node_name == n->name || strcmp(sl->node_name, n->name) == 0;
	if (sl->all_nodes)
		return true;
	for (int i = 0; sl->has_node_selector && i < sl->nnode_terms; i++)
		if (pk_node_term_matches(&sl->node_terms[i], n))
			return true;
	return false;
}

long pk_dra_node_slices(const pk_dra_set *set, const pk_node *n, long **out)
{
	long first, npinned;
	pk_dra_slices_of_node(set, n->name, &first, &npinned);
	long *v = pk_xmalloc(sizeof *v * (size_t)(npinned + set->nunpinned + 1));
	long k = 0, i = 0, j = 0;
	while (i < npinned || j < set->nunpinned) { /* two lists in index order, merged */
		long pinned = i < npinned ? set->pinned[first + i] : LONG_MAX;
		long other = j < set->nunpinned ? set->unpinned[j] : LONG_MAX;
		if (pinned < other) {
			v[k++] = pinned;
			i++;
		} else {
			if (slice_on_node(&set->slices[other], n))
				v[k++] = other;
			j++;
		}
	}
	*out = v;
	return k;
}

bool pk_dra_allocation_on_node(const pk_dra_claim *c, const pk_node *n)
{
	if (*c->alloc_node) /* allocated in this run from a node-local slice */
		return c->alloc_node == n->name || strcmp(c->alloc_node, n->name) == 0;
	if (!c->has_node_selector)
		return true;
	for (int i = 0; i < c->nnode_terms; i++)
		if (pk_node_term_matches(&c->node_terms[i], n))
			return true;
	return false;
}
