#!/bin/sh
# Rate-limiter starvation with SchedulerAsyncAPICalls (kubernetes #135900,
# gate turned off again by #135903).
#
# 1000 measured pods arrive at 10/s; 50 never-schedulable pods arrive per
# second and retry after their backoff, each failure writing a new
# PodScheduled condition. Every request shares the client's token bucket
# (QPS 50, burst 100, kube-scheduler's defaults).
#
# Synchronous calls: the scheduling loop waits for each status patch, so at
# most one patch is queued in the bucket and the bindings get through.
# Asynchronous calls: the loop no longer waits, the dispatcher starts a
# goroutine per call, patches pile up in the bucket and the bindings wait
# behind them.
#
# Usage: rate-limiter-starvation.sh [-o table]   (NDJSON Summary records by default)
set -eu
for gate in false true; do
	apiq-sim run --pods 1000 --arrival-rate 10 --preemptor-share 0 \
		--churn 50 --qps 50 --burst 100 --seed 1 \
		--feature-gates SchedulerAsyncPreemption=true,SchedulerAsyncAPICalls=$gate "$@"
done
