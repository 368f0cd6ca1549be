/* The decoder's parts for what DRA's optional features add to requests,
 * results and devices (k8s/dra.c calls them): tolerations, taints,
 * sharedCounters and consumesCounters, allowMultipleAllocations. Not for
 * use outside common/k8s. */
#ifndef PK_K8S_DRA_DEVICES_H
#define PK_K8S_DRA_DEVICES_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "k8s/dra.h"

/* A device taint's effect: PK_EFFECT_NO_SCHEDULE, PK_EFFECT_NO_EXECUTE,
 * PK_DRA_EFFECT_NONE (None, or one this release does not know), or -1 for
 * none given (a toleration's: all effects). Also DeviceTaintRules'. */
int pk_dra_taint_effect(const char *s);
/* A request's (or subrequest's) tolerations: an operator or effect this
 * release does not know tolerates nothing (resourceclaim.ToleratesTaint). */
void pk_dra_decode_tolerations(pk_decoder *d, const cJSON *list, pk_dra_request *rq);
/* A device's taints, consumesCounters and allowMultipleAllocations (body:
 * the v1 device, or v1beta1's basic): -1 with err when a counter's value
 * is not a quantity. */
int pk_dra_decode_device_extras(pk_decoder *d, const cJSON *body, pk_dra_device *dv, char *err, size_t errsize);
/* DRAConsumableCapacity: a request's (or subrequest's, ex: its body)
 * capacity.requests; a device's capacity names and requestPolicy (map: its
 * capacity, decoded into dv->capacity already, in that order); a result's
 * shareID and consumedCapacity. -1 with err naming the field when an
 * amount is not a quantity. */
int pk_dra_decode_capacity_request(pk_decoder *d, const cJSON *ex, pk_dra_request *rq, char *err, size_t errsize);
int pk_dra_decode_capacity_policies(pk_decoder *d, const cJSON *map, pk_dra_device *dv, char *err, size_t errsize);
int pk_dra_decode_result_capacity(pk_decoder *d, const cJSON *result, pk_dra_device_ref *ref, char *err,
                                  size_t errsize);
/* A slice's spec.sharedCounters: -1 with err as above. */
int pk_dra_decode_shared_counters(pk_decoder *d, const cJSON *spec, pk_dra_slice *sl, char *err, size_t errsize);

#endif
