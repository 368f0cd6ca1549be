/* step mode: one JSON operation in, one NDJSON result out, replaying the
 * dispatcher's call queue and the preemption evaluator exactly. */
#include "apiq.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asyncpreempt.h"
#include "calltypes.h"
#include "io/writer.h"
#include "k8s/json.h"
#include "queue.h"
#include "base/strtab.h"
#include "base/alloc.h"

/* A call as step mode knows it: the call plus its label and OnFinish. */
typedef struct step_call {
	apiq_xcall x;          /* first: queue pointers convert */
	const char *label;
	uint64_t label_id;
	bool has_onfinish;     /* a 1-buffered channel was given */
	bool onfinish_full;    /* nobody drains it: the first value wins */
	bool held;             /* popped: the executor holds a reference */
	bool executed;
	const char *exec_err;  /* interned; NULL = success */
} step_call;

typedef struct step_session {
	pk_cli *cli;
	const apiq_types *types;
	apiq_gates gates;
	pk_strtab *pool;          /* labels and uids, ids dense (the queue's object keys) */
	apiq_queue q;
	apiq_evaluator ev;
	step_call **by_label;  /* indexed by pool id */
	size_t nby_label;
	long waiting_pops;     /* pop operations blocked on an empty queue */
	long clear_seq;        /* labels of nomination-clearing calls */
	long exec_total[APIQ_MAX_TYPES][2];
	/* per-operation output */
	cJSON *onfinish, *dropped, *requests, *dispatched;
	cJSON *conditions;  /* DisruptionTarget messages the op's victim patches added */
	const char *popped;
	pk_out out;
	pk_stats stats;
	long seq;
	bool trouble;
	const pk_record *rec;  /* the operation being replayed, for diagnostics */
} step_session;

/* ---- helpers ---- */

static const char *intern(step_session *s, const char *str)
{
	return pk_intern(s->pool, str ? str : "");
}

/* The dense id of a label or uid (NULL: ""). */
static uint64_t intern_id(step_session *s, const char *str)
{
	return pk_intern_id(s->pool, str ? str : "");
}

static const char *pool_string(const step_session *s, uint64_t id)
{
	return id < pk_strtab_count(s->pool) ? pk_strtab_str(s->pool, (uint32_t)id) : "";
}

static void bad_op(step_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad_op(step_session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pk_diag_report(&s->cli->diag, PK_SEV_ERROR, &s->rec->origin, "%s", msg);
	s->trouble = true;
}

static step_call *label_get(step_session *s, const char *label)
{
	uint64_t id = intern_id(s, label);
	return id < s->nby_label ? s->by_label[id] : NULL;
}

static void label_set(step_session *s, uint64_t id, step_call *c)
{
	if (id >= s->nby_label) {
		size_t had = s->nby_label;
		s->by_label = pk_grow(s->by_label, &s->nby_label, (size_t)id + 1, sizeof *s->by_label);
		memset(s->by_label + had, 0, (s->nby_label - had) * sizeof *s->by_label);
	}
	s->by_label[id] = c;
}

/* ---- queue hooks ---- */

static int hook_relevance(void *ctx, int type)
{
	const step_session *s = ctx;
	return s->types->t[type].relevance;
}

static int hook_merge(void *ctx, apiq_call *newc, apiq_call *oldc, char *err, size_t errsize)
{
	return apiq_xcall_merge((apiq_xcall *)newc, (apiq_xcall *)oldc, err, errsize);
}

static bool hook_is_noop(void *ctx, apiq_call *c)
{
	return apiq_xcall_is_noop((apiq_xcall *)c);
}

static const char *fin_text(apiq_fin fin, const char *msg)
{
	switch (fin) {
	case APIQ_FIN_NIL: return "nil";
	case APIQ_FIN_SKIPPED: return "ErrCallSkipped";
	case APIQ_FIN_OVERWRITTEN: return "ErrCallOverwritten";
	case APIQ_FIN_ERROR: break;
	}
	return msg ? msg : "error";
}

/* Non-blocking send on a 1-buffered channel nobody drains. */
static void hook_finish(void *ctx, apiq_call *c, apiq_fin fin, const char *msg)
{
	step_session *s = ctx;
	step_call *sc = (step_call *)c;
	if (!sc->has_onfinish)
		return;
	cJSON *into = sc->onfinish_full ? s->dropped : s->onfinish;
	sc->onfinish_full = true;
	cJSON_DeleteItemFromObjectCaseSensitive(into, sc->label);
	cJSON_AddStringToObject(into, sc->label, fin_text(fin, msg));
}

static void hook_release(void *ctx, apiq_call *c)
{
	step_session *s = ctx;
	step_call *sc = (step_call *)c;
	if (sc->label_id < s->nby_label && s->by_label[sc->label_id] == sc)
		s->by_label[sc->label_id] = NULL;
	free(sc);
}

/* ---- parsing ---- */

static int parse_cond(step_session *s, const cJSON *j, apiq_cond *c)
{
	if (!cJSON_IsObject(j) || !pk_str(j, "type")) {
		bad_op(s, "condition must be an object with a string \"type\"");
		return -1;
	}
	c->type = intern(s, pk_str(j, "type"));
	c->status = intern(s, pk_str_or(j, "status", ""));
	c->reason = intern(s, pk_str_or(j, "reason", ""));
	c->message = intern(s, pk_str_or(j, "message", ""));
	c->probe = intern(s, pk_str_or(j, "lastProbeTime", ""));
	c->transition = intern(s, pk_str_or(j, "lastTransitionTime", ""));
	return 0;
}

static int parse_conds(step_session *s, const cJSON *arr, apiq_cond *out, int *n)
{
	*n = 0;
	if (!arr || cJSON_IsNull(arr))
		return 0;
	if (!cJSON_IsArray(arr)) {
		bad_op(s, "\"conditions\" must be an array");
		return -1;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, arr) {
		if (*n >= APIQ_MAX_CONDS) {
			bad_op(s, "more than %d conditions", APIQ_MAX_CONDS);
			return -1;
		}
		if (parse_cond(s, it, &out[*n]) < 0)
			return -1;
		(*n)++;
	}
	return 0;
}

static int parse_status(step_session *s, const cJSON *st, apiq_podstatus *out)
{
	memset(out, 0, sizeof(*out));
	out->nnn = intern(s, pk_str_or(st, "nominatedNodeName", ""));
	return parse_conds(s, pk_get(st, "conditions"), out->cond, &out->ncond);
}

static int parse_status_patch(step_session *s, const cJSON *op, step_call *c)
{
	const cJSON *d = pk_get(op, "details");
	if (parse_status(s, pk_get(op, "podStatus"), &c->x.snap) < 0)
		return -1;
	if (pk_get(d, "condition") && !cJSON_IsNull(pk_get(d, "condition"))) {
		c->x.nnew = 1;  /* the older single-condition form */
		if (parse_cond(s, pk_get(d, "condition"), &c->x.newc[0]) < 0)
			return -1;
	} else if (parse_conds(s, pk_get(d, "conditions"), c->x.newc, &c->x.nnew) < 0) {
		return -1;
	}
	const cJSON *ni = pk_get(d, "nominatingInfo");
	const char *mode = pk_str_or(ni, "mode", "Noop");
	if (strcmp(mode, "Override") == 0)
		c->x.mode = APIQ_MODE_OVERRIDE;
	else if (strcmp(mode, "Noop") == 0)
		c->x.mode = APIQ_MODE_NOOP;
	else {
		bad_op(s, "nominatingInfo.mode must be \"Override\" or \"Noop\", not \"%s\"", mode);
		return -1;
	}
	c->x.target_nnn = intern(s, pk_str_or(ni, "nominatedNodeName", ""));
	return 0;
}

static void parse_custom(step_session *s, const cJSON *op, step_call *c)
{
	c->x.noop = pk_bool(op, "isNoOp");
	c->x.noop_after_merge = pk_get(op, "isNoOpAfterMerge") ? pk_bool(op, "isNoOpAfterMerge") : c->x.noop;
	c->x.noop_after_sync = pk_get(op, "isNoOpAfterSync") ? pk_bool(op, "isNoOpAfterSync")
	                                                      : c->x.noop_after_merge;
	if (pk_str(op, "mergeError"))
		c->x.merge_error = intern(s, pk_str(op, "mergeError"));
}

static step_call *new_call(step_session *s, const char *label, const char *uid, int type)
{
	step_call *c = pk_xcalloc(1, sizeof(*c));
	c->label_id = intern_id(s, label);
	c->label = intern(s, label);
	c->x.base.obj = intern_id(s, uid);
	c->x.base.type = type;
	c->x.kind = s->types->t[type].kind;
	c->x.snap.nnn = c->x.target_nnn = intern(s, "");
	return c;
}

/* ---- state dump ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static cJSON *sorted_strings(const char **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_str);
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static cJSON *string_list(const char *const *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static cJSON *state_json(step_session *s)
{
	cJSON *st = cJSON_CreateObject();
	cJSON *fifo = cJSON_AddArrayToObject(st, "fifo");
	for (size_t i = 0; i < apiq_queue_fifo_len(&s->q); i++)
		cJSON_AddItemToArray(fifo, cJSON_CreateString(pool_string(s, apiq_queue_fifo_at(&s->q, i))));
	size_t n = s->q.len, nf = 0, pos = 0;
	const char **uids = pk_xcalloc(n + 1, sizeof(*uids)), **flight = pk_xcalloc(n + 1, sizeof(*flight));
	const apiq_slot *sl;
	size_t k = 0;
	while ((sl = apiq_queue_next_slot(&s->q, &pos))) {
		uids[k++] = pool_string(s, sl->obj);
		if (sl->in_flight)
			flight[nf++] = uids[k - 1];
	}
	cJSON_AddItemToObject(st, "inFlight", sorted_strings(flight, nf));
	qsort(uids, k, sizeof(*uids), cmp_str);
	cJSON *calls = cJSON_AddObjectToObject(st, "calls");
	for (size_t i = 0; i < k; i++) {
		const step_call *c = (const step_call *)apiq_queue_lookup(&s->q, intern_id(s, uids[i]));
		cJSON_AddStringToObject(calls, uids[i], c ? c->label : "");
	}
	free(uids);
	free(flight);
	cJSON *g = cJSON_AddObjectToObject(st, "pendingGauge");
	for (int t = 0; t < s->types->n; t++)
		cJSON_AddNumberToObject(g, s->types->t[t].name, (double)s->q.pending[t]);
	const char **pre = pk_xcalloc(s->ev.npreempting + 1, sizeof(*pre));
	if (s->ev.npreempting)
		memcpy(pre, s->ev.preempting, s->ev.npreempting * sizeof(*pre));
	cJSON_AddItemToObject(st, "preempting", sorted_strings(pre, s->ev.npreempting));
	free(pre);
	cJSON *lv = cJSON_AddObjectToObject(st, "lastVictims");
	for (size_t i = 0; i < s->ev.nlast; i++) {
		char buf[512];
		snprintf(buf, sizeof(buf), "%s%s%s", s->ev.last[i].ns, *s->ev.last[i].ns ? "/" : "", s->ev.last[i].name);
		cJSON_AddStringToObject(lv, s->ev.last[i].preemptor, buf);
	}
	cJSON_AddItemToObject(st, "activated", string_list(s->ev.activated, s->ev.nactivated));
	cJSON_AddItemToObject(st, "deleted", string_list(s->ev.deleted, s->ev.ndeleted));
	cJSON_AddItemToObject(st, "apiRequests", cJSON_Duplicate(s->requests, 1));
	cJSON_AddItemToObject(st, "disruptionTargets", cJSON_Duplicate(s->conditions, 1));
	cJSON *ex = cJSON_AddObjectToObject(st, "executionTotal");
	for (int t = 0; t < s->types->n; t++) {
		if (!s->exec_total[t][0] && !s->exec_total[t][1])
			continue;
		cJSON *o = cJSON_AddObjectToObject(ex, s->types->t[t].name);
		cJSON_AddNumberToObject(o, "success", (double)s->exec_total[t][0]);
		cJSON_AddNumberToObject(o, "error", (double)s->exec_total[t][1]);
	}
	return st;
}

/* ---- operations ---- */

static cJSON *status_to_json(const apiq_podstatus *st, const cJSON *orig);

/* A popper blocked on the empty queue takes the next object. */
static void wake_popper(step_session *s)
{
	if (s->waiting_pops == 0 || s->q.closed || apiq_queue_fifo_len(&s->q) == 0)
		return;
	step_call *c = (step_call *)apiq_queue_pop(&s->q);
	if (!c)
		return;
	s->waiting_pops--;
	c->held = true;
	s->popped = c->label;
}

static void add_request(step_session *s, const char *method, const char *ns, const char *name,
                        const char *sub)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s pods/%s%s%s%s%s", method, ns && *ns ? ns : "",
	         ns && *ns ? "/" : "", name, sub ? "/" : "", sub ? sub : "");
	cJSON_AddItemToArray(s->requests, cJSON_CreateString(buf));
}

/* Add a built call; the queue reports the result. */
static const char *enqueue(step_session *s, step_call *c, cJSON *res)
{
	char msg[512];
	label_set(s, c->label_id, c);
	apiq_add_result ar = apiq_queue_add(&s->q, &c->x.base, msg, sizeof(msg));
	const char *result = "ok";
	if (ar == APIQ_ADD_SKIPPED)
		result = "ErrCallSkipped";
	else if (ar == APIQ_ADD_MERGE_FAILED)
		result = intern(s, msg);
	if (ar != APIQ_ADD_OK && res)
		cJSON_AddStringToObject(res, "message", msg);
	if (c->x.base.refs == 0)
		hook_release(s, &c->x.base);
	wake_popper(s);
	return result;
}

static const char *op_add(step_session *s, const cJSON *op, cJSON *res)
{
	const char *label = pk_str(op, "call"), *uid = pk_str(op, "uid"), *tname = pk_str(op, "callType");
	if (!label || !uid || !tname) {
		bad_op(s, "add needs string fields \"call\", \"uid\" and \"callType\"");
		return NULL;
	}
	int type = apiq_types_find(s->types, tname);
	if (type < 0) {
		bad_op(s, "unknown call type \"%s\" (declare it with --call-type %s=RELEVANCE)", tname, tname);
		return NULL;
	}
	if (label_get(s, label)) {
		bad_op(s, "call label \"%s\" is still in use", label);
		return NULL;
	}
	step_call *c = new_call(s, label, uid, type);
	c->has_onfinish = pk_bool(op, "onFinish");
	c->x.ns = intern(s, pk_str_or(op, "namespace", ""));
	c->x.name = intern(s, pk_str_or(op, "name", uid));
	int rc = 0;
	if (c->x.kind == APIQ_KIND_STATUS_PATCH)
		rc = parse_status_patch(s, op, c);
	else if (c->x.kind == APIQ_KIND_BINDING)
		c->x.node = intern(s, pk_str_or(pk_get(op, "details"), "node", ""));
	else
		parse_custom(s, op, c);
	if (rc < 0) {
		free(c);
		return NULL;
	}
	return enqueue(s, c, res);
}

static const char *op_pop(step_session *s)
{
	if (apiq_queue_fifo_len(&s->q) == 0) {
		if (!s->q.closed)
			s->waiting_pops++;  /* blocks until an add or a re-queue */
		return "ok";
	}
	step_call *c = (step_call *)apiq_queue_pop(&s->q);
	if (c) {
		c->held = true;
		s->popped = c->label;
	}
	return "ok";
}

static step_call *held_call(step_session *s, const cJSON *op, const char *opname)
{
	const char *label = pk_str(op, "call");
	step_call *c = label ? label_get(s, label) : NULL;
	if (!label)
		bad_op(s, "%s needs a string field \"call\"", opname);
	else if (!c || !c->held)
		bad_op(s, "%s: call \"%s\" is not in flight (pop it first)", opname, label);
	else
		return c;
	return NULL;
}

static const char *op_execute(step_session *s, const cJSON *op, cJSON *res)
{
	step_call *c = held_call(s, op, "execute");
	if (!c)
		return NULL;
	if (c->executed) {
		bad_op(s, "execute: call \"%s\" was already executed", c->label);
		return NULL;
	}
	const char *api = pk_str_or(op, "api", "ok");
	if (strcmp(api, "ok") && strcmp(api, "error") && strcmp(api, "notFound")) {
		bad_op(s, "execute: \"api\" must be \"ok\", \"error\" or \"notFound\"");
		return NULL;
	}
	c->executed = true;
	bool send = apiq_xcall_execute(&c->x);
	cJSON_AddBoolToObject(res, "request", send);
	if (c->x.kind == APIQ_KIND_STATUS_PATCH) {
		apiq_podstatus after = c->x.snap;
		apiq_status_apply(&after, c->x.newc, c->x.nnew, c->x.mode, c->x.target_nnn);
		cJSON_AddItemToObject(res, "status", status_to_json(&after, NULL));
	}
	if (send) {
		const char *uid = pool_string(s, c->x.base.obj);
		switch (c->x.kind) {
		case APIQ_KIND_STATUS_PATCH: add_request(s, "PATCH", c->x.ns, c->x.name, "status"); break;
		case APIQ_KIND_BINDING: add_request(s, "POST", c->x.ns, c->x.name, "binding"); break;
		case APIQ_KIND_CUSTOM: {
			char buf[256];
			snprintf(buf, sizeof(buf), "CALL %s %s", s->types->t[c->x.base.type].name, uid);
			cJSON_AddItemToArray(s->requests, cJSON_CreateString(buf));
			break;
		}
		}
		char err[512];
		if (strcmp(api, "error") == 0) {
			c->exec_err = intern(s, pk_str_or(op, "message", "Internal error occurred: simulated apiserver error"));
		} else if (strcmp(api, "notFound") == 0) {
			snprintf(err, sizeof(err), "pods \"%s\" not found", c->x.name);
			c->exec_err = intern(s, err);
		}
	}
	s->exec_total[c->x.base.type][c->exec_err ? 1 : 0]++;
	return c->exec_err ? c->exec_err : "ok";
}

static const char *op_finalize(step_session *s, const cJSON *op)
{
	step_call *c = held_call(s, op, "finalize");
	if (!c)
		return NULL;
	apiq_queue_finalize(&s->q, &c->x.base);
	if (c->executed)
		hook_finish(s, &c->x.base, c->exec_err ? APIQ_FIN_ERROR : APIQ_FIN_NIL, c->exec_err);
	c->held = false;
	wake_popper(s);
	apiq_call_unref(&s->q, &c->x.base);
	return "ok";
}

static cJSON *status_to_json(const apiq_podstatus *st, const cJSON *orig)
{
	cJSON *o = orig && cJSON_IsObject(orig) ? cJSON_Duplicate(orig, 1) : cJSON_CreateObject();
	cJSON_DeleteItemFromObjectCaseSensitive(o, "nominatedNodeName");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "conditions");
	if (st->nnn && *st->nnn)
		cJSON_AddStringToObject(o, "nominatedNodeName", st->nnn);
	if (st->ncond) {
		cJSON *a = cJSON_AddArrayToObject(o, "conditions");
		for (int i = 0; i < st->ncond; i++) {
			const apiq_cond *c = &st->cond[i];
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "type", c->type);
			cJSON_AddStringToObject(j, "status", c->status);
			if (*c->reason) cJSON_AddStringToObject(j, "reason", c->reason);
			if (*c->message) cJSON_AddStringToObject(j, "message", c->message);
			if (*c->probe) cJSON_AddStringToObject(j, "lastProbeTime", c->probe);
			if (*c->transition) cJSON_AddStringToObject(j, "lastTransitionTime", c->transition);
			cJSON_AddItemToArray(a, j);
		}
	}
	return o;
}

static const char *op_sync(step_session *s, const cJSON *op, cJSON *res)
{
	const char *uid = pk_str(op, "uid");
	const cJSON *obj = pk_get(op, "object");
	if (!uid || !cJSON_IsObject(obj)) {
		bad_op(s, "sync needs a string \"uid\" and an object \"object\"");
		return NULL;
	}
	uint64_t id = intern_id(s, uid);
	apiq_xcall *c = (apiq_xcall *)apiq_queue_lookup(&s->q, id);
	if (!c) {
		cJSON_AddItemToObject(res, "object", cJSON_Duplicate(obj, 1));
		return "ok";
	}
	apiq_podstatus in, out;
	if (parse_status(s, pk_get(obj, "status"), &in) < 0)
		return NULL;
	apiq_xcall_sync(c, &in, &out);
	cJSON *synced = cJSON_Duplicate(obj, 1);
	if (c->kind == APIQ_KIND_STATUS_PATCH) {
		cJSON *st = status_to_json(&out, pk_get(obj, "status"));
		if (pk_get(synced, "status"))
			cJSON_ReplaceItemInObjectCaseSensitive(synced, "status", st);
		else
			cJSON_AddItemToObject(synced, "status", st);
	}
	cJSON_AddItemToObject(res, "object", synced);
	if (c->kind == APIQ_KIND_STATUS_PATCH)
		cJSON_AddItemToObject(res, "callStatus", status_to_json(&c->snap, NULL));
	cJSON_AddBoolToObject(res, "dropped", apiq_queue_drop_if_noop(&s->q, id));
	return "ok";
}

/* ---- preemption operations ---- */

static void env_request(void *ctx, const char *method, const apiq_pod_ref *pod, const char *sub,
                        const char *condition)
{
	step_session *s = ctx;
	add_request(s, method, pod->ns, pod->name, sub);
	if (condition) {
		cJSON *d = cJSON_CreateObject();
		char who[300];
		snprintf(who, sizeof(who), "%s%s%s", pod->ns && *pod->ns ? pod->ns : "", pod->ns && *pod->ns ? "/" : "",
		         pod->name);
		cJSON_AddStringToObject(d, "pod", who);
		cJSON_AddStringToObject(d, "reason", "PreemptionByScheduler");
		cJSON_AddStringToObject(d, "message", condition);
		cJSON_AddItemToArray(s->conditions, d);
	}
}

/* APICacher.PatchPodStatus(pod, no conditions, NNN "" Override). */
static void env_clear_nomination(void *ctx, const apiq_pod_ref *pod)
{
	step_session *s = ctx;
	char label[256];
	snprintf(label, sizeof(label), "clear-nomination/%s/%ld", pod->uid, ++s->clear_seq);
	step_call *c = new_call(s, label, pod->uid, APIQ_TYPE_STATUS_PATCH);
	c->has_onfinish = true;
	c->x.kind = APIQ_KIND_STATUS_PATCH;
	c->x.ns = pod->ns;
	c->x.name = pod->name;
	c->x.snap.nnn = pod->nnn ? pod->nnn : intern(s, "");
	c->x.mode = APIQ_MODE_OVERRIDE;
	c->x.target_nnn = intern(s, "");
	const char *lab = c->label;
	const char *r = enqueue(s, c, NULL);
	cJSON *d = cJSON_CreateObject();
	cJSON_AddStringToObject(d, "call", lab);
	cJSON_AddStringToObject(d, "uid", pod->uid);
	cJSON_AddStringToObject(d, "result", r);
	cJSON_AddItemToArray(s->dispatched, d);
}

static int parse_pod_ref(step_session *s, const cJSON *j, apiq_pod_ref *p, const char *what)
{
	if (!cJSON_IsObject(j) || !pk_str(j, "uid")) {
		bad_op(s, "%s must be an object with a string \"uid\"", what);
		return -1;
	}
	p->uid = intern(s, pk_str(j, "uid"));
	p->name = intern(s, pk_str_or(j, "name", p->uid));
	p->ns = intern(s, pk_str_or(j, "namespace", ""));
	int64_t prio;
	p->has_priority = pk_int64(j, "priority", &prio);
	p->priority = p->has_priority ? prio : 0;
	p->nnn = intern(s, pk_str_or(j, "nominatedNodeName", pk_str_or(pk_get(j, "status"), "nominatedNodeName", "")));
	return 0;
}

static const char *outcome(step_session *s, const cJSON *v, const char *key, bool allow_none)
{
	const char *o = pk_str_or(v, key, "ok");
	if (strcmp(o, "ok") && strcmp(o, "fail") && strcmp(o, "notFound") && !(allow_none && !strcmp(o, "none"))) {
		bad_op(s, "victim \"%s\" must be \"ok\", \"fail\", \"notFound\"%s", key, allow_none ? " or \"none\"" : "");
		return NULL;
	}
	return intern(s, o);
}

static const char *op_preempt(step_session *s, const cJSON *op, cJSON *res)
{
	apiq_preempt_req r = {0};
	const cJSON *vs = pk_get(op, "victims"), *ns = pk_get(op, "nominatedBelow");
	if (parse_pod_ref(s, pk_get(op, "preemptor"), &r.preemptor, "\"preemptor\"") < 0)
		return NULL;
	if (!pk_str(op, "node") || (vs && !cJSON_IsArray(vs)) || (ns && !cJSON_IsArray(ns))) {
		bad_op(s, "preempt needs a string \"node\"; \"victims\" and \"nominatedBelow\" must be arrays");
		return NULL;
	}
	r.node = intern(s, pk_str(op, "node"));
	const cJSON *pre = pk_get(op, "preemptor"), *ms = pk_get(pre, "members");
	const char *kind = pk_str_or(pre, "kind", "Pod");
	r.scheduler = intern(s, pk_str_or(pre, "schedulerName", "default-scheduler"));
	r.pod_group = apiq_preemptor_is_group(kind);
	if (r.pod_group != (ms != NULL) || (ms && !cJSON_IsArray(ms))) {
		bad_op(s, r.pod_group ? "a \"preemptor\" of kind %s needs a \"members\" array (its pods)"
		                      : "a \"preemptor\" of kind %s has no \"members\" (a PodGroup or a "
		                        "CompositePodGroup has)", kind);
		return NULL;
	}
	r.victims = pk_xcalloc((size_t)cJSON_GetArraySize(vs) + 1, sizeof(*r.victims));
	r.nominated = pk_xcalloc((size_t)cJSON_GetArraySize(ns) + 1, sizeof(*r.nominated));
	r.members = pk_xcalloc((size_t)cJSON_GetArraySize(ms) + 1, sizeof(*r.members));
	const cJSON *it;
	cJSON_ArrayForEach(it, ms) {
		if (parse_pod_ref(s, it, &r.members[r.nmembers], "a member") < 0)
			goto fail;
		r.nmembers++;
	}
	cJSON_ArrayForEach(it, vs) {
		apiq_victim *v = &r.victims[r.nvictims];
		if (parse_pod_ref(s, it, &v->pod, "a victim") < 0 || !(v->patch = outcome(s, it, "patch", true)) ||
		    !(v->del = outcome(s, it, "delete", false)))
			goto fail;
		const cJSON *dt = pk_get(it, "deletionTimestamp");
		v->deleting = dt && !cJSON_IsNull(dt) && !cJSON_IsFalse(dt);
		v->in_lister = pk_get(it, "inLister") ? pk_bool(it, "inLister") : true;
		r.nvictims++;
	}
	cJSON_ArrayForEach(it, ns) {
		if (parse_pod_ref(s, it, &r.nominated[r.nnominated], "a nominated pod") < 0)
			goto fail;
		r.nnominated++;
	}
	const char *nominated = NULL;
	char err[256];
	apiq_eval_preempt(&s->ev, &r, &nominated, err, sizeof(err));
	if (nominated)
		cJSON_AddStringToObject(res, "nominatedNodeName", nominated);
	else
		cJSON_AddNullToObject(res, "nominatedNodeName");
	return err[0] ? intern(s, err) : "ok";
fail:
	free(r.victims);
	free(r.nominated);
	free(r.members);
	return NULL;
}

static const char *op_run_async(step_session *s, const cJSON *op, cJSON *res)
{
	apiq_goroutine_result *gr;
	size_t n;
	const char *until = pk_str_or(op, "until", "done");
	if (strcmp(until, "done") && strcmp(until, "lastVictim")) {
		bad_op(s, "runAsync: \"until\" must be \"done\" or \"lastVictim\"");
		return NULL;
	}
	apiq_eval_run_async(&s->ev, !strcmp(until, "lastVictim"), &gr, &n);
	cJSON *a = cJSON_AddArrayToObject(res, "goroutines");
	for (size_t i = 0; i < n; i++) {
		cJSON *g = cJSON_CreateObject();
		cJSON_AddStringToObject(g, "preemptor", gr[i].preemptor);
		cJSON_AddStringToObject(g, "result", gr[i].error ? "error" : "success");
		if (gr[i].error)
			cJSON_AddStringToObject(g, "error", gr[i].message);
		cJSON_AddItemToArray(a, g);
	}
	free(gr);
	return "ok";
}

static const char *uid_of(step_session *s, const cJSON *op, const char *opname)
{
	const char *uid = pk_str(op, "uid");
	if (!uid)
		bad_op(s, "%s needs a string field \"uid\"", opname);
	return uid ? intern(s, uid) : NULL;
}

/* Replays one operation; NULL result = malformed (already reported). */
static const char *dispatch(step_session *s, const char *name, const cJSON *op, cJSON *res)
{
	const char *uid;
	if (!strcmp(name, "add"))
		return op_add(s, op, res);
	if (!strcmp(name, "pop"))
		return op_pop(s);
	if (!strcmp(name, "execute"))
		return op_execute(s, op, res);
	if (!strcmp(name, "finalize"))
		return op_finalize(s, op);
	if (!strcmp(name, "sync"))
		return op_sync(s, op, res);
	if (!strcmp(name, "close")) {
		apiq_queue_close(&s->q);
		s->waiting_pops = 0;  /* blocked poppers return nil */
		return "ok";
	}
	if (!strcmp(name, "preempt"))
		return op_preempt(s, op, res);
	if (!strcmp(name, "runAsync"))
		return op_run_async(s, op, res);
	if (!strcmp(name, "isPodRunningPreemption")) {
		if (!(uid = uid_of(s, op, name)))
			return NULL;
		cJSON_AddBoolToObject(res, "running", apiq_eval_is_running(&s->ev, uid));
		return "ok";
	}
	if (!strcmp(name, "preEnqueue")) {
		if (!(uid = uid_of(s, op, name)))
			return NULL;
		const char *group = pk_str(op, "podGroupUID");
		const char *st = apiq_eval_pre_enqueue(&s->ev, uid, group ? intern(s, group) : NULL);
		cJSON_AddStringToObject(res, "status", st ? st : "Success");
		return "ok";
	}
	if (!strcmp(name, "victimDeleted")) {
		if (!(uid = uid_of(s, op, name)))
			return NULL;
		apiq_eval_pod_deleted(&s->ev, uid);
		return "ok";
	}
	if (!strcmp(name, "victimTerminating")) {
		if (!(uid = uid_of(s, op, name)))
			return NULL;
		apiq_eval_pod_terminating(&s->ev, uid);
		return "ok";
	}
	bad_op(s, "unknown operation \"%s\"", name);
	return NULL;
}

static void reset_op_output(step_session *s)
{
	cJSON_Delete(s->onfinish);
	cJSON_Delete(s->dropped);
	cJSON_Delete(s->requests);
	cJSON_Delete(s->dispatched);
	cJSON_Delete(s->conditions);
	s->conditions = cJSON_CreateArray();
	s->onfinish = cJSON_CreateObject();
	s->dropped = cJSON_CreateObject();
	s->requests = cJSON_CreateArray();
	s->dispatched = cJSON_CreateArray();
	s->popped = NULL;
}

static void replay(step_session *s, const cJSON *op)
{
	const char *name = pk_str(op, "op");
	s->seq++;
	if (!cJSON_IsObject(op) || !name) {
		bad_op(s, "operation must be an object with a string field \"op\"");
		pk_stats_reject(&s->stats, "operation");
		return;
	}
	reset_op_output(s);
	cJSON *extra = cJSON_CreateObject();
	const char *result = dispatch(s, name, op, extra);
	if (!result) {
		pk_stats_reject(&s->stats, name);
		cJSON_Delete(extra);
		return;
	}
	s->stats.used++;
	cJSON *res = cJSON_CreateObject();
	cJSON_AddNumberToObject(res, "seq", (double)s->seq);
	cJSON_AddStringToObject(res, "op", name);
	if (pk_str(op, "call"))
		cJSON_AddStringToObject(res, "call", pk_str(op, "call"));
	if (pk_str(op, "uid"))
		cJSON_AddStringToObject(res, "uid", pk_str(op, "uid"));
	cJSON_AddStringToObject(res, "result", result);
	while (extra->child) {
		cJSON *it = cJSON_DetachItemViaPointer(extra, extra->child);
		cJSON_AddItemToObject(res, it->string, it);
	}
	cJSON_Delete(extra);
	if (cJSON_GetArraySize(s->dispatched))
		cJSON_AddItemToObject(res, "dispatched", cJSON_Duplicate(s->dispatched, 1));
	cJSON_AddItemToObject(res, "onFinish", cJSON_Duplicate(s->onfinish, 1));
	if (s->dropped->child)
		cJSON_AddItemToObject(res, "onFinishDropped", cJSON_Duplicate(s->dropped, 1));
	if (s->popped)
		cJSON_AddStringToObject(res, "popped", s->popped);
	else
		cJSON_AddNullToObject(res, "popped");
	if (!strcmp(name, "pop") && !s->popped && s->waiting_pops > 0)
		cJSON_AddBoolToObject(res, "blocked", true);
	cJSON_AddItemToObject(res, "state", state_json(s));
	pk_cli_add_k8s_version(s->cli, res);
	pk_out_json(&s->out, res);
	cJSON_Delete(res);
}

static int on_record(void *ctx, pk_record *rec)
{
	step_session *s = ctx;
	if (pk_cli_report_record_problem(s->cli, rec)) {
		s->stats.errors++;
		s->trouble = true;
		return 0;
	}
	if (rec->type != PK_REC_OBJECT)
		return 0;
	s->stats.read++;
	s->rec = rec;
	replay(s, rec->obj);
	return s->out.failed ? 1 : 0;
}

int apiq_step_main(pk_cli *cli, const apiq_types *types, const apiq_gates *gates,
                   char *const *paths, size_t npaths)
{
	step_session s;
	memset(&s, 0, sizeof(s));
	s.cli = cli;
	s.types = types;
	s.gates = *gates;
	s.pool = pk_strtab_new();
	apiq_hooks h = {&s, hook_relevance, hook_merge, hook_is_noop, hook_finish, hook_release};
	apiq_preempt_env env = {&s, env_request, env_clear_nomination, gates->async_api_calls};
	apiq_queue_init(&s.q, &h);
	apiq_eval_init(&s.ev, gates->async_preemption, &env);
	pk_out_init(&s.out, stdout);
	reset_op_output(&s);
	int rc = pk_read_paths(&cli->reader, paths, npaths, on_record, &s);
	if (rc < 0)
		s.trouble = true;
	/* the results are written as the operations come: an input read whole
	 * closes them, a cut one leaves them open for the next stage to see */
	if (rc >= 0 && cli->input_errors == 0)
		pk_cli_stream_end(cli, &s.out);
	if (cli->stats)
		pk_stats_print(&s.stats, cli->prog, stderr);
	int st = pk_out_finish(&s.out, &cli->diag);
	/* popped calls never finalized: drop the executor's references */
	for (size_t i = 0; i < s.nby_label; i++)
		if (s.by_label[i] && s.by_label[i]->held) {
			s.by_label[i]->held = false;
			apiq_call_unref(&s.q, &s.by_label[i]->x.base);
		}
	apiq_queue_free(&s.q);
	apiq_eval_free(&s.ev);
	cJSON_Delete(s.onfinish);
	cJSON_Delete(s.dropped);
	cJSON_Delete(s.requests);
	cJSON_Delete(s.conditions);
	cJSON_Delete(s.dispatched);
	free(s.by_label);
	pk_strtab_free(s.pool);
	if (st != PK_EXIT_OK || s.trouble)
		return PK_EXIT_TROUBLE;
	return PK_EXIT_OK;
}
