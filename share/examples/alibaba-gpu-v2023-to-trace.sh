#!/bin/sh
# Alibaba cluster-trace-gpu-v2023 (github.com/alibaba/clusterdata) to a
# preempt-plan --replay SNAPSHOT and TRACE, with POSIX awk alone.
#   share/examples/alibaba-gpu-v2023-to-trace.sh NODE_CSV POD_CSV OUTDIR
#   preempt-plan --replay --run-time-from run-seconds -o table OUTDIR/snapshot.ndjson OUTDIR/trace.ndjson
# NODE_CSV: openb_node_list_all_node.csv (sn,cpu_milli,memory_mib,gpu,model): a Node each,
#   nvidia.com/gpu allocatable, the model as label gpu-model.
# POD_CSV: openb_pod_list_*.csv (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,
#   pod_phase,creation_time,deletion_time,scheduled_time): a Pod each, owned by a Job (an evicted
#   one is recreated), arriving at 2023-01-01T00:00:00Z + creation_time, its run time
#   deletion_time - scheduled_time in the run-seconds annotation (none when either is missing:
#   it runs to the end). Its class is its QoS's: LS -> ls (1000), Burstable -> burstable (500),
#   BE -> be (100, preemptible), the PriorityClasses in the snapshot; edit them to compare schemes
#   (share/examples/replay-compare.sh). Not converted: GPU sharing (gpu_milli below 1000 asks
#   for a whole GPU here) and gpu_spec (no node affinity on the model).
# Without arguments: the sample rows in share/examples/replay/, converted and replayed as a table.
set -eu
if [ $# -eq 0 ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	"$0" "$here/replay/alibaba-nodes.csv" "$here/replay/alibaba-pods.csv" "$tmp"
	st=0
	"${PREEMPT_PLAN:-preempt-plan}" --replay --run-time-from run-seconds -o table "$tmp/snapshot.ndjson" \
		"$tmp/trace.ndjson" || st=$?
	[ "$st" -le 1 ] || exit "$st"
	exit 0
fi
[ $# -eq 3 ] || { echo "usage: $0 [NODE_CSV POD_CSV OUTDIR]" >&2; exit 2; }
mkdir -p "$3"
awk -F, 'NR > 1 && $1 != "" {
	gsub(/\r/, "")
	i = ($1 ~ /^[0-9]+$/ && NF > 5) ? 1 : 0   # a leading index column (pandas) is skipped
	sn = $(1 + i); cpu = $(2 + i); mem = $(3 + i); gpu = $(4 + i); model = $(5 + i)
	printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"labels\":{\"kubernetes.io/hostname\":\"%s\",\"gpu-model\":\"%s\"}},\"status\":{\"allocatable\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\",\"nvidia.com/gpu\":\"%d\",\"pods\":\"110\"}}}\n", sn, sn, model == "" || model == "nan" ? "none" : model, cpu, mem, gpu
}
END {
	printf "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"ls\"},\"value\":1000}\n"
	printf "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"burstable\"},\"value\":500}\n"
	printf "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"be\"},\"value\":100}\n"
}' "$1" >"$3/snapshot.ndjson"
awk -F, '
# days since 1970-01-01 to a civil date (the days-from-civil algorithm, inverted)
function civil(z,   era, doe, yoe, y, doy, mp, d, m) {
	z += 719468; era = int(z / 146097); doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
	y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9; if (m <= 2) y++
	return sprintf("%04d-%02d-%02d", y, m, d)
}
function ts(s) { return civil(int(s / 86400)) sprintf("T%02d:%02d:%02dZ", int(s % 86400 / 3600), int(s % 3600 / 60), s % 60) }
BEGIN { base = 1672531200 }   # 2023-01-01T00:00:00Z
NR > 1 && $1 != "" {
	gsub(/\r/, "")
	i = ($1 ~ /^[0-9]+$/ && NF > 11) ? 1 : 0
	name = $(1 + i); cpu = $(2 + i); mem = $(3 + i); gpu = $(4 + i); qos = $(7 + i)
	created = $(9 + i); deleted = $(10 + i); sched = $(11 + i)
	if (created == "" || created == "nan") next
	cls = qos == "LS" ? "ls" : qos == "BE" ? "be" : "burstable"
	run = ""
	if (deleted != "" && deleted != "nan" && sched != "" && sched != "nan" && deleted + 0 >= sched + 0)
		run = sprintf(",\"annotations\":{\"run-seconds\":\"%d\"}", deleted - sched)
	gpus = gpu + 0 > 0 ? sprintf(",\"nvidia.com/gpu\":\"%d\"", gpu) : ""
	printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"default\",\"uid\":\"%s\",\"creationTimestamp\":\"%s\"%s,\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"%s\",\"uid\":\"job-%s\",\"controller\":true}]},\"spec\":{\"priorityClassName\":\"%s\",\"containers\":[{\"name\":\"main\",\"image\":\"trace\",\"resources\":{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"%s}}}]}}\n", name, name, ts(base + created), run, name, name, cls, cpu, mem, gpus
}' "$2" >"$3/trace.ndjson"
echo "$3/snapshot.ndjson: $(grep -c '"Node"' "$3/snapshot.ndjson") nodes; $3/trace.ndjson: $(wc -l <"$3/trace.ndjson") pods" >&2
