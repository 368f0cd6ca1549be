/* pp-match: which Karmada (Cluster)PropagationPolicy claims each resource
 * template, with priority and preemption, offline. See pp-match(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "k8s/json.h"
#include "karmada.h"
#include "k8s/gates.h"

static const pk_cli_spec spec = {
	.prog = "pp-match",
	.synopsis = "pp-match [--feature-gates GATES] [-n NAMESPACE] [--explain] [--emit-metadata] [options] [path ...]",
	.help =
		"Read Karmada PropagationPolicies, ClusterPropagationPolicies and resource\n"
		"templates; write one PolicyClaim record per template saying which policy\n"
		"claims it (Claim, Keep, Preempt or None) and why.\n\n"
		"      --feature-gates GATES  Karmada feature gates, e.g. PropagationPolicyPreemption=true\n"
		"                             (preemption is off unless this gate is on)\n"
		"  -n, --namespace NS         namespace of objects without one (default \"default\")\n"
		"      --explain              list every matching policy and why it lost\n"
		"      --emit-metadata        add the claim labels/annotations to set, as a merge patch\n",
	.formats = "json,table",
	.default_format = PK_FMT_JSON,
};

enum { OPT_FEATURE_GATES = 1, OPT_EXPLAIN, OPT_EMIT_METADATA };

static const struct option long_options[] = {
	{"feature-gates", required_argument, NULL, OPT_FEATURE_GATES},
	{"namespace", required_argument, NULL, 'n'},
	{"explain", no_argument, NULL, OPT_EXPLAIN},
	{"emit-metadata", no_argument, NULL, OPT_EMIT_METADATA},
	PK_CLI_COMMON_OPTIONS,
	{NULL, 0, NULL, 0},
};

/* "A=true,B=false": PropagationPolicyPreemption, or AllAlpha as the Karmada
 * e2e suite sets it (an explicit gate wins over AllAlpha). Other gates do not
 * affect matching and are accepted with a warning. */
typedef struct gates_seen {
	pk_cli *cli;
	int explicit, all_alpha;
} gates_seen;

static int note_gate(void *ctx, const char *name, bool value, char *err, size_t errsize)
{
	gates_seen *g = ctx;
	if (strcmp(name, "PropagationPolicyPreemption") == 0)
		g->explicit = value;
	else if (strcmp(name, "AllAlpha") == 0)
		g->all_alpha = value;
	else
		pk_diag_report(&g->cli->diag, PK_SEV_WARNING, NULL, "--feature-gates: %s does not affect pp-match", name);
	return 0;
}

static void parse_feature_gates(pk_cli *cli, const char *arg, pp_options *o)
{
	gates_seen g = { cli, -1, -1 };
	char err[300];

	if (pk_gates_each(arg, note_gate, &g, err, sizeof err) != 0)
		pk_cli_usage_error(cli, "--feature-gates: %s", err);
	/* Repeated flags accumulate, as with the Kubernetes flag. */
	if (g.explicit >= 0)
		o->preemption_gate_set = true, o->preemption_gate = g.explicit;
	else if (g.all_alpha >= 0 && !o->preemption_gate_set)
		o->preemption_gate = g.all_alpha;
}

int main(int argc, char **argv)
{
	pk_cli cli;
	pp_options opts = {.default_namespace = "default"};
	pk_out out;
	int opt;

	pk_cli_init(&cli, &spec);
	while ((opt = getopt_long(argc, argv, PK_CLI_COMMON_SHORT "n:", long_options, NULL)) != -1) {
		if (pk_cli_handle(&cli, opt, optarg))
			continue;
		switch (opt) {
		case OPT_FEATURE_GATES:
			parse_feature_gates(&cli, optarg, &opts);
			break;
		case 'n':
			if (!*optarg)
				pk_cli_usage_error(&cli, "--namespace: empty namespace");
			opts.default_namespace = optarg;
			break;
		case OPT_EXPLAIN:
			opts.explain = true;
			break;
		case OPT_EMIT_METADATA:
			opts.emit_metadata = true;
			break;
		default:
			pk_cli_handle(&cli, '?', NULL);
		}
	}

	pk_out_init(&out, stdout);
	pp_run r = {.cli = &cli, .opts = &opts};
	r.report = (pp_report){.out = &out, .diag = &cli.diag, .json = cli.format == PK_FMT_JSON};
	pp_run_read(&r, argv + optind, (size_t)(argc - optind));
	long unclaimed = r.out_of_memory ? 0 : pp_run_write(&r, &out);
	if (cli.stats)
		pk_stats_print(&r.stats, spec.prog, stderr);
	pp_run_free(&r);

	int status = pk_out_finish(&out, &cli.diag);
	if (status != PK_EXIT_OK || r.trouble)
		return PK_EXIT_TROUBLE;
	return unclaimed > 0 || r.report.errors > 0 ? PK_EXIT_FINDING : PK_EXIT_OK;
}
