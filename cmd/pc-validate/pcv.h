/* pc-validate internals: findings, per-object checking context, the
 * set-level facts collected while streaming, and the rule entry points. */
#ifndef PCV_H
#define PCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "diag.h"
#include "io/nonobject.h"
#include "io/reader.h"
#include "k8s/json.h"
#include "k8s/priority.h"
#include "io/writer.h"
#include "base/strtab.h"

/* Finding types: the apiserver's field.ErrorType names plus the decode-level
 * pseudo-types of validation.md section 0.2. */
typedef enum {
	PCV_REQUIRED,
	PCV_INVALID,
	PCV_NOT_SUPPORTED,
	PCV_FORBIDDEN,
	PCV_DUPLICATE,
	PCV_TOO_LONG,
	PCV_TOO_MANY,
	PCV_PARSE_ERROR,
	PCV_TYPE_ERROR,
	PCV_UNKNOWN_FIELD,
	PCV_DUPLICATE_FIELD,
	PCV_MISSING_KIND,
	PCV_UNKNOWN_KIND,
	PCV_DUPLICATE_DEFINITION,  /* one identity defined twice in the input set */
	PCV_NOT_CHECKED,           /* a part pc-validate cannot judge (a CEL construct
	                              its interpreter does not support): a warning */
	PCV_NTYPES
} pcv_type;

const char *pcv_type_name(pcv_type t);

/* Identity of the object a finding is about (strings owned by the finding). */
typedef struct pcv_ident {
	char *api_version, *kind, *ns, *name;
} pcv_ident;

/* Another place a finding is about: the first definition of a duplicate,
 * the class already marked as default. */
typedef struct pcv_place {
	char *file;        /* display name: a file, or "HEAD:path" for --against */
	long line, col;
	const char *what;  /* e.g. "first definition" */
} pcv_place;

typedef struct pcv_finding {
	int file;          /* index into pcv_findings.files */
	long line, col;    /* 0 when unknown */
	long seq;          /* order of creation, breaks ties when sorting */
	pk_severity sev;
	pcv_ident obj;
	char *field;       /* apiserver path, NULL when it gives none */
	pcv_type type;
	char *rule;        /* rule id, e.g. "PriorityClass.value.immutable"; NULL: from kind, field and type */
	char *message;     /* e.g. "Invalid value: 0: must be greater than or equal to 1" */
	pcv_place related; /* related.file NULL when none */
} pcv_finding;

typedef struct pcv_findings {
	pcv_finding *v;
	size_t n, cap_v;
	pk_strtab *files;  /* interned file names, ids in first-seen order */
	long seq;          /* findings made, kept or not */
	pk_diag_cap cap;   /* --max-findings per input */
	pcv_finding left_out; /* the last finding over the cap, not kept */
} pcv_findings;


/* A reference to check once every object has been read. */
typedef enum { REF_PCLASS, REF_WORKLOAD, REF_PREEMPTION_PCLASS } pcv_ref_kind;

typedef struct pcv_ref {
	pcv_ref_kind kind;
	int file;
	long line, col;     /* the reference field (or the object) */
	const char *sib[2]; /* sibling fields a finding may point at: priority and
	                       preemptionPolicy, or the template name of a Workload */
	long sline[2], scol[2];
	bool locate;        /* JSON input: line/col are the object's; the fields
	                       are looked up in the file if a check fails */
	pcv_ident obj;
	char *field;        /* where to point: e.g. "spec.priorityClassName" */
	char *target;       /* class name / workload name */
	char *target2;      /* template name (REF_WORKLOAD), scheduling class (REF_PREEMPTION_PCLASS) */
	char *ns;           /* namespace for workload lookups */
	bool has_priority;  /* REF_PCLASS: spec.priority was given */
	int32_t priority;
	bool has_policy;    /* REF_PCLASS: spec.preemptionPolicy was given */
	pk_preemption_policy policy;
	bool admission;     /* Pod/PodGroup admission applies (vs a template: pods created later) */
} pcv_ref;

/* Facts about one PriorityClass seen in the inputs or among the existing
 * objects (--cluster, --against). */
typedef struct pcv_pcfact {
	int32_t value;
	bool global_default;
	pk_preemption_policy policy;
	bool existing;
	bool replaced;         /* --against: committed in a file that an input
	                          replaces or that is deleted, and no input
	                          defines it again: gone from the resulting state */
	pcv_place at;          /* where it is defined */
} pcv_pcfact;

/* --against: a committed object in a file that stays as it is names a
 * class; a finding only if this change deletes the class. */
typedef struct pcv_committed_ref {
	char *target;          /* the class */
	char *file;            /* the work-tree file, as the user names it */
	long line, col;
	pcv_ident obj;
	char *field;
} pcv_committed_ref;

/* Where an input object with an identity was first defined. */
typedef struct pcv_definition {
	int file;
	long line, col;
} pcv_definition;

struct pcv_writer;
struct pcv_obj;

typedef struct pcv_ctx {
	pk_cli *cli;
	const struct pcv_writer *writer; /* -o, chosen once (pcv_writer_for) */
	/* The feature gates that change validation (validation.md 1.5), in the
	 * release profile (k8s/profile.h): generic_workload (the API served at
	 * all), topology_aware, dra_workload_resource_claims,
	 * workload_aware_preemption (from 1.37 GenericWorkload, #139520),
	 * pod_group_preemption_policy, composite_pod_groups. */
	const pk_release_profile *release;
	bool strict;
	bool kep5710;
	bool summary;
	bool cluster_given;    /* --cluster: the cluster's objects are known */
	bool loading_cluster;  /* reading existing objects (--cluster, --against) */
	const char *loading_name; /* their display name when not the file's (REV:path) */
	bool against_soft;     /* an unreadable old version is a warning, not trouble */
	bool against_replaced; /* the committed file being read is replaced or deleted */
	const char *against_local; /* its work-tree name (NULL: not --against) */
	pcv_committed_ref *crefs;
	size_t ncrefs, capcrefs;
	long skipped_files;    /* inputs that are not Kubernetes objects */
	long skipped_docs;     /* documents without apiVersion and kind */
	bool trouble;          /* I/O or usage trouble: exit 2 */
	pcv_findings findings;
	pk_stats stats;
	long cel_compiled;     /* CEL selector expressions compiled (DRA kinds) */
	long objects_checked;  /* objects of kinds we validate, from the inputs */
	long files, empty_files; /* inputs read; those without a document */
	long records_in_file;  /* records of the input being read */
	int seq_file;          /* the top-level sequence last reported (file, doc) */
	long seq_doc;

	pk_pclass_set classes; /* inputs + cluster; for priority resolution */
	pk_strmap pcfacts;    /* PriorityClass name -> pcv_pcfact* */
	char **defaults;       /* names of classes currently marked globalDefault */
	size_t ndefaults, capdefaults;
	pk_strmap workloads;  /* "ns/name" -> char* list of template names ("\0"-separated, "\0\0" end) */
	pk_strmap cluster_objs; /* "group/Kind/ns/name" -> cJSON* (from --cluster) */
	pk_strmap seen_inputs;  /* same key -> pcv_definition* for inputs (duplicates) */

	pcv_ref *refs;
	size_t nrefs, caprefs;

	/* What the reader says about a document (duplicate keys, inexact
	 * numbers) waits for its object: a finding names it, and a document
	 * that is not a Kubernetes object is skipped whole. */
	pk_held held;
	const struct pcv_obj *held_for; /* the object they are about, while given back */

	bool staged;           /* --staged: the inputs are the index's changed files */
	long staged_changes;   /* --staged: files the commit adds, changes or deletes */
	const char *staged_rev; /* --staged: the revision compared with */
	bool require_class;    /* --require-class: a class defined nowhere is an error */
	bool skipped_renderable; /* a skipped file renders to objects (template, kustomize) */
	pk_kpatches kpatches;  /* inputs on disk: files kustomizations apply as patches */
	char *patch_file;      /* the last input looked up there ... */
	const char *patch_by;  /* ... and the kustomization that applies it, or NULL */
} pcv_ctx;

/* Everything a rule needs about the object being checked. */
typedef struct pcv_obj {
	pcv_ctx *ctx;
	const pk_record *rec;
	const cJSON *root;
	const char *api_version, *kind, *ns, *name;
	const char *group, *version;   /* split apiVersion (group "" for core) */
	int file;
	bool update;                   /* an existing object with this identity exists */
	const cJSON *old;              /* the existing object (from --cluster), or NULL */
	int type_errors;               /* decode failed: validation would not run */
} pcv_obj;

/* ---- findings (findings.c) ---- */
void pcv_findings_init(pcv_findings *f);
void pcv_findings_free(pcv_findings *f);
int pcv_intern_file(pcv_findings *f, const char *file);
pcv_finding *pcv_add_finding(pcv_findings *f, int file, long line, long col, pk_severity sev,
                             const pcv_ident *obj, const char *field, pcv_type type, const char *message);
void pcv_findings_sort(pcv_findings *f);
size_t pcv_count_errors(const pcv_findings *f, bool strict);
void pcv_ident_set(pcv_ident *id, const char *api_version, const char *kind, const char *ns, const char *name);
void pcv_ident_free(pcv_ident *id);

/* Name the rule of a finding: "<Kind>.<field without indices>.<name>". */
void pcv_set_rule(pcv_finding *d, const char *field, const char *name);
/* The rule id of a finding (set, or from kind, field and type). */
void pcv_rule_of(const pcv_finding *d, char *buf, size_t size);
const char *pcv_rule_name(pcv_type t);
void pcv_set_related(pcv_finding *d, const char *file, long line, long col, const char *what);

/* Report against the object: position from the field path (NULL: none).
 * The finding is valid until the next one is added. */
pcv_finding *pcv_report(pcv_obj *o, pk_severity sev, pcv_type type, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
pcv_finding *pcv_required(pcv_obj *o, const char *field, const char *detail);
pcv_finding *pcv_invalid(pcv_obj *o, const char *field, const cJSON *value, const char *detail);
pcv_finding *pcv_invalid_str(pcv_obj *o, const char *field, const char *value, const char *detail);
pcv_finding *pcv_forbidden(pcv_obj *o, const char *field, const char *detail);
void pcv_not_supported(pcv_obj *o, const char *field, const char *value, const char *supported);
void pcv_duplicate(pcv_obj *o, const char *field, const cJSON *value);
void pcv_too_many(pcv_obj *o, const char *field, int n, int max);
/* Render a JSON value the way field.Error prints it (strings quoted). */
void pcv_format_value(const cJSON *v, char *buf, size_t size);

/* ---- path helpers (findings.c) ---- */
/* snprintf into a fresh buffer of PCV_PATH_MAX. */
#define PCV_PATH_MAX 512
void pcv_path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "spec.podGroups[0].policy" -> "spec.podGroups.policy" (Go's struct-field
 * wording, rule ids). */
void pcv_strip_indices(const char *in, char *out, size_t size);

/* ---- decode checks (schema.c) ---- */
/* Type and unknown-field checks for the kinds pc-validate owns. */
void pcv_schema_check(pcv_obj *o);
/* Type checks of the three Pod priority fields under spec at path. */
void pcv_check_podspec_types(pcv_obj *o, const cJSON *spec, const char *path);

/* ---- generic metadata (meta.c) ---- */
/* Appends up to 2 messages; returns the count. */
int pcv_dns_subdomain_errors(const char *s, const char *msgs[2]);
int pcv_dns_label_errors(const char *s, const char *msgs[2]);
int pcv_qualified_name_errors(const char *s, char msgs[3][400]);
const char *pcv_path_segment_error(const char *s);
void pcv_check_subdomain(pcv_obj *o, const char *field, const char *value);
void pcv_check_label(pcv_obj *o, const char *field, const char *value);
void pcv_check_label_key(pcv_obj *o, const char *field, const char *value);
/* ObjectMeta: name/generateName, namespace (namespaced or not), labels, annotations. */
void pcv_check_meta(pcv_obj *o, bool namespaced);
/* The ObjectMeta of a template (ValidateTemplateObjectMeta): its labels and
 * annotations, at path (e.g. "spec.metadata"). */
void pcv_check_template_meta(pcv_obj *o, const char *path);

/* ---- rules ---- */
void pcv_rules_priorityclass(pcv_obj *o);
void pcv_rules_workload_v1alpha1(pcv_obj *o);
void pcv_rules_workload(pcv_obj *o);       /* v1alpha2, v1alpha3 and v1beta1 */
void pcv_rules_podgroup(pcv_obj *o);       /* v1alpha2, v1alpha3 and v1beta1 */
void pcv_rules_composite_podgroup(pcv_obj *o);  /* v1alpha3 */
/* ResourceClaim, ResourceClaimTemplate, DeviceClass (resource.k8s.io/v1). */
void pcv_rules_dra(pcv_obj *o);
/* At the end of a run that compiled CEL selectors: the note that their
 * static cost limit is not checked. */
void pcv_dra_note(pcv_ctx *c);
/* Pod or a controller's pod template; spec_path e.g. "spec.template.spec". */
void pcv_rules_podspec(pcv_obj *o, const char *spec_path, bool is_pod);

/* What the apiserver does with a field whose feature gate is off
 * (share/doc/gated-fields.md): its registry strategy drops the field on
 * create, or declarative validation forbids it. */
typedef enum { PCV_GATE_DROPPED, PCV_GATE_FORBIDDEN } pcv_gate_verdict;
/* Gated field: returns the child, or NULL when the gate is off (after a
 * warning for a dropped field, an error for a forbidden one). */
const cJSON *pcv_gated(pcv_obj *o, const cJSON *parent, const char *key, const char *path, bool enabled,
                       const char *gate, pcv_gate_verdict verdict);

/* ---- cross-object (crossobject.c) ---- */
void pcv_cross_init(pcv_ctx *c);
void pcv_cross_free(pcv_ctx *c);
char *pcv_identity_key(const char *group, const char *kind, const char *ns, const char *name);
/* An existing object (--cluster, --against): remembered, the tree is
 * kept. Takes ownership. at is where it was read. */
void pcv_cross_add_cluster(pcv_ctx *c, cJSON *obj, const pk_origin *at);
/* --against: the class references of a committed object (rec) in a file
 * that stays, to check once the inputs are read. */
void pcv_cross_committed_refs(pcv_ctx *c, const pk_record *rec);
/* Look up the existing object for o and set o->update / o->old. */
void pcv_cross_lookup(pcv_obj *o);
/* A second definition of an input identity is a finding naming the first. */
void pcv_cross_definition(pcv_obj *o);
/* PriorityClass from the inputs: globalDefault rule, facts, update rules. */
void pcv_cross_priorityclass(pcv_obj *o);
/* Template names of a Workload from the inputs. */
void pcv_cross_workload(pcv_obj *o, const char *names, size_t len);
void pcv_add_ref(pcv_obj *o, pcv_ref_kind kind, const char *field, const char *target,
                 const char *target2, const char *ns);
pcv_ref *pcv_last_ref(pcv_ctx *c);
/* Check every pending reference. */
void pcv_cross_finish(pcv_ctx *c);
/* Update rules for Workload / PodGroup against o->old. */
void pcv_update_rules(pcv_obj *o);

/* ---- the record callback (validate.c) ---- */
int pcv_on_record(void *ctx, pk_record *rec);
/* The reader's per-file callback: counts inputs without documents. */
void pcv_on_file_done(void *ctx, const char *file);
/* The reader's callback for a file that is not Kubernetes objects. */
void pcv_on_skip_file(void *ctx, const char *file, const char *why);
/* The same with the kustomization that applies it as a patch (or NULL). */
void pcv_skip_file(pcv_ctx *c, const char *file, const char *why, const char *by);
/* What the reader said about the last document, held for its object: out
 * as it is (at the end of a file and of the run). */
void pcv_release_held(pcv_ctx *c);
/* Where the pod spec of a pod kind is ("spec.template.spec"), or NULL. */
const char *pcv_pod_spec_path(const char *api_version, const char *kind);

/* ---- --against REV and --staged (against.c) ---- */
/* Load the whole committed state at git revision rev as the existing
 * objects; paths (the operands) replace their committed versions. Returns
 * 0, or -1 after a message (usage trouble). */
int pcv_against_load(pcv_ctx *c, const char *rev, char *const *paths, size_t npaths);
/* --staged: the committed state at rev is what exists, and the files the
 * index adds or changes are the inputs, read from the index. Returns 0,
 * or -1 after a message (usage trouble). */
int pcv_staged_load(pcv_ctx *c, const char *rev);

/* ---- output (output.c) ---- */
/* How the findings are written (text, json, junit, sarif, table, wide):
 * chosen once at start-up from -o; what is checked is the same for all. */
typedef struct pcv_writer {
	void (*write)(const pcv_ctx *c, pk_out *out);
} pcv_writer;
const pcv_writer *pcv_writer_for(pk_format format);
/* The findings with c->writer, then a note on stderr when nothing was
 * checked, and with --summary the counts. */
void pcv_output(pcv_ctx *c, pk_out *out);

#endif
