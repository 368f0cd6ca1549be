/* What happens to every object between its parser and the tool: positions,
 * duplicate keys, numbers JSON cannot carry exactly, and delivery. */
#include "io/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/alloc.h"
#include "base/hash.h"
#include "io/writer.h"

/* ---- posmap ------------------------------------------------------------- */

pk_posmap *pk_posmap_new(void)
{
	return pk_xcalloc(1, sizeof(pk_posmap));
}

static size_t slot_of(const pk_posmap *m, const cJSON *node)
{
	return (size_t)pk_hash_ptr(node) & (m->cap - 1);
}

static void posmap_grow(pk_posmap *m)
{
	pk_posmap bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	bigger.slots = pk_xcalloc(bigger.cap, sizeof *bigger.slots);
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].node)
			pk_posmap_put(&bigger, m->slots[i].node, m->slots[i].line, m->slots[i].col);
	free(m->slots);
	*m = bigger;
}

void pk_posmap_put(pk_posmap *m, const cJSON *node, long line, long col)
{
	if (!m || !node)
		return;
	if ((m->count + 1) * 2 > m->cap)
		posmap_grow(m);
	if (!m->cap)
		return;
	size_t i = slot_of(m, node);
	while (m->slots[i].node && m->slots[i].node != node)
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].node)
		m->count++;
	m->slots[i] = (pk_pos){ node, line, col };
}

bool pk_posmap_get(const pk_posmap *m, const cJSON *node, long *line, long *col)
{
	if (!m || !m->cap || !node)
		return false;
	for (size_t i = slot_of(m, node); m->slots[i].node; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].node == node) {
			*line = m->slots[i].line;
			*col = m->slots[i].col;
			return true;
		}
	return false;
}

void pk_posmap_free(pk_posmap *m)
{
	if (m) {
		free(m->slots);
		free(m);
	}
}

/* ---- JSON text / tree lockstep walk -------------------------------------- */

typedef struct textpos {
	const char *p, *end;
	long line, col;
} textpos;

static void tp_advance(textpos *t)
{
	if (*t->p == '\n') {
		t->line++;
		t->col = 1;
	} else if (((unsigned char)*t->p & 0xC0) != 0x80) {
		t->col++;    /* columns count characters, not UTF-8 continuation bytes */
	}
	t->p++;
}

static void tp_skip_ws(textpos *t)
{
	while (t->p < t->end && (*t->p == ' ' || *t->p == '\t' || *t->p == '\n' || *t->p == '\r'))
		tp_advance(t);
}

static void tp_skip_string(textpos *t)
{
	tp_advance(t); /* opening quote */
	while (t->p < t->end && *t->p != '"') {
		if (*t->p == '\\' && t->p + 1 < t->end)
			tp_advance(t);
		tp_advance(t);
	}
	if (t->p < t->end)
		tp_advance(t);
}

static void tp_skip_scalar(textpos *t)
{
	while (t->p < t->end && !strchr(" \t\r\n,]}", *t->p))
		tp_advance(t);
}

/* Skip a string or another scalar; false (nothing skipped) at '{' or '['. */
static bool tp_skip_leaf(textpos *t)
{
	if (*t->p == '"')
		tp_skip_string(t);
	else if (*t->p != '{' && *t->p != '[')
		tp_skip_scalar(t);
	else
		return false;
	return true;
}

static void tp_walk(pk_posmap *m, const cJSON *node, textpos *t, int depth)
{
	tp_skip_ws(t);
	if (t->p >= t->end || depth > 2000)
		return;
	pk_posmap_put(m, node, t->line, t->col);
	if (tp_skip_leaf(t))
		return;
	int is_obj = *t->p == '{';
	tp_advance(t);
	for (const cJSON *c = node->child; c; c = c->next) {
		tp_skip_ws(t);
		if (is_obj) {          /* key, ':' */
			if (t->p < t->end && *t->p == '"')
				tp_skip_string(t);
			tp_skip_ws(t);
			if (t->p < t->end && *t->p == ':')
				tp_advance(t);
		}
		tp_walk(m, c, t, depth + 1);
		tp_skip_ws(t);
		if (t->p < t->end && *t->p == ',')
			tp_advance(t);
	}
	tp_skip_ws(t);
	if (t->p < t->end)
		tp_advance(t); /* closing bracket */
}

void pk_posmap_from_json_text(pk_posmap *m, const cJSON *obj, const char *text, size_t len,
                              long line0, long col0)
{
	textpos t = { text, text + len, line0, col0 };
	tp_walk(m, obj, &t, 0);
}

/* ---- member positions in JSON text (the error path) ---------------------- */

/* Skip one JSON value of any kind; brackets are counted, strings skipped. */
static void tp_skip_value(textpos *t)
{
	tp_skip_ws(t);
	if (t->p >= t->end || tp_skip_leaf(t))
		return;
	long depth = 0;
	while (t->p < t->end) {
		char c = *t->p;
		if (c == '"') {
			tp_skip_string(t);
			continue;
		}
		tp_advance(t);
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0)
			return;
	}
}

/* Inside an object at '{': move to the value of the last member named
 * key[0..n) (the one a decoder keeps). False if there is none. */
static bool tp_member(textpos *t, const char *key, size_t n)
{
	textpos found = {0};
	bool have = false;
	tp_advance(t);
	for (;;) {
		tp_skip_ws(t);
		if (t->p >= t->end || *t->p != '"')
			break;
		const char *k = t->p + 1;
		tp_skip_string(t);
		bool match = (size_t)(t->p - 1 - k) == n && memcmp(k, key, n) == 0;
		tp_skip_ws(t);
		if (t->p < t->end && *t->p == ':')
			tp_advance(t);
		tp_skip_ws(t);
		if (match) {
			found = *t;
			have = true;
		}
		tp_skip_value(t);
		tp_skip_ws(t);
		if (t->p >= t->end || *t->p != ',')
			break;
		tp_advance(t);
	}
	if (have)
		*t = found;
	return have;
}

/* Inside an array at '[': move to element idx. */
static bool tp_element(textpos *t, long idx)
{
	tp_advance(t);
	for (long i = 0;; i++) {
		tp_skip_ws(t);
		if (t->p >= t->end || *t->p == ']')
			return false;
		if (i == idx)
			return true;
		tp_skip_value(t);
		tp_skip_ws(t);
		if (t->p >= t->end || *t->p != ',')
			return false;
		tp_advance(t);
	}
}

size_t pk_json_locate(const char *text, size_t len, long line, long col, const char *path, pk_origin *at)
{
	textpos t = { text, text + len, line, col };
	while (t.p < t.end && (t.line < at->line || (t.line == at->line && t.col < at->col)))
		tp_advance(&t);
	size_t start = (size_t)(t.p - text);
	tp_skip_ws(&t);
	while (path && *path && t.p < t.end) {
		size_t n = strcspn(path, ".[");
		if (n) {
			if (!(*t.p == '{' && tp_member(&t, path, n)))
				return start;
			at->line = t.line;
			at->col = t.col;
		}
		path += n;
		while (*path == '[') {
			char *close;
			long idx = strtol(path + 1, &close, 10);
			if (*close != ']' || !(t.p < t.end && *t.p == '[' && tp_element(&t, idx)))
				return start;
			at->line = t.line;
			at->col = t.col;
			path = close + 1;
		}
		if (*path == '.')
			path++;
	}
	return start;
}

/* ---- checks done on every object ---------------------------------------- */

typedef struct walkctx {
	int report_duplicates;
	const pk_posmap *pos;
	long line, col;                                 /* the object's own position */
	pk_finding **tail;                              /* where the next finding goes */
	int nfound;
	const cJSON *chain[PK_DEFAULT_MAX_DEPTH + 2];   /* the nodes from the root down */
	int depth;
	char path[1024];
	int stop;
} walkctx;

/* "spec.containers[0].name" for the current chain, only when needed. */
static void format_path(walkctx *w)
{
	size_t n = 0;
	w->path[0] = '\0';
	for (int i = 1; i < w->depth && n < sizeof w->path - 24; i++) {
		const cJSON *parent = w->chain[i - 1], *node = w->chain[i];
		if (cJSON_IsArray(parent)) {
			long idx = 0;
			for (const cJSON *c = parent->child; c && c != node; c = c->next)
				idx++;
			n += (size_t)snprintf(w->path + n, sizeof w->path - n, "[%ld]", idx);
		} else {
			n += (size_t)snprintf(w->path + n, sizeof w->path - n, "%s%s", n ? "." : "", node->string);
		}
	}
}

static void warn_at(walkctx *w, const cJSON *node, pk_err_type et, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn_at(walkctx *w, const cJSON *node, pk_err_type et, const char *fmt, ...)
{
	va_list ap;
	pk_finding *f = pk_xcalloc(1, sizeof *f);

	if (++w->nfound >= 1000)
		w->stop = 1;   /* enough said about one object */
	f->et = et;
	f->line = w->line;
	f->col = w->col;
	pk_posmap_get(w->pos, node, &f->line, &f->col);
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof f->message, fmt, ap);
	va_end(ap);
	format_path(w);
	snprintf(f->field, sizeof f->field, "%s", w->path);
	*w->tail = f;
	w->tail = &f->next;
}

/* A member and its place among its siblings: equal names sort in document
 * order (addresses say nothing about it once malloc reuses memory). */
typedef struct member_at {
	const cJSON *node;
	int index;
} member_at;

static int cmp_names(const void *a, const void *b)
{
	const member_at *x = a, *y = b;
	int c = strcmp(x->node->string, y->node->string);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void report_duplicate(walkctx *w, const cJSON *dup)
{
	w->chain[w->depth++] = dup;
	warn_at(w, dup, PK_ERR_DUPLICATE_FIELD, "duplicate field \"%s\"", dup->string);
	w->depth--;
}

/* A member name's signature, one of 64 from its first three bytes: equal
 * names have equal signatures. */
static unsigned name_signature(const char *name)
{
	const unsigned char *k = (const unsigned char *)name;
	unsigned h = k[0] * 31u;
	if (k[0])
		h += k[1] * 7u + (k[1] ? k[2] : 0u);
	return h & 63u;
}

/* Duplicate keys: objects of up to 64 members by name signatures, larger
 * ones through a sorted copy. */
static void check_duplicates(walkctx *w, const cJSON *obj)
{
	enum { FEW = 64 };
	int n = 0;
	for (const cJSON *c = obj->child; c; c = c->next)
		n++;
	if (n < 2)
		return;
	if (n <= FEW) {
		/* each member compared only with the earlier ones of its
		 * signature: most have none (but "name" and "namespace" share one) */
		const cJSON *member[FEW];
		unsigned char sig[FEW];
		uint64_t seen = 0;
		int i = 0;
		for (const cJSON *c = obj->child; c && !w->stop; c = c->next, i++) {
			member[i] = c;
			sig[i] = (unsigned char)name_signature(c->string);
			uint64_t bit = 1ull << sig[i];
			if (seen & bit)
				for (int j = 0; j < i; j++)
					if (sig[j] == sig[i] && strcmp(member[j]->string, c->string) == 0) {
						report_duplicate(w, c);    /* the later occurrence */
						break;
					}
			seen |= bit;
		}
		return;
	}
	/* more: sorted by name, the later occurrences marked, then reported in
	 * document order */
	member_at *v = pk_xmalloc((size_t)n * sizeof *v);
	bool *later = pk_xcalloc((size_t)n, sizeof *later);
	int i = 0;
	for (const cJSON *c = obj->child; c; c = c->next, i++)
		v[i] = (member_at){ c, i };
	qsort(v, (size_t)n, sizeof *v, cmp_names);
	for (i = 1; i < n; i++)
		if (strcmp(v[i].node->string, v[i - 1].node->string) == 0)
			later[v[i].index] = true;
	i = 0;
	for (const cJSON *c = obj->child; c && !w->stop; c = c->next, i++)
		if (later[i])
			report_duplicate(w, c);
	free(v);
	free(later);
}

#define EXACT_LIMIT 9007199254740992.0

static void check_number(walkctx *w, const cJSON *node)
{
	double d = node->valuedouble;
	if (!isfinite(d))
		warn_at(w, node, PK_ERR_TYPE, "number is out of range");
	else if (fabs(d) > EXACT_LIMIT && d == floor(d))
		warn_at(w, node, PK_ERR_TYPE, "integer %.17g is beyond 2^53 and cannot be kept exactly", d);
}

/* node is an object or an array: its numbers checked, its objects for
 * duplicate names, recursively. Strings and literals are passed over
 * without a call: they are most of a tree. */
static void check_tree(walkctx *w, const cJSON *node)
{
	if ((node->type & 0xFF) == cJSON_Object && w->report_duplicates)
		check_duplicates(w, node);
	if (w->depth > PK_DEFAULT_MAX_DEPTH)
		return;
	for (const cJSON *c = node->child; c && !w->stop; c = c->next) {
		int type = c->type & 0xFF;
		if (type != cJSON_Number && type != cJSON_Object && type != cJSON_Array)
			continue;
		w->chain[w->depth++] = c;
		if (type == cJSON_Number)
			check_number(w, c);
		else
			check_tree(w, c);
		w->depth--;
	}
}

static const char *json_type_name(const cJSON *v)
{
	if (cJSON_IsArray(v)) return "a sequence";
	if (cJSON_IsString(v)) return "a string";
	if (cJSON_IsNumber(v)) return "a number";
	if (cJSON_IsBool(v)) return "a boolean";
	return "a scalar";
}

void pk_sink_begin_list(pk_sink *s, const cJSON *env)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(env, "kind");
	const cJSON *api = cJSON_GetObjectItemCaseSensitive(env, "apiVersion");

	s->list_kind[0] = s->list_api[0] = '\0';
	s->top_sequence = env == NULL;
	if (cJSON_IsString(kind)) {
		size_t n = strlen(kind->valuestring);
		if (n > 4 && n < sizeof s->list_kind && strcmp(kind->valuestring + n - 4, "List") == 0) {
			memcpy(s->list_kind, kind->valuestring, n - 4);
			s->list_kind[n - 4] = '\0';
			if (s->opts && s->opts->list_begun)
				s->opts->list_begun(s->ctx, s->list_kind);
		}
	}
	if (cJSON_IsString(api) && strlen(api->valuestring) < sizeof s->list_api)
		strcpy(s->list_api, api->valuestring);
}

static void fill_list_identity(const pk_sink *s, cJSON *obj)
{
	if (!s->list_kind[0] || cJSON_GetObjectItemCaseSensitive(obj, "kind"))
		return;
	cJSON_AddStringToObject(obj, "kind", s->list_kind);
	if (s->list_api[0] && !cJSON_GetObjectItemCaseSensitive(obj, "apiVersion"))
		cJSON_AddStringToObject(obj, "apiVersion", s->list_api);
}

pk_finding *pk_check_object(const pk_reader_opts *opts, const cJSON *obj, const pk_posmap *pos, long line, long col)
{
	pk_finding *head = NULL;
	walkctx w = { .report_duplicates = opts->report_duplicates, .pos = pos, .line = line, .col = col,
	              .tail = &head, .depth = 1 };

	if (!cJSON_IsObject(obj))
		return NULL;
	w.chain[0] = obj;
	check_tree(&w, obj);
	return head;
}

static bool is_stream_end(const cJSON *obj)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(obj, "kind");
	return cJSON_IsString(kind) && strcmp(kind->valuestring, PK_STREAM_END_KIND) == 0;
}

static void free_findings(pk_finding *found)
{
	if (found == PK_NOT_CHECKED)
		return;
	for (pk_finding *f = found, *next; f; f = next) {
		next = f->next;
		free(f);
	}
}

int pk_sink_object(pk_sink *s, cJSON *obj, pk_posmap *pos, long line, long col, long item, long doc,
                   int in_list)
{
	return pk_sink_checked_object(s, obj, pos, line, col, item, doc, in_list, PK_NOT_CHECKED);
}

int pk_sink_checked_object(pk_sink *s, cJSON *obj, pk_posmap *pos, long line, long col, long item, long doc,
                           int in_list, pk_finding *found)
{
	int in_sequence = in_list && s->top_sequence;
	pk_record rec = {
		.type = PK_REC_OBJECT, .obj = obj, .pos = pos,
		.origin = { s->file, line, col, item, doc }, .in_list = in_list, .in_sequence = in_sequence,
		.text = s->text, .text_len = s->text_len,
	};

	if (cJSON_IsNull(obj)) {           /* empty / null documents are skipped, as kubectl does */
		cJSON_Delete(obj);
		pk_posmap_free(pos);
		return 0;
	}
	if (!cJSON_IsObject(obj)) {
		char msg[160];
		snprintf(msg, sizeof msg, "document is %s, not a mapping (a Kubernetes object)", json_type_name(obj));
		pk_record bad = { .type = PK_REC_ERROR, .obj = obj, .origin = rec.origin, .err_type = PK_ERR_PARSE,
		                  .message = msg, .in_list = in_list, .in_sequence = in_sequence };
		s->input_errors++;
		s->stop = s->fn(s->ctx, &bad);
		cJSON_Delete(bad.obj);
		pk_posmap_free(pos);
		return s->stop;
	}
	if (s->opts->stream_end_of && is_stream_end(obj)) {
		/* the closing record of the stage before: taken, not delivered */
		s->input_closed = 1;
		free_findings(found);
		if (s->dispose)
			s->dispose(s->dispose_ctx, obj);
		else
			cJSON_Delete(obj);
		pk_posmap_free(pos);
		return 0;
	}
	s->input_closed = 0;
	if (in_list)
		fill_list_identity(s, obj);
	if (found == PK_NOT_CHECKED)
		found = pk_check_object(s->opts, obj, pos, line, col);
	int stop = 0;
	for (pk_finding *f = found, *next; f; f = next) {
		next = f->next;
		pk_origin at = { .line = f->line, .col = f->col };
		if (!pos && s->text && f->field[0])   /* JSON: the member, not the object */
			pk_json_locate(s->text, s->text_len, line, col, f->field, &at);
		if (!stop)
			stop = pk_sink_error(s, PK_REC_WARNING, f->et, at.line, at.col, item, doc, f->field, "%s", f->message);
		free(f);
	}
	if (!stop && s->lim.max_records && s->records >= s->lim.max_records) {
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_LIMIT, line, col, item, doc, NULL,
		              "more than %ld objects (--max-records)", s->lim.max_records);
		stop = s->stop = -1;
	}
	if (!stop) {
		s->records++;
		s->input_records++;
		s->stop = s->fn(s->ctx, &rec);
	}
	if (s->dispose && rec.obj)
		s->dispose(s->dispose_ctx, rec.obj);
	else
		cJSON_Delete(rec.obj);
	pk_posmap_free(pos);
	return s->stop;
}

int pk_sink_error(pk_sink *s, pk_rec_type type, pk_err_type et, long line, long col, long item,
                  long doc, const char *field, const char *fmt, ...)
{
	char msg[1400];
	va_list ap;

	if (s->stop)      /* the callback has asked to stop: it hears nothing more */
		return s->stop;
	if (type == PK_REC_ERROR)
		s->input_errors++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pk_record rec = {
		.type = type, .origin = { s->file, line, col, item, doc },
		.err_type = et, .message = msg, .field = field && *field ? field : NULL,
	};
	s->stop = s->fn(s->ctx, &rec);
	return s->stop;
}

/* ---- positions for tools ------------------------------------------------ */

pk_origin pk_record_node_origin(const pk_record *rec, const cJSON *node)
{
	pk_origin o = rec->origin;
	long line, col;
	if (pk_posmap_get(rec->pos, node, &line, &col)) {
		o.line = line;
		o.col = col;
	}
	return o;
}

/* Step one path segment: "name", "name[3]" or "[3]". */
static const cJSON *path_step(const cJSON *node, const char **pp)
{
	const char *p = *pp;
	char key[256];
	size_t n = 0;

	while (*p && *p != '.' && *p != '[' && n + 1 < sizeof key)
		key[n++] = *p++;
	key[n] = '\0';
	if (n) {
		const cJSON *found = NULL;
		for (const cJSON *c = cJSON_IsObject(node) ? node->child : NULL; c; c = c->next)
			if (strcmp(c->string, key) == 0)
				found = c;
		node = found;
	}
	while (node && *p == '[') {
		long idx = strtol(p + 1, (char **)&p, 10);
		if (*p == ']')
			p++;
		node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, (int)idx) : NULL;
	}
	if (*p == '.')
		p++;
	*pp = p;
	return node;
}

pk_origin pk_record_path_origin(const pk_record *rec, const char *path)
{
	const cJSON *node = rec->obj, *best = rec->obj;
	long line, col;

	if (!rec->pos && rec->text) {
		pk_origin at = rec->origin;
		pk_json_locate(rec->text, rec->text_len, at.line, at.col, path, &at);
		return at;
	}
	while (node && path && *path) {
		node = path_step(node, &path);
		if (node && pk_posmap_get(rec->pos, node, &line, &col))
			best = node;
	}
	return pk_record_node_origin(rec, best);
}

/* ---- UTF-8 --------------------------------------------------------------- */

size_t pk_utf8_check(const unsigned char *p, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = p[i];
		if (c < 0x80) {
			/* plain ASCII: 64 bytes at a time where SSE2 is there (every
			 * x86-64), then eight at a time */
#if defined(__SSE2__)
			while (i + 64 <= len) {
				const __m128i *v = (const __m128i *)(const void *)(p + i);
				__m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1)),
				                           _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3)));
				if (_mm_movemask_epi8(any))
					break;
				i += 64;
			}
#endif
			while (i + 8 <= len) {
				uint64_t word;
				memcpy(&word, p + i, 8);
				if (word & 0x8080808080808080ull)
					break;
				i += 8;
			}
			if (i < len && p[i] < 0x80)
				i++;
			continue;
		}
		size_t n;
		uint32_t cp;
		if (c >= 0xC2 && c <= 0xDF) n = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF) n = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4) n = 3, cp = c & 0x07;
		else return i;
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (p[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (p[i + k] & 0x3F);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n + 1;
	}
	return len;
}
