#!/bin/sh
# The throughput gain asynchronous preemption (KEP-4832) was made for.
#
# Like scheduler_perf's PreemptionAsync: 5000 measured pods, a fifth of
# them preemptors that each evict 3 victims (a status patch and a delete per
# victim, 20 ms apiserver latency, a client limit high enough not to
# throttle: QPS 5000, burst 5000).
#
# Synchronous preemption keeps the scheduling loop waiting for the victims'
# API calls; asynchronous preemption returns from PostFilter at once and
# deletes the victims in a goroutine. The four gate settings are compared.
#
# Usage: async-preemption-throughput.sh [-o table]   (NDJSON by default)
set -eu
exec apiq-sim run --pods 5000 --preemptor-share 0.2 --victims 3 \
	--latency 20ms --qps 5000 --burst 5000 --seed 1 --compare "$@"
