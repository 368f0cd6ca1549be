/* preempt-plan: writing plans as NDJSON or as a table. */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "k8s/json.h"

static void table_header(pk_out *out, bool wide)
{
	pk_out_printf(out, "%-40s %-11s %-18s %-24s %7s%s  %s\n", "PREEMPTOR", "PRIORITY", "RESULT", "NOMINATED-NODE",
	              "VICTIMS", wide ? " PDB-VIOLATIONS  VICTIM-PODS" : "", "REASON");
}

static void table_row(pk_out *out, const cJSON *plan, bool wide)
{
	const cJSON *ref = pk_get(plan, "preemptor");
	char who[300];
	snprintf(who, sizeof who, "%s/%s", pk_str_or(ref, "namespace", ""), pk_str_or(ref, "name", ""));
	int64_t prio = 0, viol = 0;
	pk_int64(ref, "priority", &prio);
	pk_int64(plan, "numPDBViolations", &viol);
	const cJSON *victims = pk_get(plan, "victims");
	pk_out_printf(out, "%-40s %-11lld %-18s %-24s %7d", who, (long long)prio, pk_str_or(plan, "result", ""),
	              pk_str_or(plan, "nominatedNodeName", "<none>"), cJSON_GetArraySize(victims));
	if (wide) {
		pk_out_printf(out, " %14lld  ", (long long)viol);
		const cJSON *v;
		int k = 0;
		cJSON_ArrayForEach(v, victims)
			pk_out_printf(out, "%s%s/%s", k++ ? "," : "", pk_str_or(v, "namespace", ""), pk_str_or(v, "name", ""));
		if (!k)
			pk_out_printf(out, "<none>");
	}
	/* The reason is long; the table shows its first sentence. */
	const char *reason = pk_str_or(plan, "reason", "");
	const char *cut = wide ? NULL : strchr(reason, ';');
	pk_out_printf(out, "  %.*s\n", cut ? (int)(cut - reason) : (int)strlen(reason), reason);
}

long plan_write(plan_run *r, pk_out *out)
{
	bool table = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE;
	bool wide = r->cli->format == PK_FMT_WIDE;
	long unplaced = 0;
	if (table)
		table_header(out, wide);
	for (long i = 0; i < r->nentries; i++) {
		bool placed;
		cJSON *plan = plan_build(r, &r->entries[i], &placed);
		if (!placed)
			unplaced++;
		if (table)
			table_row(out, plan, wide);
		else
			pk_out_json(out, plan);
		cJSON_Delete(plan);
	}
	return unplaced;
}
