#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char pk_cli_common_help[] =
	"  -o, --output FORMAT        output format (see below)\n"
	"      --no-headers           tables: leave out the header row and the footer\n"
	"      --feature-gates LIST   Name=true|false,... (see below)\n"
	"      --kubernetes-version X.Y  answer for Kubernetes 1.35, 1.36 or 1.37 (default 1.37)\n"
	"      --color WHEN           colour: auto, always, never (NO_COLOR is honoured)\n"
	"      --stats                print what was read, used, skipped and rejected to stderr\n"
	"      --max-depth N          reject documents nested deeper than N (default 1000)\n"
	"      --max-record-bytes N   reject single objects larger than N bytes (default 268435456)\n"
	"      --max-alias-expansions N  reject YAML expanding more than N aliased nodes (default 1000000)\n"
	"      --max-records N        stop with an error after N objects (default unlimited)\n"
	"      --threads N            read and compute with N threads, at most 8 (default: one per CPU, at most 4)\n"
	"  -h, --help                 show this help and exit\n"
	"  -V, --version              show the version and exit\n";

#define DIGITS_OF(n) #n
#define NUMBER_TEXT(n) DIGITS_OF(n)
/* For the tools that report findings (spec.findings), before the shared options. */
static const char findings_help[] =
	"      --max-findings N       show the first N findings of each input and count the rest\n"
	"                             in one line (default " NUMBER_TEXT(PK_DEFAULT_MAX_FINDINGS) "; 0: all)\n";

void pk_cli_init(pk_cli *c, const pk_cli_spec *spec)
{
	memset(c, 0, sizeof *c);
	c->spec = spec;
	snprintf(c->prog, sizeof c->prog, "%s", spec->prog);
	c->format = spec->default_format;
	c->max_findings = PK_DEFAULT_MAX_FINDINGS;
	pk_engine_opts_default(&c->engine);
	c->color_mode = PK_COLOR_AUTO;
	c->reader.report_duplicates = 1;
	/* progress only for a person watching: stderr on a terminal */
	c->reader.progress = isatty(STDERR_FILENO) ? spec->prog : NULL;
	pk_diag_init(&c->diag, c->prog);
}

static const char *format_name(pk_format f)
{
	switch (f) {
	case PK_FMT_TEXT: return "text";
	case PK_FMT_TABLE: return "table";
	case PK_FMT_WIDE: return "wide";
	case PK_FMT_JUNIT: return "junit";
	case PK_FMT_SARIF: return "sarif";
	case PK_FMT_HTML: return "html";
	case PK_FMT_JSON: break;
	}
	return "json";
}

static void print_gates_help(const pk_cli *c)
{
	if (!c->spec->gates)
		return;
	int minor = c->engine.gates.k8s_minor; /* --help comes before the profile is made */
	printf("\nFeature gates this tool reads in Kubernetes 1.%d (--feature-gates; AllAlpha and AllBeta too):\n",
	       minor);
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_info *g = pk_gate_info_of((pk_gate_id)i);
		const pk_gate_release *r = pk_gate_at((pk_gate_id)i, minor);
		if (!(c->spec->gates & PK_GATE_BIT(i)) || !r->exists)
			continue;
		bool ours = pk_gate_our_default((pk_gate_id)i, minor);
		printf("  %-34s default %s", g->name, ours ? "true" : "false");
		if (ours != r->upstream_default)
			printf(" (upstream %s: see the man page)", r->upstream_default ? "true" : "false");
		printf("\n");
	}
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_info *g = pk_gate_info_of((pk_gate_id)i);
		const pk_gate_removal *gone = pk_gate_removal_of(g->name);
		if ((c->spec->gates & PK_GATE_BIT(i)) && !pk_gate_at((pk_gate_id)i, minor)->exists && gone &&
		    gone->minor <= minor)
			printf("Not in Kubernetes 1.%d: %s (removed by %s; %s switches the feature).\n", minor, g->name,
			       gone->by, gone->instead ? gone->instead : "no gate");
	}
}

/* The synopsis names the binary; as a kubectl plugin it is "kubectl NAME". */
static void print_synopsis(const pk_cli *c)
{
	const char *rest = c->spec->synopsis;
	size_t n = strlen(c->spec->prog);
	if (strncmp(rest, c->spec->prog, n) == 0)
		rest += n;
	else
		rest = "";
	printf("Usage: %s%s\n\n", rest[0] || !c->spec->synopsis[0] ? c->prog : "", rest[0] ? rest : c->spec->synopsis);
}

/* Each tool's exit statuses: the columns of the README's "Exit status"
 * table, word for word (test/surface.bats compares them), for --help. */
static const struct exit_statuses {
	const char *prog, *ok, *finding, *trouble;
} exit_table[] = {
	{ "pc-validate",
	  "every object valid (warnings allowed without --strict); no objects at all, or every input skipped as not Kubernetes objects (\"0 objects checked\")",
	  "an invalid or unparseable manifest (with --strict, any warning); an object over --max-record-bytes",
	  "a bad option (a path with --staged); a file that cannot be read; with --against or --staged a revision that is no commit, no git repository, a path outside it; stdout that cannot be written" },
	{ "pp-match",
	  "every template claimed, or unclaimed ones reported without --require-claim; no templates, or every input skipped as not Kubernetes objects (\"0 resource templates\")",
	  "an unclaimed template with --require-claim; a policy the webhook rejects",
	  "a bad option (a path with --staged); a file or document that cannot be read; with --against or --staged a revision that is no commit, no git repository, a path outside it; stdout that cannot be written" },
	{ "victims",
	  "every preemptor fits or has a candidate node; no pending pods with --pending (none in NS with -n NS)",
	  "a preemptor that cannot be placed (no candidate node) or may not preempt",
	  "a bad option; a file or document that cannot be read, or an input not read to its end (cut, a truncated or "
	  "corrupt gzip, binary): no records at all; stdout that cannot be written; a snapshot without nodes" },
	{ "preempt-plan",
	  "every preemptor placed (fits, or Preempt) among the plans written (NS's with -n NS); with --simulate every unit scheduled or nominated; a complete victims answer without preemptors, its StreamEnd "
	  "alone (no preemptor in NS with -n NS)",
	  "a preemptor Unschedulable or NotEligible; with --simulate such a unit, or an applied object admission would reject",
	  "a bad option; a file or document that cannot be read; an input that ends without victims' StreamEnd record (cut "
	  "short, the stage before failed) or holds nothing at all (no input: the stage before wrote nothing): no plan; "
	  "stdout that cannot be written; an input with objects but no Preemptor/Candidate records; with --simulate an "
	  "input not read to its end (no plans) or a snapshot without nodes" },
	{ "apiq-sim",
	  "the run or the steps completed",
	  "not used",
	  "a bad option; a file that cannot be read; stdout that cannot be written; a malformed operation or plan; run with "
	  "plans that end without preempt-plan's StreamEnd record, or no input at all; run with nothing to simulate (no "
	  "plans, no --pods)" },
};

static void print_exit_statuses(const char *prog)
{
	for (size_t i = 0; i < sizeof exit_table / sizeof exit_table[0]; i++)
		if (strcmp(exit_table[i].prog, prog) == 0) {
			printf("\nExit status (the table in %s(1) and the README):\n  0  %s\n  1  %s\n  2  %s\n", prog,
			       exit_table[i].ok, exit_table[i].finding, exit_table[i].trouble);
			return;
		}
	printf("\nExit status: 0 the answer, nothing negative; 1 a negative finding;\n"
	       "2 usage, input or output trouble.\n");
}

static void print_help(const pk_cli *c)
{
	print_synopsis(c);
	printf("%s%s%s", c->spec->help, c->spec->findings ? findings_help : "", pk_cli_common_help);
	printf("\nOutput formats: %s (default %s).\n", c->spec->formats, format_name(c->spec->default_format));
	print_gates_help(c);
	print_exit_statuses(c->spec->prog);
}

_Noreturn void pk_cli_usage_error(const pk_cli *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", c->prog);
	exit(PK_EXIT_TROUBLE);
}

long long pk_cli_number(const pk_cli *c, const char *opt, const char *arg, long long min, long long max)
{
	char *end;

	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno || v < min || v > max)
		pk_cli_usage_error(c, "%s: '%s' is not a number from %lld to %lld", opt, arg, min, max);
	return v;
}

void pk_cli_dra_preemption(pk_cli *c, const char *arg)
{
	if (strcmp(arg, "release") == 0)
		c->engine.dra_kep5690 = false;
	else if (strcmp(arg, "kep-5690") == 0)
		c->engine.dra_kep5690 = true;
	else
		pk_cli_usage_error(c, "--dra-preemption: '%s' is neither release nor kep-5690", arg);
}

bool pk_cli_namespace_take(const pk_cli *c, int opt, const char *arg, pk_cli_namespace *ns)
{
	if (opt == 'n') {
		if (!*arg)
			pk_cli_usage_error(c, "--namespace: a namespace is required");
		ns->namespace_ = arg;
	} else if (opt == 'A') {
		ns->all = true;
	}
	return opt == 'n' || opt == 'A';
}

const char *pk_cli_namespace_of(const pk_cli_namespace *ns)
{
	return ns->all ? NULL : ns->namespace_;
}

static bool format_allowed(const pk_cli *c, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = c->spec->formats; (p = strstr(p, name)) != NULL; p += n)
		if ((p == c->spec->formats || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static pk_format parse_format(const pk_cli *c, const char *arg)
{
	static const struct { const char *name; pk_format f; } names[] = {
		{"json", PK_FMT_JSON}, {"text", PK_FMT_TEXT}, {"table", PK_FMT_TABLE},
		{"wide", PK_FMT_WIDE}, {"junit", PK_FMT_JUNIT}, {"sarif", PK_FMT_SARIF},
		{"html", PK_FMT_HTML},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(arg, names[i].name) == 0 && format_allowed(c, arg))
			return names[i].f;
	pk_cli_usage_error(c, "unknown output format '%s' (choose from %s)", arg, c->spec->formats);
}

static void parse_gates(pk_cli *c, const char *arg);

int pk_cli_handle(pk_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case 'h':
		print_help(c);
		exit(fflush(stdout) == 0 ? PK_EXIT_OK : PK_EXIT_TROUBLE);
	case 'V':
		c->want_version = true;
		return 1;
	case PK_OPT_KUBERNETES_VERSION: {
		int minor;
		if (!pk_k8s_version_parse(arg, &minor))
			pk_cli_usage_error(c, "--kubernetes-version: '%s' is not a release this version models (supported: %s)",
			                   arg, pk_k8s_versions_supported());
		pk_feature_gates_set_release(&c->engine.gates, minor);
		return 1;
	}
	case 'o':
		/* kubectl accepts -o=table */
		c->format = parse_format(c, arg[0] == '=' ? arg + 1 : arg);
		return 1;
	case PK_OPT_NO_HEADERS:
		c->no_headers = true;
		return 1;
	case PK_OPT_FEATURE_GATES:
		parse_gates(c, arg);
		return 1;
	case PK_OPT_COLOR:
		if (strcmp(arg, "auto") == 0)
			c->color_mode = PK_COLOR_AUTO;
		else if (strcmp(arg, "always") == 0)
			c->color_mode = PK_COLOR_ALWAYS;
		else if (strcmp(arg, "never") == 0)
			c->color_mode = PK_COLOR_NEVER;
		else
			pk_cli_usage_error(c, "--color: '%s' is not auto, always or never", arg);
		return 1;
	case PK_OPT_STATS:
		c->stats = true;
		return 1;
	case PK_OPT_MAX_DEPTH:
		c->reader.limits.max_depth = (int)pk_cli_number(c, "--max-depth", arg, 1, 1000);
		return 1;
	case PK_OPT_MAX_RECORD_BYTES:
		c->reader.limits.max_record_bytes = (size_t)pk_cli_number(c, "--max-record-bytes", arg, 1, 1LL << 40);
		return 1;
	case PK_OPT_MAX_ALIAS:
		c->reader.limits.max_alias_expansions = (long)pk_cli_number(c, "--max-alias-expansions", arg, 0, 1LL << 40);
		return 1;
	case PK_OPT_MAX_RECORDS:
		c->reader.limits.max_records = (long)pk_cli_number(c, "--max-records", arg, 1, 1LL << 50);
		return 1;
	case PK_OPT_THREADS:
		c->threads_asked = (int)pk_cli_number(c, "--threads", arg, 1, 64);
		return 1;
	case PK_OPT_MAX_FINDINGS:
		c->max_findings = (long)pk_cli_number(c, "--max-findings", arg, 0, 1LL << 40);
		return 1;
	}
	return 0;
}

const char *pk_cli_k8s_version(const pk_cli *c, char *buf, size_t size)
{
	return pk_k8s_version_text(c->engine.release.minor, buf, size);
}

void pk_cli_add_k8s_version(const pk_cli *c, cJSON *record)
{
	pk_k8s_add_version(record, c->engine.release.minor);
}

static bool answers_for_kubernetes(const pk_cli *c);

/* Once the options are read: the gates named must exist in the release
 * answered for (--kubernetes-version may come after --feature-gates), and
 * --version says which release that is. */
static void options_done(pk_cli *c)
{
	char err[512];
	if (pk_feature_gates_check_release(&c->engine.gates, err, sizeof err) != 0)
		pk_cli_usage_error(c, "--feature-gates: %s", err);
	pk_engine_opts_finish(&c->engine);
	bool capped;
	c->engine.threads = pk_threads_resolve(c->threads_asked, &capped);
	c->reader.threads = c->engine.threads;
	if (capped)
		pk_diag_report(&c->diag, PK_SEV_NOTE, NULL, "--threads %d: using %d threads, the most this version uses",
		               c->threads_asked, c->engine.threads);
	if (c->want_version) {
		if (answers_for_kubernetes(c))
			printf("%s %s (answers for Kubernetes 1.%d)\n", c->prog, PK_VERSION, c->engine.release.minor);
		else
			printf("%s %s\n", c->prog, PK_VERSION);
		exit(fflush(stdout) == 0 ? PK_EXIT_OK : PK_EXIT_TROUBLE);
	}
}

/* A gate given to a tool whose answer it does not change is said so, once. */
static void parse_gates(pk_cli *c, const char *arg)
{
	pk_feature_gates before = c->engine.gates;
	char err[512];
	if (pk_feature_gates_parse(&c->engine.gates, arg, err, sizeof err) != 0)
		pk_cli_usage_error(c, "--feature-gates: %s", err);
	for (int i = 0; i < PK_NGATES; i++)
		if (c->engine.gates.explicit_value[i] >= 0 && before.explicit_value[i] < 0 &&
		    !(c->spec->gates & PK_GATE_BIT(i)))
			pk_diag_warn_once(&c->diag, pk_gate_info_of((pk_gate_id)i)->name, NULL,
			                  "--feature-gates: %s does not change what %s computes",
			                  pk_gate_info_of((pk_gate_id)i)->name, c->prog);
	for (int i = before.nignored; i < c->engine.gates.nignored; i++)
		pk_diag_warn_once(&c->diag, c->engine.gates.ignored[i], NULL,
		                  "--feature-gates: %s does not change what %s computes (not a gate it models)",
		                  c->engine.gates.ignored[i], c->prog);
}

/* kubectl runs a plugin kubectl-pc_validate for "kubectl pc-validate". */
static void take_name(pk_cli *c, const char *argv0)
{
	c->named = true;
	if (!argv0)
		return;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	if (strncmp(base, "kubectl-", 8) != 0 || !base[8])
		return;
	snprintf(c->prog, sizeof c->prog, "kubectl %s", base + 8);
	for (char *p = c->prog + 8; *p; p++)
		if (*p == '_')
			*p = '-';
}

/* The options of a tool's other mode, which getopt does not know in this
 * one: each is told where it works instead of being "unknown". The one
 * table of them (test/surface.bats checks it against the modes' --help). */
static const struct mode_options {
	const char *prog, *mode;
	const char *const options[8];   /* long names, NULL-terminated */
} mode_table[] = {
	{ "preempt-plan", "--simulate",
	  { "apply", "max-recreations", "no-cascade", "pod-postfilter", "replicas", "scale", "dra-preemption", NULL } },
	{ "preempt-plan", "--replay",
	  { "until", "max-instants", "grace-period", "run-time-from", "strict", "progress", NULL } },
};

/* The option of another mode that name (given without "--") is, exactly
 * or as the only one it abbreviates, when it abbreviates none of this
 * mode's longopts; NULL if none. *mode gets the mode. */
static const char *other_mode_option(const pk_cli *c, const char *name, const struct option *longopts,
                                     const char **mode)
{
	size_t n = strlen(name);
	for (const struct option *o = longopts; o->name; o++)
		if (strncmp(o->name, name, n) == 0)
			return NULL;  /* ambiguous here: said as such */
	for (size_t i = 0; i < sizeof mode_table / sizeof mode_table[0]; i++) {
		if (strcmp(mode_table[i].prog, c->spec->prog) != 0)
			continue;
		const char *found = NULL;
		int matches = 0;
		for (const char *const *o = mode_table[i].options; *o; o++) {
			if (strcmp(*o, name) == 0) {
				found = *o;
				matches = 1;
				break;
			}
			if (strncmp(*o, name, n) == 0) {
				found = *o;
				matches++;
			}
		}
		if (matches == 1) {
			*mode = mode_table[i].mode;
			return found;
		}
	}
	return NULL;
}

static _Noreturn void unknown_option(const pk_cli *c, const char *word, const struct option *longopts)
{
	if (strncmp(word, "--", 2) != 0 || !word[2])
		pk_cli_usage_error(c, "unknown option '%s'", word);
	char name[128], near[128] = "";
	snprintf(name, sizeof name, "%s", word + 2);
	name[strcspn(name, "=")] = '\0';
	const char *mode, *elsewhere = other_mode_option(c, name, longopts, &mode);
	if (elsewhere)
		pk_cli_usage_error(c, "--%s works only with %s", elsewhere, mode);
	const char *names[256];
	size_t n = 0;
	while (longopts[n].name && n < sizeof names / sizeof names[0]) {
		names[n] = longopts[n].name;
		n++;
	}
	const char *best = pk_nearest_word(name, names, n);
	if (best)
		snprintf(near, sizeof near, " (did you mean --%s?)", best);
	pk_cli_usage_error(c, "unknown or ambiguous option '--%s'%s", name, near);
}

bool pk_cli_names_option(const char *word, const char *name, const struct option *longopts)
{
	if (strncmp(word, "--", 2) != 0 || !word[2])
		return false;
	const char *given = word + 2;
	size_t n = strcspn(given, "=");
	if (strncmp(name, given, n) != 0)
		return false;
	if (!name[n])
		return true;
	for (const struct option *o = longopts; o->name; o++)
		if (strcmp(o->name, name) != 0 && strncmp(o->name, given, n) == 0)
			return false;  /* ambiguous, or another option's exact name */
	return true;
}

int pk_cli_getopt(pk_cli *c, int argc, char *const *argv, const char *shortopts, const struct option *longopts)
{
	char shorts[64];
	snprintf(shorts, sizeof shorts, ":%s%s", PK_CLI_COMMON_SHORT, shortopts ? shortopts : "");
	if (!c->named) {
		take_name(c, argc > 0 ? argv[0] : NULL);
		opterr = 0;  /* the messages below replace getopt's */
	}
	for (;;) {
		int opt = getopt_long(argc, argv, shorts, longopts, NULL);
		if (opt == '?') {
			if (optopt)
				pk_cli_usage_error(c, "unknown option '-%c'", optopt);
			unknown_option(c, argv[optind - 1], longopts);
		}
		if (opt == ':')
			pk_cli_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
		if (opt == -1)
			options_done(c);
		if (opt == -1 || !pk_cli_handle(c, opt, optarg))
			return opt;
	}
}

void pk_cli_table_init(const pk_cli *c, pk_table *t, int ncols, const char *const *header)
{
	pk_table_init(t, ncols);
	t->no_headers = c->no_headers;
	pk_table_header(t, header);
}

static void cause_text(const pk_diag_cause *cause, char *buf, size_t size)
{
	if (cause->count > 1)
		snprintf(buf, size, "%s (%ld times)", cause->message, cause->count);
	else
		snprintf(buf, size, "%s", cause->message);
}

/* Every tool answers for a Kubernetes release but one whose gates are all
 * another project's: pp-match, which answers for Karmada. */
static bool answers_for_kubernetes(const pk_cli *c)
{
	if (!c->spec->gates)
		return true;
	for (int i = 0; i < PK_NGATES; i++)
		if ((c->spec->gates & PK_GATE_BIT(i)) && strncmp(pk_gate_info_of((pk_gate_id)i)->component, "kube", 4) == 0)
			return true;
	return false;
}

void pk_cli_table_warnings(const pk_cli *c, pk_table *t)
{
	char text[2200];
	if (answers_for_kubernetes(c))
		pk_table_footer(t, "Answers for Kubernetes 1.%d (--kubernetes-version).", c->engine.release.minor);
	for (size_t i = 0; i < c->diag.ncauses; i++) {
		cause_text(&c->diag.causes[i], text, sizeof text);
		pk_table_footer(t, "Warning: %s", text);
	}
}

cJSON *pk_cli_warnings_json(const pk_cli *c)
{
	cJSON *a = cJSON_CreateArray();
	char text[2200];
	for (size_t i = 0; i < c->diag.ncauses; i++) {
		cause_text(&c->diag.causes[i], text, sizeof text);
		cJSON_AddItemToArray(a, cJSON_CreateString(text));
	}
	return a;
}

void pk_cli_finish(pk_cli *c)
{
	pk_diag_finish(&c->diag);
}

bool pk_cli_use_color(const pk_cli *c, int fd)
{
	if (c->color_mode != PK_COLOR_AUTO)
		return c->color_mode == PK_COLOR_ALWAYS;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	return isatty(fd);
}

bool pk_cli_report_record_problem(pk_cli *c, const pk_record *rec)
{
	if (rec->type == PK_REC_OBJECT)
		return false;
	if (rec->type == PK_REC_WARNING) {
		pk_diag_report(&c->diag, PK_SEV_WARNING, &rec->origin, "%s", rec->message);
		return false;
	}
	pk_diag_report(&c->diag, PK_SEV_ERROR, &rec->origin, "%s", rec->message);
	c->input_errors++;
	return true;
}

bool pk_cli_input_cut(pk_cli *c, const char *what)
{
	if (c->input_errors == 0)
		return false;
	pk_diag_report(&c->diag, PK_SEV_ERROR, NULL, "no %s written: the input was not read whole (%ld error%s above)",
	               what, c->input_errors, c->input_errors == 1 ? "" : "s");
	return true;
}

void pk_cli_stream_end(const pk_cli *c, pk_out *o)
{
	char v[16];
	if (c->format == PK_FMT_JSON)
		pk_out_stream_end(o, c->spec->prog, pk_cli_k8s_version(c, v, sizeof v));
}

static int kind_slot(pk_stats *s, const char *kind)
{
	if (!kind || !*kind)
		kind = "(no kind)";
	for (int i = 0; i < s->nkinds; i++)
		if (strcmp(s->by_kind[i].kind, kind) == 0)
			return i;
	int last = (int)(sizeof s->by_kind / sizeof s->by_kind[0]) - 1;
	if (s->nkinds > last)
		return last;  /* the last slot collects the rest */
	int i = s->nkinds++;
	snprintf(s->by_kind[i].kind, sizeof s->by_kind[i].kind, "%s", i == last ? "(other kinds)" : kind);
	return i;
}

void pk_stats_skip(pk_stats *s, const char *kind)
{
	s->skipped++;
	s->by_kind[kind_slot(s, kind)].skipped++;
}

void pk_stats_reject(pk_stats *s, const char *kind)
{
	s->rejected++;
	s->by_kind[kind_slot(s, kind)].rejected++;
}

void pk_stats_print(const pk_stats *s, const char *prog, FILE *fp)
{
	fprintf(fp, "%s: stats: read %ld, used %ld, skipped %ld, rejected %ld, unreadable %ld\n",
	        prog, s->read, s->used, s->skipped, s->rejected, s->errors);
	for (int i = 0; i < s->nkinds; i++)
		fprintf(fp, "%s: stats: kind %s: skipped %ld, rejected %ld\n", prog,
		        s->by_kind[i].kind, s->by_kind[i].skipped, s->by_kind[i].rejected);
}

cJSON *pk_stats_json(const pk_stats *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Stats");
	cJSON_AddNumberToObject(o, "read", (double)s->read);
	cJSON_AddNumberToObject(o, "used", (double)s->used);
	cJSON_AddNumberToObject(o, "skipped", (double)s->skipped);
	cJSON_AddNumberToObject(o, "rejected", (double)s->rejected);
	cJSON_AddNumberToObject(o, "unreadable", (double)s->errors);
	cJSON *by = cJSON_AddObjectToObject(o, "byKind");
	for (int i = 0; i < s->nkinds; i++) {
		cJSON *k = cJSON_AddObjectToObject(by, s->by_kind[i].kind);
		cJSON_AddNumberToObject(k, "skipped", (double)s->by_kind[i].skipped);
		cJSON_AddNumberToObject(k, "rejected", (double)s->by_kind[i].rejected);
	}
	return o;
}

bool pk_cli_accept_record(pk_cli *c, pk_stats *st, const pk_record *rec, long *trouble)
{
	if (pk_cli_report_record_problem(c, rec)) {
		st->errors++;
		++*trouble;
		return false;
	}
	if (rec->type != PK_REC_OBJECT)
		return false;
	st->read++;
	return true;
}
