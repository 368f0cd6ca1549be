/* The scheduling cycle (engine/cycle.h): a move supposed in a cycle
 * changes the node's view and every registered PreFilter state together
 * (upstream's PreFilterExtensions AddPod/RemovePod), a nested cycle builds
 * its state on its outer cycle's view, and closing a cycle takes back what
 * it supposed. One scenario per registered plugin: a plugin registered in
 * cycle.c without one here fails this test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "io/reader.h"
#include "sched/engine/filter/cycle.h"
#include "sched/engine/engine.h"

static void add(pk_snapshot *s, const char *text)
{
	char err[256];
	bool take = false;
	cJSON *v = pk_parse_json_text(text, strlen(text), err, sizeof err);
	if (!v || pk_snapshot_add(s, v, 0, &take, err, sizeof err) != PK_ADD_USED)
		fprintf(stderr, "bad test object: %s\n%s\n", err, text);
	if (!take)
		cJSON_Delete(v);
}

#define NODE(name, zone) \
	"{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{\"kubernetes.io/hostname\":\"" name \
	"\",\"topology.kubernetes.io/zone\":\"" zone "\"}},\"status\":{\"allocatable\":{\"cpu\":\"8\"," \
	"\"memory\":\"8Gi\",\"pods\":\"110\"}}}"
#define POD(name, labels, node, phase, spec_extra) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"ns\",\"uid\":\"" name "\"," \
	"\"labels\":" labels "},\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{\"name\":\"c\"," \
	"\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]" spec_extra "},\"status\":{\"phase\":\"" phase "\"}}"

/* A plugin's case: the incoming pod fails its Filter on n1 because of the
 * blocker, and passes once the blocker is supposed gone. */
typedef struct scenario {
	const char *plugin;       /* upstream's name, as in pk_prefilter_plugin */
	const char *blocker;      /* bound on n1 */
	const char *incoming;     /* pending */
	const char *objects[2];   /* other objects the input holds, or NULL */
} scenario;

#define RWOP_CLAIM ",\"volumes\":[{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]"

static const scenario scenarios[] = {
	{ "VolumeRestrictions", POD("holder", "{}", "n1", "Running", RWOP_CLAIM), POD("next", "{}", "", "Pending", RWOP_CLAIM),
	  { "{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data\",\"namespace\":\"ns\"},\"spec\":{"
	    "\"accessModes\":[\"ReadWriteOncePod\"],\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\"}}",
	    "{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv\"},\"spec\":{\"accessModes\":"
	    "[\"ReadWriteOncePod\"]},\"status\":{\"phase\":\"Bound\"}}" } },
	{ "PodTopologySpread", POD("web-1", "{\"app\":\"web\"}", "n1", "Running", ""),
	  POD("web-2", "{\"app\":\"web\"}", "", "Pending",
	      ",\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"topology.kubernetes.io/zone\","
	      "\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]"), { NULL, NULL } },
	{ "InterPodAffinity", POD("db-1", "{\"app\":\"db\"}", "n1", "Running", ""),
	  POD("db-2", "{\"app\":\"db\"}", "", "Pending",
	      ",\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{"
	      "\"topologyKey\":\"kubernetes.io/hostname\",\"labelSelector\":{\"matchLabels\":{\"app\":\"db\"}}}]}}"), { NULL, NULL } },
};

static void build(pk_snapshot *s, const scenario *sc)
{
	pk_snapshot_init(s);
	add(s, NODE("n1", "a"));
	add(s, NODE("n2", "b"));
	add(s, sc->blocker);
	add(s, sc->incoming);
	for (int i = 0; i < 2; i++)
		if (sc->objects[i])
			add(s, sc->objects[i]);
	pk_snapshot_finish(s);
}

static bool fails_in(pk_cycle *c, const pk_pod *p, const pk_nodeinfo *ni, const char *plugin)
{
	pk_status st = pk_run_filters(c, p, ni);
	return st.code != PK_CODE_SUCCESS && st.plugin && strcmp(st.plugin, plugin) == 0;
}

static bool passes_in(pk_cycle *c, const pk_pod *p, const pk_nodeinfo *ni)
{
	return pk_run_filters(c, p, ni).code == PK_CODE_SUCCESS;
}

static void test_plugin(pk_state_id id, const scenario *sc)
{
	const char *name = pk_prefilter_plugin_of(id)->name;
	pk_snapshot s;
	build(&s, sc);
	pk_pod *blocker = s.pods[0], *incoming = s.pods[1];
	pk_nodeinfo *n1 = pk_snapshot_node(&s, "n1");

	pk_cycle c;
	pk_cycle_open(&c, &s, NULL, incoming);
	CHECK(c.state[id] != NULL, "%s: the incoming pod's PreFilter builds a state", name);
	CHECK(fails_in(&c, incoming, n1, name), "%s: its Filter refuses n1 beside %s", name, blocker->name);
	pk_cycle_remove_pod(&c, n1, blocker);
	CHECK(n1->npods == 0, "%s: the removal reaches the node's view", name);
	CHECK(passes_in(&c, incoming, n1), "%s: RemovePod reaches its state: n1 passes without %s", name,
	      blocker->name);
	pk_cycle_add_pod(&c, n1, blocker);
	CHECK(n1->npods == 1 && fails_in(&c, incoming, n1, name), "%s: AddPod reaches it: n1 refused again", name);

	/* taken back at the end */
	pk_cycle_remove_pod(&c, n1, blocker);
	pk_cycle_close(&c);
	CHECK(n1->npods == 1 && n1->pods[0] == blocker, "%s: closing the cycle puts %s back", name, blocker->name);

	/* nested: the inner cycle's PreFilter sees the outer one's removal */
	pk_cycle outer, inner;
	pk_cycle_open_bare(&outer, &s, NULL);
	CHECK(passes_in(&outer, incoming, n1), "%s: a cycle without PreFilter state does not run the Filter", name);
	pk_cycle_remove_pod(&outer, n1, blocker);
	pk_cycle_open(&inner, &s, &outer, incoming);
	CHECK(passes_in(&inner, incoming, n1), "%s: a nested cycle builds its state on the outer cycle's view", name);
	pk_cycle_close(&inner);
	pk_cycle_close(&outer);
	pk_cycle_open(&c, &s, NULL, incoming);
	CHECK(n1->npods == 1 && fails_in(&c, incoming, n1, name), "%s: and the outer cycle's end restores it", name);
	pk_cycle_close(&c);
	pk_snapshot_free(&s);
}

/* A dry run gives its pods back in its own order: moves that cancel out
 * leave nothing to take back. */
static void test_moves_cancel(void)
{
	pk_snapshot s;
	build(&s, &scenarios[0]);
	pk_nodeinfo *n1 = pk_snapshot_node(&s, "n1");
	pk_cycle c;
	pk_cycle_open(&c, &s, NULL, s.pods[1]);
	for (int i = 0; i < 1000; i++) {
		pk_cycle_remove_pod(&c, n1, s.pods[0]);
		pk_cycle_add_pod(&c, n1, s.pods[0]);
	}
	CHECK(c.nmoves == 0 && n1->npods == 1, "1,000 removes and adds of one pod leave no move outstanding (%d)",
	      c.nmoves);
	pk_cycle_close(&c);
	pk_snapshot_free(&s);
}

int main(void)
{
	for (int id = 0; id < PK_NSTATES; id++) {
		const char *name = pk_prefilter_plugin_of((pk_state_id)id)->name;
		const scenario *sc = NULL;
		for (size_t k = 0; k < sizeof scenarios / sizeof *scenarios; k++)
			if (strcmp(scenarios[k].plugin, name) == 0)
				sc = &scenarios[k];
		CHECK(sc != NULL, "registered plugin %s has a scenario here", name);
		if (sc)
			test_plugin((pk_state_id)id, sc);
	}
	test_moves_cancel();
	return T_DONE();
}
