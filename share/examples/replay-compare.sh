#!/bin/sh
# What would another priority scheme have done over the same trace? Two
# `preempt-plan --replay` runs: over SNAPSHOT as it is, and over SNAPSHOT with
# its PriorityClasses replaced by those in CLASSES (JSON: a List or one per
# line; a trace pod is admitted anew when it arrives, so its priority and
# preemptionPolicy are its class's), and their summaries per class side by side.
#   share/examples/replay-compare.sh [SNAPSHOT TRACE CLASSES.json [replay options...]]
# preempt-plan and jq must be on PATH (or set PREEMPT_PLAN).
set -u
here=$(cd "$(dirname "$0")" && pwd)
snap=${1:-$here/replay/snapshot.json}
trace=${2:-$here/replay/trace.ndjson}
classes=${3:-$here/replay/batch-not-preemptible.json}
[ $# -ge 3 ] && shift 3 || set --
pp=${PREEMPT_PLAN:-preempt-plan}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$pp" --replay "$@" "$snap" "$trace" 2>/dev/null >"$tmp/now.ndjson"
[ $? -le 1 ] || { echo "replay-compare: the replay of $trace failed" >&2; exit 2; }
jq -c '.items[]? // .' "$snap" | jq -c 'select(.kind != "PriorityClass")' >"$tmp/snap.ndjson" &&
  jq -c '.items[]? // .' "$classes" >>"$tmp/snap.ndjson" || exit 2
"$pp" --replay "$@" "$tmp/snap.ndjson" "$trace" 2>/dev/null >"$tmp/new.ndjson"
[ $? -le 1 ] || { echo "replay-compare: the replay with $classes failed" >&2; exit 2; }
jq -r -n --slurpfile now "$tmp/now.ndjson" --slurpfile new "$tmp/new.ndjson" '
  def classes($run): $run[] | select(.kind == "ReplaySummary") | .classes | map({key: .priorityClassName, value: .}) | from_entries;
  classes($now) as $a | classes($new) as $b
  | ["CLASS", "PODS", "EVICTED(now)", "EVICTED(new)", "WAIT-P95(s)(now)", "WAIT-P95(s)(new)",
     "LOST-POD-SECONDS(now)", "LOST-POD-SECONDS(new)"],
    (($a | keys) + ($b | keys) | unique | .[] as $c
     | [$c, ($a[$c].pods // $b[$c].pods), $a[$c].evicted, $b[$c].evicted, $a[$c].waitSeconds.p95,
        $b[$c].waitSeconds.p95, $a[$c].lostPodSeconds, $b[$c].lostPodSeconds])
  | map(. // "-" | tostring) | join("\t")' | column -t -s "$(printf '\t')"
