/* The JSON reader's parse workers and its delivery: the batches the
 * scanner (jsonstream.c) cuts are parsed here by cJSON, in worker threads
 * for large inputs, and handed to the sink in input order by the calling
 * thread; see jsonstream.c's opening comment and jsonstream_int.h. */
#include "io/jsonstream_int.h"
#include "io/bytescan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- parse batches ----------------------------------------------------- */

static void position_in(const char *text, size_t upto, long line, long col, long *oline, long *ocol)
{
	for (size_t i = 0; i < upto; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
			col++;
		}
	}
	*oline = line;
	*ocol = col;
}

static void parse_item(const pool *p, batch *b, item *it)
{
	const char *text = b->arena + it->off;
	size_t bad = pk_utf8_check((const unsigned char *)text, it->len);

	if (bad < it->len) {
		position_in(text, bad, it->line, it->col, &it->err_line, &it->err_col);
		it->err = "invalid UTF-8";
		return;
	}
	const char *end = NULL;
	if (p->prune && !p->node_positions) {
		b->scratch = pk_grow(b->scratch, &b->scratch_cap, it->len + 1, 1); /* out of memory ends the run */
		size_t n = pk_prune_members(text, it->len, b->scratch, &p->prune_set);
		it->obj = cJSON_ParseWithLengthOpts(b->scratch, n, &end, 0);
		if (it->obj)
			return;
		/* broken: parse the text as written, for an exact error position */
	}
	it->obj = cJSON_ParseWithLengthOpts(text, it->len, &end, 0);
	if (!it->obj) {
		size_t at = end && end >= text && end <= text + it->len ? (size_t)(end - text) : 0;
		position_in(text, at, it->line, it->col, &it->err_line, &it->err_col);
		if (at >= it->len)
			snprintf(it->err_buf, sizeof it->err_buf, "invalid JSON: unexpected end of object");
		else
			snprintf(it->err_buf, sizeof it->err_buf, "invalid JSON near '%.*s'",
			         (int)(it->len - at < 20 ? it->len - at : 20), text + at);
		for (char *c = it->err_buf; *c; c++)
			if (*c == '\n' || *c == '\r' || *c == '\t')
				*c = ' ';
		it->err = it->err_buf;
		return;
	}
	if (p->node_positions) {
		it->pos = pk_posmap_new();
		pk_posmap_from_json_text(it->pos, it->obj, text, it->len, it->line, it->col);
	}
}

void pk_js_bury(batch *b)
{
	for (size_t i = 0; i < b->ndead; i++)
		cJSON_Delete(b->dead[i]);
	b->ndead = 0;
}

void pk_js_parse_batch(const pool *p, batch *b)
{
	pk_js_bury(b);
	for (size_t i = 0; i < b->n; i++) {
		item *it = &b->items[i];
		if (it->kind != ITEM_OBJECT)
			continue;
		parse_item(p, b, it);
		it->found = it->obj ? pk_check_object(p->opts, it->obj, it->pos, it->line, it->col) : NULL;
	}
}

/* Worker `id` owns the ring slots id, id + nthreads, ...: the trees a slot's
 * items become are built and, after delivery, freed by the same thread, so
 * each worker's malloc arena stays its own (cross-thread frees cost more CPU
 * than they save on two cores). */
void *pk_js_worker(void *arg)
{
	worker_arg *wa = arg;
	pool *p = wa->p;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		/* its oldest queued batch first: the deliverer waits for the oldest */
		batch *b = NULL;
		for (int k = wa->id; k < p->nring; k += p->nthreads)
			if (p->ring[k].state == 1 && (!b || p->ring[k].seq < b->seq))
				b = &p->ring[k];
		if (!b) {
			if (p->quit)
				break;
			pthread_cond_wait(&p->work, &p->mu);
			continue;
		}
		b->state = 2;
		pthread_mutex_unlock(&p->mu);
		pk_js_parse_batch(p, b);
		pthread_mutex_lock(&p->mu);
		b->state = 3;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- delivery: every call into the sink, in input order ---------------- */

static void dispose_into(void *ctx, cJSON *obj)
{
	batch *b = ctx;
	b->dead = pk_grow(b->dead, &b->dead_cap, b->ndead + 1, sizeof *b->dead);
	b->dead[b->ndead++] = obj;
}

/* "prog: file: 512 MB, 80000 objects" about once a second, on one line. */
static void report_progress(pool *p, size_t pos)
{
	struct timespec now;

	if (!p->sink->opts->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - p->last_progress.tv_sec < 1)
		return;
	if (p->last_progress.tv_sec) {
		fprintf(stderr, "\r%s: %s: %zu MB, %ld objects", p->sink->opts->progress, p->sink->file, pos >> 20,
		        p->sink->records);
		p->progress_shown = 1;
	}
	p->last_progress = now;
}

static void drop_item(item *it)
{
	cJSON_Delete(it->obj);
	pk_posmap_free(it->pos);
	for (pk_finding *f = it->found, *next; f; f = next) {
		next = f->next;
		free(f);
	}
}

static void deliver_item(pool *p, batch *b, item *it)
{
	pk_sink *s = p->sink;

	if (s->stop) {
		drop_item(it);
	} else if (it->kind == ITEM_LIST) {
		pk_sink_begin_list(s, it->obj);
		cJSON_Delete(it->obj);
	} else if (it->kind == ITEM_NOTICE) {
		pk_sink_error(s, it->notice_type, it->notice_err, it->line, it->col, it->index, it->doc,
		              it->notice_field, "%.*s", (int)it->len, b->arena + it->off);
	} else if (it->err) {
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_PARSE, it->err_line, it->err_col, it->index, it->doc, NULL, "%s",
		              it->err);
	} else {
		/* the text stays in the arena until the batch is reused */
		s->text = b->arena + it->off;
		s->text_len = it->len;
		pk_sink_checked_object(s, it->obj, it->pos, it->line, it->col, it->index, it->doc, it->in_list,
		                       it->found);
		s->text = NULL;
	}
	it->obj = NULL;
	it->pos = NULL;
	it->found = NULL;
}

void pk_js_deliver_batch(pool *p, batch *b)
{
	report_progress(p, b->end_pos);
	if (p->nthreads) {
		p->sink->dispose = dispose_into;
		p->sink->dispose_ctx = b;
	}
	for (size_t i = 0; i < b->n; i++)
		deliver_item(p, b, &b->items[i]);
	p->sink->dispose = NULL;
	b->n = 0;
	b->used = 0;
}

void pk_js_deliver_all(pool *p)
{
	for (;;) {
		batch *b = &p->ring[p->head];
		pthread_mutex_lock(&p->mu);
		while (b->state != 3 && !(p->scan_done && p->delivered == p->submitted))
			pthread_cond_wait(&p->done, &p->mu);
		int finished = b->state != 3;
		pthread_mutex_unlock(&p->mu);
		if (finished)
			return;
		pk_js_deliver_batch(p, b);
		pthread_mutex_lock(&p->mu);
		b->state = 0;
		p->delivered++;
		p->stop = p->sink->stop;
		pthread_cond_broadcast(&p->freed);
		pthread_mutex_unlock(&p->mu);
		p->head = (p->head + 1) % p->nring;
	}
}
