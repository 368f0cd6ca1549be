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
	.synopsis = "pp-match [--feature-gates GATES] [-n NAMESPACE] [--explain] [--emit-metadata] [--require-claim] [--against REV] [--staged] [options] [path ...]",
	.help =
		"Read Karmada PropagationPolicies, ClusterPropagationPolicies and resource\n"
		"templates; write one PolicyClaim record per template saying which policy\n"
		"claims it (Claim, Keep, Preempt or None) and why.\n\n"

		"  -n, --namespace NS         namespace of objects without one (default \"default\")\n"
		"      --explain              list every matching policy and why it lost, and every\n"
		"                             object the detector skips (Skipped) with its rule\n"
		"      --emit-metadata        add the claim labels/annotations to set, as a merge patch\n"
		"      --require-claim        an unclaimed template is a finding (exit 1)\n"
		"      --against REV          the policies committed at git revision REV take part too\n"
		"                             (those of files the operands replace or that are gone from\n"
		"                             the work tree do not)\n"
		"      --staged               check the commit being made (the pre-commit hook): the files\n"
		"                             the git index adds or changes are the inputs, read from the\n"
		"                             index; the policies committed at --against REV (default\n"
		"                             HEAD) that the index keeps take part. Takes no path operands\n",
	.formats = "json,table,wide",
	.default_format = PK_FMT_JSON,
	.gates = PK_GATE_BIT(PK_GATE_PROPAGATION_POLICY_PREEMPTION),
	.findings = true,
};

enum { OPT_EXPLAIN = 1, OPT_EMIT_METADATA, OPT_REQUIRE_CLAIM, OPT_AGAINST, OPT_STAGED };

static const struct option long_options[] = {
	{"namespace", required_argument, NULL, 'n'},
	{"explain", no_argument, NULL, OPT_EXPLAIN},
	{"emit-metadata", no_argument, NULL, OPT_EMIT_METADATA},
	{"require-claim", no_argument, NULL, OPT_REQUIRE_CLAIM},
	{"against", required_argument, NULL, OPT_AGAINST},
	{"staged", no_argument, NULL, OPT_STAGED},
	PK_CLI_COMMON_OPTIONS,
	PK_CLI_FINDINGS_OPTIONS,
	{NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
	pk_cli cli;
	pp_options opts = {.default_namespace = "default"};
	pk_out out;
	int opt;

	pk_cli_init(&cli, &spec);
	while ((opt = pk_cli_getopt(&cli, argc, argv, "n:", long_options)) != -1) {
		switch (opt) {
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
		case OPT_REQUIRE_CLAIM:
			opts.require_claim = true;
			break;
		case OPT_AGAINST:
			if (!*optarg)
				pk_cli_usage_error(&cli, "--against: a git revision is required");
			opts.against = optarg;
			break;
		case OPT_STAGED:
			opts.staged = true;
			break;
		default:
			pk_cli_usage_error(&cli, "unexpected option");
		}
	}
	/* the index is the input: a path beside it would be read twice or
	 * not at all, and a hook that passes file names splits the run */
	if (opts.staged && optind < argc)
		pk_cli_usage_error(&cli, "--staged reads the files to check from the git index and takes no path (got '%s'); "
		                   "in a pre-commit hook set pass_filenames: false", argv[optind]);
	opts.preemption_gate = pk_gate_on(&cli.engine.gates, PK_GATE_PROPAGATION_POLICY_PREEMPTION);

	pk_out_init(&out, stdout);
	pp_run r = {.cli = &cli, .opts = &opts, .writer = pp_writer_for(cli.format)};
	r.report = (pp_report){.out = &out, .diag = &cli.diag, .json = r.writer->diagnostic_records};
	pp_run_read(&r, argv + optind, (size_t)(argc - optind));
	if (!r.out_of_memory)
		pp_run_write(&r, &out);
	if (opts.require_claim && r.unclaimed > 0)
		pk_diag_report(&cli.diag, PK_SEV_ERROR, NULL, "%ld template(s) unclaimed (--require-claim)", r.unclaimed);
	pk_cli_finish(&cli);
	if (cli.stats)
		pk_stats_print(&r.stats, cli.prog, stderr);
	pp_run_free(&r);

	int status = pk_out_finish(&out, &cli.diag);
	if (status != PK_EXIT_OK || r.trouble)
		return PK_EXIT_TROUBLE;
	/* Unclaimed templates are an answer, not a finding, unless asked for. */
	bool finding = r.report.errors > 0 || (opts.require_claim && r.unclaimed > 0);
	return finding ? PK_EXIT_FINDING : PK_EXIT_OK;
}
