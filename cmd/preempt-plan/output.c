/* preempt-plan: writing plans as NDJSON or as a table. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "io/table.h"
#include "base/alloc.h"

static void table_header(const pk_cli *cli, pk_table *t, bool wide)
{
	/* NODE: the node nominated (Preempt), or where the pod fits */
	static const char *const narrow[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NODE", "VICTIMS",
	                                      PK_ADJUSTED_SUM_COLUMN, "REASON" };
	static const char *const wide_cols[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NODE", "VICTIMS",
	                                         PK_ADJUSTED_SUM_COLUMN, "PDB-VIOLATIONS", "VICTIM-PODS", "REASON" };
	pk_cli_table_init(cli, t, wide ? 9 : 7, wide ? wide_cols : narrow);
}

/* What node choice compared for the plan's node: a pod's plan that
 * preempts (a gang's nodes are not chosen by it). Returns whether it did. */
static bool adjusted_sum_cell(const cJSON *plan, char *buf, size_t size)
{
	snprintf(buf, size, "-");
	const cJSON *victims = pk_get(plan, "victims"), *it;
	if (strcmp(pk_str_or(plan, "result", ""), "Preempt") != 0 ||
	    strcmp(pk_str_or(pk_get(plan, "preemptor"), "kind", "Pod"), "Pod") != 0 || !cJSON_GetArraySize(victims))
		return false;
	int64_t sum = 0;
	cJSON_ArrayForEach(it, victims) {
		int64_t p = 0;
		pk_int64(it, "priority", &p);
		sum += p;
	}
	pk_adjusted_sum_text(cJSON_GetArraySize(victims), sum, buf, size);
	return true;
}

static bool table_row(pk_table *t, const cJSON *plan, bool wide)
{
	const cJSON *ref = pk_get(plan, "preemptor");
	char who[600], prio[24], nv[16], viol[24], sum[64];
	bool compared = adjusted_sum_cell(plan, sum, sizeof sum);
	snprintf(who, sizeof who, "%s/%s", pk_str_or(ref, "namespace", ""), pk_str_or(ref, "name", ""));
	int64_t p = 0, v = 0;
	pk_int64(ref, "priority", &p);
	pk_int64(plan, "numPDBViolations", &v);
	snprintf(prio, sizeof prio, "%lld", (long long)p);
	snprintf(viol, sizeof viol, "%lld", (long long)v);
	const cJSON *victims = pk_get(plan, "victims"), *it;
	snprintf(nv, sizeof nv, "%d", cJSON_GetArraySize(victims));
	size_t len = 8;
	cJSON_ArrayForEach(it, victims)
		len += strlen(pk_str_or(it, "namespace", "")) + strlen(pk_str_or(it, "name", "")) + 2;
	char *names = pk_xmalloc(len);
	names[0] = '\0';
	cJSON_ArrayForEach(it, victims) {
		if (names[0])
			strcat(names, ",");
		strcat(names, pk_str_or(it, "namespace", ""));
		strcat(names, "/");
		strcat(names, pk_str_or(it, "name", ""));
	}
	if (!names[0])
		strcpy(names, "<none>");
	/* The reason is long; the narrow table shows its first clause. */
	const char *reason = pk_str_or(plan, "reason", "");
	char *shortr = pk_xstrdup(reason);
	char *cut = wide ? NULL : strchr(shortr, ';');
	if (cut)
		*cut = '\0';
	const char *node = pk_str_or(plan, "nominatedNodeName", NULL);
	if (!node) /* a pod that fits: where it is placed */
		node = pk_str_or(plan, "node", NULL);
	if (!node) /* or, without a placement, the first node it fits on */
		node = cJSON_IsString(cJSON_GetArrayItem(pk_getp(plan, "fits.nodes"), 0))
		       ? cJSON_GetArrayItem(pk_getp(plan, "fits.nodes"), 0)->valuestring : "<none>";
	const char *narrow[] = { who, prio, pk_str_or(plan, "result", ""), node, nv, sum, shortr };
	const char *wide_row[] = { who, prio, pk_str_or(plan, "result", ""), node, nv, sum, viol, names, shortr };
	pk_table_row(t, wide ? wide_row : narrow);
	free(shortr);
	free(names);
	return compared;
}

/* The nodes victims --explain said are no candidate, grouped. */
typedef struct group_ctx {
	pk_table *t;
	bool wide;
	const char *who, *prio;
} group_ctx;

static void group_row(void *ctx, const pk_node_group *g, const char *nodes, const char *reason)
{
	group_ctx *x = ctx;
	(void)g;
	const char *narrow[] = { x->who, x->prio, "NotCandidate", nodes, "-", "-", reason };
	const char *wide_row[] = { x->who, x->prio, "NotCandidate", nodes, "-", "-", "-", "-", reason };
	pk_table_row(x->t, x->wide ? wide_row : narrow);
}

static void not_candidate_rows(pk_table *t, const cJSON *plan, pk_node_groups *gs, bool wide)
{
	const cJSON *ref = pk_get(plan, "preemptor");
	char who[600], prio[24];
	int64_t p = 0;
	pk_int64(ref, "priority", &p);
	snprintf(who, sizeof who, "%s/%s", pk_str_or(ref, "namespace", ""), pk_str_or(ref, "name", ""));
	snprintf(prio, sizeof prio, "%lld", (long long)p);
	group_ctx x = { t, wide, who, prio };
	pk_node_groups_flush(gs, group_row, &x);
}

/* The plans' warnings under the table: each text once, with how many
 * preemptors it concerns. */
typedef struct warning_count {
	char *text;
	long n;
} warning_count;

static void count_warnings(const cJSON *plan, warning_count **w, long *nw)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, pk_get(plan, "warnings")) {
		if (!cJSON_IsString(it))
			continue;
		long j = 0;
		while (j < *nw && strcmp((*w)[j].text, it->valuestring) != 0)
			j++;
		if (j == *nw) {
			*w = pk_xrealloc(*w, (size_t)*nw + 1, sizeof **w);
			(*w)[j].text = pk_xstrdup(it->valuestring);
			(*w)[j].n = 0;
			++*nw;
		}
		(*w)[j].n++;
	}
}

static void warning_footer(pk_table *t, warning_count *w, long nw)
{
	for (long j = 0; j < nw; j++) {
		if (w[j].n > 1)
			pk_table_footer(t, "Warning: %s (%ld preemptors)", w[j].text, w[j].n);
		else
			pk_table_footer(t, "Warning: %s", w[j].text);
		free(w[j].text);
	}
	free(w);
}

long plan_write(plan_run *r, pk_out *out)
{
	if (r->cli->format == PK_FMT_HTML)
		return plan_write_html(r, out);
	warning_count *warnings = NULL;
	long nwarnings = 0;
	bool table = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE;
	bool wide = r->cli->format == PK_FMT_WIDE;
	long unplaced = 0;
	bool compared = false;
	pk_table t;
	if (table)
		table_header(r->cli, &t, wide);
	for (long i = 0; i < r->nentries; i++) {
		bool placed;
		cJSON *plan = plan_build(r, &r->entries[i], &placed);
		if (!placed)
			unplaced++;
		if (table) {
			compared |= table_row(&t, plan, wide);
			not_candidate_rows(&t, plan, &r->entries[i].not_candidates, wide);
			count_warnings(plan, &warnings, &nwarnings);
		} else
			pk_out_json(out, plan);
		cJSON_Delete(plan);
	}
	if (table) {
		if (compared)
			pk_table_footer(&t, "%s", PK_ADJUSTED_SUM_RULE);
		warning_footer(&t, warnings, nwarnings);
		pk_cli_table_warnings(r->cli, &t);
		pk_table_flush(&t, out);
	}
	return unplaced;
}
