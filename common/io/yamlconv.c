/* YAML input through libyaml's event API, typed as kubectl types it
 * (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1 resolution), into cJSON trees.
 *  - aliases are expanded here (libyaml does not), within a budget, so an
 *    alias bomb fails fast with little memory;
 *  - nesting depth is bounded (libyaml 0.2.5 has no limit of its own);
 *  - merge keys (<<) are applied as go-yaml v2 does;
 *  - every node's position is kept for diagnostics;
 *  - the items of a List document are delivered one by one as they complete;
 *  - after a syntax error, reading resumes at the next "---" line. */
#include "io/internal.h"
#include "base/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <yaml.h>

/* ---- input: a window over the file so that we can restart after errors -- */

typedef struct yin {
	int fd;
	char *buf;
	size_t base, len, cap;   /* buf holds [base, base+len) */
	size_t handed;           /* absolute offset handed to libyaml so far */
	int eof, err;
	size_t record_start;     /* absolute offset where the record being read starts */
	size_t limit;            /* --max-record-bytes */
	int too_large;           /* the record went past the limit: nothing more was handed */
} yin;

/* How far past a record's limit libyaml may read ahead before the record
 * is taken as too large (its own buffers read ahead a few kB); the exact
 * check is made on the record's events. */
#define YIN_LOOKAHEAD ((size_t)64 << 10)

#define YIN_KEEP (1u << 20)  /* bytes kept behind the parser for resync */

static int yin_fill(yin *in)
{
	if (in->eof || in->err)
		return 0;
	/* slide the window once the bytes behind it are as many as those
	 * kept: a pipe gives 64 kB a read, and moving the 1 MB kept at each
	 * read made reading a pipe 16 times the copying of reading a file */
	size_t drop = in->handed > in->base + YIN_KEEP ? in->handed - YIN_KEEP - in->base : 0;
	if (drop > 0 && drop >= in->len - drop) {
		memmove(in->buf, in->buf + drop, in->len - drop);
		in->base += drop;
		in->len -= drop;
	}
	in->buf = pk_grow(in->buf, &in->cap, in->len + 65536, 1);
	for (;;) {
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			in->err = errno;
			return -1;
		}
		if (n == 0)
			in->eof = 1;
		in->len += (size_t)n;
		return (int)(n > 0);
	}
}

static int read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	yin *in = data;

	if (in->handed > in->record_start && in->handed - in->record_start > in->limit + YIN_LOOKAHEAD) {
		in->too_large = 1;    /* one huge scalar would be buffered whole by libyaml */
		return 0;
	}

	while (in->handed >= in->base + in->len && !in->eof && !in->err)
		if (yin_fill(in) < 0)
			break;
	if (in->err)
		return 0;
	size_t avail = in->base + in->len - in->handed;
	if (avail > size)
		avail = size;
	memcpy(buffer, in->buf + (in->handed - in->base), avail);
	in->handed += avail;
	*size_read = avail;
	return 1;
}

/* ---- the tree builder --------------------------------------------------- */

typedef struct frame {
	cJSON *node;
	int is_map;
	char *key;                /* pending key of a mapping */
	int key_is_merge;
	char *anchor;             /* anchor to register when the node completes */
	int stream_items;         /* this is the root List's "items" sequence */
	pk_posmap *pos;           /* positions of this item (streamed items) */
	const cJSON **merged;     /* members that came from a merge key: later keys replace them */
	int nmerged;
	size_t mergedcap;
	long key_line, key_col;   /* where the pending key stands */
} frame;

typedef struct anchor {
	char *name;
	cJSON *copy;
	long nodes;
} anchor;

typedef struct ybuild {
	pk_sink *sink;
	frame *stack;
	int depth;
	size_t cap;               /* of stack */
	cJSON *root;
	pk_posmap *docpos;
	long doc_line, doc_col;
	long doc;
	long item_index;
	int list_seen;            /* root has an "items" sequence */
	anchor *anchors;
	int nanchors;
	size_t acap;
	long nodes, alias_nodes;
	long line_offset;         /* lines before a restart point */
	size_t byte_offset;       /* bytes before a restart point */
	yaml_mark_t record;       /* where the record being built starts (parser's marks) */
	int too_large;            /* it is larger than --max-record-bytes */
	int failed;               /* this document hit a limit: skip to its end */
	char err[300];
} ybuild;

static pk_posmap *current_pos(ybuild *b)
{
	for (int i = b->depth - 1; i >= 0; i--)
		if (b->stack[i].pos)
			return b->stack[i].pos;
	return b->docpos;
}

/* ---- YAML 1.1 scalar resolution, as go-yaml v2 does it ---------------- */

static int is_one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(s, *words) == 0)
			return 1;
	return 0;
}

/* go-yaml v2 strips '_' from numbers before parsing them (1_000 = 1000). */
static int strip_underscores(const char *s, char *clean, size_t size)
{
	size_t n = 0;
	for (; *s && n + 1 < size; s++)
		if (*s != '_')
			clean[n++] = *s;
	clean[n] = '\0';
	return *s == '\0';   /* 0: too long to be a number we resolve */
}

static int parse_int_base0(const char *s, double *out)
{
	char clean[128];
	if (!strip_underscores(s, clean, sizeof clean))
		return 0;
	const char *p = clean;
	int neg = 0;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!*p)
		return 0;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	if (!*p)
		return 0;
	double v = 0;
	unsigned long long exact = 0;
	int overflow = 0;
	for (; *p; p++) {
		int d;
		if (*p >= '0' && *p <= '9') d = *p - '0';
		else if (*p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
		else return 0;
		if (d >= base)
			return 0;
		if (exact > (~0ULL - (unsigned)d) / (unsigned)base)
			overflow = 1;
		exact = exact * (unsigned)base + (unsigned)d;
		v = v * base + d;
	}
	if (overflow && base != 10)
		return 0;             /* go: not an int; not a float either */
	*out = neg ? -(overflow ? v : (double)exact) : (overflow ? v : (double)exact);
	return 1;
}

static int parse_float_11(const char *s, double *out)
{
	/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ with '_' removed */
	char clean[128];
	if (!strip_underscores(s, clean, sizeof clean))
		return 0;
	const char *p = clean;
	if (*p == '+' || *p == '-')
		p++;
	int digits = 0;
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++)
			digits++;
		if (!digits)
			return 0;
	} else {
		for (; *p >= '0' && *p <= '9'; p++)
			digits++;
		if (!digits)
			return 0;
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		int ed = 0;
		for (; *p >= '0' && *p <= '9'; p++)
			ed++;
		if (!ed)
			return 0;
	}
	if (*p)
		return 0;
	*out = strtod(clean, NULL);
	return 1;
}

static cJSON *resolve_plain(const char *s)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
	static const char *const trues[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
	                                    "on", "On", "ON", NULL};
	static const char *const falses[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE",
	                                     "off", "Off", "OFF", NULL};
	static const char *const infs[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL};
	static const char *const ninfs[] = {"-.inf", "-.Inf", "-.INF", NULL};
	static const char *const nans[] = {".nan", ".NaN", ".NAN", NULL};
	double d;

	if (is_one_of(s, nulls))
		return cJSON_CreateNull();
	if (is_one_of(s, trues))
		return cJSON_CreateTrue();
	if (is_one_of(s, falses))
		return cJSON_CreateFalse();
	if (strchr("+-.0123456789", s[0])) {
		if (parse_int_base0(s, &d) || parse_float_11(s, &d))
			return cJSON_CreateNumber(d);
		if (is_one_of(s, infs))
			return cJSON_CreateNumber(INFINITY);
		if (is_one_of(s, ninfs))
			return cJSON_CreateNumber(-INFINITY);
		if (is_one_of(s, nans))
			return cJSON_CreateNumber(NAN);
	}
	return cJSON_CreateString(s);
}

static cJSON *scalar_value(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	const char *tag = (const char *)ev->data.scalar.tag;

	if (tag && (strcmp(tag, YAML_STR_TAG) == 0 || strcmp(tag, "!") == 0))
		return cJSON_CreateString(v);
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE && !tag)
		return cJSON_CreateString(v);
	return resolve_plain(v);
}

/* A mapping key as sigs.k8s.io/yaml turns it into a JSON member name. */
static char *key_text(const yaml_event_t *ev)
{
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return pk_xstrdup((const char *)ev->data.scalar.value);
	cJSON *v = resolve_plain((const char *)ev->data.scalar.value);
	char buf[64];
	const char *s = (const char *)ev->data.scalar.value;
	if (cJSON_IsBool(v))
		s = cJSON_IsTrue(v) ? "true" : "false";
	else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
		if (v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 1e18)
			snprintf(buf, sizeof buf, "%.0f", v->valuedouble);
		s = buf;
	} else if (cJSON_IsNull(v))
		s = "null";
	cJSON_Delete(v);
	return pk_xstrdup(s);
}

/* ---- tree operations ---------------------------------------------------- */

static long count_nodes(const cJSON *n, long cap)
{
	long c = 1;
	for (const cJSON *k = n->child; k && c <= cap; k = k->next)
		c += count_nodes(k, cap - c);
	return c;
}

/* The member of f that a merge key set under key, or -1. A merged key is
 * the only member of that name (merge_into skips keys set explicitly, and
 * an explicit key replaces a merged one), so a key that is not in the short
 * merged list needs no lookup among all members: a mapping of n keys is
 * built in O(n), not O(n^2). */
static int merged_index(const frame *f, const char *key)
{
	for (int i = 0; i < f->nmerged; i++)
		if (strcmp(f->merged[i]->string, key) == 0)
			return i;
	return -1;
}

static void forget_merged(frame *f, int i)
{
	f->merged[i] = f->merged[--f->nmerged];
}

/* An explicit key replaces a merged one; a repeated explicit key is kept
 * twice so that the duplicate check reports it. */
static void set_member(frame *f, const char *key, cJSON *value)
{
	int i = merged_index(f, key);
	if (i >= 0) {
		cJSON_ReplaceItemViaPointer(f->node, (cJSON *)f->merged[i], value);
		value->string = pk_xstrdup(key);
		forget_merged(f, i);
		return;
	}
	cJSON_AddItemToObject(f->node, key, value);
}

static void merge_into(frame *f, const cJSON *src)
{
	for (const cJSON *c = src->child; c; c = c->next) {
		int i = merged_index(f, c->string);
		if (i < 0 && cJSON_GetObjectItemCaseSensitive(f->node, c->string))
			continue;            /* keys already set explicitly win */
		if (i >= 0) {
			cJSON_Delete(cJSON_DetachItemViaPointer(f->node, (cJSON *)f->merged[i]));
			forget_merged(f, i);
		}
		cJSON *copy = cJSON_Duplicate(c, 1);
		cJSON_AddItemToObject(f->node, c->string, copy);
		f->merged = pk_grow(f->merged, &f->mergedcap, (size_t)f->nmerged + 1, sizeof *f->merged);
		f->merged[f->nmerged++] = copy;
	}
}

static int fail(ybuild *b, const yaml_mark_t *m, const char *msg)
{
	if (!b->failed) {
		b->failed = 1;
		pk_sink_error(b->sink, PK_REC_ERROR, PK_ERR_LIMIT, (long)m->line + 1 + b->line_offset,
		              (long)m->column + 1, -1, b->doc, NULL, "%s", msg);
	}
	return -1;
}

static void free_stack(ybuild *b)
{
	for (int i = 0; i < b->depth; i++) {
		cJSON_Delete(b->stack[i].node);   /* not yet attached to a parent */
		free(b->stack[i].merged);
		free(b->stack[i].key);
		free(b->stack[i].anchor);
		pk_posmap_free(b->stack[i].pos);
	}
	b->depth = 0;
	cJSON_Delete(b->root);
	b->root = NULL;
	pk_posmap_free(b->docpos);
	b->docpos = NULL;
}

static void free_anchors(ybuild *b)
{
	for (int i = 0; i < b->nanchors; i++) {
		free(b->anchors[i].name);
		cJSON_Delete(b->anchors[i].copy);
	}
	b->nanchors = 0;
	b->nodes = b->alias_nodes = 0;
}

static void register_anchor(ybuild *b, char *name, const cJSON *node)
{
	b->anchors = pk_grow(b->anchors, &b->acap, (size_t)b->nanchors + 1, sizeof *b->anchors);
	/* a copy: the node itself may be delivered and freed before its alias */
	b->anchors[b->nanchors++] = (anchor){ name, cJSON_Duplicate(node, 1),
	                                      count_nodes(node, b->sink->lim.max_alias_expansions + 1) };
}

static const anchor *find_anchor(const ybuild *b, const char *name)
{
	for (int i = b->nanchors - 1; i >= 0; i--)   /* later anchors shadow earlier ones */
		if (strcmp(b->anchors[i].name, name) == 0)
			return &b->anchors[i];
	return NULL;
}

/* Deliver a completed item of the root List. */
static void deliver_item(ybuild *b, cJSON *node, pk_posmap *pos, long line, long col)
{
	pk_sink_object(b->sink, node, pos, line, col, b->item_index++, b->doc, 1);
}

/* Attach a completed node to its parent (or make it the root). */
static int attach(ybuild *b, cJSON *node, pk_posmap *itempos, const yaml_mark_t *m)
{
	long line = (long)m->line + 1 + b->line_offset, col = (long)m->column + 1;

	if (b->depth == 0) {
		b->root = node;
		return 0;
	}
	frame *parent = &b->stack[b->depth - 1];
	if (parent->stream_items) {
		deliver_item(b, node, itempos, line, col);
		return b->sink->stop ? -1 : 0;
	}
	if (!parent->is_map) {
		cJSON_AddItemToArray(parent->node, node);
		return 0;
	}
	if (!parent->key) {   /* a non-scalar key: go-yaml cannot turn it into JSON */
		cJSON_Delete(node);
		return fail(b, m, "unsupported map key: a mapping or sequence used as a key");
	}
	if (parent->key_is_merge && (cJSON_IsObject(node) || cJSON_IsArray(node))) {
		if (cJSON_IsObject(node))
			merge_into(parent, node);
		else
			for (const cJSON *c = node->child; c; c = c->next)
				if (cJSON_IsObject(c))
					merge_into(parent, c);
		cJSON_Delete(node);
		free(parent->key);
	} else {
		set_member(parent, parent->key, node);
		free(parent->key);
	}
	parent->key = NULL;
	return 0;
}

static int push(ybuild *b, cJSON *node, int is_map, const yaml_event_t *ev, const yaml_char_t *anchor_name)
{
	long line = (long)ev->start_mark.line + 1 + b->line_offset, col = (long)ev->start_mark.column + 1;

	if (b->depth >= b->sink->lim.max_depth) {
		cJSON_Delete(node);
		return fail(b, &ev->start_mark, "nesting is too deep (--max-depth)");
	}
	b->stack = pk_grow(b->stack, &b->cap, (size_t)b->depth + 1, sizeof *b->stack);
	frame *parent = b->depth ? &b->stack[b->depth - 1] : NULL;
	frame *f = &b->stack[b->depth];
	/* a block mapping or sequence under a key starts on the next line:
	 * report it where its key stands, as a reader looks for it */
	if (parent && parent->is_map && parent->key) {
		line = parent->key_line;
		col = parent->key_col;
	}
	*f = (frame){ .node = node, .is_map = is_map,
	              .anchor = anchor_name ? pk_xstrdup((const char *)anchor_name) : NULL };
	if (parent && parent->stream_items) {
		f->pos = pk_posmap_new();
		b->list_seen = 1;
		b->record = ev->start_mark;   /* an item of a List: a record of its own */
	}
	/* the root mapping's "items" sequence is streamed */
	if (!is_map && b->depth == 1 && parent && parent->is_map && parent->key &&
	    strcmp(parent->key, "items") == 0 && !b->list_seen) {
		f->stream_items = 1;
		b->item_index = 0;
		pk_sink_begin_list(b->sink, parent->node);
	}
	if (!parent && !is_map) {   /* a top-level sequence: its elements are the records */
		f->stream_items = 1;
		b->item_index = 0;
		pk_sink_begin_list(b->sink, NULL);
	}
	b->depth++;
	pk_posmap_put(current_pos(b), node, line, col);
	return 0;
}

static int pop(ybuild *b, const yaml_event_t *ev)
{
	frame f = b->stack[--b->depth];
	yaml_mark_t start = ev->start_mark;

	if (f.anchor)
		register_anchor(b, f.anchor, f.node);
	free(f.key);
	free(f.merged);
	if (f.stream_items) {
		/* the items were delivered; what remains is an empty list */
		f.stream_items = 0;
	}
	long line = 0, col = 0;
	if (f.pos)
		pk_posmap_get(f.pos, f.node, &line, &col);
	if (f.pos) {
		start.line = (size_t)(line - 1 - b->line_offset);
		start.column = (size_t)(col - 1);
	}
	return attach(b, f.node, f.pos, &start);
}

static int on_scalar(ybuild *b, const yaml_event_t *ev)
{
	frame *parent = b->depth ? &b->stack[b->depth - 1] : NULL;
	long line = (long)ev->start_mark.line + 1 + b->line_offset, col = (long)ev->start_mark.column + 1;

	if (parent && parent->is_map && !parent->key) {
		parent->key = key_text(ev);
		parent->key_line = line;
		parent->key_col = col;
		parent->key_is_merge = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		                       strcmp((const char *)ev->data.scalar.value, "<<") == 0;
		return 0;
	}
	cJSON *v = scalar_value(ev);
	b->nodes++;
	pk_posmap *pos = NULL;
	if (parent && parent->stream_items)
		pos = pk_posmap_new();
	pk_posmap_put(pos ? pos : current_pos(b), v, line, col);
	if (ev->data.scalar.anchor)
		register_anchor(b, pk_xstrdup((const char *)ev->data.scalar.anchor), v);
	return attach(b, v, pos, &ev->start_mark);
}

/* go-yaml's rule: fail when aliases do most of the work of a large document. */
static int alias_budget_ok(const ybuild *b)
{
	long total = b->nodes + b->alias_nodes;
	if (b->alias_nodes > b->sink->lim.max_alias_expansions)
		return 0;
	if (total > 400000 && b->alias_nodes > 100 && (double)b->alias_nodes / (double)total > 0.99)
		return 0;
	return 1;
}

static int on_alias(ybuild *b, const yaml_event_t *ev)
{
	const anchor *a = find_anchor(b, (const char *)ev->data.alias.anchor);
	frame *parent = b->depth ? &b->stack[b->depth - 1] : NULL;

	if (!a) {
		char msg[200];
		snprintf(msg, sizeof msg, "unknown anchor '%.100s' referenced", ev->data.alias.anchor);
		return fail(b, &ev->start_mark, msg);
	}
	b->alias_nodes += a->nodes;
	if (!alias_budget_ok(b))
		return fail(b, &ev->start_mark, "document contains excessive aliasing (--max-alias-expansions)");
	if (parent && parent->is_map && !parent->key) {
		if (!cJSON_IsString(a->copy) && !cJSON_IsNumber(a->copy) && !cJSON_IsBool(a->copy))
			return fail(b, &ev->start_mark, "unsupported map key: an alias of a mapping or sequence");
		char buf[64];
		if (cJSON_IsString(a->copy))
			parent->key = pk_xstrdup(a->copy->valuestring);
		else {
			snprintf(buf, sizeof buf, cJSON_IsBool(a->copy) ? (cJSON_IsTrue(a->copy) ? "true" : "false") : "%.17g",
			         a->copy->valuedouble);
			parent->key = pk_xstrdup(buf);
		}
		parent->key_is_merge = 0;
		return 0;
	}
	cJSON *copy = cJSON_Duplicate(a->copy, 1);
	if (!copy)
		pk_out_of_memory();
	pk_posmap *pos = parent && parent->stream_items ? pk_posmap_new() : NULL;
	pk_posmap_put(pos ? pos : current_pos(b), copy, (long)ev->start_mark.line + 1 + b->line_offset,
	              (long)ev->start_mark.column + 1);
	return attach(b, copy, pos, &ev->start_mark);
}

static void end_document(ybuild *b)
{
	if (!b->failed && b->root) {
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(b->root, "kind");
		if (b->list_seen || (b->root && cJSON_IsArray(b->root))) {
			if (cJSON_IsString(kind)) {
				size_t n = strlen(kind->valuestring);
				if (n < 4 || strcmp(kind->valuestring + n - 4, "List") != 0)
					pk_sink_error(b->sink, PK_REC_WARNING, PK_ERR_TYPE, b->doc_line, b->doc_col, -1, b->doc,
					              "items", "a %s with an \"items\" array was read as a list of objects",
					              kind->valuestring);
			}
			cJSON_Delete(b->root);
			pk_posmap_free(b->docpos);
		} else {
			pk_sink_object(b->sink, b->root, b->docpos, b->doc_line, b->doc_col, -1, b->doc, 0);
		}
		b->root = NULL;
		b->docpos = NULL;
	}
	free_stack(b);
	free_anchors(b);
	b->failed = 0;
	b->list_seen = 0;
	b->doc++;
}

static int record_too_large(ybuild *b)
{
	char msg[200];
	snprintf(msg, sizeof msg, "the object here is larger than %zu bytes (--max-record-bytes): it and the rest "
	         "of this input are not read", b->sink->lim.max_record_bytes);
	b->too_large = 1;
	return fail(b, &b->record, msg);
}

static int on_event(ybuild *b, const yaml_event_t *ev)
{
	if (b->failed && ev->type != YAML_DOCUMENT_END_EVENT && ev->type != YAML_STREAM_END_EVENT)
		return 0;
	if (b->depth == 0 && (ev->type == YAML_MAPPING_START_EVENT || ev->type == YAML_SEQUENCE_START_EVENT ||
	                      ev->type == YAML_SCALAR_EVENT || ev->type == YAML_DOCUMENT_START_EVENT ||
	                      ev->type == YAML_DOCUMENT_END_EVENT))
		b->record = ev->start_mark;   /* a document is a record, or the List of them */
	if (ev->end_mark.index > b->record.index && ev->end_mark.index - b->record.index > b->sink->lim.max_record_bytes)
		return record_too_large(b);
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		b->docpos = pk_posmap_new();
		b->doc_line = (long)ev->start_mark.line + 1 + b->line_offset;
		b->doc_col = (long)ev->start_mark.column + 1;
		return 0;
	case YAML_DOCUMENT_END_EVENT:
		end_document(b);
		return 0;
	case YAML_MAPPING_START_EVENT:
		b->nodes++;
		if (b->depth == 0) {
			b->doc_line = (long)ev->start_mark.line + 1 + b->line_offset;
			b->doc_col = (long)ev->start_mark.column + 1;
		}
		return push(b, cJSON_CreateObject(), 1, ev, ev->data.mapping_start.anchor);
	case YAML_SEQUENCE_START_EVENT:
		b->nodes++;
		return push(b, cJSON_CreateArray(), 0, ev, ev->data.sequence_start.anchor);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		return pop(b, ev);
	case YAML_SCALAR_EVENT:
		if (b->depth == 0) {
			b->doc_line = (long)ev->start_mark.line + 1 + b->line_offset;
			b->doc_col = (long)ev->start_mark.column + 1;
		}
		return on_scalar(b, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	default:
		return 0;
	}
}

/* After a syntax error at `at`, find the start of the next document: the
 * next "---" line at or after `at` and after `min`. The text is looked at
 * once, a line at a time, and only the line being looked at is kept: the
 * scan is linear and its memory constant however far the next document
 * is (a pipe gives 64 kB a read; scanning from `at` again after each read
 * made a 100 MB input take a minute). */
static int find_restart(yin *in, size_t at, size_t *restart, long *lines_skipped, size_t min)
{
	if (at < in->base)
		return 0;
	while (at > in->base && at > min && in->buf[at - in->base - 1] != '\n')
		at--;   /* the error may sit inside the "---" line itself */
	size_t pos = at;      /* absolute offset of the next byte to look at */
	bool line_start = at == 0 || (at > in->base && in->buf[at - in->base - 1] == '\n');
	long lines = 0;       /* newlines in [at, pos) */
	for (;;) {
		size_t end = in->base + in->len;
		while (pos < end) {
			const char *p = in->buf + (pos - in->base);
			if (line_start) {
				bool more = !in->eof && !in->err;
				if (pos + 3 > end || (pos + 3 == end && more))
					break;      /* the line's first bytes are still to come */
				if (memcmp(p, "---", 3) == 0 && (pos + 3 == end || strchr(" \t\r\n", p[3])) && pos >= min) {
					*restart = pos;
					*lines_skipped = lines;
					return 1;
				}
			}
			const char *nl = memchr(p, '\n', end - pos);
			line_start = nl != NULL;
			if (nl) {
				lines++;
				pos += (size_t)(nl - p) + 1;
			} else {
				pos = end;
			}
		}
		if (pos + 3 > end && pos < end && (in->eof || in->err))
			return 0;       /* a last line too short to be "---" */
		if (in->eof || in->err)
			return 0;
		/* only bytes from pos on can still be needed */
		size_t drop = pos - in->base;
		memmove(in->buf, in->buf + drop, in->len - drop);
		in->base += drop;
		in->len -= drop;
		in->handed = in->base + in->len;
		in->buf = pk_grow(in->buf, &in->cap, in->len + 65536, 1);
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			in->err = errno;
			return 0;
		}
		if (n == 0)
			in->eof = 1;
		in->len += (size_t)n;
	}
}

int pk_yaml_stream(pk_sink *s, int fd, const char *prefix, size_t nprefix)
{
	yin in = { .fd = fd };
	ybuild b = { .sink = s };
	size_t start = 0;          /* absolute offset this parser started at */
	long start_line = 0;       /* 0-based line of `start` */
	int errors = 0;

	in.limit = s->lim.max_record_bytes;
	in.cap = nprefix + (1 << 18);
	in.buf = pk_xmalloc(in.cap);
	memcpy(in.buf, prefix, nprefix);
	in.len = nprefix;
	for (;;) {
		yaml_parser_t parser;
		yaml_event_t ev;
		int done = 0;

		in.handed = start;
		in.record_start = start;
		b.line_offset = start_line;
		b.byte_offset = start;
		b.record = (yaml_mark_t){ 0 };
		yaml_parser_initialize(&parser);
		yaml_parser_set_input(&parser, read_handler, &in);
		while (!done && !s->stop) {
			if (!yaml_parser_parse(&parser, &ev)) {
				size_t at = start + parser.problem_mark.index;
				long line = (long)parser.problem_mark.line + 1 + start_line;
				long col = (long)parser.problem_mark.column + 1;
				if (in.too_large)
					record_too_large(&b);
				else if (in.err)
					pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, b.doc, NULL,
					              "read error: %s", strerror(in.err));
				else if (parser.context)
					pk_sink_error(s, PK_REC_ERROR, PK_ERR_PARSE, line, col, -1, b.doc, NULL,
					              "YAML: %s %s (line %ld, column %ld)", parser.problem ? parser.problem : "syntax error",
					              parser.context, (long)parser.context_mark.line + 1 + start_line,
					              (long)parser.context_mark.column + 1);
				else
					pk_sink_error(s, PK_REC_ERROR, PK_ERR_PARSE, line, col, -1, b.doc, NULL,
					              "YAML: %s", parser.problem ? parser.problem : "syntax error");
				free_stack(&b);
				free_anchors(&b);
				b.failed = 0;
				b.list_seen = 0;
				b.doc++;
				size_t restart;
				long skipped;
				long err_line0 = start_line + (long)parser.problem_mark.line;
				if (in.too_large || in.err || ++errors >= 100 || err_line0 < 0 ||
				    !find_restart(&in, at, &restart, &skipped, start + 1)) {
					done = 2;
				} else {
					start_line = err_line0 + skipped;
					start = restart;
					done = 3;
				}
				break;
			}
			if (ev.type == YAML_STREAM_END_EVENT)
				done = 1;
			else
				on_event(&b, &ev);
			yaml_event_delete(&ev);
			in.record_start = b.byte_offset + b.record.index;
			if (b.failed && b.too_large) {
				done = 2;     /* a clear stop, as the JSON reader makes */
				break;
			}
			if (b.failed && !done) {
				/* A limit was hit: do not let libyaml wade through the rest
				 * of a hostile document (its simple-key bookkeeping is
				 * quadratic in flow depth); go on at the next document. */
				size_t restart;
				long skipped;
				size_t at = start + parser.mark.index;
				long line0 = start_line + (long)parser.mark.line;
				free_stack(&b);
				free_anchors(&b);
				b.failed = 0;
				b.list_seen = 0;
				b.doc++;
				if (++errors >= 100 || !find_restart(&in, at, &restart, &skipped, at + 1)) {
					done = 2;
				} else {
					start_line = line0 + skipped;
					start = restart;
					done = 3;
				}
				break;
			}
		}
		yaml_parser_delete(&parser);
		if (done != 3)
			break;
	}
	free_stack(&b);
	free_anchors(&b);
	free(b.anchors);
	free(b.stack);
	free(in.buf);
	return 0;
}
