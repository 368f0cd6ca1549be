/* victims - which pods would kube-scheduler's DefaultPreemption evict, per
 * node, to make room for a pod?  Options here; logic in load.c/evaluate.c
 * and common/sched/. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "io/writer.h"
#include "victims.h"
#include "base/alloc.h"

enum {
	OPT_PREEMPTOR = 1,
	OPT_PENDING,
	OPT_EXPLAIN,
	OPT_MIN_PCT,
	OPT_MIN_ABS,
	OPT_OFFSET,
	OPT_DRA_PREEMPTION,
};

static const pk_cli_spec spec = {
	.prog = "victims",
	.synopsis = "victims [options] (--preemptor FILE ... | --pending) [-n NS | -A] [path ...]",
	.help =
		"Reads a cluster snapshot (kubectl get nodes,pods,pdb,priorityclasses -A -o json)\n"
		"and writes, for each preemptor, a Preemptor record and one Candidate record per\n"
		"node where kube-scheduler's DefaultPreemption would find victims.\n"
		"\n"
		"      --preemptor FILE       the pod to place (a Pod, or a Deployment, StatefulSet,\n"
		"                             ReplicaSet, Job, CronJob or DaemonSet template);\n"
		"                             repeatable, evaluated in order\n"
		"      --pending              every pending pod of the input, in scheduling-queue order\n"
		"  -n, --namespace NS         answer for namespace NS: the pending pods of NS only, and a\n"
		"                             --preemptor object without a namespace is in NS (as kubectl\n"
		"                             apply -n NS); the rest of the snapshot is used whole\n"
		"  -A, --all-namespaces       answer for every namespace of the input (the default)\n"
		"      --explain              add a NodeStatus record for every node that is no candidate\n"
		"                             (in a table: NotCandidate rows by plugin and reason)\n"
		"      --min-candidate-nodes-percentage P  sample candidates as upstream does (default: all)\n"
		"      --min-candidate-nodes-absolute N    sample candidates as upstream does (default: all)\n"
		"      --offset K             first potential node of the sample (upstream: random)\n"
		PK_CLI_DRA_PREEMPTION_HELP,
	.formats = "json,table,wide",
	.default_format = PK_FMT_JSON,
	.gates = PK_GATE_BIT(PK_GATE_GENERIC_WORKLOAD) | PK_GATE_BIT(PK_GATE_WORKLOAD_AWARE_PREEMPTION) |
	         PK_GATE_BIT(PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING) | PK_GATE_BIT(PK_GATE_COMPOSITE_POD_GROUP) |
	         PK_GATE_BIT(PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION) | PK_GATE_BIT(PK_GATE_VOLUME_LIMIT_SCALING) |
	         PK_GATE_BIT(PK_GATE_DRA_ADMIN_ACCESS) | PK_GATE_BIT(PK_GATE_DRA_DEVICE_TAINTS) |
	         PK_GATE_BIT(PK_GATE_DRA_DEVICE_TAINT_RULES) |
	         PK_GATE_BIT(PK_GATE_DRA_CONSUMABLE_CAPACITY) | PK_GATE_BIT(PK_GATE_DRA_PARTITIONABLE_DEVICES) |
	         PK_GATE_BIT(PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES) | PK_GATE_BIT(PK_GATE_DRA_EXTENDED_RESOURCE) |
	         PK_GATE_BIT(PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS),
};

static const struct option long_options[] = {
	{"preemptor", required_argument, NULL, OPT_PREEMPTOR},
	{"pending", no_argument, NULL, OPT_PENDING},
	{"explain", no_argument, NULL, OPT_EXPLAIN},
	{"min-candidate-nodes-percentage", required_argument, NULL, OPT_MIN_PCT},
	{"min-candidate-nodes-absolute", required_argument, NULL, OPT_MIN_ABS},
	{"offset", required_argument, NULL, OPT_OFFSET},
	{"dra-preemption", required_argument, NULL, OPT_DRA_PREEMPTION},
	PK_CLI_NAMESPACE_OPTIONS,
	PK_CLI_COMMON_OPTIONS,
	{NULL, 0, NULL, 0},
};

static void parse_options(int argc, char **argv, pk_cli *cli, victims_opts *o)
{
	int opt;
	pk_eval_opts_default(&o->eval);
	o->preemptor_files = pk_xcalloc((size_t)argc + 1, sizeof *o->preemptor_files);
	pk_cli_namespace ns = {0};
	while ((opt = pk_cli_getopt(cli, argc, argv, "n:A", long_options)) != -1) {
		if (pk_cli_namespace_take(cli, opt, optarg, &ns))
			continue;
		switch (opt) {
		case OPT_PREEMPTOR:
			o->preemptor_files[o->npreemptor_files++] = optarg;
			break;
		case OPT_PENDING:
			o->pending = true;
			break;
		case OPT_EXPLAIN:
			o->explain = true;
			break;
		case OPT_MIN_PCT:
			o->eval.sample = true;
			o->eval.min_candidate_nodes_percentage =
				(int)pk_cli_number(cli, "--min-candidate-nodes-percentage", optarg, 0, 100);
			break;
		case OPT_MIN_ABS:
			o->eval.sample = true;
			o->eval.min_candidate_nodes_absolute =
				(int)pk_cli_number(cli, "--min-candidate-nodes-absolute", optarg, 0, 1000000000);
			break;
		case OPT_OFFSET:
			o->eval.sample = true;
			o->eval.offset = (long)pk_cli_number(cli, "--offset", optarg, 0, 1L << 40);
			break;
		case OPT_DRA_PREEMPTION:
			pk_cli_dra_preemption(cli, optarg);
			break;
		default:
			pk_cli_usage_error(cli, "unexpected option");
		}
	}
	o->namespace_ = pk_cli_namespace_of(&ns); /* as kubectl: -A answers for every namespace, whatever -n says */
	if (o->npreemptor_files == 0 && !o->pending)
		pk_cli_usage_error(cli, "give --preemptor FILE or --pending");
	pk_eval_opts_engine(&o->eval, &cli->engine); /* the records are printed on its threads too */
}

int main(int argc, char **argv)
{
	pk_cli cli;
	victims_opts opts = {0};
	pk_cli_init(&cli, &spec);
	parse_options(argc, argv, &cli, &opts);

	/* Records list every candidate's victims: where the evaluation can,
	 * it leaves them out and the printer works them out again, a chunk at
	 * a time on the --threads (at 65,000 nodes the lists held 100 MB at
	 * once); a table's rows name them from the evaluation. The writer says
	 * which (victims_writer.lists_victims_itself). */
	victims_run run = { .cli = &cli, .opts = &opts, .writer = victims_writer_for(cli.format) };
	/* on one terminal, each assumption once: under the table */
	if (run.writer->footer_warnings && !cli.no_headers && pk_diag_same_terminal(STDOUT_FILENO, STDERR_FILENO))
		cli.diag.causes_in_output = 1;
	pk_out out;
	pk_out_init(&out, stdout);
	int status = PK_EXIT_TROUBLE;
	/* the whole snapshot is read before anything is evaluated: an input
	 * that could not be read to its end gives no records at all */
	if (victims_load(&run, argv + optind, argc - optind) == 0 && !pk_cli_input_cut(&cli, "records")) {
		long negative = victims_evaluate(&run, &out);
		status = negative > 0 ? PK_EXIT_FINDING : PK_EXIT_OK;
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
	victims_free(&run);
	free(opts.preemptor_files);
	return status;
}
