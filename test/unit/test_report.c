/* The plan report (common/sched/report.h) from hand-made records: the
 * branches for records some runs have (AppliedObject, a plan's decidedBy,
 * warnings: the run's with their counts, pk_report_run_warnings), reasons
 * grouped from a plan's diagnosis, escaping, the bounds.
 * With a path argument the page is also written there, for test/html.bats
 * to render in a browser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/report/report.h"
#include "t.h"

static const char *const records[] = {
	"{\"kind\":\"AppliedObject\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
	"\"namespace\":\"shop\",\"name\":\"checkout\"},\"origin\":\"deploy.yaml:3\",\"action\":\"create\","
	"\"pods\":3,\"placed\":1,\"nominated\":1,\"victims\":2,\"unschedulable\":1,"
	"\"reasons\":[{\"reason\":\"Insufficient cpu\",\"count\":1}],"
	"\"victimPods\":[{\"namespace\":\"batch\",\"name\":\"report-1\"},{\"namespace\":\"batch\",\"name\":\"report-2\"}],"
	"\"warnings\":[\"replicas absent: 1 assumed\"],\"message\":\"3 pods: 1 placed, 1 nominated, 1 unschedulable\"}",

	"{\"kind\":\"PreemptionPlan\",\"preemptor\":{\"kind\":\"Pod\",\"namespace\":\"shop\",\"name\":\"checkout-a\","
	"\"uid\":\"u1\",\"priority\":1000},\"result\":\"Preempt\",\"nominatedNodeName\":\"node-1\","
	"\"victims\":[{\"namespace\":\"batch\",\"name\":\"report-1\",\"uid\":\"v1\",\"node\":\"node-1\",\"priority\":10,"
	"\"priorityClassName\":\"low\",\"owner\":{\"kind\":\"Job\",\"name\":\"report\"},\"pdbViolation\":true,"
	"\"pdb\":\"report-pdb\"},{\"namespace\":\"batch\",\"name\":\"report-2\",\"uid\":\"v2\",\"node\":\"node-1\","
	"\"priority\":10,\"priorityClassName\":\"low\",\"owner\":{\"kind\":\"Job\",\"name\":\"report\"}}],"
	"\"numPDBViolations\":1,\"decidedBy\":\"fewest PDB violations\","
	"\"reason\":\"preempting 2 pod(s) on node node-1\","
	"\"actions\":[{\"call\":\"pod_status_patch\",\"details\":{\"condition\":{\"type\":\"DisruptionTarget\"}}},"
	"{\"call\":\"pod_delete\"},{\"call\":\"pod_status_patch\",\"details\":{\"condition\":{}}},{\"call\":\"pod_delete\"},"
	"{\"call\":\"pod_status_patch\",\"details\":{\"nominatedNodeName\":\"node-1\"}}],"
	"\"nodeResources\":[{\"node\":\"node-1\",\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\","
	"\"example.com/gpu\":\"2\"},\"requested\":{\"cpu\":\"3500m\",\"memory\":\"4Gi\",\"pods\":\"9\"},"
	"\"requestedAfter\":{\"cpu\":\"4500m\",\"memory\":\"2Gi\",\"pods\":\"8\",\"example.com/gpu\":\"1\"}}]}",

	"{\"kind\":\"PreemptionPlan\",\"preemptor\":{\"kind\":\"Pod\",\"namespace\":\"shop\",\"name\":\"checkout-b\","
	"\"uid\":\"u2\",\"priority\":1000},\"result\":\"Unschedulable\",\"nominatedNodeName\":null,\"victims\":[],"
	"\"numPDBViolations\":0,\"reason\":\"0/3 nodes are available: 1 node(s) had untolerated taint(s), "
	"2 Insufficient example.com/gpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for "
	"scheduling, 2 No preemption victims found for incoming pod.\",\"actions\":[],"
	"\"diagnosis\":{\"nodes\":3,\"filter\":[{\"reason\":\"node(s) had untolerated taint(s)\",\"nodes\":1,"
	"\"taints\":[{\"key\":\"dedicated\",\"value\":\"infra\",\"effect\":\"NoSchedule\",\"nodes\":1}]},"
	"{\"reason\":\"Insufficient example.com/gpu\",\"nodes\":2}],\"postFilter\":\"0/3 nodes are available: "
	"1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.\","
	"\"preemption\":[{\"reason\":\"Preemption is not helpful for scheduling\",\"nodes\":1},"
	"{\"reason\":\"No preemption victims found for incoming pod\",\"nodes\":2}]},"
	"\"warnings\":[\"priorityClassName \\\"gone\\\" not found; priority 5 assumed\"]}",

	"{\"kind\":\"PreemptionPlan\",\"preemptor\":{\"kind\":\"Pod\",\"namespace\":\"shop\",\"name\":\"<script>x</script>\","
	"\"uid\":\"u3\",\"priority\":5},\"result\":\"NotEligible\",\"nominatedNodeName\":null,\"victims\":[],"
	"\"numPDBViolations\":0,\"reason\":\"not eligible: <b>&\\u2028\",\"actions\":[],"
	"\"warnings\":[\"priorityClassName \\\"gone\\\" not found; priority 5 assumed\"]}",

	"{\"kind\":\"SimulationSummary\",\"scheduled\":0,\"nominated\":1,\"unschedulable\":2,\"victims\":2,"
	"\"cascadingPreemptions\":0,\"units\":3,\"pods\":3,\"podGroups\":0,\"recreated\":0,\"recreationsDropped\":0,"
	"\"scaled\":0,\"nodes\":3,\"warnings\":[\"priorityClassName \\\"gone\\\" not found; priority 5 assumed (2 times)\","
	"\"1 Job object(s) not used (3 times)\"]}",
};

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* The page of the records above with opts o into *page. */
static void page_of(const pk_report_opts *o, char **page, size_t *size)
{
	pk_report *r = pk_report_new(o);
	for (size_t i = 0; i < sizeof records / sizeof records[0]; i++)
		pk_report_take(r, cJSON_Parse(records[i]));
	FILE *fp = open_memstream(page, size);
	pk_out out;
	pk_out_init(&out, fp);
	pk_report_write(r, &out);
	fclose(fp);
	pk_report_free(r);
}

/* Beyond its bounds the page says what it left out. */
static void test_bounds(void)
{
	pk_report_opts o;
	pk_report_opts_default(&o);
	o.max_nodes = 0;
	o.max_units = 1;
	o.max_bytes = 100;
	size_t size;
	char *page = NULL;
	page_of(&o, &page, &size);
	CHECK(strstr(page, "id=\"nodes-left-out\">Dropped 1 of 1 touched node(s)") != NULL, "nodes left out, counted");
	CHECK(strstr(page, "<svg class=\"bars\"") == NULL, "and not drawn");
	CHECK(strstr(page, "id=\"units-left-out\">The last 2 of 3 plans") != NULL, "plans left out of the table");
	CHECK(strstr(page, "id=\"data-left-out\">") && strstr(page, "2 of 3 plans (the last ones)"),
	      "plans left out of the embedded data, and said so");
	CHECK(strstr(page, "\"kind\":\"SimulationSummary\"") && strstr(page, "\"kind\":\"AppliedObject\""),
	      "the summary and applied objects are always in the data");
	free(page);
}

int main(int argc, char **argv)
{
	test_bounds();

	pk_report_opts o;
	pk_report_opts_default(&o);
	o.title = "hand-made records";
	o.nodes = 3;
	pk_report *r = pk_report_new(&o);
	for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
		cJSON *rec = cJSON_Parse(records[i]);
		CHECK(rec != NULL, "record %zu parses", i);
		pk_report_take(r, rec);
	}
	/* the run's warnings as the summary above writes them, each with its
	 * count; and one whose own words end as a count would */
	pk_diag_cause causes[] = {
		{ .key = "a", .message = "priorityClassName \"gone\" not found; priority 5 assumed", .count = 2 },
		{ .key = "b", .message = "1 Job object(s) not used", .count = 3 },
		{ .key = "c", .message = "the API server answered 429 (2 times)", .count = 1 },
	};
	pk_diag run = { .causes = causes, .ncauses = 3 };
	pk_report_run_warnings(r, &run);
	char *page = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&page, &size);
	pk_out out;
	pk_out_init(&out, fp);
	CHECK(pk_report_write(r, &out) == 0, "the page is written");
	fclose(fp);
	pk_report_free(r);

	CHECK(strstr(page, "<section id=\"applied\">") != NULL, "AppliedObject records get their section");
	CHECK(strstr(page, "Deployment shop/checkout") && strstr(page, "deploy.yaml:3") &&
	      strstr(page, "1 Insufficient cpu") && strstr(page, "replicas absent: 1 assumed"),
	      "the applied object's name, origin, grouped reasons and warnings are shown");
	CHECK(strstr(page, "<td>fewest PDB violations</td>") != NULL, "the plan's criterion (decidedBy) is in its row");
	CHECK(strstr(page, "2 Disruption<wbr>Target patch, 2 delete, 1 nomination") != NULL,
	      "the API calls are counted by kind");
	CHECK(strstr(page, "\"actions\"") == NULL, "the embedded records leave the actions out");
	CHECK(strstr(page, "<td>Job report</td><td class=\"n\">2</td><td>low</td>") != NULL,
	      "impact by owner: the Job, its pods and its PriorityClass");
	CHECK(strstr(page, "<td>batch/report-pdb</td><td class=\"n\">1</td>") != NULL,
	      "the PDB violated, by how many pods");
	CHECK(strstr(page, ">Insufficient example.com/gpu</td><td class=\"n\">1</td><td class=\"n\">2</td>") != NULL,
	      "a FitError reason grouped with its plans and nodes, from the plan's diagnosis");
	CHECK(strstr(page, ">node(s) had untolerated taint(s): dedicated=infra:NoSchedule</td><td class=\"n\">1</td>"
	                   "<td class=\"n\">1</td>") != NULL,
	      "TaintToleration's reason once per taint it names");
	CHECK(strstr(page, "<td>Preemption</td><td class=\"reason\">No preemption victims found for incoming pod</td>"
	                   "<td class=\"n\">1</td><td class=\"n\">2</td>") != NULL,
	      "the preemption dry run's reasons with their nodes");
	CHECK(strstr(page, "<td>NotEligible</td><td class=\"reason\">not eligible: &lt;b&gt;&amp;") != NULL,
	      "a plan without a diagnosis: its reason whole, under its result");
	CHECK(count(page, "<svg class=\"bars\"") == 1, "one SVG per touched node");
	CHECK(strstr(page, ">example.com/gpu</text>") != NULL, "an extended resource gets its bar");
	CHECK(strstr(page, "113% of 4 over") != NULL, "a node over its capacity says so in words");
	CHECK(strstr(page, "the other 2 node(s) of the cluster are untouched") != NULL, "untouched nodes in one line");
	CHECK(strstr(page, "<script>x") == NULL && strstr(page, "&lt;script&gt;x&lt;/script&gt;") != NULL,
	      "a name with markup is escaped in the page");
	CHECK(strstr(page, "\\u003cscript\\u003ex\\u003c/script\\u003e") != NULL && strstr(page, "\\u2028") != NULL,
	      "and in the embedded JSON");
	CHECK(count(page, "<script") == 2, "two script elements: the data and the page's own");
	CHECK(strstr(page, "<br><strong>Warnings:</strong> priorityClassName &quot;gone&quot; not found; priority 5 "
	                   "assumed</td>") != NULL, "a plan's warnings are in its row");
	/* the warnings box: at the top, each warning once, with what it touched */
	const char *box = strstr(page, "<section id=\"warnings\">");
	CHECK(box && box < strstr(page, "<section id=\"summary\">"), "the warnings come first");
	CHECK(count(page, "<li class=\"note\">") == 4, "four warnings, a box each (%d)", count(page, "<li class=\"note\">"));
	CHECK(strstr(page, "<li class=\"note\"><span class=\"reach\">2 of 3 plan(s)</span> priorityClassName "
	                   "&quot;gone&quot; not found; priority 5 assumed</li>") != NULL,
	      "a warning of two plans and of the run: once, with the plans it touched");
	CHECK(strstr(page, "<span class=\"reach\">said 3 times in the run</span> 1 Job object(s) not used</li>") != NULL,
	      "a warning of the run alone: how often it was said");
	CHECK(strstr(page, "<span class=\"reach\">1 applied object(s)</span> replicas absent: 1 assumed</li>") != NULL,
	      "a warning of an applied object");
	CHECK(strstr(page, "<span class=\"reach\">the whole run</span> the API server answered 429 (2 times)</li>") != NULL,
	      "a warning said once whose words end in \"(2 times)\": its words whole, no count read from them");
	CHECK(strstr(page, "<strong id=\"count-warnings\">4</strong>") != NULL, "the headline counts them");
	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");
		CHECK(f && fwrite(page, 1, size, f) == size && fclose(f) == 0, "page written to %s", argv[1]);
	}
	free(page);
	return T_DONE();
}
