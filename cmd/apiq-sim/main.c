/* apiq-sim: the kube-scheduler's asynchronous API-call queue (KEP-5229) and
 * asynchronous preemption (KEP-4832), replayed (step) or simulated (run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiq.h"
#include "cli.h"
#include "timed.h"

static const char help[] =
	"Modes:\n"
	"  step                       replay JSON operations on the call queue and the\n"
	"                             preemption evaluator; one result per operation\n"
	"  run                        simulate the scheduling loop and the dispatcher over\n"
	"                             time (PreemptionPlan input or a generated workload)\n"
	"\n"
	"Output (-o): step writes json (one NDJSON result per operation) only; run\n"
	"writes json (one Summary per gate setting, and a Comparison with --compare),\n"
	"table (one row per gate setting), wide (more columns) or html (one page: the\n"
	"runs and their timelines plotted).\n"
	"\n"
	"Options:\n"
	"      --call-type NAME=REL   declare an out-of-tree call type with a relevance\n"
	"      --seed N               random seed (run; default 1)\n"
	"      --pods N               generate N measured pods (run)\n"
	"      --preemptor-share F    fraction of generated pods that preempt (default 0.1)\n"
	"      --victims N            victims per generated preemptor (default 3)\n"
	"      --churn RATE           unschedulable pods created per second (default 0)\n"
	"      --arrival-rate RATE    generated pods created per second (default: all at once)\n"
	"      --cycle-cost DUR       scheduling cycle cost (default 1ms)\n"
	"      --preempt-cost DUR     extra cost of a preemption dry run (default 2ms)\n"
	"      --latency DUR          mean apiserver latency (default 5ms)\n"
	"      --latency-dist NAME    exponential, constant or lognormal (default exponential)\n"
	"      --error-rate P         probability an API request fails (default 0)\n"
	"      --qps N                client QPS shared by all calls, 0 = unlimited (default 50)\n"
	"      --burst N              client burst (default 100)\n"
	"      --dispatcher-limit N   dispatcher goroutine limit (pre-#134154), 0 = none\n"
	"      --informer-delay DUR   delay of watch events (default 1ms)\n"
	"      --backoff DUR          initial pod backoff (default 1s; max 10s)\n"
	"      --patch-change P       probability an unschedulable retry changes status (default 1)\n"
	"      --until DUR            stop at this simulated time (default: when all pods are bound)\n"
	"      --timeline FILE        write the event timeline as NDJSON to FILE (- = stdout)\n"
	"      --metrics FILE         write Prometheus text metrics to FILE\n"
	"      --compare              run every gate setting side by side and print the difference\n";

static const pk_cli_spec spec = {
	.prog = "apiq-sim",
	.synopsis = "apiq-sim step|run [options] [file ...]",
	.help = help,
	.formats = "json,table,wide,html",
	.default_format = PK_FMT_JSON,
	.gates = PK_GATE_BIT(PK_GATE_SCHEDULER_ASYNC_PREEMPTION) | PK_GATE_BIT(PK_GATE_SCHEDULER_ASYNC_API_CALLS),
};

enum {
	OPT_CALL_TYPE = 0x100, OPT_SEED, OPT_PODS, OPT_PSHARE, OPT_VICTIMS, OPT_CHURN, OPT_ARRIVAL,
	OPT_CYCLE, OPT_PCOST, OPT_LATENCY, OPT_LATDIST, OPT_ERRRATE, OPT_QPS, OPT_BURST, OPT_DLIMIT,
	OPT_INFORMER, OPT_BACKOFF, OPT_PCHANGE, OPT_UNTIL, OPT_TIMELINE, OPT_METRICS, OPT_COMPARE,
};

static const struct option longopts[] = {
	PK_CLI_COMMON_OPTIONS,
	{"call-type", required_argument, NULL, OPT_CALL_TYPE},
	{"seed", required_argument, NULL, OPT_SEED},
	{"pods", required_argument, NULL, OPT_PODS},
	{"preemptor-share", required_argument, NULL, OPT_PSHARE},
	{"victims", required_argument, NULL, OPT_VICTIMS},
	{"churn", required_argument, NULL, OPT_CHURN},
	{"arrival-rate", required_argument, NULL, OPT_ARRIVAL},
	{"cycle-cost", required_argument, NULL, OPT_CYCLE},
	{"preempt-cost", required_argument, NULL, OPT_PCOST},
	{"latency", required_argument, NULL, OPT_LATENCY},
	{"latency-dist", required_argument, NULL, OPT_LATDIST},
	{"error-rate", required_argument, NULL, OPT_ERRRATE},
	{"qps", required_argument, NULL, OPT_QPS},
	{"burst", required_argument, NULL, OPT_BURST},
	{"dispatcher-limit", required_argument, NULL, OPT_DLIMIT},
	{"informer-delay", required_argument, NULL, OPT_INFORMER},
	{"backoff", required_argument, NULL, OPT_BACKOFF},
	{"patch-change", required_argument, NULL, OPT_PCHANGE},
	{"until", required_argument, NULL, OPT_UNTIL},
	{"timeline", required_argument, NULL, OPT_TIMELINE},
	{"metrics", required_argument, NULL, OPT_METRICS},
	{"compare", no_argument, NULL, OPT_COMPARE},
	{NULL, 0, NULL, 0},
};

static double fraction(const pk_cli *c, const char *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);
	if (!*arg || *end || !(v >= 0 && v <= 1))
		pk_cli_usage_error(c, "%s: '%s' is not a number from 0 to 1", opt, arg);
	return v;
}

static double positive(const pk_cli *c, const char *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);
	if (!*arg || *end || !(v >= 0 && v <= 1e9))
		pk_cli_usage_error(c, "%s: '%s' is not a non-negative number", opt, arg);
	return v;
}

static double duration(const pk_cli *c, const char *opt, const char *arg)
{
	double v = apiq_parse_duration(arg);
	if (v < 0)
		pk_cli_usage_error(c, "%s: '%s' is not a duration (e.g. 5ms, 1s)", opt, arg);
	return v;
}

static void declare_type(pk_cli *c, apiq_types *types, const char *arg)
{
	char name[64];
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name))
		pk_cli_usage_error(c, "--call-type: '%s' is not NAME=RELEVANCE", arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	int rel = (int)pk_cli_number(c, "--call-type", eq + 1, -1000000, 1000000);
	if (apiq_types_declare(types, name, rel) < 0)
		pk_cli_usage_error(c, "--call-type: too many call types");
}

static void parse_option(pk_cli *c, int opt, const char *arg, apiq_types *types, apiq_run_opts *ro)
{
	switch (opt) {
	case OPT_CALL_TYPE: declare_type(c, types, arg); break;
	case OPT_SEED: ro->seed = (uint64_t)pk_cli_number(c, "--seed", arg, 0, 1LL << 62); break;
	case OPT_PODS: ro->pods = pk_cli_number(c, "--pods", arg, 0, 1LL << 40); break;
	case OPT_PSHARE: ro->preemptor_share = fraction(c, "--preemptor-share", arg); break;
	case OPT_VICTIMS: ro->victims = (int)pk_cli_number(c, "--victims", arg, 0, 10000); break;
	case OPT_CHURN: ro->churn = positive(c, "--churn", arg); break;
	case OPT_ARRIVAL: ro->arrival_rate = positive(c, "--arrival-rate", arg); break;
	case OPT_CYCLE: ro->cycle_cost = duration(c, "--cycle-cost", arg); break;
	case OPT_PCOST: ro->preempt_cost = duration(c, "--preempt-cost", arg); break;
	case OPT_LATENCY: ro->latency = duration(c, "--latency", arg); break;
	case OPT_LATDIST:
		if (!strcmp(arg, "exponential")) ro->latency_dist = APIQ_LAT_EXP;
		else if (!strcmp(arg, "constant")) ro->latency_dist = APIQ_LAT_CONST;
		else if (!strcmp(arg, "lognormal")) ro->latency_dist = APIQ_LAT_LOGNORMAL;
		else pk_cli_usage_error(c, "--latency-dist: '%s' is not exponential, constant or lognormal", arg);
		break;
	case OPT_ERRRATE: ro->error_rate = fraction(c, "--error-rate", arg); break;
	case OPT_QPS: ro->qps = positive(c, "--qps", arg); break;
	case OPT_BURST: ro->burst = (int)pk_cli_number(c, "--burst", arg, 1, 1000000); break;
	case OPT_DLIMIT: ro->dispatcher_limit = (int)pk_cli_number(c, "--dispatcher-limit", arg, 0, 1000000); break;
	case OPT_INFORMER: ro->informer_delay = duration(c, "--informer-delay", arg); break;
	case OPT_BACKOFF: ro->backoff_initial = duration(c, "--backoff", arg); break;
	case OPT_PCHANGE: ro->patch_change = fraction(c, "--patch-change", arg); break;
	case OPT_UNTIL: ro->until = duration(c, "--until", arg); break;
	case OPT_TIMELINE: ro->timeline_path = arg; break;
	case OPT_METRICS: ro->metrics_path = arg; break;
	case OPT_COMPARE: ro->compare = true; break;
	default:
		pk_cli_usage_error(c, "unknown option");
	}
}

/* The one place -o is looked at: its writer, for the whole run. */
static const apiq_writer *writer_for(pk_format format)
{
	switch (format) {
	case PK_FMT_TABLE: return &apiq_table_writer;
	case PK_FMT_WIDE: return &apiq_wide_writer;
	case PK_FMT_HTML: return &apiq_html_writer;
	default: return &apiq_json_writer;
	}
}

int main(int argc, char **argv)
{
	pk_cli cli;
	apiq_types types;
	apiq_run_opts ro;
	pk_cli_init(&cli, &spec);
	apiq_types_init(&types);
	apiq_run_opts_default(&ro);
	int opt;
	while ((opt = pk_cli_getopt(&cli, argc, argv, "", longopts)) != -1)
		parse_option(&cli, opt, optarg, &types, &ro);
	apiq_gates_from(&ro.gates, &cli.engine.gates);
	ro.writer = writer_for(cli.format);
	if (optind >= argc)
		pk_cli_usage_error(&cli, "missing mode: step or run");
	const char *mode = argv[optind++];
	char *const *paths = argv + optind;
	size_t npaths = (size_t)(argc - optind);
	int status;
	if (strcmp(mode, "step") == 0) {
		if (!ro.writer->ndjson)
			pk_cli_usage_error(&cli, "step writes json (NDJSON) only; -o table, wide and html are for run");
		status = apiq_step_main(&cli, &types, &ro.gates, paths, npaths);
	} else if (strcmp(mode, "run") == 0) {
		if (ro.writer == &apiq_html_writer && ro.timeline_path && strcmp(ro.timeline_path, "-") == 0)
			pk_cli_usage_error(&cli, "--timeline - and -o html would both write to standard output");
		/* the plans are preempt-plan's answer, whole: each input ends
		 * with its StreamEnd (a cut one simulates nothing) */
		cli.reader.stream_end_of = "preempt-plan";
		status = apiq_run_main(&cli, &types, &ro, paths, npaths);
	} else {
		pk_cli_usage_error(&cli, "unknown mode '%s' (want step or run)", mode);
	}
	pk_cli_finish(&cli);
	return status;
}
