/* The simulator reuses per-node results across decisions (pk_eval_memo)
 * and lists victims for the chosen node only. Both are shortcuts: every
 * step must come out as it does without them. Random clusters, replicas
 * of a few workloads and pods of their own, compared step by step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "sched/sim/simulate.h"
#include "sched/engine/engine.h"
#include "sched/engine/filter/cycle.h"
#include "sched/engine/preempt/preempt_int.h"

enum { CLUSTERS = 120 };

typedef struct rng { unsigned long long s; } rng;

static int roll(rng *r, int n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (int)(r->s % (unsigned long long)n);
}

static void add(pk_snapshot *s, const char *json)
{
	cJSON *o = cJSON_Parse(json);
	bool take = false;
	char err[256];
	if (!o || pk_snapshot_add(s, o, 0, &take, err, sizeof err) != PK_ADD_USED) {
		fprintf(stderr, "cannot add %s\n", json);
		exit(2);
	}
	if (!take)
		cJSON_Delete(o);
}

static void build(pk_snapshot *s, unsigned long long seed)
{
	rng r = { seed * 0x9E3779B97F4A7C15ull + 1 };
	char b[2048];
	pk_snapshot_init(s);
	int nodes = 6 + roll(&r, 20);
	/* every fourth cluster: tails of more levels than pk_tail keeps */
	bool many = seed % 4 == 1;
	for (int i = 0; i < nodes; i++) {
		snprintf(b, sizeof b,
		         "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n%02d\",\"labels\":{\"zone\":\"z%d\"}},"
		         "\"spec\":{%s},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"%d\"}}}",
		         i, i % 3, roll(&r, 6) ? "" : "\"taints\":[{\"key\":\"gpu\",\"effect\":\"NoSchedule\"}]",
		         roll(&r, 8) ? 110 : 6);
		add(s, b);
		int pods = roll(&r, many ? 14 : 8);
		for (int k = 0; k < pods; k++) {
			int app = roll(&r, 5);
			snprintf(b, sizeof b,
			         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%02d-%d\",\"namespace\":\"ns%d\",\"uid\":\"u%02d-%d\","
			         "\"labels\":{\"app\":\"a%d\"},\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"rs%d\","
			         "\"uid\":\"rs%d\",\"controller\":true}]},"
			         "\"spec\":{\"nodeName\":\"n%02d\",\"priority\":%d,\"containers\":[{\"name\":\"c\",\"resources\":"
			         "{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"}}}]},"
			         "\"status\":{\"phase\":\"Running\"%s}}",
			         i, k, app % 2, i, k, app, app, app, i,
			         many ? (int[]){ 0, 10, 20, 30, 40, 50, 60, 70, 100, 1000 }[roll(&r, 10)]
			              : (int[]){ 0, 100, 100, 1000, 5000 }[roll(&r, 5)],
			         100 * (1 + roll(&r, 12)), 256 * (1 + roll(&r, 8)),
			         roll(&r, 4) ? ",\"startTime\":\"2026-11-20T10:00:00Z\"" : "");
			add(s, b);
		}
	}
	for (int app = 0; app < 5; app++) {
		snprintf(b, sizeof b,
		         "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"pdb%d\",\"namespace\":\"ns%d\"},"
		         "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"a%d\"}}},\"status\":{\"disruptionsAllowed\":%d}}",
		         app, app % 2, app, roll(&r, 2) + (many ? 20 : 0));
		add(s, b);
	}
	/* pending: replicas of three workloads, then pods of their own. Every
	 * third cluster interleaves the workloads (the memo's shape changes at
	 * every decision) and every fifth gives two pods one uid (the memo may
	 * not keep a shape's whole evaluation then). */
	bool interleave = seed % 3 == 0, twin = seed % 2 == 0;
	/* every fifth cluster: the replicas are a StatefulSet's, each with a
	 * claim bound to a volume in zone z(i % 3) (the memo's shape follows the
	 * volume's zone, and the shapes take turns) */
	bool claims = seed % 5 == 3;
	if (claims)
		add(s, "{\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"zonal\"},\"provisioner\":\"csi.example\","
		       "\"volumeBindingMode\":\"WaitForFirstConsumer\"}");
	int w = 0, ws[3];
	for (int k = 0; k < 3; k++)
		ws[k] = roll(&r, 1000);
	for (int i = 0; i < 30; i++) {
		bool replica = i < 24;
		if (replica)
			w = ws[interleave ? i % 3 : i / 8];
		rng wr = { (unsigned long long)w * 7919 + 3 };
		rng *x = replica ? &wr : &r;
		int prio = (int[]){ 100, 1000, 2000, 6000 }[roll(x, 4)];
		int cpu = 500 * (1 + roll(x, 6));
		const char *extra = (const char *[]){ "", "", ",\"nodeSelector\":{\"zone\":\"z1\"}",
		                                      ",\"tolerations\":[{\"key\":\"gpu\",\"operator\":\"Exists\"}]",
		                                      ",\"preemptionPolicy\":\"Never\"" }[roll(x, 5)];
		bool port = !replica && roll(&r, 4) == 0;
		char volumes[96] = "";
		if (claims && replica) {
			snprintf(b, sizeof b,
			         "{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv%02d\"},\"spec\":{\"capacity\":"
			         "{\"storage\":\"1Gi\"},\"accessModes\":[\"ReadWriteOnce\"],\"storageClassName\":\"zonal\","
			         "\"claimRef\":{\"namespace\":\"ns0\",\"name\":\"c%02d\"},\"csi\":{\"driver\":\"csi.example\","
			         "\"volumeHandle\":\"h%02d\"},\"nodeAffinity\":{\"required\":{\"nodeSelectorTerms\":[{"
			         "\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"z%d\"]}]}]}}},"
			         "\"status\":{\"phase\":\"Bound\"}}",
			         i, i, i, i % 3);
			add(s, b);
			snprintf(b, sizeof b,
			         "{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c%02d\",\"namespace\":\"ns0\"},"
			         "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"storageClassName\":\"zonal\","
			         "\"volumeName\":\"pv%02d\"},\"status\":{\"phase\":\"Bound\"}}",
			         i, i);
			add(s, b);
			snprintf(volumes, sizeof volumes, ",\"volumes\":[{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"c%02d\"}}]", i);
		}
		snprintf(b, sizeof b,
		         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"q%02d\",\"namespace\":\"ns0\",\"uid\":\"q%02d\","
		         "\"creationTimestamp\":\"2026-11-2%dT10:00:%02dZ\"},"
		         "\"spec\":{\"priority\":%d%s%s,\"containers\":[{\"name\":\"c\",%s\"resources\":"
		         "{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"512Mi\"}}}]},\"status\":{\"phase\":\"Pending\"}}",
		         i, twin && i == 2 ? 1 : i, replica ? (interleave ? 1 : i / 8) : 5, i, prio, extra, volumes,
		         port ? "\"ports\":[{\"containerPort\":80,\"hostPort\":80}]," : "", cpu);
		add(s, b);
	}
	pk_snapshot_finish(s);
}

typedef struct trace { char *text; size_t len, cap; } trace;

static void put(trace *t, const char *s)
{
	size_t n = strlen(s);
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->text = realloc(t->text, t->cap);
		if (!t->text)
			abort();
	}
	memcpy(t->text + t->len, s, n + 1);
	t->len += n;
}

static void on_step(void *ctx, const pk_sim_step *st)
{
	trace *t = ctx;
	char b[512];
	const pk_evaluation *e = st->pod_eval;
	snprintf(b, sizeof b, "%s outcome=%d status=%d candidates=%d msg=%s", st->unit->pods[0]->name, st->outcome,
	         e ? (int)e->status : -1, e ? e->ncandidates : -1, e ? e->message : "");
	put(t, b);
	if (e && e->best >= 0) {
		const pk_candidate *c = &e->candidates[e->best];
		pk_candidate sum = *c;
		pk_candidate_summarize(&sum);
		snprintf(b, sizeof b, " node=%s pdb=%d by=%s top=%d sum=%lld start=%lld%s", c->node, c->num_pdb_violations,
		         e->decided_by ? e->decided_by : "-", (int)sum.top_priority, (long long)sum.priority_sum,
		         (long long)sum.top_start, sum.top_unstarted ? " unstarted" : "");
		put(t, b);
		for (int i = 0; i < c->nvictims; i++) {
			snprintf(b, sizeof b, " %s/%s", c->victims[i].namespace_, c->victims[i].name);
			put(t, b);
		}
		for (int i = 0; i < c->nclear; i++) {
			snprintf(b, sizeof b, " clear:%s", c->clear_nominations[i].name);
			put(t, b);
		}
	}
	if (st->node) {
		snprintf(b, sizeof b, " bound=%s", st->node->node->name);
		put(t, b);
	}
	put(t, "\n");
}

/* with_shortcuts=false: victims for every candidate and no memo */
typedef void builder(pk_snapshot *s, unsigned long long seed);

/* threads: the memo's dry runs on two threads from the first potential
 * node on (normally from 512), to compare the parallel path too. */
static char *run_threads(builder *build_it, unsigned long long seed, bool with_shortcuts, bool threads);

static char *run(builder *build_it, unsigned long long seed, bool with_shortcuts)
{
	return run_threads(build_it, seed, with_shortcuts, false);
}

static char *run_threads(builder *build_it, unsigned long long seed, bool with_shortcuts, bool threads)
{
	pk_snapshot s;
	build_it(&s, seed);
	pk_pg_set g;
	pk_engine_opts eo;
	pk_engine_opts_default(&eo);
	pk_pg_set_init(&g, &eo.release);
	pk_pg_set_finish(&g, &s);
	pk_sim_opts o;
	pk_sim_opts_default(&o);
	o.eval.victims_of_best_only = with_shortcuts;
	o.eval.threads = threads ? 2 : 1;
	o.eval.threads_from = 1;
	pk_sim m;
	pk_sim_init(&m, &s, &g, &o);
	if (!with_shortcuts) {
		pk_eval_memo_free(m.opts.eval.memo);
		m.opts.eval.memo = NULL;
	}
	trace t = { 0 };
	put(&t, "");
	pk_sim_run(&m, on_step, &t);
	pk_sim_free(&m);
	pk_pg_set_free(&g);
	pk_snapshot_free(&s);
	return t.text;
}

static void test_selector_equal(void)
{
	pk_selector a, b;
	cJSON *x = cJSON_Parse("{\"matchLabels\":{\"app\":\"a\"}}"), *y = cJSON_Parse("{\"matchLabels\":{\"app\":\"b\"}}");
	char err[64];
	pk_selector_compile(x, &a, err, sizeof err);
	pk_selector_compile(x, &b, err, sizeof err);
	CHECK(pk_selector_equal(&a, &b), "a selector equals its twin");
	pk_selector_free(&b);
	pk_selector_compile(y, &b, err, sizeof err);
	CHECK(!pk_selector_equal(&a, &b), "another value is another selector");
	pk_selector_free(&a);
	pk_selector_free(&b);
	cJSON_Delete(x);
	cJSON_Delete(y);
}

/* The filter pass counts every nominated pod of equal or higher priority,
 * however many (it used to stop at 64): 70 one-cpu pods nominated to a
 * 100-cpu node leave no room for 31 cpus, 64 of them would. */
static void test_nominated_beyond_64(void)
{
	pk_snapshot s;
	char b[1024];
	pk_snapshot_init(&s);
	add(&s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
	        "\"status\":{\"allocatable\":{\"cpu\":\"100\",\"memory\":\"100Gi\",\"pods\":\"500\"}}}");
	for (int i = 0; i < 71; i++) {
		bool preemptor = i == 70;
		snprintf(b, sizeof b,
		         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"q%d\",\"namespace\":\"ns\",\"uid\":\"q%d\"},"
		         "\"spec\":{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
		         "{\"cpu\":\"%d\"}}}]},\"status\":{\"phase\":\"Pending\"%s}}",
		         i, i, preemptor ? 31 : 1, preemptor ? "" : ",\"nominatedNodeName\":\"n1\"");
		add(&s, b);
	}
	pk_snapshot_finish(&s);
	pk_nodeinfo *ni = pk_snapshot_node(&s, "n1");
	pk_pod *q = s.pods[s.npods - 1];
	CHECK(ni && ni->nnominated == 70, "70 pods nominated to the node (%d)", ni ? ni->nnominated : -1);
	pk_cycle c;
	pk_cycle_open(&c, &s, NULL, q);
	pk_status st = pk_run_filters_with_nominated(&c, q, ni);
	pk_cycle_close(&c);
	CHECK(st.code == PK_CODE_UNSCHEDULABLE && st.nreasons == 1 && strcmp(st.reasons[0], "Insufficient cpu") == 0,
	      "31 cpus do not fit beside 70 nominated cpus on 100 (%s)", pk_code_name(st.code));
	pk_snapshot_free(&s);
}

/* A pending pod nominated to a node is left out of the view of a preemptor
 * with its uid. What the memo learnt of that node for the twin must not
 * serve the next preemptor of the same shape: A (uid u1) is nominated to
 * n1; P1 (uid u1) fits there beside the pod it does not see; P2 (uid u2,
 * the same shape) must not. */
static void test_twin_uid(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	add(&s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
	        "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"low\",\"namespace\":\"ns\",\"uid\":\"l\"},"
	        "\"spec\":{\"nodeName\":\"n1\",\"priority\":0,\"containers\":[{\"name\":\"c\",\"resources\":"
	        "{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Running\"}}");
	const char *pending[] = { "a", "u1", ",\"nominatedNodeName\":\"n1\"", "p1", "u1", "", "p2", "u2", "" };
	for (int i = 0; i < 3; i++) {
		char b[1024];
		snprintf(b, sizeof b,
		         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"ns\",\"uid\":\"%s\"},"
		         "\"spec\":{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
		         "{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"%s}}",
		         pending[3 * i], pending[3 * i + 1], pending[3 * i + 2]);
		add(&s, b);
	}
	pk_snapshot_finish(&s);
	pk_pod *p1 = s.pods[s.npods - 2], *p2 = s.pods[s.npods - 1];
	pk_eval_opts o;
	pk_eval_opts_default(&o);
	o.victims_of_best_only = true;
	o.memo = pk_eval_memo_new();
	pk_eval_memo_uids_unique(o.memo, false);
	pk_preemptor pre1 = { .pod = p1 }, pre2 = { .pod = p2 };
	pk_evaluation e1, e2;
	pk_evaluate(&s, &pre1, &o, &e1);
	CHECK(e1.status == PK_PRE_FITS, "the twin of a nominated pod fits beside it (%s)", pk_pre_status_name(e1.status));
	pk_evaluation_free(&e1);
	pk_evaluate(&s, &pre2, &o, &e2);
	CHECK(e2.status == PK_PRE_NEEDS_PREEMPTION, "the next pod of that shape sees the nominated pod (%s)",
	      pk_pre_status_name(e2.status));
	pk_evaluation_free(&e2);
	pk_eval_memo_free(o.memo);
	pk_snapshot_free(&s);
}

/* The same through the simulator, which must notice the shared uid: P1
 * (A's twin) fits on n0 and n1 and is bound to n0; P2 must then see A on
 * n1 and preempt, not bind beside it. A is queued last. */
static void build_twins(pk_snapshot *s, unsigned long long seed)
{
	(void)seed;
	pk_snapshot_init(s);
	add(s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n0\"},"
	       "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
	/* a PreferNoSchedule taint: P1 is scored onto n0 whatever the release's scorer */
	add(s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
	       "\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"PreferNoSchedule\"}]},"
	       "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
	add(s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"low\",\"namespace\":\"ns\",\"uid\":\"l\"},"
	       "\"spec\":{\"nodeName\":\"n1\",\"priority\":0,\"containers\":[{\"name\":\"c\",\"resources\":"
	       "{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Running\"}}");
	const char *pending[] = { "p1", "u1", "01", "", "p2", "u2", "02", "", "a", "u1", "03",
	                          ",\"nominatedNodeName\":\"n1\"" };
	for (int i = 0; i < 3; i++) {
		char b[1024];
		snprintf(b, sizeof b,
		         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"ns\",\"uid\":\"%s\","
		         "\"creationTimestamp\":\"2026-11-20T10:00:%sZ\"},"
		         "\"spec\":{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
		         "{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"%s}}",
		         pending[4 * i], pending[4 * i + 1], pending[4 * i + 2], pending[4 * i + 3]);
		add(s, b);
	}
	pk_snapshot_finish(s);
}

static void test_twin_uid_simulated(void)
{
	char *fast = run(build_twins, 0, true), *full = run(build_twins, 0, false);
	bool same = strcmp(fast, full) == 0;
	if (!same)
		fprintf(stderr, "--- shortcuts\n%s--- full\n%s", fast, full);
	CHECK(same && strstr(full, "p2 outcome=1") != NULL,
	      "a simulation with two pods of one uid plays as without the memo (p2 preempts on n1)");
	free(fast);
	free(full);
}

/* A bounded dry run (pk_select_victims_bound) says what the whole run
 * says, and a key no higher than the whole run's in the criteria it
 * bounds; exactly its violations and highest priority when the first
 * victim violates no PDB. Every pending pod on every node it may preempt
 * on, in random clusters. */
static void test_bound_below_exact(void)
{
	long runs = 0, bad = 0, exact_top = 0, bounded = 0, overflow = 0;
	for (unsigned long long seed = 1; seed <= 60; seed++) {
		pk_snapshot s;
		build(&s, seed);
		/* the arithmetic path's cycle: no PreFilter state */
		pk_cycle cy;
		pk_cycle_open_bare(&cy, &s, NULL);
		for (long p = 0; p < s.npods; p++) {
			pk_pod *q = s.pods[p];
			if (*q->node_name || !pk_arithmetic_applies(&cy, q))
				continue;
			for (long i = 0; i < s.nnodes; i++) {
				pk_nodeinfo *ni = &s.infos[i];
				if (pk_run_static_filters(q, ni).code != PK_CODE_SUCCESS)
					continue;
				pk_tail t1 = { 0 }, t2 = { 0 };
				pk_candidate b, x;
				bool exact;
				pk_status sb = pk_select_victims_bound(&cy, q, ni, &b, &t1, &exact);
				pk_status sx = pk_select_victims(&cy, q, ni, NULL, &x, false, &t2, true);
				runs++;
				overflow += t1.known && t1.nlevels < 0;
				if (sb.code != sx.code) {
					bad++;
				} else if (sx.code == PK_CODE_SUCCESS) {
					pick_key kb = pk_pick_key_of(&b, s.now), kx = pk_pick_key_of(&x, s.now);
					int criterion, c = pk_pick_key_cmp(&kb, &kx, &criterion);
					bool below = exact ? c == 0 : c < 0 || criterion > 4;
					bool top = kb.num_pdb_violations > 0 || (kx.num_pdb_violations == 0 &&
					                                          kb.top_priority == kx.top_priority);
					bad += !below || !top;
					bounded += !exact;
					exact_top += !exact && kb.num_pdb_violations == 0;
				}
				pk_tail_free(&t1);
				pk_tail_free(&t2);
			}
		}
		pk_cycle_close(&cy);
		pk_snapshot_free(&s);
	}
	CHECK(bad == 0 && bounded > 1000 && exact_top > 0 && overflow > 0,
	      "bounded dry runs: same status, key no higher, highest priority exact (%ld of %ld wrong, %ld bounded, "
	      "%ld from the slots)", bad, runs, bounded, overflow);
}

/* In a cluster whose replicas have zonal claims, every replica bound is
 * bound in its volume's zone (node nNN is in zone z(NN % 3)): the claims
 * were read, and the memo kept their shapes apart. */
static int zonal_misplaced(const char *steps, int *bound)
{
	int bad = 0;
	for (const char *l = steps; *l; l = strchr(l, '\n') + 1) {
		int q, n;
		const char *b = strstr(l, " bound=n");
		const char *eol = strchr(l, '\n');
		if (sscanf(l, "q%d", &q) == 1 && q < 24 && b && b < eol && sscanf(b, " bound=n%d", &n) == 1) {
			(*bound)++;
			bad += n % 3 != q % 3;
		}
	}
	return bad;
}

int main(void)
{
	test_bound_below_exact();
	test_selector_equal();
	int same = 0, steps = 0, zonal_bound = 0, misplaced = 0;
	for (unsigned long long seed = 1; seed <= CLUSTERS; seed++) {
		char *fast = run(build, seed, true), *full = run(build, seed, false);
		char *parallel = run_threads(build, seed, true, true);
		if (strcmp(fast, full) == 0 && strcmp(parallel, full) == 0)
			same++;
		else
			fprintf(stderr, "seed %llu differs:\n--- shortcuts\n%s--- two threads\n%s--- full\n%s", seed, fast,
			        parallel, full);
		free(parallel);
		if (seed % 5 == 3)
			misplaced += zonal_misplaced(fast, &zonal_bound);
		for (const char *p = full; *p; p++)
			steps += *p == '\n';
		free(fast);
		free(full);
	}
	CHECK(same == CLUSTERS, "%d random clusters: every step the same with and without the memo, on one thread or two (%d)", CLUSTERS,
	      same);
	CHECK(zonal_bound > 20 && misplaced == 0, "replicas with zonal claims are bound in their volume's zone only (%d bound, %d elsewhere)",
	      zonal_bound, misplaced);
	CHECK(steps >= CLUSTERS * 30, "every pending pod was a step (%d)", steps);
	test_nominated_beyond_64();
	test_twin_uid();
	test_twin_uid_simulated();
	return T_DONE();
}
