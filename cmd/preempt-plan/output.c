/* preempt-plan: writing plans as NDJSON or as a table. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "io/table.h"

static void table_header(const pk_cli *cli, pk_table *t, bool wide)
{
	static const char *const narrow[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NOMINATED-NODE", "VICTIMS", "REASON" };
	static const char *const wide_cols[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NOMINATED-NODE", "VICTIMS",
	                                         "PDB-VIOLATIONS", "VICTIM-PODS", "REASON" };
	pk_cli_table_init(cli, t, wide ? 8 : 6, wide ? wide_cols : narrow);
}

static void table_row(pk_table *t, const cJSON *plan, bool wide)
{
	const cJSON *ref = pk_get(plan, "preemptor");
	char who[600], prio[24], nv[16], viol[24];
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
	char *names = malloc(len);
	if (!names)
		abort();
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
	char *shortr = strdup(reason);
	if (!shortr)
		abort();
	char *cut = wide ? NULL : strchr(shortr, ';');
	if (cut)
		*cut = '\0';
	const char *node = pk_str_or(plan, "nominatedNodeName", "<none>");
	const char *narrow[] = { who, prio, pk_str_or(plan, "result", ""), node, nv, shortr };
	const char *wide_row[] = { who, prio, pk_str_or(plan, "result", ""), node, nv, viol, names, shortr };
	pk_table_row(t, wide ? wide_row : narrow);
	free(shortr);
	free(names);
}

long plan_write(plan_run *r, pk_out *out)
{
	if (r->cli->format == PK_FMT_HTML)
		return plan_write_html(r, out);
	bool table = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE;
	bool wide = r->cli->format == PK_FMT_WIDE;
	long unplaced = 0;
	pk_table t;
	if (table)
		table_header(r->cli, &t, wide);
	for (long i = 0; i < r->nentries; i++) {
		bool placed;
		cJSON *plan = plan_build(r, &r->entries[i], &placed);
		if (!placed)
			unplaced++;
		if (table)
			table_row(&t, plan, wide);
		else
			pk_out_json(out, plan);
		cJSON_Delete(plan);
	}
	if (table) {
		pk_cli_table_warnings(r->cli, &t);
		pk_table_flush(&t, out);
	}
	return unplaced;
}
