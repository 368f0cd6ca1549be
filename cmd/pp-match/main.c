/* pp-match: which Karmada (Cluster)PropagationPolicy claims each resource
 * template, with priority and preemption, offline. See pp-match(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "k8s/json.h"
#include "karmada.h"

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

/* Go's strconv.ParseBool, which the Kubernetes feature-gate flag uses. */
static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
	for (size_t i = 0; i < 6; i++) {
		if (strcmp(s, yes[i]) == 0)
			return *out = true, 0;
		if (strcmp(s, no[i]) == 0)
			return *out = false, 0;
	}
	return -1;
}

/* "A=true,B=false": PropagationPolicyPreemption, or AllAlpha as the Karmada
 * e2e suite sets it (an explicit gate wins over AllAlpha). Other gates do not
 * affect matching and are accepted with a warning. */
static void parse_feature_gates(pk_cli *cli, const char *arg, pp_options *o)
{
	char *copy = strdup(arg), *save = NULL;
	int explicit = -1, all_alpha = -1;

	if (!copy)
		pk_cli_usage_error(cli, "out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		bool value;
		while (*tok == ' ')
			tok++;
		if (!eq || parse_bool(eq + 1, &value) != 0)
			pk_cli_usage_error(cli, "--feature-gates: '%s' is not GATE=true|false", tok);
		*eq = '\0';
		if (strcmp(tok, "PropagationPolicyPreemption") == 0)
			explicit = value;
		else if (strcmp(tok, "AllAlpha") == 0)
			all_alpha = value;
		else
			pk_diag_report(&cli->diag, PK_SEV_WARNING, NULL, "--feature-gates: %s does not affect pp-match", tok);
	}
	free(copy);
	/* Repeated flags accumulate, as with the Kubernetes flag. */
	if (explicit >= 0)
		o->preemption_gate_set = true, o->preemption_gate = explicit;
	else if (all_alpha >= 0 && !o->preemption_gate_set)
		o->preemption_gate = all_alpha;
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
