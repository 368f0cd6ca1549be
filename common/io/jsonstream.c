/* JSON input: find the extent of every object with a small bracket/string
 * scanner (no values are decoded here), then let cJSON parse each object's
 * text, in worker threads for large inputs. A List's "items" are cut out one
 * by one, so memory stays bounded by the largest item, not by the List.
 *
 * For a large input three kinds of thread share the work: the scanner cuts
 * the text into batches of objects, the workers parse them, and the
 * calling thread delivers them to the sink in input order (the tool's
 * callback decodes them: it is as much work as scanning). Everything the
 * scanner has to say (errors, the start of a List) travels in the batches
 * too, so the sink hears it in order, from one thread. */
#include "io/internal.h"
#include "k8s/options.h"
#include "io/bytescan.h"
#include "io/jsonstream_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"

/* ---- buffered input with absolute offsets ----------------------------- */

typedef struct src {
	int fd;
	char *buf;
	size_t cap, len;      /* buf holds bytes [base, base+len) */
	size_t base;
	int eof, err;
	size_t limit;         /* how much may be buffered at once */
	off_t file_off;       /* a regular file's offset of the next read, or -1 */
	off_t advised;        /* and how far ahead the kernel was asked to read */
} src;

/* How far ahead of its reads a regular file is asked from the disk. The
 * kernel's own read-ahead (128 kB by default) leaves the scanner, and with
 * it the workers, waiting on the disk wherever pages have left the page
 * cache: on this VM a 6.3 GiB snapshot read again had 3-96 MB to fetch
 * back each run. Asked 32-64 MB ahead, the disk works while the text
 * before is parsed. A pipe or a small file is not asked. */
#define READ_AHEAD ((off_t)64 << 20)

static void read_ahead(src *s)
{
	if (s->file_off < 0 || s->advised - s->file_off >= READ_AHEAD / 2)
		return;
	off_t from = s->advised > s->file_off ? s->advised : s->file_off, to = s->file_off + READ_AHEAD;
	if (posix_fadvise(s->fd, from, to - from, POSIX_FADV_WILLNEED) != 0)
		s->file_off = -1;   /* not a file the kernel reads ahead: stop asking */
	else
		s->advised = to;
}

/* Make byte `at` available, discarding bytes before `keep`. 0 ok, -1 EOF,
 * -2 read error, -3 limit (an object larger than the limit). */
static int src_need(src *s, size_t at, size_t keep)
{
	while (at >= s->base + s->len) {
		if (at > keep && at - keep > s->limit)
			return -3;      /* one record needs more than --max-record-bytes */
		if (s->eof)
			return -1;
		if (s->err)
			return -2;
		if (keep > s->base) {       /* slide the window */
			size_t drop = keep - s->base;
			if (drop > s->len)
				drop = s->len;
			memmove(s->buf, s->buf + drop, s->len - drop);
			s->len -= drop;
			s->base += drop;
		}
		if (s->cap - s->len < 65536) {
			if (s->len > s->limit)
				return -3;
			s->buf = pk_grow(s->buf, &s->cap, s->len + (1 << 20), 1);
		}
		read_ahead(s);
		ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			s->err = errno;
			return -2;
		}
		if (n == 0)
			s->eof = 1;
		s->len += (size_t)n;
		if (s->file_off >= 0)
			s->file_off += n;
	}
	return 0;
}

static int grow(void **ptr, size_t *cap, size_t need, size_t elem);

/* ---- the scanner ------------------------------------------------------- */

typedef struct jscan {
	src in;
	const pk_sink *sink;      /* its opts and limits only: the deliverer owns it */
	pool *pool;
	size_t pos;               /* next byte to look at */
	size_t keep;              /* oldest byte still needed */
	long line;
	size_t line_start;        /* absolute offset of the current line */
	long doc;                 /* top-level value index */
	char *env;                /* a List's members other than items */
	size_t env_len, env_cap;
	int fatal;                /* stop reading this input */
	int stopped;              /* the sink has asked to stop (as last heard) */
	int errors;               /* syntax errors so far in this input */
	int errors_pending;       /* a structural error left the scanner mid-object */
	int out_of_memory;        /* a batch could not grow: said at the end */
	long oom_line, oom_col;
} jscan;

static long col_of(const jscan *j, size_t at)
{
	return (long)(at - j->line_start) + 1;
}

static int peek(jscan *j)
{
	int rc = src_need(&j->in, j->pos, j->keep);
	if (rc)
		return rc;
	return (unsigned char)j->in.buf[j->pos - j->in.base];
}

static void advance(jscan *j)
{
	if (j->in.buf[j->pos - j->in.base] == '\n') {
		j->line++;
		j->line_start = j->pos + 1;
	}
	j->pos++;
}

static int skip_ws(jscan *j)
{
	for (;;) {
		int c = peek(j);
		if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != 0x1E)
			return c;
		advance(j);
	}
}

/* ---- queueing: the scanner's side -------------------------------------- */

/* Hand the filling batch to the parsers (or, without threads, parse and
 * deliver it here), and wait until the next one is free. */
static void submit(jscan *j)
{
	pool *p = j->pool;
	batch *b = &p->ring[p->tail];

	if (b->n == 0)
		return;
	b->end_pos = j->pos;
	if (!p->nthreads) {
		pk_js_parse_batch(p, b);
		pk_js_deliver_batch(p, b);
		j->stopped = p->sink->stop;
		return;
	}
	pthread_mutex_lock(&p->mu);
	b->state = 1;
	b->seq = p->submitted++;
	pthread_cond_broadcast(&p->work);
	p->tail = (p->tail + 1) % p->nring;
	while (p->ring[p->tail].state != 0)
		pthread_cond_wait(&p->freed, &p->mu);
	j->stopped = p->stop;
	pthread_mutex_unlock(&p->mu);
}

static int grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	*ptr = pk_grow(*ptr, cap, need, elem); /* out of memory ends the run */
	return 0;
}

/* Append an item with `len` bytes of text to the filling batch (its
 * callers then submit the batch if it is full). NULL when memory has run
 * out: the scanner stops, and that is said after what was queued before. */
static item *queue(jscan *j, enum item_kind kind, const char *text, size_t len, long line, long col, long index)
{
	batch *b = &j->pool->ring[j->pool->tail];

	if (grow((void **)&b->arena, &b->cap, b->used + len + 1, 1) ||
	    grow((void **)&b->items, &b->icap, b->n + 1, sizeof(item))) {
		j->fatal = 1;
		if (!j->out_of_memory)
			j->out_of_memory = 1, j->oom_line = line, j->oom_col = col;
		return NULL;
	}
	memcpy(b->arena + b->used, text, len);
	item *it = &b->items[b->n++];
	*it = (item){ .kind = kind, .off = b->used, .len = len, .line = line, .col = col, .index = index,
	              .doc = j->doc };
	b->used += len;
	return it;
}

static void submit_if_full(jscan *j)
{
	batch *b = &j->pool->ring[j->pool->tail];
	if (b->used >= BATCH_BYTES || b->n >= BATCH_ITEMS)
		submit(j);
}

static void scan_error(jscan *j, int rc, size_t at, long line, long col, long index, const char *what);

/* Queue the text [start, end) of one object for parsing. */
static void queue_item(jscan *j, size_t start, size_t end, long line, long col, long index, int in_list)
{
	if (end - start > j->in.limit) {   /* read whole already (a small file) */
		scan_error(j, -3, start, line, col, index, NULL);
		return;
	}
	item *it = queue(j, ITEM_OBJECT, j->in.buf + (start - j->in.base), end - start, line, col, index);
	if (it)
		it->in_list = in_list;
	submit_if_full(j);
}

/* Queue an error or warning for the sink, after what is queued already. */
static void notice(jscan *j, pk_rec_type type, pk_err_type et, long line, long col, long index,
                   const char *field, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

static void notice(jscan *j, pk_rec_type type, pk_err_type et, long line, long col, long index,
                   const char *field, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	item *it = queue(j, ITEM_NOTICE, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1, line, col, index);
	if (it) {
		it->notice_type = type;
		it->notice_err = et;
		it->notice_field = field;
	}
	submit_if_full(j);
}

/* Queue the start of a List (env: its members other than items, or NULL
 * for a top-level array); the sink takes its kind for the items. */
static void list_begins(jscan *j, cJSON *env)
{
	item *it = queue(j, ITEM_LIST, "", 0, j->line, col_of(j, j->pos), -1);
	if (it)
		it->obj = env;
	else
		cJSON_Delete(env);
	submit_if_full(j);
}

static void scan_error(jscan *j, int rc, size_t at, long line, long col, long index, const char *what)
{
	j->fatal = rc != 1;     /* structural errors: the caller may resynchronise */
	j->errors_pending = rc == 1;
	if (rc == -2)
		notice(j, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, NULL,
		              "read error: %s", strerror(j->in.err));
	else if (rc == -3)
		notice(j, PK_REC_ERROR, PK_ERR_LIMIT, line, col, index, NULL,
		              "the object here is larger than %zu bytes (--max-record-bytes): it and the rest of "
		              "this input are not read", j->sink->lim.max_record_bytes);
	else if (rc == -1)
		notice(j, PK_REC_ERROR, PK_ERR_PARSE, line, col, index, NULL,
		              "unexpected end of input in %s", what);
	else
		notice(j, PK_REC_ERROR, PK_ERR_PARSE, j->line, col_of(j, at), index, NULL,
		              "%s", what);
}

/* skip_value's fast lane: whole 64-byte blocks classified with bit masks
 * (strings found by the parity of their quotes), taken while a block holds
 * no backslash. Only brackets outside strings are then looked at one by
 * one. Returns 1 when the value ends (*pp just past it), -1 on a structural
 * error (*pp at the byte, *why set), 0 when it leaves the rest to the byte
 * loop: a block with a backslash, or fewer than 64 bytes left. Lines are
 * counted as the byte loop counts them. */
static int skip_blocks(jscan *j, const char *buf, const char **pp, const char *e, unsigned char *stack,
                       int *depth, int max, int *in_str, const char **why)
{
#ifdef PK_HAVE_BLOCK64
	const char *p = *pp;
	while (e - p >= 64) {
		pk_block64 b;
		pk_classify64(p, &b);
		if (b.backslash)
			break;
		unsigned long long inside = pk_prefix_xor(b.quote) ^ (*in_str ? ~0ull : 0);
		unsigned long long bad_nl = b.newline & inside;   /* JSON strings hold no newline */
		int first_bad = bad_nl ? __builtin_ctzll(bad_nl) : 64;
		int stop = -1, rc = 0;
		for (unsigned long long m = (b.open | b.close) & ~inside; m && stop < 0; m &= m - 1) {
			int i = __builtin_ctzll(m);
			if (i > first_bad)
				break;
			char c = p[i];
			if (b.open >> i & 1) {
				if (*depth >= max) {
					*why = "nesting is too deep (--max-depth)";
					stop = i, rc = -1;
				} else {
					stack[(*depth)++] = (unsigned char)c;
				}
			} else if (*depth == 0 || stack[*depth - 1] != (c == '}' ? '{' : '[')) {
				*why = c == '}' ? "unexpected '}'" : "unexpected ']'";
				stop = i, rc = -1;
			} else if (--*depth == 0) {
				stop = i, rc = 1;
			}
		}
		if (stop < 0 && first_bad < 64) {
			*why = "newline inside a string";
			stop = first_bad, rc = -1;
		}
		unsigned long long nl = stop < 0 ? b.newline : b.newline & ((1ull << stop) - 1);
		if (nl) {
			j->line += pk_popcount64(nl);
			j->line_start = j->in.base + (size_t)(p - buf) + (size_t)(63 - __builtin_clzll(nl)) + 1;
		}
		if (stop >= 0) {
			*pp = p + stop + (rc > 0);
			return rc;
		}
		*in_str = (int)(inside >> 63);
		p += 64;
	}
	*pp = p;
#else
	(void)j, (void)buf, (void)pp, (void)e, (void)stack, (void)depth, (void)max, (void)in_str, (void)why;
#endif
	return 0;
}

/* Move past one JSON value starting at pos. Brackets must balance and
 * strings must close; everything else is left to cJSON. Returns 0, or a
 * src_need code, or 1 for a structural error (message in *why).
 * This loop sees every input byte, so it works on the buffer window with
 * plain pointers and only calls out at the window's end. */
static int skip_value(jscan *j, const char **why)
{
	unsigned char stack[PK_DEFAULT_MAX_DEPTH + 1];
	int depth = 0, max = j->sink->lim.max_depth, in_str = 0, escape = 0;
	int c = peek(j);

	if (c < 0)
		return c;
	if (c != '{' && c != '[' && c != '"') {      /* scalar: up to a delimiter */
		while ((c = peek(j)) >= 0 && !strchr(" \t\r\n,]}:", c) && c != 0x1E)
			advance(j);
		return c == -2 || c == -3 ? c : 0;
	}
	if (max > PK_DEFAULT_MAX_DEPTH)
		max = PK_DEFAULT_MAX_DEPTH;
	size_t bytewise_until = 0;   /* a block with a backslash goes through the byte loop */
	for (;;) {
		int rc = src_need(&j->in, j->pos, j->keep);
		if (rc)
			return rc;
		const char *buf = j->in.buf, *p = buf + (j->pos - j->in.base), *e = buf + j->in.len;
		int done = 0;
		while (p < e && !done) {
			if (depth > 0 && !escape && e - p >= 64 && j->in.base + (size_t)(p - buf) >= bytewise_until &&
			    !j->sink->opts->scan_bytewise) {
				int r = skip_blocks(j, buf, &p, e, stack, &depth, max, &in_str, why);
				if (r != 0) {
					j->pos = j->in.base + (size_t)(p - buf);
					return r < 0;
				}
				if (e - p >= 64)
					bytewise_until = j->in.base + (size_t)(p - buf) + 64;
				continue;
			}
			if (escape) {            /* the byte after a backslash */
				escape = 0;
				p++;
				continue;
			}
			if (in_str) {
				p = pk_scan_string(p, e);
				if (p == e)
					break;
				if (*p == '\n') {
					j->pos = j->in.base + (size_t)(p - buf);
					*why = "newline inside a string";
					return 1;
				}
				if (*p == '\\')
					escape = 1;
				else
					in_str = 0, done = depth == 0;
				p++;
				continue;
			}
			const char *last_nl = NULL;
			p = pk_scan_structural(p, e, 0, &j->line, &last_nl);
			if (last_nl)
				j->line_start = j->in.base + (size_t)(last_nl - buf) + 1;
			if (p == e)
				break;
			switch (*p) {
			case '"':
				in_str = 1;
				break;
			case '{':
			case '[':
				if (depth >= max) {
					j->pos = j->in.base + (size_t)(p - buf);
					*why = "nesting is too deep (--max-depth)";
					return 1;
				}
				stack[depth++] = (unsigned char)*p;
				break;
			case '}':
			case ']':
				if (depth == 0 || stack[depth - 1] != (*p == '}' ? '{' : '[')) {
					j->pos = j->in.base + (size_t)(p - buf);
					*why = *p == '}' ? "unexpected '}'" : "unexpected ']'";
					return 1;
				}
				done = --depth == 0;
				break;
			}
			p++;
		}
		j->pos = j->in.base + (size_t)(p - buf);
		if (done)
			return 0;
	}
}

/* After a broken item in a pretty List, look for the next line whose first
 * non-blank character is '{' in the same column as the broken item began. */
static int resync_item(jscan *j, long item_col)
{
	for (;;) {
		int c = peek(j);
		if (c < 0)
			return c;
		advance(j);
		if (c != '\n')
			continue;
		while ((c = peek(j)) == ' ' || c == '\t')
			advance(j);
		if (c == '{' && col_of(j, j->pos) == item_col)
			return 0;
		if (c < 0)
			return c;
	}
}

static void env_add(jscan *j, const char *s, size_t n)
{
	if (grow((void **)&j->env, &j->env_cap, j->env_len + n + 1, 1) == 0) {
		memcpy(j->env + j->env_len, s, n);
		j->env_len += n;
		j->env[j->env_len] = '\0';
	}
}

static void env_add_range(jscan *j, size_t start, size_t end)
{
	env_add(j, j->in.buf + (start - j->in.base), end - start);
}

/* Stream the elements of the array at pos as records. */
static void stream_array(jscan *j, int in_list)
{
	long index = 0;
	int resynced = 0;

	advance(j); /* '[' */
	for (;;) {
		int c = skip_ws(j);
		if (c == ']') {
			advance(j);
			return;
		}
		if (index > 0 && !resynced) {
			if (c != ',') {
				scan_error(j, c < 0 ? c : 1, j->pos, j->line, col_of(j, j->pos), index,
				           c < 0 ? "a list" : "expected ',' or ']' between list items");
				return;
			}
			advance(j);
			c = skip_ws(j);
		}
		size_t start = j->pos;
		long line = j->line, col = col_of(j, start);
		const char *why = "a list item";
		j->keep = start;
		int rc = c < 0 ? c : skip_value(j, &why);
		if (rc == 1) {
			notice(j, PK_REC_ERROR, PK_ERR_PARSE, j->line, col_of(j, j->pos), index,
			              NULL, "%s", why);
			j->keep = j->pos;
			if (resync_item(j, col) < 0) {
				j->fatal = 1;
				return;
			}
			index++;
			resynced = 1;
			continue;
		}
		resynced = 0;
		if (rc) {
			scan_error(j, rc, start, line, col, index, why);
			return;
		}
		queue_item(j, start, j->pos, line, col, index, in_list);
		j->keep = j->pos;
		index++;
		if (j->fatal || j->stopped)
			return;
	}
}

/* A top-level object: a List (streamed) or one object. */
static void top_object(jscan *j)
{
	size_t start = j->pos;
	long line = j->line, col = col_of(j, start);
	int items_seen = 0, members = 0;

	j->keep = start;
	j->env_len = 0;
	advance(j);
	for (;;) {
		int c = skip_ws(j);
		if (c == '}') {
			advance(j);
			break;
		}
		if (members > 0) {
			if (c != ',') {
				scan_error(j, c < 0 ? c : 1, j->pos, line, col, -1,
				           c < 0 ? "an object" : "expected ',' or '}' after an object member");
				return;
			}
			advance(j);
			c = skip_ws(j);
		}
		if (c != '"') {
			scan_error(j, c < 0 ? c : 1, j->pos, line, col, -1,
			           c < 0 ? "an object" : "expected a quoted member name");
			return;
		}
		size_t kstart = j->pos;
		const char *why = "an object";
		int rc = skip_value(j, &why);
		size_t kend = j->pos;
		if (!rc && (c = skip_ws(j)) != ':')
			rc = c < 0 ? c : 1, why = "expected ':' after a member name";
		if (rc) {
			scan_error(j, rc, j->pos, line, col, -1, why);
			return;
		}
		advance(j);
		c = skip_ws(j);
		int is_items = kend - kstart == 7 && memcmp(j->in.buf + (kstart - j->in.base), "\"items\"", 7) == 0;
		if (is_items && c == '[' && !items_seen) {
			/* the members before "items" are still in the buffer: they
			 * are the List's envelope so far */
			size_t a = start + 1, b = kstart;
			while (b > a && strchr(" \t\r\n,", j->in.buf[b - 1 - j->in.base]))
				b--;
			items_seen = 1;
			j->env_len = 0;
			env_add(j, "{", 1);
			env_add_range(j, a, b);
			env_add(j, "}", 1);
			cJSON *head = cJSON_ParseWithLength(j->env, j->env_len);
			list_begins(j, head);
			j->env_len--;
			j->env[j->env_len] = '\0';
			stream_array(j, 1);
			if (j->fatal || j->stopped || j->errors_pending)
				return;
		} else {
			size_t vstart = j->pos;
			if (c < 0 || (rc = skip_value(j, &why)) != 0) {
				scan_error(j, c < 0 ? c : rc, j->pos, line, col, -1, why);
				return;
			}
			if (items_seen) {     /* a List member after its items */
				if (j->env_len > 1)
					env_add(j, ",", 1);
				env_add_range(j, kstart, kend);
				env_add(j, ":", 1);
				env_add_range(j, vstart, j->pos);
			}
		}
		members++;
		if (items_seen)
			j->keep = j->pos;
	}
	if (!items_seen) {
		queue_item(j, start, j->pos, line, col, -1, 0);
		return;
	}
	env_add(j, "}", 1);
	cJSON *env = cJSON_ParseWithLength(j->env, j->env_len);
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(env, "kind");
	if (cJSON_IsString(kind)) {
		size_t n = strlen(kind->valuestring);
		if (n < 4 || strcmp(kind->valuestring + n - 4, "List") != 0) {
			notice(j, PK_REC_WARNING, PK_ERR_TYPE, line, col, -1, "items",
			              "a %s with an \"items\" array was read as a list of objects", kind->valuestring);
		}
	}
	cJSON_Delete(env);
}

static void scan_input(jscan *j)
{
	for (; !j->fatal && !j->stopped; j->doc++) {
		int c = skip_ws(j);
		if (c < 0) {
			if (c != -1)
				scan_error(j, c, j->pos, j->line, col_of(j, j->pos), -1, "input");
			break;
		}
		if (c == '{') {
			top_object(j);
			if (!j->fatal && j->errors_pending) {
				/* NDJSON: go on with the next line that starts with '{' */
				j->errors_pending = 0;
				if (++j->errors >= 100)
					break;
				if (!(peek(j) == '{' && col_of(j, j->pos) == 1) && resync_item(j, 1) < 0)
					break;
			}
		} else if (c == '[') {
			j->keep = j->pos;
			list_begins(j, NULL);
			stream_array(j, 1);
			j->fatal |= j->errors_pending;
		} else {
			size_t start = j->pos;
			long line = j->line, col = col_of(j, start);
			const char *why = "a value";
			j->keep = start;
			int rc = skip_value(j, &why);
			if (rc == 0 && j->pos == start) {
				advance(j);     /* a stray delimiter */
				rc = 1;
			}
			notice(j, PK_REC_ERROR, PK_ERR_PARSE, line, col, -1, NULL,
			              "expected a JSON object, found '%.*s'", (int)(j->pos - start > 20 ? 20 : j->pos - start),
			              j->in.buf + (start - j->in.base));
			if (++j->errors >= 100) {
				notice(j, PK_REC_ERROR, PK_ERR_PARSE, line, col, -1, NULL,
				              "too many errors, giving up on this input");
				break;
			}
			/* NDJSON: carry on with the next line */
			while ((c = peek(j)) >= 0 && c != '\n')
				advance(j);
		}
		j->keep = j->pos;
	}
	submit(j);      /* the last batch */
}

static void *scan_thread(void *arg)
{
	jscan *j = arg;
	pool *p = j->pool;

	scan_input(j);
	pthread_mutex_lock(&p->mu);
	p->scan_done = 1;
	pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void stop_workers(pool *p, int started)
{
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < started; i++)
		pthread_join(p->tid[i], NULL);
}

/* Scan, parse and deliver: on three kinds of thread when there are
 * workers, else all here. */
static void run(jscan *j)
{
	pool *p = j->pool;
	int started = p->nthreads;
	pthread_t scanner;

	if (started && pthread_create(&scanner, NULL, scan_thread, j) == 0) {
		pk_js_deliver_all(p);
		pthread_join(scanner, NULL);
		stop_workers(p, started);
		return;
	}
	stop_workers(p, started);
	p->nthreads = 0;
	p->nring = 1;
	scan_input(j);
}

static int thread_count(const pk_sink *s)
{
	int t = pk_threads_resolve(s->opts->threads, NULL);
	return t <= 1 ? 0 : t;
}

int pk_json_stream(pk_sink *s, int fd, const char *prefix, size_t nprefix)
{
	pool *p = pk_xcalloc(1, sizeof *p);
	jscan j = { .sink = s, .pool = p, .line = 1 };

	if (!p)
		return -1;
	/* a small file is parsed inline: starting threads would cost more */
	struct stat st;
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	int small = regular && st.st_size < (4 << 20);
	j.in.fd = fd;
	j.in.limit = s->lim.max_record_bytes;
	j.in.file_off = regular && !small ? lseek(fd, 0, SEEK_CUR) : -1;
	if (grow((void **)&j.in.buf, &j.in.cap, nprefix + (small ? 65536 + (size_t)st.st_size : (1 << 20)), 1) == 0) {
		memcpy(j.in.buf, prefix, nprefix);
		j.in.len = nprefix;
	}
	p->node_positions = s->opts->node_positions;
	p->prune = s->opts->prune;
	pk_prune_compile(p->prune, &p->prune_set);
	p->opts = s->opts;
	p->max_depth = s->lim.max_depth;
	p->nthreads = small ? 0 : thread_count(s);
	p->nring = p->nthreads ? 2 * p->nthreads : 1;
	p->sink = s;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	pthread_cond_init(&p->freed, NULL);
	for (int i = 0; i < p->nthreads; i++) {
		p->args[i] = (worker_arg){ p, i };
		if (pthread_create(&p->tid[i], NULL, pk_js_worker, &p->args[i]) != 0) {
			p->nthreads = i;
			p->nring = i ? 2 * i : 1;
			break;
		}
	}
	/* a UTF-8 byte order mark is skipped, as kubectl does */
	if (j.in.len >= 3 && memcmp(j.in.buf, "\xEF\xBB\xBF", 3) == 0) {
		j.pos = 3;
		j.line_start = 3;
	}
	run(&j);
	if (p->progress_shown)
		fputs("\r\033[K", stderr);   /* leave the terminal as it was */
	if (j.out_of_memory)
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_LIMIT, j.oom_line, j.oom_col, -1, j.doc, NULL, "out of memory");
	for (int i = 0; i < (int)(sizeof p->ring / sizeof p->ring[0]); i++) {
		free(p->ring[i].arena);
		free(p->ring[i].items);
		free(p->ring[i].scratch);
		pk_js_bury(&p->ring[i]);
		free(p->ring[i].dead);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->freed);
	free(p);
	free(j.in.buf);
	free(j.env);
	return 0;
}
