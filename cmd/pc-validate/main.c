/* pc-validate: validate PriorityClass, Workload API objects, DRA's claims,
 * claim templates and device classes, and the priority fields of Pods and
 * pod templates as the Kubernetes apiserver would. */
#include "pcv.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

enum {
	OPT_CLUSTER = 0x100,
	OPT_AGAINST,
	OPT_STRICT,
	OPT_SUMMARY,
	OPT_KEP5710,
	OPT_STAGED,
	OPT_REQUIRE_CLASS,
};

static const pk_cli_spec spec = {
	.prog = "pc-validate",
	.synopsis = "pc-validate [-o text|json|junit|sarif|table|wide] [--cluster FILE]... [--against REV] [--staged] "
	            "[--require-class] [--feature-gates K=V,...] [--strict] [--summary] [--kep5710-preemption-priority] "
	            "[path ...]",
	.help =
		"Validate PriorityClass, Workload and PodGroup objects, DRA's ResourceClaim,\n"
		"ResourceClaimTemplate, DeviceClass and DeviceTaintRule (resource.k8s.io/v1: CEL selectors compiled;\n"
		"their cost limit is not checked) and the priority fields of Pods and pod templates\n"
		"with the rules the Kubernetes apiserver applies. All inputs form one set:\n"
		"cross-object rules (one globalDefault, references) apply across files.\n"
		"\n"
		"Options:\n"
		"      --cluster FILE         existing objects, e.g. from kubectl get priorityclasses,workloads\n"
		"                             -A -o json; an input with the same identity is an update\n"
		"      --against REV          the repository's committed state at git revision REV is what\n"
		"                             exists (every manifest, read with one git cat-file); the\n"
		"                             operands replace their committed versions, files gone from\n"
		"                             the work tree are deleted\n"
		"      --staged               check the commit being made (the pre-commit hook): the files\n"
		"                             the git index adds or changes are the inputs, read from the\n"
		"                             index, against the state at --against REV (default HEAD);\n"
		"                             what the index drops is deleted. Takes no path operands\n"
		"      --require-class        a priorityClassName that no input, --cluster or --against\n"
		"                             defines is an error, not a warning (every class is in the\n"
		"                             repository)\n"
		"      --strict               fail on warnings too (a CEL selector not checked among them);\n"
		"                             require value and metadata.namespace\n"
		"      --summary              print counts of objects and findings to stderr\n"
		"      --kep5710-preemption-priority  accept the KEP-5710 proposal's\n"
		"                             preemptionPriorityClassName (not below the scheduling priority)\n",
	.formats = "text,json,junit,sarif,table,wide",
	.default_format = PK_FMT_TEXT,
	.gates = PK_GATE_BIT(PK_GATE_GENERIC_WORKLOAD) | PK_GATE_BIT(PK_GATE_WORKLOAD_AWARE_PREEMPTION) |
	         PK_GATE_BIT(PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING) |
	         PK_GATE_BIT(PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS) |
	         PK_GATE_BIT(PK_GATE_POD_GROUP_PREEMPTION_POLICY) | PK_GATE_BIT(PK_GATE_COMPOSITE_POD_GROUP) |
	         PK_GATE_BIT(PK_GATE_DRA_PRIORITIZED_LIST) | PK_GATE_BIT(PK_GATE_DRA_ADMIN_ACCESS) |
	         PK_GATE_BIT(PK_GATE_DRA_DEVICE_TAINTS) | PK_GATE_BIT(PK_GATE_DRA_CONSUMABLE_CAPACITY) |
	         PK_GATE_BIT(PK_GATE_DRA_EXTENDED_RESOURCE) | PK_GATE_BIT(PK_GATE_DRA_DERIVED_ATTRIBUTES),
	.findings = true,
};

typedef struct options {
	char **cluster;
	size_t ncluster;
	const char *against;
	bool staged;
} options;

static void parse_options(pk_cli *cli, pcv_ctx *c, options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		PK_CLI_COMMON_OPTIONS,
		PK_CLI_FINDINGS_OPTIONS,
		{"cluster", required_argument, NULL, OPT_CLUSTER},
		{"against", required_argument, NULL, OPT_AGAINST},
		{"strict", no_argument, NULL, OPT_STRICT},
		{"summary", no_argument, NULL, OPT_SUMMARY},
		{"kep5710-preemption-priority", no_argument, NULL, OPT_KEP5710},
		{"staged", no_argument, NULL, OPT_STAGED},
		{"require-class", no_argument, NULL, OPT_REQUIRE_CLASS},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = pk_cli_getopt(cli, argc, argv, "", longopts)) != -1) {
		switch (ch) {
		case OPT_CLUSTER:
			opt->cluster = pk_xrealloc(opt->cluster, opt->ncluster + 1, sizeof *opt->cluster);
			opt->cluster[opt->ncluster++] = optarg;
			break;
		case OPT_AGAINST:
			if (!*optarg)
				pk_cli_usage_error(cli, "--against: a git revision is required");
			opt->against = optarg;
			break;
		case OPT_STRICT:
			c->strict = true;
			break;
		case OPT_SUMMARY:
			c->summary = true;
			break;
		case OPT_KEP5710:
			c->kep5710 = true;
			break;
		case OPT_STAGED:
			opt->staged = c->staged = true;
			break;
		case OPT_REQUIRE_CLASS:
			c->require_class = true;
			break;
		default:
			pk_cli_usage_error(cli, "unknown option");
		}
	}
	/* the index is the input: a path beside it would be read twice or
	 * not at all, and a hook that passes file names splits the run */
	if (opt->staged && optind < argc)
		pk_cli_usage_error(cli, "--staged reads the files to check from the git index and takes no path (got '%s'); "
		                   "in a pre-commit hook set pass_filenames: false", argv[optind]);
}

/* What a run accounts for beyond the shared --stats lines: inputs that
 * held no document (empty, comments only) are read, not errors. */
static void print_file_stats(const pcv_ctx *c, const char *prog)
{
	fprintf(stderr, "%s: stats: files %ld, without documents %ld, objects checked %ld\n", prog, c->files,
	        c->empty_files, c->objects_checked);
	fprintf(stderr, "%s: stats: skipped as not Kubernetes objects: files %ld, documents %ld\n", prog,
	        c->skipped_files, c->skipped_docs);
}

static void load_existing(pcv_ctx *c, const options *opt, int argc, char **argv)
{
	if (opt->ncluster) {
		c->cluster_given = true;
		c->loading_cluster = true;
		/* a dump given as --cluster is read whatever its name */
		pk_skip_fn skip = c->cli->reader.skip_file;
		c->cli->reader.skip_file = NULL;
		if (pk_read_paths(&c->cli->reader, opt->cluster, opt->ncluster, pcv_on_record, c) < 0)
			c->trouble = true;
		c->cli->reader.skip_file = skip;
		c->loading_cluster = false;
	}
	if (opt->staged && !c->trouble) {
		c->staged_rev = opt->against ? opt->against : "HEAD";
		if (pcv_staged_load(c, c->staged_rev) < 0)
			c->trouble = true;
	} else if (opt->against && !c->trouble) {
		size_t npaths = optind < argc ? (size_t)(argc - optind) : 0;
		if (pcv_against_load(c, opt->against, argv + optind, npaths) < 0)
			c->trouble = true;
	}
}

int main(int argc, char **argv)
{
	pk_cli cli;
	pcv_ctx c;
	options opt = {NULL, 0, NULL, false};
	memset(&c, 0, sizeof c);
	pk_cli_init(&cli, &spec);
	c.cli = &cli;
	c.seq_file = -1;
	pcv_findings_init(&c.findings);
	pcv_cross_init(&c);
	pk_kpatches_init(&c.kpatches);
	cli.reader.report_duplicates = 1;
	cli.reader.file_done = pcv_on_file_done;
	cli.reader.skip_file = pcv_on_skip_file;
	parse_options(&cli, &c, &opt, argc, argv);
	c.findings.cap.max = cli.max_findings;
	c.release = &cli.engine.release;
	c.writer = pcv_writer_for(cli.format);

	load_existing(&c, &opt, argc, argv);
	size_t npaths = optind < argc ? (size_t)(argc - optind) : 0;
	/* --against without operands: the work tree's deletions only, not
	 * standard input (a hook with always_run may get no files); --staged
	 * has read its inputs. Every problem of an input is said as it is
	 * read (an unreadable one is trouble there): an input skipped whole
	 * as not Kubernetes objects is an answer, not trouble. */
	bool read_inputs = !opt.staged && (npaths || !opt.against);
	if (!c.trouble && read_inputs)
		pk_read_paths(&cli.reader, npaths ? argv + optind : NULL, npaths, pcv_on_record, &c);
	pcv_release_held(&c);

	pcv_cross_finish(&c);
	pcv_dra_note(&c);
	pcv_findings_sort(&c.findings);

	pk_out out;
	pk_out_init(&out, stdout);
	pcv_output(&c, &out);
	pk_cli_finish(&cli);
	if (cli.stats) {
		pk_stats_print(&c.stats, cli.prog, stderr);
		print_file_stats(&c, cli.prog);
	}
	int status = pk_out_finish(&out, &cli.diag);
	size_t errors = pcv_count_errors(&c.findings, c.strict);

	pcv_cross_free(&c);
	pcv_findings_free(&c.findings);
	pk_kpatches_free(&c.kpatches);
	free(c.patch_file);
	pk_held_free(&c.held);
	free(opt.cluster);
	if (status != PK_EXIT_OK || c.trouble)
		return PK_EXIT_TROUBLE;
	return errors ? PK_EXIT_FINDING : PK_EXIT_OK;
}
