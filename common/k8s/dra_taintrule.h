/* DeviceTaintRule objects (DRADeviceTaintRules, KEP-5055): a taint an
 * administrator adds to the devices a selector matches, as if the driver
 * had written it in their ResourceSlices (`kubectl get devicetaintrules -o
 * json`; resource.k8s.io v1alpha3 from 1.33, v1beta2 from 1.36, v1 in
 * 1.37). From 1.35 the selector is spec.deviceSelector's driver, pool and
 * device only (deviceClassName and CEL selectors went with 1.35).
 *
 * Decoded into the DRA set (k8s/dra.h) beside the other kinds; the
 * scheduler's view of the slices with the rules' taints applied (the
 * resourceslice tracker) is the engine's (sched/engine/filter/dra_slices.c). */
#ifndef PK_K8S_DRA_TAINTRULE_H
#define PK_K8S_DRA_TAINTRULE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "k8s/pod.h"

typedef struct pk_dra_set pk_dra_set;
typedef struct pk_dra_slice pk_dra_slice;
typedef struct pk_dra_device pk_dra_device;

typedef struct pk_dra_taint_rule {
	const char *name;               /* interned */
	/* spec.deviceSelector: NULL for a field not set (any); no selector
	 * at all matches every device, as the tracker applies it */
	const char *driver, *pool, *device;
	pk_taint taint;                 /* spec.taint; effect PK_DRA_EFFECT_NONE for None or an unknown one */
	const char *time_added;         /* spec.taint.timeAdded ("" when none) */
	long record;
} pk_dra_taint_rule;

/* Is kind "DeviceTaintRule"? */
bool pk_dra_taint_rule_kind(const char *kind);
/* Decode a DeviceTaintRule into the set: 0, or -1 with a message in err
 * naming the field. */
int pk_dra_taint_rule_add(pk_dra_set *s, pk_decoder *d, const cJSON *obj, long record, char *err,
                          size_t errsize);
/* Sort the rules by name (the order their taints are appended in). */
void pk_dra_taint_rules_finish(pk_dra_set *s);
/* Does rule r select device dv of slice sl? */
bool pk_dra_taint_rule_matches(const pk_dra_taint_rule *r, const pk_dra_slice *sl, const pk_dra_device *dv);
/* Does the rule's taint count for the allocator (NoSchedule, NoExecute)? */
bool pk_dra_taint_rule_effective(const pk_dra_taint_rule *r);

#endif
