# bench/gen-trace.awk -v what=snapshot -v nodes=N | -v what=trace -v pods=P: a cluster of N nodes
# of 8 cpu with the PriorityClasses low, mid and high, or a trace of P pods arriving about one a
# second, or -v rate=R a second (run time in the run-seconds annotation, half of them Job pods); a pod's cpu is in its name
# (p-<i>-c<cpu>), for test/replay.bats' invariant checks. Deterministic (srand(7)).
function ts(s) { return sprintf("2026-01-01T%02d:%02d:%02dZ", int(s / 3600), int(s / 60) % 60, s % 60) }
BEGIN {
	srand(7)
	if (what == "snapshot") {
		for (i = 0; i < nodes; i++)
			printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-%04d\"},\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}\n", i
		split("low:100 mid:500 high:1000", cl, " ")
		for (k in cl) { split(cl[k], kv, ":"); printf "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"%s\"},\"value\":%s}\n", kv[1], kv[2] }
		exit
	}
	# -v what=gangs -v gangs=G: G PodGroups without a creationTimestamp (their queue time is their
	# earliest member's), for the snapshot; -v what=gang-pods: their members, two of 2 cpu each, a
	# gang arriving each second
	if (what == "gangs") {
		for (g = 0; g < gangs; g++)
			printf "{\"apiVersion\":\"scheduling.k8s.io/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g-%d\",\"namespace\":\"default\"},\"spec\":{\"priorityClassName\":\"low\",\"schedulingPolicy\":{\"gang\":{\"minCount\":2}}}}\n", g
		exit
	}
	if (what == "gang-pods") {
		for (g = 0; g < gangs; g++)
			for (k = 0; k < 2; k++)
				printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"g-%d-%d\",\"namespace\":\"default\",\"uid\":\"ug%d-%d\",\"creationTimestamp\":\"%s\"},\"spec\":{\"priorityClassName\":\"low\",\"schedulingGroup\":{\"podGroupName\":\"g-%d\"},\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}}\n", g, k, g, k, ts(g), g
		exit
	}
	# -v what=queue -v pending=Q [-v shapes=S]: Q pods of 9 to 8+S cpu (S shapes, 4 by default)
	# arriving at the start, each too big for any node: a pending queue tried again at every instant
	# of a trace that follows (-v what=trace)
	if (what == "queue") {
		if (!shapes) shapes = 4
		for (i = 0; i < pending; i++)
			printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"q-%d\",\"namespace\":\"default\",\"uid\":\"uq%d\",\"creationTimestamp\":\"%s\"},\"spec\":{\"priorityClassName\":\"mid\",\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":{\"cpu\":\"%d\",\"memory\":\"1Gi\"}}}]}}\n", i, i, ts(0), 9 + i % shapes
		exit
	}
	t = 0
	for (i = 0; i < pods; i++) {
		t += rate > 1 ? rand() * 2.2 / rate : int(rand() * 2.2)
		r = rand(); cls = r < 0.6 ? "low" : r < 0.9 ? "mid" : "high"
		cpu = 1 + int(rand() * 4); run = 60 + int(rand() * 600); grace = int(rand() * 40)
		own = rand() < 0.5 ? ",\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"j\",\"uid\":\"j\",\"controller\":true}]" : ""
		printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p-%d-c%d\",\"namespace\":\"default\",\"uid\":\"u%d\",\"creationTimestamp\":\"%s\",\"annotations\":{\"run-seconds\":\"%d\"}%s},\"spec\":{\"priorityClassName\":\"%s\",\"terminationGracePeriodSeconds\":%d,\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":{\"cpu\":\"%d\",\"memory\":\"1Gi\"}}}]}}\n", i, cpu, i, ts(int(t)), run, own, cls, grace, cpu
	}
}
