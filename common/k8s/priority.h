/* PriorityClasses and priority resolution as the Priority admission plugin
 * does it: priorityClassName -> value and preemptionPolicy; globalDefault (the
 * lowest-valued default wins when several exist); the two built-in system
 * classes always exist. */
#ifndef PK_PRIORITY_H
#define PK_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "base/strtab.h"


#define PK_HIGHEST_USER_PRIORITY 1000000000
#define PK_SYSTEM_CLUSTER_CRITICAL 2000000000
#define PK_SYSTEM_NODE_CRITICAL 2000001000
#define PK_SYSTEM_PREFIX "system-"

typedef enum { PK_PREEMPT_LOWER = 0, PK_PREEMPT_NEVER = 1 } pk_preemption_policy;

typedef struct pk_pclass {
	char *name;
	int32_t value;
	bool global_default;
	pk_preemption_policy policy;
	bool builtin;        /* one of the two system classes, not read from input */
	long inferred_from;  /* > 0: not in the input, taken from the spec.priority of
	                      * this many pods that name it (pk_pclass_set_infer) */
} pk_pclass;

/* What the pods of an input say of a PriorityClass the input lacks: the
 * spec.priority and spec.preemptionPolicy that admission wrote into them
 * from it. */
typedef struct pk_class_evidence {
	char *name;
	long pods;                /* pods naming it with spec.priority */
	int32_t min, max;         /* their spec.priority */
	const char *min_pod, *max_pod; /* "namespace/name" of a pod with each (owned) */
	pk_preemption_policy policy;   /* the policy they carry, when they agree */
	bool policy_mixed;
} pk_class_evidence;

typedef struct pk_pclass_set {
	pk_pclass *items;
	int n;
	size_t cap;
	pk_strmap index;     /* name -> i + 1 of items[i] */
	pk_class_evidence *evidence; /* noted by pk_class_evidence_note */
	int nevidence;
	size_t evidence_cap;
} pk_pclass_set;

/* A set that already holds system-node-critical and system-cluster-critical. */
void pk_pclass_set_init(pk_pclass_set *s);
void pk_pclass_set_free(pk_pclass_set *s);
/* Add (or replace, by name) a class from a PriorityClass object. Values that
 * are not int32 are refused (-1). Built-ins are replaced only by exact copies. */
int pk_pclass_set_add(pk_pclass_set *s, const cJSON *priorityclass);
const pk_pclass *pk_pclass_find(const pk_pclass_set *s, const char *name);
/* The effective global default (lowest value among defaults), or NULL. */
const pk_pclass *pk_pclass_default(const pk_pclass_set *s);

/* A pod named ns/name carries priorityClassName class (not in the set) and
 * spec.priority *priority; policy NULL when it carries no preemptionPolicy. */
void pk_class_evidence_note(pk_pclass_set *s, const char *class_name, const char *ns, const char *name,
                            int32_t priority, const pk_preemption_policy *policy);
/* After the input: every class the pods noted agree on (one spec.priority)
 * joins the set at that value (inferred_from = the pods), with their
 * preemptionPolicy when they agree on it (else PreemptLowerPriority). A
 * class whose pods disagree stays missing. Returns the classes added. */
int pk_pclass_set_infer(pk_pclass_set *s);
/* The evidence noted for a class, or NULL. */
const pk_class_evidence *pk_class_evidence_find(const pk_pclass_set *s, const char *class_name);
/* What was inferred or could not be, one sentence (for warnings): "PriorityClass
 * "x" is not in the input: taken at 1000, the spec.priority of the 3 pod(s)
 * that name it (admission wrote the class's value there)" or "... the 4
 * pod(s) that name it disagree (100 on ns/a, 1000 on ns/b): each keeps its
 * spec.priority, and a pod without one cannot be resolved (admission would
 * reject it)". */
const char *pk_class_evidence_text(const pk_class_evidence *e, char *buf, size_t size);
/* Every class taken from its pods, in one sentence ("3 PriorityClass(es)
 * are not in the input and were taken from the spec.priority of the pods
 * that name them (admission wrote the class's value there): standard 1000
 * (6 pods), ..."), or NULL when none was. */
const char *pk_inferred_classes_text(const pk_pclass_set *s, char *buf, size_t size);

/* True for the two built-in class names. */
bool pk_is_system_class_name(const char *name);
/* Parse "PreemptLowerPriority"/"Never"; false for anything else. */
bool pk_parse_preemption_policy(const char *s, pk_preemption_policy *out);
const char *pk_preemption_policy_name(pk_preemption_policy p);

/* Priority of a pod as the scheduler sees it, resolving like admission when
 * the pod does not carry spec.priority, and what the Priority admission
 * plugin would have said about the fields the pod does carry. */
typedef struct pk_resolved_priority {
	int32_t value;            /* spec.priority if given, else what admission computes */
	pk_preemption_policy policy; /* the same for preemptionPolicy */
	const char *class_name;   /* resolved class ("" if none) */
	bool from_spec;           /* spec.priority was present */
	bool class_missing;       /* priorityClassName names no known class */
	/* What admission computes from the class (or the global default; 0 and
	 * PreemptLowerPriority without either), and whether the pod's own
	 * fields contradict it (admission rejects such a pod). With neither a
	 * class nor a default, that is judged only when the set holds classes
	 * of the input (so that there is no default is known); a set of the two
	 * system classes alone takes a pod's spec.priority as written. */
	int32_t class_value;
	pk_preemption_policy class_policy;
	bool has_class;           /* a class (named or default) was found */
	bool priority_conflict;
	bool policy_conflict;
} pk_resolved_priority;

/* spec is a PodSpec (or a PodGroup spec with priorityClassName/priority/preemptionPolicy). */
pk_resolved_priority pk_resolve_priority(const pk_pclass_set *s, const cJSON *spec);
/* The same from decoded fields: class_name "" for none; priority and
 * policy NULL when the pod does not carry them. */
pk_resolved_priority pk_resolve_priority_fields(const pk_pclass_set *s, const char *class_name,
                                                const int32_t *priority, const pk_preemption_policy *policy);
/* The Priority admission plugin's rejection of a pod with these fields, as
 * the apiserver words it ("no PriorityClass with name x was found", "the
 * integer value of priority (5) must not be provided in pod spec; ..."),
 * several joined with "; ", or NULL when admission accepts the pod. */
const char *pk_priority_admission_error(const pk_resolved_priority *r, char *buf, size_t size);
/* Admission's words for one field that contradicts what it computed from
 * the class: the integer priority, or the preemption policy. */
void pk_priority_conflict_message(int32_t given, int32_t computed, char *buf, size_t size);
void pk_policy_conflict_message(pk_preemption_policy given, pk_preemption_policy computed, char *buf, size_t size);


#endif
