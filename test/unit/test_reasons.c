/* Upstream's own words: every reason and message the engine gives for a
 * pod, produced by driving the engine into it, and compared with the format
 * kube-scheduler's code writes it with (kubernetes/kubernetes, the file
 * named in each row, current master; the taint's since #134740). The table
 * is the list a reader checks against `kubectl get events`; the engine's
 * own copy of the strings is sched/engine/reasons.h.
 *
 * Not in the table: the PodGroup preemptor's messages (podgrouppreemption.go,
 * PodGroupPostFilter's "pod group preemption: " prefix from 1.37), checked
 * by the fixtures named beside PK_R_POD_GROUP_PREFIX in reasons.h's users
 * (test/fixtures/{podgroup,preempt-plan,simulate}); DynamicResources'
 * PostFilter message ("no new claims to deallocate", plugins/
 * dynamicresources/dynamicresources.go), which a default profile with
 * DynamicResourceAllocation joins before "preemption: " and the engine does
 * not model; a Deferred in-place resize's (DeferredPodScheduling's Filter
 * and Permit, the nodes NodeName's PreFilterResult leaves out), which only
 * a bound --preemptor reaches: the fixtures test/fixtures/victims/PR140000-*. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "io/reader.h"
#include "k8s/pod.h"
#include "sched/engine/engine.h"

typedef struct reason_row {
	const char *plugin;
	const char *upstream_file;  /* kubernetes/kubernetes */
	const char *format;         /* upstream's, as its source writes it (Go's %v) */
	const char *arg;            /* the parameter here, or NULL */
	const char *where;          /* "status": a node's status reason; "message": in the
	                             * FailedScheduling text; "whole": the whole text */
	const char *cluster;        /* nodes and bound pods, a JSON array */
	const char *pod;            /* the pod scheduled */
} reason_row;

static const reason_row rows[] = {
	{ "NodeUnschedulable",
	  "pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go",
	  "node(s) were unschedulable", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{\"unschedulable\":true},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeName",
	  "pkg/scheduler/framework/plugins/nodename/node_name.go",
	  "node(s) didn't match the requested node name", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeName\":\"n2\"},\"status\":{\"phase\":\"Pending\"}}" },
	{ "TaintToleration",
	  "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (Filter, since #134740)",
	  "node(s) had untolerated taint(s)", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{\"taints\":[{\"key\":\"gpu\",\"value\":\"true\",\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeAffinity",
	  "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (ErrReasonPod)",
	  "node(s) didn't match Pod's node affinity/selector", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeSelector\":{\"zone\":\"a\"}},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodePorts",
	  "pkg/scheduler/framework/plugins/nodeports/node_ports.go (ErrReason)",
	  "node(s) didn't have free ports for the requested pod ports", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\",\"uid\":\"uid-web\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080,\"protocol\":\"TCP\"}]}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080,\"protocol\":\"TCP\"}]}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeResourcesFit",
	  "pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)",
	  "Too many pods", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"1\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"1\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"uid\":\"uid-a\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeResourcesFit",
	  "pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)",
	  "Insufficient %v", "cpu", "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeResourcesFit",
	  "pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)",
	  "Insufficient %v", "memory", "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"1Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"1Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"memory\":\"2Gi\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeResourcesFit",
	  "pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)",
	  "Insufficient %v", "ephemeral-storage", "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"ephemeral-storage\":\"20Gi\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "NodeResourcesFit",
	  "pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)",
	  "Insufficient %v", "example.com/gpu", "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\",\"example.com/gpu\":\"1\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\",\"example.com/gpu\":\"1\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"example.com/gpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "PodTopologySpread",
	  "pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (ErrReasonNodeLabelNotMatch)",
	  "node(s) didn't match pod topology spread constraints (missing required label)", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\",\"labels\":{\"app\":\"s\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{\"matchLabels\":{\"app\":\"s\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "PodTopologySpread",
	  "pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (ErrReasonConstraintsNotMatch)",
	  "node(s) didn't match pod topology spread constraints", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\",\"zone\":\"a\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"labels\":{\"kubernetes.io/hostname\":\"n2\",\"zone\":\"b\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"0\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"0\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"s1\",\"namespace\":\"default\",\"uid\":\"uid-s1\",\"labels\":{\"app\":\"s\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\",\"labels\":{\"app\":\"s\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{\"matchLabels\":{\"app\":\"s\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "InterPodAffinity",
	  "pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (ErrReasonAffinityRulesNotMatch)",
	  "node(s) didn't match pod affinity rules", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\",\"namespace\":\"default\",\"uid\":\"uid-db\",\"labels\":{\"app\":\"db\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"nodeName\":\"n2x\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}},{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2x\",\"labels\":{\"kubernetes.io/hostname\":\"n2x\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"0\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"0\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"affinity\":{\"podAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":{\"matchLabels\":{\"app\":\"db\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}}},\"status\":{\"phase\":\"Pending\"}}" },
	{ "InterPodAffinity",
	  "pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (ErrReasonAntiAffinityRulesNotMatch)",
	  "node(s) didn't match pod anti-affinity rules", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\",\"namespace\":\"default\",\"uid\":\"uid-db\",\"labels\":{\"app\":\"db\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":{\"matchLabels\":{\"app\":\"db\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}}},\"status\":{\"phase\":\"Pending\"}}" },
	{ "InterPodAffinity",
	  "pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (ErrReasonExistingAntiAffinityRulesNotMatch)",
	  "node(s) didn't satisfy existing pods anti-affinity rules", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\",\"namespace\":\"default\",\"uid\":\"uid-db\",\"labels\":{\"app\":\"db\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\"}],\"nodeName\":\"n1\",\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}}},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "DefaultPreemption",
	  "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode)",
	  "No preemption victims found for incoming pod", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"uid\":\"uid-a\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "DefaultPreemption",
	  "pkg/scheduler/framework/preemption/preemption.go (Preempt: nodes not dry-run)",
	  "Preemption is not helpful for scheduling", NULL, "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "DefaultPreemption",
	  "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers)",
	  "not eligible due to preemptionPolicy=Never.", NULL, "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"uid\":\"uid-a\"},\"spec\":{\"priority\":0,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"preemptionPolicy\":\"Never\"},\"status\":{\"phase\":\"Pending\"}}" },
	{ "DefaultPreemption",
	  "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers)",
	  "not eligible due to a terminating pod on the nominated node.", NULL, "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"uid\":\"uid-a\",\"deletionTimestamp\":\"2026-11-20T09:00:00Z\"},\"spec\":{\"priority\":0,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\",\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\",\"reason\":\"PreemptionByScheduler\"}]}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\",\"nominatedNodeName\":\"n1\"}}" },
	{ "DefaultPreemption",
	  "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (PostFilter: the prefix of its status message)",
	  "preemption: %v", "0/1 nodes are available: 1 No preemption victims found for incoming pod.", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"uid\":\"uid-a\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-11-20T08:00:00Z\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "FitError",
	  "pkg/scheduler/framework/types.go (NoNodeAvailableMsg, FitError.Error)",
	  "0/%v nodes are available", "2", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"labels\":{\"kubernetes.io/hostname\":\"n2\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "FitError",
	  "pkg/scheduler/framework/types.go (FitError.Error: \"%v %v\" per reason, sorted, then \".\")",
	  "0/2 nodes are available: %v.", "1 Insufficient cpu, 1 node(s) had untolerated taint(s)", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"1\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"labels\":{\"kubernetes.io/hostname\":\"n2\"}},\"spec\":{\"taints\":[{\"key\":\"gpu\",\"value\":\"true\",\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeZone",
	  "pkg/scheduler/framework/plugins/volumezone/volume_zone.go (ErrReasonConflict)",
	  "node(s) had no available volume zone", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\",\"topology.kubernetes.io/zone\":\"a\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv\",\"labels\":{\"topology.kubernetes.io/zone\":\"b\"}},\"spec\":{},\"status\":{\"phase\":\"Bound\"}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeBinding",
	  "pkg/scheduler/framework/plugins/volumebinding/binder.go (ErrReasonNodeConflict)",
	  "node(s) had volume node affinity conflict", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv\"},\"spec\":{\"nodeAffinity\":{\"required\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"kubernetes.io/hostname\",\"operator\":\"In\",\"values\":[\"n2\"]}]}]}}},\"status\":{\"phase\":\"Bound\"}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeBinding",
	  "pkg/scheduler/framework/plugins/volumebinding/binder.go (ErrReasonBindConflict)",
	  "node(s) didn't find available persistent volumes to bind", NULL, "status",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"wait\"},\"provisioner\":\"\",\"volumeBindingMode\":\"WaitForFirstConsumer\"},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"storageClassName\":\"wait\"},\"status\":{\"phase\":\"Pending\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeRestrictions",
	  "pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go (PreFilter: the lister's NotFound)",
	  "0/1 nodes are available: persistentvolumeclaim %q not found.", "c", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"other\",\"namespace\":\"default\"},\"spec\":{},\"status\":{\"phase\":\"Pending\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeBinding",
	  "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (podHasPVCs)",
	  "persistentvolumeclaim %q bound to non-existent persistentvolume %q", "c|pv", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Lost\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeBinding",
	  "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (podHasPVCs)",
	  "persistentvolumeclaim %q is being deleted", "c", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv\"},\"spec\":{},\"status\":{\"phase\":\"Bound\"}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\",\"deletionTimestamp\":\"2026-11-20T09:00:00Z\"},\"spec\":{\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeBinding",
	  "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter)",
	  "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.", NULL, "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"imm\"},\"provisioner\":\"x\",\"volumeBindingMode\":\"Immediate\"},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"storageClassName\":\"imm\"},\"status\":{\"phase\":\"Pending\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "VolumeZone",
	  "pkg/scheduler/framework/plugins/volumezone/volume_zone.go (PreFilter: the lister's NotFound)",
	  "persistentvolume %q not found", "pv", "message",
	  "[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"},\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\",\"ephemeral-storage\":\"10Gi\"}}},{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\"}}]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"v0\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}]},\"status\":{\"phase\":\"Pending\"}}" },
	{ "SchedulingCycle",
	  "pkg/scheduler/schedule_one.go (ErrNoNodesAvailable)",
	  "no nodes available to schedule pods", NULL, "whole",
	  "[]",
	  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}" },
};

static cJSON *parse(const char *text)
{
	char err[256];
	cJSON *v = pk_parse_json_text(text, strlen(text), err, sizeof err);
	if (!v)
		fprintf(stderr, "bad test JSON: %s\n%s\n", err, text);
	return v;
}

/* upstream's format with its verbs (%v, %s, %q: Go's quoted string)
 * replaced by the args, "|"-separated */
static void render(const char *format, const char *arg, char *buf, size_t size)
{
	size_t w = 0;
	const char *a = arg;
	for (const char *f = format; *f && w + 1 < size; f++) {
		if (a && f[0] == '%' && (f[1] == 'v' || f[1] == 's' || f[1] == 'q')) {
			size_t n = strcspn(a, "|");
			bool q = f[1] == 'q';
			w += (size_t)snprintf(buf + w, size - w, "%s%.*s%s", q ? "\"" : "", (int)n, a, q ? "\"" : "");
			a = a[n] ? a + n + 1 : NULL;
			f++;
			continue;
		}
		buf[w++] = *f;
	}
	buf[w < size ? w : size - 1] = '\0';
}

static bool status_has(const pk_status *st, const char *want)
{
	for (int k = 0; st && k < st->nreasons; k++)
		if (strcmp(st->reasons[k], want) == 0)
			return true;
	return false;
}

static void check_row(const reason_row *r)
{
	char want[512], err[256];
	render(r->format, r->arg, want, sizeof want);
	pk_snapshot s;
	pk_snapshot_init(&s);
	cJSON *cluster = cJSON_Parse(r->cluster), *o; /* an array: cJSON itself */
	long i = 0;
	bool take;
	cJSON_ArrayForEach(o, cluster)
		if (pk_snapshot_add(&s, o, i++, &take, err, sizeof err) != PK_ADD_USED)
			fprintf(stderr, "%s: object not used: %s\n", r->plugin, err);
	pk_snapshot_finish(&s);
	cJSON *pj = parse(r->pod);
	pk_pod *p = pk_arena_alloc(&s.arena, sizeof *p);
	if (pk_pod_decode(&s.dec, pj, p, err, sizeof err) != 0) {
		CHECK(false, "%s: the pod decodes (%s)", r->plugin, err);
		return;
	}
	pk_preemptor pre = { .pod = p, .source = "Pod" };
	pk_eval_opts opts;
	pk_eval_opts_default(&opts);
	pk_evaluation e;
	pk_evaluate(&s, &pre, &opts, &e);
	bool found = false;
	if (strcmp(r->where, "status") == 0)
		for (long n = 0; n < e.nnodes && !found; n++)
			found = status_has(e.nodes[n].filter, want) || status_has(e.nodes[n].dry, want);
	else if (strcmp(r->where, "message") == 0)
		found = strstr(e.message, want) != NULL;
	else
		found = strcmp(e.message, want) == 0;
	CHECK(found, "%s (%s): \"%s\"%s%s", r->plugin, r->upstream_file, want, found ? "" : " not in: ",
	      found ? "" : e.message);
	pk_evaluation_free(&e);
	pk_pod_release(p);
	cJSON_Delete(pj);
	cJSON_Delete(cluster);
	pk_snapshot_free(&s);
}

/* The taint is named beside the reason: the first untolerated NoSchedule or
 * NoExecute taint, as FindMatchingUntoleratedTaint finds it. */
static void test_untolerated_taint(void)
{
	pk_taint t[3] = { { "soft", "", PK_EFFECT_PREFER_NO_SCHEDULE }, { "gpu", "true", PK_EFFECT_NO_SCHEDULE },
		          { "dedicated", "infra", PK_EFFECT_NO_EXECUTE } };
	pk_node n = { .name = "n", .taints = t, .ntaints = 3 };
	pk_pod p;
	memset(&p, 0, sizeof p);
	p.con = &pk_pod_no_constraints;
	const pk_taint *u = pk_untolerated_taint(&p, &n);
	CHECK(u == &t[1], "the first NoSchedule/NoExecute taint not tolerated (PreferNoSchedule passed over)");
	CHECK(!pk_taints_tolerated(&p, &n), "and the node is not tolerated");
	CHECK_STR(pk_taint_effect_name(u->effect), "NoSchedule", "its effect's name");
}

static void test_gates(void)
{
	/* default_preemption.go PostFilter, for a pod that names a pod group */
	pk_feature_gates fg;
	pk_release_profile r37, r36;
	pk_feature_gates_default(&fg);
	pk_release_profile_of(&r37, &fg);
	pk_feature_gates_set_release(&fg, 36);
	fg.on[PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING] = true;
	pk_release_profile_of(&r36, &fg);
	pk_group_gate_in in = { .release = &r37, .has_group = true };
	CHECK_STR(pk_postfilter_group_gate(&in).message, "preemption: not eligible due to workload aware preemption enabled",
	          "1.37: GenericWorkload sends a pod of a group to workload-aware preemption");
	in = (pk_group_gate_in){ .release = &r36, .has_group = true };
	CHECK_STR(pk_postfilter_group_gate(&in).message, "preemption: pod group for pod not found",
	          "1.36: TopologyAwareWorkloadScheduling and a group missing");
	in.group_found = true;
	in.group_has_constraints = true;
	CHECK_STR(pk_postfilter_group_gate(&in).message,
	          "preemption: not eligible due to placement-based pod group scheduling limitation",
	          "1.36: a group with schedulingConstraints");
}

int main(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		check_row(&rows[i]);
	test_untolerated_taint();
	test_gates();
	return T_DONE();
}
