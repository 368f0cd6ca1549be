/* Private to common/io/jsonstream.c (the scanner) and jsonstream_pool.c
 * (the parse workers and the delivery): the batches of object texts the
 * scanner fills, and the pool of threads that parse them and hand them to
 * the sink in input order. See jsonstream.c's opening comment. */
#ifndef PK_JSONSTREAM_INT_H
#define PK_JSONSTREAM_INT_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "io/internal.h"
#include "k8s/options.h"

enum item_kind {
	ITEM_OBJECT,               /* an object's text, to parse */
	ITEM_NOTICE,               /* a scanner's error or warning: its message is the text */
	ITEM_LIST,                 /* a List begins: obj is its envelope (or NULL) */
};

typedef struct item {
	enum item_kind kind;
	size_t off, len;           /* text in the batch arena */
	long line, col, index, doc;
	int in_list;
	pk_rec_type notice_type;   /* ITEM_NOTICE */
	pk_err_type notice_err;
	const char *notice_field;  /* static text, or NULL */
	cJSON *obj;
	pk_posmap *pos;
	pk_finding *found;         /* what pk_check_object found, checked in the worker */
	const char *err;           /* static text, or NULL */
	long err_line, err_col;
	char err_buf[160];
} item;

typedef struct batch {
	char *arena;
	size_t used, cap;
	item *items;
	size_t n, icap;
	int state;                 /* 0 filling, 1 queued, 2 parsing, 3 done */
	unsigned long seq;         /* submission order, under the pool's lock */
	char *scratch;             /* an item's text with pruned members left out */
	size_t scratch_cap;
	cJSON **dead;              /* delivered trees, freed by the worker that built them */
	size_t ndead, dead_cap;
	size_t end_pos;            /* input offset after its last item, for --progress */
} batch;

#define BATCH_BYTES (256u << 10)
#define BATCH_ITEMS 32u
#define MAX_THREADS PK_THREADS_MAX  /* the one rule: k8s/options.h */

typedef struct pool pool;
typedef struct worker_arg {
	pool *p;
	int id;
} worker_arg;

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done, freed;
	batch ring[2 * MAX_THREADS];
	int nring, head, tail;     /* head: oldest undelivered (the deliverer's);
	                              tail: next to fill (the scanner's) */
	unsigned long submitted;   /* batches queued so far, under mu */
	unsigned long delivered;   /* and delivered, under mu */
	int scan_done;             /* the scanner has queued its last batch, under mu */
	int stop;                  /* the sink asked to stop, under mu */
	int nthreads, quit;
	pthread_t tid[MAX_THREADS];
	pk_sink *sink;             /* the delivering thread's alone */
	struct timespec last_progress;
	int progress_shown;
	int node_positions;
	int max_depth;
	const char *const *prune;
	pk_prune_set prune_set;
	const pk_reader_opts *opts;
	worker_arg args[MAX_THREADS];
};

/* Parse a batch's object texts (a worker's, or the scanner's without
 * threads). */
void pk_js_parse_batch(const pool *p, batch *b);
/* Free the trees delivered from b (kept for the thread that built them). */
void pk_js_bury(batch *b);
/* A worker thread (arg: its worker_arg). */
void *pk_js_worker(void *arg);
/* Hand a parsed batch's items to the sink and empty it. */
void pk_js_deliver_batch(pool *p, batch *b);
/* The delivering thread: each batch as soon as it is parsed, in the order
 * they were queued, until the scanner is done and all are delivered. */
void pk_js_deliver_all(pool *p);

#endif
