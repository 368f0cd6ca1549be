/* The dispatcher's call queue (kube-scheduler backend/api_dispatcher
 * callQueue), keyed by object: at most one current call per object, a FIFO
 * of objects whose call is pending, and the set of objects in flight.
 * Shared by step mode (replaying operations) and timed mode. */
#ifndef APIQ_QUEUE_H
#define APIQ_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APIQ_MAX_TYPES 32

/* What a call's OnFinish channel receives. */
typedef enum {
	APIQ_FIN_NIL,          /* executed successfully */
	APIQ_FIN_SKIPPED,      /* wraps ErrCallSkipped */
	APIQ_FIN_OVERWRITTEN,  /* wraps ErrCallOverwritten */
	APIQ_FIN_ERROR,        /* execution or merge error */
} apiq_fin;

/* The part of a call the queue needs; call types embed it first. */
typedef struct apiq_call {
	uint64_t obj;   /* object key (interned UID) */
	int type;       /* index into the call-type table */
	long id;        /* callID, assigned by apiq_queue_add */
	int refs;       /* queue map + executor references; freed at 0 */
} apiq_call;

/* Behaviour the queue asks of the call types and of its owner. */
typedef struct apiq_hooks {
	void *ctx;
	int (*relevance)(void *ctx, int type);
	/* newc absorbs oldc (same type); 0 or -1 with a message in err. */
	int (*merge)(void *ctx, apiq_call *newc, apiq_call *oldc, char *err, size_t errsize);
	bool (*is_noop)(void *ctx, apiq_call *c);
	/* Non-blocking send to the call's OnFinish channel. */
	void (*finish)(void *ctx, apiq_call *c, apiq_fin fin, const char *msg);
	/* Last reference dropped. */
	void (*release)(void *ctx, apiq_call *c);
} apiq_hooks;

typedef struct apiq_slot {
	uint64_t obj;
	apiq_call *call;
	bool used;
	bool in_flight;
} apiq_slot;

typedef struct apiq_queue {
	apiq_hooks h;
	long next_id;            /* callIDCounter */
	bool closed;
	/* calls: open addressing, linear probing, backward-shift deletion */
	apiq_slot *slots;
	size_t cap, len, nflight;
	/* fifo: ring of object keys */
	uint64_t *ring;
	size_t rcap, rhead, rlen;
	long pending[APIQ_MAX_TYPES];   /* scheduler_pending_async_api_calls */
} apiq_queue;

/* Result of add. */
typedef enum {
	APIQ_ADD_OK,
	APIQ_ADD_SKIPPED,      /* less relevant, or a no-op */
	APIQ_ADD_MERGE_FAILED,
} apiq_add_result;

void apiq_queue_init(apiq_queue *q, const apiq_hooks *h);
void apiq_queue_free(apiq_queue *q);

/* Adds c (the queue takes one reference). msg receives the error text
 * upstream's Add returns, when not APIQ_ADD_OK. */
apiq_add_result apiq_queue_add(apiq_queue *q, apiq_call *c, char *msg, size_t msgsize);
/* Pops the head object's call and marks it in flight; the caller gets a new
 * reference. NULL when the FIFO is empty (blocked, or closed). */
apiq_call *apiq_queue_pop(apiq_queue *q);
/* After Execute: drop or re-queue. Does not drop the caller's reference. */
void apiq_queue_finalize(apiq_queue *q, apiq_call *c);
/* The current call of an object, or NULL. */
apiq_call *apiq_queue_lookup(const apiq_queue *q, uint64_t obj);
bool apiq_queue_in_flight(const apiq_queue *q, uint64_t obj);
/* SyncObject's second half: after the caller synced the current call, drop
 * it when it became a no-op and is not in flight. Returns true if dropped. */
bool apiq_queue_drop_if_noop(apiq_queue *q, uint64_t obj);
void apiq_queue_close(apiq_queue *q);

/* Reference helpers. */
void apiq_call_ref(apiq_call *c);
void apiq_call_unref(apiq_queue *q, apiq_call *c);

/* Walk the FIFO in order (for state dumps). */
size_t apiq_queue_fifo_len(const apiq_queue *q);
uint64_t apiq_queue_fifo_at(const apiq_queue *q, size_t i);
/* Walk the map slots (for state dumps): returns the next used slot at or
 * after *pos, or NULL. */
const apiq_slot *apiq_queue_next_slot(const apiq_queue *q, size_t *pos);

#endif
