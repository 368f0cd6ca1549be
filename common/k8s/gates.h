/* Feature gates: one registry for every tool, one default per gate, and
 * the --feature-gates "A=true,B=false" syntax as Kubernetes' component-base
 * parses it (comma-separated Name=value pairs, values as Go's
 * strconv.ParseBool, the same error texts, AllAlpha/AllBeta with an
 * explicitly named gate winning over them whatever the order). */
#ifndef PK_GATES_H
#define PK_GATES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	PK_GATE_GENERIC_WORKLOAD,
	PK_GATE_WORKLOAD_AWARE_PREEMPTION,
	PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
	PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS,
	PK_GATE_POD_GROUP_PREEMPTION_POLICY,
	PK_GATE_COMPOSITE_POD_GROUP,
	PK_GATE_SCHEDULER_ASYNC_PREEMPTION,
	PK_GATE_SCHEDULER_ASYNC_API_CALLS,
	PK_GATE_PROPAGATION_POLICY_PREEMPTION,
	PK_NGATES
} pk_gate_id;

typedef enum { PK_GATE_ALPHA, PK_GATE_BETA, PK_GATE_GA } pk_gate_stage;

/* What the README's and the man pages' gate tables say about one gate. */
typedef struct pk_gate_info {
	const char *name;
	const char *component;    /* "kube-apiserver, kube-scheduler", "karmada" */
	pk_gate_stage stage;
	bool upstream_default;    /* at the release the reference notes pin */
	bool our_default;
	const char *tools;        /* the tools whose answer it changes */
	const char *why;          /* why our default differs; NULL where it does not */
} pk_gate_info;

/* The registry, indexed by pk_gate_id (constant data). */
const pk_gate_info *pk_gate_info_of(pk_gate_id id);
/* PK_NGATES when name is not a gate. */
pk_gate_id pk_gate_lookup(const char *name);

/* A bit per gate, for the set of gates a tool reads. */
#define PK_GATE_BIT(id) (1u << (id))

#define PK_GATES_MAX_IGNORED 16

/* The Kubernetes releases modelled, as 1.<minor>. Every answer is for one of
 * them (--kubernetes-version; the newest by default): the gates that exist
 * and their defaults, the API versions served and the preemption behaviours
 * that changed upstream all depend on it. */
#define PK_K8S_MINOR_OLDEST 35
#define PK_K8S_MINOR_NEWEST 37

typedef struct pk_feature_gates {
	bool on[PK_NGATES];
	signed char explicit_value[PK_NGATES];  /* -1 unset, else 0/1 as given */
	signed char all_alpha, all_beta;        /* -1 unset */
	/* Gates of the cluster that no tool here models (Failover, say): they
	 * cannot change an answer, so they are accepted and listed, to be said. */
	char ignored[PK_GATES_MAX_IGNORED][64];
	int nignored;
	int k8s_minor;  /* the release answered for: Kubernetes 1.<k8s_minor> */
} pk_feature_gates;

/* Every gate at our default. */
void pk_feature_gates_default(pk_feature_gates *g);
/* One --feature-gates value on top of what g holds (the flag repeats and
 * accumulates). Returns 0, or -1 with upstream's message in err. A name
 * that is not in the registry is a typo when it is near one that is (an
 * error that suggests it); otherwise a gate we do not model, accepted
 * and listed in g->ignored (upstream's component would know it). */
int pk_feature_gates_parse(pk_feature_gates *g, const char *spec, char *err, size_t errsize);

static inline bool pk_gate_on(const pk_feature_gates *g, pk_gate_id id)
{
	return g->on[id];
}

/* strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False. */
bool pk_parse_go_bool(const char *s, bool *out);

#endif
