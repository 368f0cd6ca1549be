/* pp-match: which Karmada PropagationPolicy / ClusterPropagationPolicy claims
 * each resource template, computed offline from a snapshot, the way the
 * karmada-controller-manager resource detector converges.
 *
 * The pieces:
 *   karmada_scope.c     what is a policy, a template, or ignored; namespaces
 *   karmada_policy.c    policy objects -> pp_policy (selectors compiled once)
 *   karmada_validate.c  the webhook checks that matter for matching/preemption
 *   karmada_match.c     selector levels, candidate ranking (explicit, implicit, name)
 *   karmada_claim.c     claim labels/annotations: reading them and the patch to write
 *   karmada_preempt.c   preemption of an existing claim (feature gate on)
 *   karmada_decide.c    one template -> one decision, using all of the above
 *   karmada_output.c    PolicyClaim / Diagnostic records and the table
 *   karmada_run.c       reading the snapshot, writing one decision per template
 */
#ifndef PP_KARMADA_H
#define PP_KARMADA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "cli.h"
#include "diag.h"
#include "io/nonobject.h"
#include "io/reader.h"
#include "io/writer.h"
#include "k8s/selector.h"

#define PP_POLICY_GROUP_VERSION "policy.karmada.io/v1alpha1"

/* Claim metadata keys (pkg/apis/policy/v1alpha1 well_known_constants). */
#define PP_PP_ID_LABEL "propagationpolicy.karmada.io/permanent-id"
#define PP_PP_NS_KEY "propagationpolicy.karmada.io/namespace"
#define PP_PP_NAME_KEY "propagationpolicy.karmada.io/name"
#define PP_CPP_ID_LABEL "clusterpropagationpolicy.karmada.io/permanent-id"
#define PP_CPP_NAME_KEY "clusterpropagationpolicy.karmada.io/name"
#define PP_CLAIMED_BY_LABEL "resourcetemplate.karmada.io/claimed-by"

typedef enum { PP_PROPAGATION_POLICY, PP_CLUSTER_PROPAGATION_POLICY } pp_policy_kind;

/* Implicit priority of one selector against one template (pkg/util selector.go). */
typedef enum {
	PP_MATCH_NONE = 0,
	PP_MATCH_ALL = 1,            /* apiVersion + kind (+ namespace) only */
	PP_MATCH_LABEL_SELECTOR = 2,
	PP_MATCH_NAME = 3,
} pp_match_level;

typedef struct pp_rsel {
	const char *api_version;
	const char *kind;
	const char *namespace;       /* "" = any (CPP); PP selectors are defaulted to the PP namespace */
	const char *name;            /* "" = not by name */
	bool has_label_selector;
	bool label_selector_ok;      /* false: invalid selector, matches nothing (as upstream) */
	pk_selector label_selector;
} pp_rsel;

typedef struct pp_policy {
	pp_policy_kind kind;
	cJSON *obj;                  /* owned */
	pk_origin origin;
	const char *name;
	const char *namespace;       /* PP: effective namespace; CPP: "" */
	const char *permanent_id;    /* NULL if the label is absent */
	int32_t priority;            /* spec.priority, 0 when absent */
	bool preempt_always;
	bool deleting;               /* metadata.deletionTimestamp set */
	bool admitted;               /* passed validation; otherwise takes no part */
	pp_rsel *sels;
	int nsels;
} pp_policy;

/* How a template records its current claimant. */
typedef enum {
	PP_CLAIM_NONE,
	PP_CLAIM_PP,             /* current form: permanent-id label + namespace/name annotations */
	PP_CLAIM_CPP,            /* current form: permanent-id label + name annotation */
	PP_CLAIM_PP_LEGACY,      /* pre-1.10: namespace/name labels */
	PP_CLAIM_CPP_LEGACY,     /* pre-1.10: name label */
} pp_claim_form;

typedef struct pp_claim {
	pp_claim_form form;
	pp_policy_kind kind;
	const char *namespace;   /* PP claims */
	const char *name;
	const char *permanent_id;/* current forms */
} pp_claim;

typedef struct pp_template {
	cJSON *obj;                  /* owned, trimmed to apiVersion/kind/metadata */
	pk_origin origin;
	const char *api_version;
	const char *kind;
	const char *name;
	const char *namespace;       /* effective: "" for cluster-scoped kinds */
	const cJSON *labels;
	const cJSON *annotations;
	char *skipped;               /* owned: why the detector skips it (--explain), else NULL */
	bool namespace_defaulted;    /* no metadata.namespace: -n's namespace assumed */
} pp_template;

typedef struct pp_options {
	bool preemption_gate;        /* --feature-gates PropagationPolicyPreemption=true */

	bool explain;                /* also: a record per template the detector skips */
	bool emit_metadata;
	bool require_claim;          /* an unclaimed template is a finding (exit 1) */
	const char *default_namespace;
	const char *against;         /* --against REV: the committed policies at REV take part */
	bool staged;                 /* --staged: the inputs are the index's changed files */
} pp_options;

/* A policy that matched a template, with its standing. */
typedef struct pp_candidate {
	const pp_policy *policy;
	pp_match_level level;
	const char *why_lost;        /* NULL for the winner; static or arena text */
	char why_buf[200];
} pp_candidate;

typedef enum { PP_ACT_NONE, PP_ACT_CLAIM, PP_ACT_KEEP, PP_ACT_PREEMPT, PP_ACT_SKIPPED } pp_action;

typedef struct pp_decision {
	const pp_template *tmpl;
	const pp_policy *policy;     /* new owner or NULL */
	pp_claim previous;           /* as recorded on the template */
	const pp_policy *previous_policy; /* the recorded claimant if it exists in the input */
	pp_action action;
	bool preemptor_tie;          /* several preemptors with the same top priority */
	char reason[512];
	pp_candidate *cands;         /* every policy that matched (for --explain) */
	int ncands;
} pp_decision;

/* The snapshot: every admitted-or-not policy and every template. */
typedef struct pp_world {
	pp_policy *policies;
	long npolicies, cap_policies;
	pp_template *templates;
	long ntemplates, cap_templates;
} pp_world;

/* ---- karmada_scope.c ---- */
typedef enum { PP_OBJ_POLICY, PP_OBJ_TEMPLATE, PP_OBJ_IGNORED, PP_OBJ_UNUSABLE } pp_obj_class;
/* Classify an object; for PP_OBJ_IGNORED/UNUSABLE why says why: for an
 * ignored object the detector's rule, in words. */
pp_obj_class pp_classify(const cJSON *obj, const char *default_ns, char *why, size_t size);
/* metadata.namespace, else "" for cluster-scoped kinds, else default_ns. */
const char *pp_effective_namespace(const cJSON *obj, const char *default_ns);
/* Kinds known to be cluster-scoped (no namespace). */
bool pp_kind_is_cluster_scoped(const char *api_version, const char *kind);
/* Why the detector never propagates from a namespace (EventFilter:
 * karmada-system, kube-*, ...), or NULL. */
const char *pp_namespace_skip_reason(const char *ns);

/* ---- karmada_policy.c ---- */
/* Build a policy from obj (takes ownership). Returns 0, or -1 on allocation failure. */
int pp_policy_init(pp_policy *p, cJSON *obj, const pk_origin *origin, const char *default_ns);
void pp_policy_free(pp_policy *p);
const char *pp_policy_kind_name(pp_policy_kind k);
/* Build a template (takes ownership, trims the object); skipped: the
 * detector's reason for ignoring it, or NULL. Returns 0, or -1 on
 * allocation failure. */
int pp_template_init(pp_template *t, cJSON *obj, const pk_origin *origin, const char *default_ns,
                     const char *skipped);
void pp_template_free(pp_template *t);

/* ---- karmada_validate.c ---- */
typedef struct pp_report pp_report;  /* where diagnostics go (karmada_output.c) */
/* Run the webhook checks; report each problem; returns the number of errors. */
int pp_validate_policy(const pp_policy *p, const pk_record *rec, pp_report *r);

/* ---- karmada_match.c ---- */
pp_match_level pp_selector_level(const pp_rsel *s, const pp_template *t);
/* Highest level over all selectors (0 = the policy does not match). */
pp_match_level pp_policy_level(const pp_policy *p, const pp_template *t);
const char *pp_match_level_name(pp_match_level l);
/* Ranking of two matching policies of the same kind: <0 if a wins, >0 if b wins. */
int pp_rank_compare(const pp_policy *a, pp_match_level la, const pp_policy *b, pp_match_level lb);
/* Does a policy name the template exactly in one of its selectors (preemption reach)? */
bool pp_policy_names_template(const pp_policy *p, const pp_template *t);

/* ---- karmada_claim.c ---- */
/* String value of a labels/annotations key (keys contain dots: no path lookup). */
const char *pp_meta_string(const cJSON *map, const char *key);
pp_claim pp_claim_read(const pp_template *t);
/* The claimant of a claim among the policies, or NULL. */
const pp_policy *pp_claim_find(const pp_world *w, const pp_claim *c);
/* The merge patch {"labels":{…},"annotations":{…}} that records owner (NULL:
 * remove every claim) on t. Caller owns the result. */
cJSON *pp_claim_patch(const pp_template *t, const pp_policy *owner);
cJSON *pp_claim_ref(const pp_claim *c, const pp_policy *found);

/* ---- karmada_preempt.c ---- */
/* Best policy that preempts the valid claimant, or NULL; cands updated with why. */
const pp_policy *pp_preemptor(const pp_world *w, const pp_template *t, const pp_policy *claimant,
                              const pp_options *o, pp_decision *d);
/* Why p cannot preempt claimant (NULL if it can). */
const char *pp_cannot_preempt(const pp_policy *p, const pp_policy *claimant, const pp_template *t,
                              const pp_options *o, char *buf, size_t size);

/* ---- karmada_decide.c ---- */
void pp_decide(const pp_world *w, const pp_template *t, const pp_options *o, pp_decision *d);
void pp_decision_free(pp_decision *d);
const char *pp_action_name(pp_action a);

/* ---- karmada_output.c ---- */
struct pp_report {
	pk_out *out;
	pk_diag *diag;
	bool json;       /* Diagnostic records into the stream instead of stderr text */
	bool quiet;      /* count only (the committed policies of --against) */
	pk_diag_cap *cap;/* --max-findings per input */
	long errors;
	long warnings;
};
void pp_report_problem(pp_report *r, pk_severity sev, const pp_policy *p, const pk_origin *at,
                       const char *field, const char *type, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
cJSON *pp_decision_json(const pp_decision *d, const pp_options *o);
/* The table of -o table / -o wide, with the shared --no-headers. */
void pp_table_init(const pk_cli *cli, pk_table *t, bool wide);
void pp_table_add(pk_table *t, bool wide, const pp_decision *d);

/* ---- karmada_run.c ---- */
typedef struct pp_run pp_run;

/* How pp-match writes its answer (json, table, wide): chosen once at
 * start-up from -o; the decisions are the same for every one. */
typedef struct pp_writer {
	bool diagnostic_records;  /* policy problems as Diagnostic records in the stream, not on stderr */
	bool wide;
	void (*begin)(pp_run *r, pk_table *t);
	void (*decision)(pp_run *r, pk_table *t, pk_out *out, const pp_decision *d);
	void (*end)(pp_run *r, pk_table *t, pk_out *out);
} pp_writer;
const pp_writer *pp_writer_for(pk_format format);

struct pp_run {
	pk_cli *cli;
	const pp_options *opts;
	const pp_writer *writer;
	pp_world world;
	pp_report report;
	pk_stats stats;
	bool trouble;            /* unreadable input: exit 2 */
	bool committed;          /* reading the committed state (--against) */
	bool committed_replaced; /* ... a file an input replaces or that is deleted */
	long committed_policies; /* policies taken from the committed state */
	long skipped_files;      /* inputs that are not Kubernetes objects */
	long skipped_docs;       /* documents without apiVersion and kind */
	bool skipped_renderable; /* a skipped file renders to objects (template, kustomize) */
	long staged_changes;     /* --staged: files the commit adds, changes or deletes */
	pk_diag_cap cap;         /* --max-findings per input */
	pk_held held;            /* the reader's warnings, held for their object */
	pk_kpatches kpatches;    /* inputs on disk: files kustomizations apply as patches */
	char *patch_file;        /* the last input looked up there ... */
	const char *patch_by;    /* ... and the kustomization that applies it, or NULL */
	bool out_of_memory;
	long claimed, unclaimed, skipped;  /* templates, as written */
};
/* Read every input into r->world; policies are validated on the way. */
void pp_run_read(pp_run *r, char *const *paths, size_t npaths);
/* A file that is not Kubernetes objects (why, and by: the kustomization
 * that applies it as a patch, or NULL): counted, and said unless --staged. */
void pp_skip_file(pp_run *r, const char *file, const char *why, const char *by);
/* Decide and print every template in input order (counts in r). */
void pp_run_write(pp_run *r, pk_out *out);
void pp_run_free(pp_run *r);

#endif
