# The invariants of a replay (test/replay.bats) over its slurped records: every victim of lower
# priority than its preemptor; no node over its 8 cpu at any instant (a pod's cpu is in its name,
# p-<i>-c<cpu>: bench/gen-trace.awk); every trace pod and replacement once, in one final state whose
# times agree; and enough preemptions for the rest to mean something.
([.[] | select(.kind == "ReplayPod")]) as $pods
| ($pods | map({key: .name, value: .priority}) | from_entries) as $prio
| [.[] | select(.kind == "ReplayEvent")] as $ev
| ([$ev[] | select(.event == "PreemptionStarted") | $prio[.pod.name] < $prio[.preemptor | sub("^default/"; "")]] | all)
  and (reduce $ev[] as $e ({};
        ($e.pod.name | capture("-c(?<c>[0-9]+)").c | tonumber) as $c
        | if $e.event == "Scheduled" then .[$e.node] += $c | if .[$e.node] > 8 then error("over: \($e)") else . end
          elif ($e.event == "Evicted" or $e.event == "Completed") then .[$e.node] -= $c else . end) | length > 0)
  and ($pods | map(.name) | unique | length) == ($pods | length)
  and ([$pods[] | (.finalState == "Completed" and .completedAt != null and .evictedAt == null)
                 or (.finalState == "Evicted" and .evictedAt != null and .completedAt == null)
                 or ((.finalState == "Running" or .finalState == "Terminating") and .scheduledAt != null and .completedAt == null and .evictedAt == null)
                 or (.finalState == "Pending" and .scheduledAt == null)] | all)
  and ($pods | length) == ((.[] | select(.kind == "ReplaySummary") | .tracePods) + ([$ev[] | select(.event == "Recreated")] | length))
  and ([$ev[] | select(.event == "PreemptionStarted")] | length) > 100
