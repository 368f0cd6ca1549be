/* A few threads that share one job out by parts, the calling thread taking
 * part 0: for work cut by nodes whose parts touch disjoint state (the dry
 * runs of a decision, memo.c). Internal to sched/. */
#ifndef PK_SCHED_WORKERS_H
#define PK_SCHED_WORKERS_H

typedef struct pk_workers pk_workers;
typedef void pk_part_fn(void *ctx, int part, int nparts);

/* The threads a job may use: pk_threads_resolve(n) (k8s/options.h). */
int pk_workers_wanted(int n);
/* nparts threads in all (the caller's included), or NULL when nparts < 2 or
 * threads cannot be started: the caller then works alone. */
pk_workers *pk_workers_new(int nparts);
void pk_workers_free(pk_workers *w);
/* How many parts pk_workers_run cuts a job into (1 for NULL). */
int pk_workers_parts(const pk_workers *w);
/* fn(ctx, part, nparts) for every part, on every thread at once; returns
 * when all are done. With w NULL: fn(ctx, 0, 1) on the caller's thread. */
void pk_workers_run(pk_workers *w, pk_part_fn *fn, void *ctx);

#endif
