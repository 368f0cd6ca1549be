/* Call types of the dispatcher: pod_status_patch, pod_binding and custom
 * (out-of-tree) types, with upstream's Merge / IsNoOp / Sync / Execute. */
#ifndef APIQ_CALLTYPES_H
#define APIQ_CALLTYPES_H

#include <stdbool.h>
#include "queue.h"

#define APIQ_MAX_CONDS 8

enum { APIQ_TYPE_STATUS_PATCH = 0, APIQ_TYPE_BINDING = 1 };
typedef enum { APIQ_KIND_STATUS_PATCH, APIQ_KIND_BINDING, APIQ_KIND_CUSTOM } apiq_kind;
typedef enum { APIQ_MODE_NOOP = 0, APIQ_MODE_OVERRIDE = 1 } apiq_mode;

/* Strings are borrowed: interned (step mode) or static (timed mode). */
typedef struct apiq_cond {
	const char *type, *status, *reason, *message, *probe, *transition;
} apiq_cond;

typedef struct apiq_podstatus {
	const char *nnn;  /* nominatedNodeName, "" if none */
	int ncond;
	apiq_cond cond[APIQ_MAX_CONDS];
} apiq_podstatus;

typedef struct apiq_types {
	int n;
	struct { char name[64]; int relevance; apiq_kind kind; } t[APIQ_MAX_TYPES];
} apiq_types;

/* A call of any type; base first so queue pointers convert. */
typedef struct apiq_xcall {
	apiq_call base;
	apiq_kind kind;
	/* pod_status_patch */
	apiq_podstatus snap;   /* status snapshot, frozen once executed */
	int nnew;
	apiq_cond newc[APIQ_MAX_CONDS];
	apiq_mode mode;
	const char *target_nnn;
	bool executed;
	/* pod_binding */
	const char *node;
	/* custom: the mock's scripted answers */
	bool noop, noop_after_merge, noop_after_sync, merged, synced;
	const char *merge_error;
	/* object identity for request text */
	const char *ns, *name;
	/* owner data (step: label, OnFinish channel) */
	void *owner;
} apiq_xcall;

void apiq_types_init(apiq_types *ts);
/* Declare NAME=RELEVANCE (custom) or redefine a builtin's relevance.
 * Returns the index or -1 (table full / bad). */
int apiq_types_declare(apiq_types *ts, const char *name, int relevance);
int apiq_types_find(const apiq_types *ts, const char *name);

bool apiq_cond_needs_update(const apiq_podstatus *st, const apiq_cond *c);
/* Apply conditions and nomination to st (syncStatus); true if changed. */
bool apiq_status_apply(apiq_podstatus *st, const apiq_cond *conds, int n, apiq_mode mode,
                       const char *nnn);

bool apiq_xcall_is_noop(const apiq_xcall *c);
int apiq_xcall_merge(apiq_xcall *newc, const apiq_xcall *oldc, char *err, size_t errsize);
/* Sync with the object's current status; *out gets the synced status. */
void apiq_xcall_sync(apiq_xcall *c, const apiq_podstatus *obj, apiq_podstatus *out);
/* Execute: true if a request must be sent (always for bindings and custom
 * calls; status patches only when something would change). */
bool apiq_xcall_execute(apiq_xcall *c);

#endif
