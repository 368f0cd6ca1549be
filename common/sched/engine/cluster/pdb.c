/* PodDisruptionBudgets: their index by namespace and selector label, and
 * which PDBs a pod matches (cached in the pod while the snapshot holds). */
#include "sched/engine/cluster/snapshot.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static void cache_pod_pdbs(const pk_snapshot *s, pk_pod *p);

/* PDBs ordered by namespace, then by the label every pod they select
 * carries (must_value; none first), then index (pk_pdb_key, engine.h). The
 * keys are searched where they lie, together, not through the PDBs: two
 * million pods look up five keys each. */
static int pdb_key_cmp(const void *a, const void *b)
{
	const pk_pdb_key *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Which of pk_snapshot.pdb_key_bits' 4,096 bits stands for (ns, value). */
static unsigned pdb_key_bit(uintptr_t ns, uintptr_t value)
{
	uint64_t h = ((uint64_t)ns * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)value * 0xff51afd7ed558ccdull);
	return (unsigned)(h >> 52);
}

void pk_pdb_index(pk_snapshot *s)
{
	free(s->pdb_keys);
	s->pdb_keys = pk_xmalloc(sizeof *s->pdb_keys * (size_t)(s->npdbs + 1));
	for (int i = 0; i < s->npdbs; i++) {
		const pk_pdb *b = &s->pdbs[i];
		s->pdb_keys[i] = (pk_pdb_key){ (uintptr_t)b->namespace_, b->must_key ? (uintptr_t)b->must_value : 0, i };
	}
	qsort(s->pdb_keys, (size_t)s->npdbs, sizeof *s->pdb_keys, pdb_key_cmp);
	memset(s->pdb_key_bits, 0, sizeof s->pdb_key_bits);
	for (int i = 0; i < s->npdbs; i++) {
		unsigned bit = pdb_key_bit(s->pdb_keys[i].ns, s->pdb_keys[i].value);
		s->pdb_key_bits[bit >> 6] |= 1ull << (bit & 63);
	}
}

/* May some PDB have the key (ns, value)? (No: certainly none has.) */
static bool pdb_key_maybe(const pk_snapshot *s, uintptr_t ns, uintptr_t value)
{
	unsigned bit = pdb_key_bit(ns, value);
	return s->pdb_key_bits[bit >> 6] >> (bit & 63) & 1;
}

static bool pdb_key_before(const pk_pdb_key *k, uintptr_t ns, uintptr_t value)
{
	return k->ns < ns || (k->ns == ns && k->value < value);
}

/* The first position in pdb_keys at or after (ns, value). A search
 * without branches on the comparisons, which a pod's label values make
 * unpredictable: the range halves each step whatever the answer. */
static int first_pdb_at(const pk_snapshot *s, uintptr_t ns, uintptr_t value)
{
	const pk_pdb_key *base = s->pdb_keys;
	size_t n = (size_t)s->npdbs;
	if (n == 0)
		return 0;
	while (n > 1) {
		size_t half = n / 2;
		base = pdb_key_before(&base[half], ns, value) ? base + half : base;
		n -= half;
	}
	return (int)(base - s->pdb_keys) + pdb_key_before(base, ns, value);
}

/* Add to found[] the PDBs at (ns, value) that select p; false when more
 * than PK_POD_MAX_PDBS do. */
static bool find_pdbs_at(const pk_snapshot *s, const pk_pod *p, uintptr_t value, int16_t *found, int *n)
{
	uintptr_t ns = (uintptr_t)p->namespace_;
	if (!pdb_key_maybe(s, ns, value))
		return true;
	for (int k = first_pdb_at(s, ns, value); k < s->npdbs; k++) {
		const pk_pdb_key *key = &s->pdb_keys[k];
		if (key->ns != ns || key->value != value)
			break;
		if (!pk_pdb_matches(&s->pdbs[key->idx], p))
			continue;
		for (int j = 0; j < *n; j++)
			if (found[j] == key->idx)
				goto next; /* a value the pod carries under two keys */
		if (*n == PK_POD_MAX_PDBS || key->idx > INT16_MAX)
			return false;
		found[(*n)++] = (int16_t)key->idx;
	next:;
	}
	return true;
}

void pk_pod_match_pdbs(const pk_snapshot *s, pk_pod *p)
{
	if (p->npdbs < 0)
		cache_pod_pdbs(s, p);
}

/* The PDBs that select p, in index order (pk_pod.pdbs). */
static void cache_pod_pdbs(const pk_snapshot *s, pk_pod *p)
{
	int16_t found[PK_POD_MAX_PDBS];
	int n = 0;
	bool ok = find_pdbs_at(s, p, 0, found, &n);
	for (uint32_t i = 0; ok && p->labels && i < p->labels->n; i++)
		ok = find_pdbs_at(s, p, (uintptr_t)pk_labels_pair(p->labels, i)->value, found, &n);
	if (!ok) {
		p->npdbs = PK_POD_MAX_PDBS + 1;   /* rare: scan every time */
		return;
	}
	for (int i = 1; i < n; i++) /* insertion sort of at most four */
		for (int j = i; j > 0 && found[j - 1] > found[j]; j--) {
			int16_t t = found[j];
			found[j] = found[j - 1];
			found[j - 1] = t;
		}
	memcpy(p->pdbs, found, sizeof *found * (size_t)n);
	p->npdbs = (int8_t)n;
}
