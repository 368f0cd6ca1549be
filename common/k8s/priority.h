/* PriorityClasses and priority resolution as the Priority admission plugin
 * does it: priorityClassName -> value and preemptionPolicy; globalDefault (the
 * lowest-valued default wins when several exist); the two built-in system
 * classes always exist. */
#ifndef PK_PRIORITY_H
#define PK_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

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
} pk_pclass;

typedef struct pk_pclass_set {
	pk_pclass *items;
	int n, cap;
	int *index;          /* open-addressing hash of names -> items[i] + 1; 0 = empty */
	int index_cap;
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
