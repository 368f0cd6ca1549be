/* preempt-plan - turn victims' candidates into kube-scheduler's decision: the
 * node to nominate, the pods to evict and the API calls that do it.
 * Options here; logic in plan.c/output.c and common/sched/. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "io/writer.h"
#include "plan.h"
#include "simulate.h"

static const pk_cli_spec spec = {
	.prog = "preempt-plan",
	.synopsis = "preempt-plan [options] [-n NS | -A] [path ...]",
	.help =
		"Reads the records victims writes (stdin when no path is given) and writes one\n"
		"PreemptionPlan per preemptor: the node kube-scheduler would nominate, its victims,\n"
		"and the ordered API calls (\"actions\") that carry the preemption out.\n"
		"\n"
		"  -n, --namespace NS         write the plans of NS's preemptors only (the records of\n"
		"                             other namespaces are read and left out; the exit status\n"
		"                             follows the plans written)\n"
		"  -A, --all-namespaces       the plans of every namespace of the input (the default)\n"
		"      --simulate             what-if mode: read a cluster snapshot instead and play its\n"
		"                             scheduling queue forward (preempt-plan --simulate --help)\n"
		"      --replay               what-if over time: play a trace of pods against a snapshot\n"
		"                             (preempt-plan --replay --help)\n",
	.formats = "json,table,wide,html",
	.default_format = PK_FMT_JSON,
};

/* --simulate is listed so that its abbreviations are read as every
 * option's are (wants_simulate); getopt never sees it. */
static const struct option long_options[] = {
	PK_CLI_COMMON_OPTIONS,
	PK_CLI_NAMESPACE_OPTIONS,
	{"simulate", no_argument, NULL, 1},
	{"replay", no_argument, NULL, 1},
	{NULL, 0, NULL, 0},
};

/* Objects, but none of victims' records: the wrong input. A snapshot is
 * what --simulate reads (or what victims turns into records). */
static void no_records(pk_cli *cli, const pk_stats *st)
{
	bool snapshot = false;
	for (int i = 0; i < st->nkinds; i++)
		snapshot |= strcmp(st->by_kind[i].kind, "Node") == 0 || strcmp(st->by_kind[i].kind, "Pod") == 0;
	pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "no Preemptor or Candidate records in the input (%ld object(s) "
	               "of other kinds)%s", st->read,
	               snapshot ? "; it looks like a cluster snapshot: `preempt-plan --simulate` plays its pending "
	                          "pods, or `victims --preemptor pod.yaml` turns it into records" : "");
}

/* --simulate selects another mode with its own options (simulate.c). */
static bool wants_simulate(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (pk_cli_names_option(argv[i], "simulate", long_options) ||
		    pk_cli_names_option(argv[i], "replay", long_options))
			return true;
	return false;
}

/* -n/-A as kubectl has them: the namespace whose plans are written, or NULL
 * for every namespace. */
static const char *parse_options(pk_cli *cli, int argc, char **argv)
{
	pk_cli_namespace ns = {0};
	int opt;
	while ((opt = pk_cli_getopt(cli, argc, argv, "n:A", long_options)) != -1)
		if (!pk_cli_namespace_take(cli, opt, optarg, &ns))
			pk_cli_usage_error(cli, "unexpected option");
	return pk_cli_namespace_of(&ns);
}

int main(int argc, char **argv)
{
	if (wants_simulate(argc, argv))
		return pp_simulate_main(argc, argv);
	pk_cli cli;
	pk_cli_init(&cli, &spec);
	const char *namespace_ = parse_options(&cli, argc, argv);

	plan_run run;
	plan_init(&run, &cli);
	run.namespace_ = namespace_;
	/* on one terminal, each assumption once: under the table */
	if (run.writer->footer_warnings && !cli.no_headers && pk_diag_same_terminal(STDOUT_FILENO, STDERR_FILENO))
		cli.diag.causes_in_output = 1;
	pk_out out;
	pk_out_init(&out, stdout);
	int status = PK_EXIT_TROUBLE;
	/* victims' answer must be whole: every input ends with its StreamEnd */
	cli.reader.stream_end_of = "victims";
	bool read = plan_read(&run, argv + optind, argc - optind) >= 0;
	if (read && cli.input_errors && run.nentries == 0 && run.stats.read > 0) {
		no_records(&cli, &run.stats); /* not victims' answer at all: say what it is */
	} else if (read && !pk_cli_input_cut(&cli, "plan")) {
		long unplaced = plan_write(&run, &out);
		status = unplaced ? PK_EXIT_FINDING : PK_EXIT_OK;
		if (run.nentries == 0 && run.other_namespaces > 0) {
			pk_diag_report(&cli.diag, PK_SEV_NOTE, NULL, "no preemptor in namespace %s in the input (-n): "
			               "0 preemptors planned", namespace_);
		} else if (run.nentries == 0 && run.stats.read > 0) {
			no_records(&cli, &run.stats);
			status = PK_EXIT_TROUBLE;
		} else if (run.nentries == 0) {
			pk_diag_report(&cli.diag, PK_SEV_NOTE, NULL, "the input is empty: 0 preemptors planned");
		}
	}
	if (run.trouble)
		status = PK_EXIT_TROUBLE;
	if (status != PK_EXIT_TROUBLE)  /* a complete answer: said so, for the stage after */
		pk_cli_stream_end(&cli, &out);
	pk_cli_finish(&cli);
	if (cli.stats)
		pk_stats_print(&run.stats, cli.prog, stderr);
	if (pk_out_finish(&out, &cli.diag) != PK_EXIT_OK)
		status = PK_EXIT_TROUBLE;
	plan_free(&run);
	return status;
}
