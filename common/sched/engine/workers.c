/* The job-sharing threads; see workers.h. */
#include "sched/engine/workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "k8s/options.h"

enum { MAX_PARTS = PK_THREADS_MAX };  /* the one rule: k8s/options.h */

struct pk_workers {
	int nparts;               /* threads, the caller's included */
	pthread_t tid[MAX_PARTS];
	struct part_arg { pk_workers *w; int part; } args[MAX_PARTS];
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	unsigned long job;        /* counts jobs handed out */
	int pending;              /* parts of the current job not done */
	bool quit;
	pk_part_fn *fn;
	void *ctx;
};

int pk_workers_wanted(int n)
{
	return pk_threads_resolve(n, NULL);
}

/* A thread's life: wait for a job it has not done, do its part, say so. */
static void *part_loop(void *arg)
{
	struct part_arg *a = arg;
	pk_workers *w = a->w;
	unsigned long seen = 0;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->quit && w->job == seen)
			pthread_cond_wait(&w->work, &w->mu);
		if (w->quit)
			break;
		seen = w->job;
		pk_part_fn *fn = w->fn;
		void *ctx = w->ctx;
		pthread_mutex_unlock(&w->mu);
		fn(ctx, a->part, w->nparts);
		pthread_mutex_lock(&w->mu);
		if (--w->pending == 0)
			pthread_cond_signal(&w->done);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

pk_workers *pk_workers_new(int nparts)
{
	if (nparts < 2)
		return NULL;
	if (nparts > MAX_PARTS)
		nparts = MAX_PARTS;
	pk_workers *w = pk_xcalloc(1, sizeof *w);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	w->nparts = 1;
	for (int i = 1; i < nparts; i++) {
		w->args[i] = (struct part_arg){ w, i };
		if (pthread_create(&w->tid[i], NULL, part_loop, &w->args[i]) != 0)
			break;
		w->nparts++;
	}
	if (w->nparts < 2) {
		pk_workers_free(w);
		return NULL;
	}
	return w;
}

void pk_workers_free(pk_workers *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->mu);
	for (int i = 1; i < w->nparts; i++)
		pthread_join(w->tid[i], NULL);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

int pk_workers_parts(const pk_workers *w)
{
	return w ? w->nparts : 1;
}

void pk_workers_run(pk_workers *w, pk_part_fn *fn, void *ctx)
{
	if (!w) {
		fn(ctx, 0, 1);
		return;
	}
	pthread_mutex_lock(&w->mu);
	w->fn = fn;
	w->ctx = ctx;
	w->pending = w->nparts - 1;
	w->job++;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->mu);
	fn(ctx, 0, w->nparts);
	pthread_mutex_lock(&w->mu);
	while (w->pending > 0)
		pthread_cond_wait(&w->done, &w->mu);
	pthread_mutex_unlock(&w->mu);
}
