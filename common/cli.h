/* The option / usage / --help / --version / exit-status layer of all tools.
 *
 * Each tool declares a pk_cli_spec (name, synopsis, help text, long options)
 * and parses with pk_cli_getopt. The options every tool shares are handled
 * here:  -h/--help, -V/--version, -o/--output, --no-headers, --color,
 * --stats, --feature-gates, --kubernetes-version, --max-depth, --max-record-bytes,
 * --max-alias-expansions, --max-records, --threads.
 */
#ifndef PK_CLI_H
#define PK_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "diag.h"
#include "io/reader.h"
#include "io/table.h"
#include "io/writer.h"
#include "k8s/gates.h"
#include "k8s/options.h"

#include "version.h"

typedef enum { PK_FMT_JSON, PK_FMT_TEXT, PK_FMT_TABLE, PK_FMT_WIDE, PK_FMT_JUNIT, PK_FMT_SARIF, PK_FMT_HTML } pk_format;
typedef enum { PK_COLOR_AUTO, PK_COLOR_ALWAYS, PK_COLOR_NEVER } pk_color_mode;

/* Long-option values for shared options start here; tools use values below 0x1000. */
enum {
	PK_OPT_COLOR = 0x1000,
	PK_OPT_STATS,
	PK_OPT_MAX_DEPTH,
	PK_OPT_MAX_RECORD_BYTES,
	PK_OPT_MAX_ALIAS,
	PK_OPT_MAX_RECORDS,
	PK_OPT_THREADS,
	PK_OPT_NO_HEADERS,
	PK_OPT_FEATURE_GATES,
	PK_OPT_KUBERNETES_VERSION,
	PK_OPT_MAX_FINDINGS,
};

typedef struct pk_cli_spec {
	const char *prog;
	const char *synopsis;     /* "pc-validate [options] [path ...]" */
	const char *help;         /* option descriptions, printed after the synopsis */
	const char *formats;      /* allowed -o values, e.g. "text,json,junit,sarif" */
	pk_format default_format;
	unsigned gates;           /* PK_GATE_BIT()s of the gates the tool's answer depends on */
	bool findings;            /* the tool reports findings: it takes --max-findings
	                             (PK_CLI_FINDINGS_OPTIONS), said in --help */
} pk_cli_spec;

/* Shared state the common options fill in. */
typedef struct pk_cli {
	const pk_cli_spec *spec;
	char prog[64];            /* as the user called it: "victims" or "kubectl victims" */
	bool named;               /* prog has been taken from argv[0] */
	pk_format format;
	bool no_headers;
	/* The release, its gates and the thread count, decided once the options
	 * are read, for the library (engine.release: the release profile,
	 * engine.release.minor the release answered for); reader.threads is engine.threads. */
	pk_engine_opts engine;
	int threads_asked;        /* --threads as given (0: not given) */
	bool want_version;        /* -V: printed once the options are read (the release may follow) */
	pk_color_mode color_mode;
	bool stats;
	long max_findings;        /* --max-findings: per input, 0 = all (PK_DEFAULT_MAX_FINDINGS) */
	pk_reader_opts reader;
	pk_diag diag;
	/* Reader errors reported through pk_cli_report_record_problem: inputs
	 * that could not be read to their end (cut, corrupt, unreadable). */
	long input_errors;
} pk_cli;

/* "1.37": the release answered for (--kubernetes-version), for records,
 * tables and messages. buf of at least 8 bytes. */
const char *pk_cli_k8s_version(const pk_cli *c, char *buf, size_t size);
/* Adds "kubernetesVersion":"1.37" to a record. */
void pk_cli_add_k8s_version(const pk_cli *c, cJSON *record);

/* Help text lines for the shared options, to append to each tool's help. */
extern const char pk_cli_common_help[];

/* The shared long options, to splice into a tool's option table with
 * PK_CLI_COMMON_OPTIONS (no terminator). Short options: "ho:V". */
#define PK_CLI_COMMON_SHORT "ho:V"
#define PK_CLI_COMMON_OPTIONS \
	{"help", no_argument, NULL, 'h'}, \
	{"version", no_argument, NULL, 'V'}, \
	{"output", required_argument, NULL, 'o'}, \
	{"no-headers", no_argument, NULL, PK_OPT_NO_HEADERS}, \
	{"feature-gates", required_argument, NULL, PK_OPT_FEATURE_GATES}, \
	{"kubernetes-version", required_argument, NULL, PK_OPT_KUBERNETES_VERSION}, \
	{"color", required_argument, NULL, PK_OPT_COLOR}, \
	{"stats", no_argument, NULL, PK_OPT_STATS}, \
	{"max-depth", required_argument, NULL, PK_OPT_MAX_DEPTH}, \
	{"max-record-bytes", required_argument, NULL, PK_OPT_MAX_RECORD_BYTES}, \
	{"max-alias-expansions", required_argument, NULL, PK_OPT_MAX_ALIAS}, \
	{"max-records", required_argument, NULL, PK_OPT_MAX_RECORDS}, \
	{"threads", required_argument, NULL, PK_OPT_THREADS}

/* --max-findings N, for the tools that report findings (spec.findings):
 * of one input the first N are shown, the others counted in one line. A
 * few hundred: a log piped in by mistake gives a short answer, a real
 * manifest never has that many. */
#define PK_DEFAULT_MAX_FINDINGS 200
#define PK_CLI_FINDINGS_OPTIONS \
	{"max-findings", required_argument, NULL, PK_OPT_MAX_FINDINGS}

void pk_cli_init(pk_cli *c, const pk_cli_spec *spec);

/* Handle a shared option. Returns 1 if handled, 0 if not a shared option.
 * --help/--version print and exit(0); a bad value prints usage and exit(2). */
int pk_cli_handle(pk_cli *c, int opt, const char *arg);

/* getopt_long for a tool: returns the next option that is the tool's own
 * (the shared ones are handled here), -1 at the end of the options. An
 * unknown option or a missing argument is a usage error (exit 2) that
 * suggests the nearest option ("did you mean --preemptor?"); -o=table is
 * read as kubectl reads it. On the first call, a binary started as
 * kubectl-NAME (a kubectl plugin) names itself "kubectl NAME" in messages.
 * shortopts are the tool's own short options ("n:"), or "". */
int pk_cli_getopt(pk_cli *c, int argc, char *const *argv, const char *shortopts,
                  const struct option *longopts);

/* The one rule for long options and their abbreviations, in every tool
 * (getopt_long's): word names the long option `name` of longopts when it
 * is "--name", "--name=VALUE", or "--" and a prefix of name that no other
 * long option of longopts begins with ("--sim" for --simulate). For the
 * words a tool must find before getopt runs (a mode, an option that takes
 * several paths). */
bool pk_cli_names_option(const char *word, const char *name, const struct option *longopts);

/* A table with the shared --no-headers applied and its header row added. */
void pk_cli_table_init(const pk_cli *c, pk_table *t, int ncols, const char *const *header);
/* One footer line per warning cause of this run ("Warning: ... (N times)"). */
void pk_cli_table_warnings(const pk_cli *c, pk_table *t);
/* The messages of this run's warning causes, as a JSON array of strings
 * (counts appended as " (N times)"), for a record's "warnings". */
cJSON *pk_cli_warnings_json(const pk_cli *c);
/* At the end of a run: the repeat counts of warnings to stderr. */
void pk_cli_finish(pk_cli *c);

/* Print "prog: message" + "Try 'prog --help'." to stderr and exit(2). */
_Noreturn void pk_cli_usage_error(const pk_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Bounded integer option parsing; exits 2 with a message on error. */
long long pk_cli_number(const pk_cli *c, const char *opt, const char *arg, long long min, long long max);

/* --dra-preemption MODE (victims, preempt-plan --simulate and --replay):
 * "release" (the default: DynamicResources has no part in the preemption
 * dry run, as through Kubernetes 1.37) or "kep-5690" (the unmerged
 * proposal's: a victim's claim reserved only for victims is released),
 * into c->engine.dra_kep5690; anything else exits 2. Its --help lines:
 * PK_CLI_DRA_PREEMPTION_HELP. */
void pk_cli_dra_preemption(pk_cli *c, const char *arg);
#define PK_CLI_DRA_PREEMPTION_HELP \
	"      --dra-preemption MODE  release (default): as Kubernetes 1.37, evicting pods frees\n" \
	"                             none of their devices for the preemptor; kep-5690: as the\n" \
	"                             unmerged KEP-5690 proposes, a victim's claim reserved only\n" \
	"                             for victims is released (every answer says it is a proposal's)\n"

/* -n/--namespace NS and -A/--all-namespaces as kubectl reads them: list
 * PK_CLI_NAMESPACE_OPTIONS with the long options and "n:A" in the short
 * ones, and give every option to pk_cli_namespace_take. */
#define PK_CLI_NAMESPACE_OPTIONS \
	{"namespace", required_argument, NULL, 'n'}, \
	{"all-namespaces", no_argument, NULL, 'A'}
typedef struct pk_cli_namespace {
	const char *namespace_;   /* -n NS, or NULL */
	bool all;                 /* -A */
} pk_cli_namespace;
/* True when opt is -n (arg) or -A, taken into ns; an empty NS exits 2. */
bool pk_cli_namespace_take(const pk_cli *c, int opt, const char *arg, pk_cli_namespace *ns);
/* The namespace answered for, or NULL for every one (-A wins over -n). */
const char *pk_cli_namespace_of(const pk_cli_namespace *ns);

/* Colour decision: --color, then NO_COLOR (non-empty), then isatty(fd). */
bool pk_cli_use_color(const pk_cli *c, int fd);

/* Standard handling of reader problems for tools that treat them as trouble:
 * prints the diagnostic and counts it (input_errors). Returns true if rec
 * was an error. */
bool pk_cli_report_record_problem(pk_cli *c, const pk_record *rec);

/* An answer computed from part of its input is no answer: when an input
 * could not be read to its end (input_errors), says that nothing (what:
 * "records", "plans") is written and returns true. */
bool pk_cli_input_cut(pk_cli *c, const char *what);

/* With -o json, the StreamEnd record that closes a complete answer
 * (io/writer.h pk_out_stream_end), named after the tool. */
void pk_cli_stream_end(const pk_cli *c, pk_out *o);

/* Run-level accounting printed by --stats (stderr) and "Stats" records. */
typedef struct pk_stats pk_stats;
struct pk_stats {
	long read;          /* objects delivered by the reader */
	long used;          /* objects the tool consumed */
	long skipped;       /* objects of kinds the tool does not use */
	long rejected;      /* objects the tool wanted but could not use */
	long errors;        /* reader errors (unparsable documents) */
	/* skipped/rejected counts by kind, in first-seen order */
	struct { char kind[64]; long skipped, rejected; } by_kind[32];
	int nkinds;
};

/* The usual start of a record callback: a reader problem is reported and
 * counted (unreadable, and *trouble), a warning is reported, an object is
 * counted as read. True when rec is an object for the tool to use. */
bool pk_cli_accept_record(pk_cli *c, pk_stats *st, const pk_record *rec, long *trouble);

void pk_stats_skip(pk_stats *s, const char *kind);
void pk_stats_reject(pk_stats *s, const char *kind);
/* Write the accounting to stderr as "prog: stats: read N, used N, ..." lines. */
void pk_stats_print(const pk_stats *s, const char *prog, FILE *fp);
/* The same as a {"kind":"Stats",...} record. Caller owns the result. */
cJSON *pk_stats_json(const pk_stats *s);

#endif
