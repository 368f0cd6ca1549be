/* Records built into a cJSON tree or straight into compact text; see emit.h. */
#include "io/emit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void pk_emit_text(pk_emit *e)
{
	memset(e, 0, sizeof *e);
	e->text = true;
	e->cap = 1024;
	e->buf = pk_xmalloc(e->cap);
}

void pk_emit_tree(pk_emit *e)
{
	memset(e, 0, sizeof *e);
}

/* ---- text ------------------------------------------------------------------------ */

static char *room(pk_emit *e, size_t n)
{
	if (n > SIZE_MAX - e->len - 1)
		pk_out_of_memory();
	e->buf = pk_grow(e->buf, &e->cap, e->len + n + 1, 1);
	return e->buf + e->len;
}

static void put(pk_emit *e, const char *s, size_t n)
{
	memcpy(room(e, n), s, n);
	e->len += n;
}

static void put_char(pk_emit *e, char c)
{
	*room(e, 1) = c;
	e->len++;
}

/* The bytes cJSON escapes in a string: '"', '\\' and the controls. */
static bool plain(unsigned char c)
{
	return c >= 32 && c != '"' && c != '\\';
}

/* A quoted string escaped as cJSON's print_string_ptr does it: the seven
 * short escapes, other controls as \u00xx, everything else as it is. */
static void put_quoted(pk_emit *e, const char *s, size_t n)
{
	put_char(e, '"');
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (run < n && plain((unsigned char)s[run]))
			run++;
		put(e, s + i, run - i);
		if (run == n)
			break;
		unsigned char c = (unsigned char)s[run];
		char esc[8];
		switch (c) {
		case '"': put(e, "\\\"", 2); break;
		case '\\': put(e, "\\\\", 2); break;
		case '\b': put(e, "\\b", 2); break;
		case '\f': put(e, "\\f", 2); break;
		case '\n': put(e, "\\n", 2); break;
		case '\r': put(e, "\\r", 2); break;
		case '\t': put(e, "\\t", 2); break;
		default:
			snprintf(esc, sizeof esc, "\\u%04x", c);
			put(e, esc, 6);
		}
		i = run + 1;
	}
	put_char(e, '"');
}

/* What comes before a value: the comma, and the key inside an object. */
static void text_lead(pk_emit *e, const char *key)
{
	if (e->comma)
		put_char(e, ',');
	if (key) {
		put_quoted(e, key, strlen(key));
		put_char(e, ':');
	}
	e->comma = true;
}

static void put_int(pk_emit *e, int64_t v)
{
	char digits[24];
	int n = 0;
	uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	char *p = room(e, (size_t)n + 1);
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = digits[--n];
	e->len = (size_t)(p - e->buf);
}

/* As cJSON prints a number (%1.15g, or %1.17g when that loses it): an
 * integer of at most 15 digits is its digits (the common case, done here;
 * not -0, printed "-0"), anything else cJSON's own way, so let it. */
static void put_number(pk_emit *e, double v)
{
	if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v && !(v == 0 && signbit(v))) {
		put_int(e, (int64_t)v);
		return;
	}
	cJSON *n = cJSON_CreateNumber(v);
	char *s = n ? cJSON_PrintUnformatted(n) : NULL;
	if (!s)
		pk_out_of_memory();
	put(e, s, strlen(s));
	free(s);
	cJSON_Delete(n);
}

/* ---- tree ------------------------------------------------------------------------ */

/* Add item under key to the container open now (or make it the root). */
static void tree_add(pk_emit *e, const char *key, cJSON *item)
{
	if (!item)
		pk_out_of_memory(); /* cJSON could not allocate it */
	if (e->depth == 0) {
		cJSON_Delete(e->root);
		e->root = item;
	} else if (key) {
		cJSON_AddItemToObject(e->open[e->depth - 1], key, item);
	} else {
		cJSON_AddItemToArray(e->open[e->depth - 1], item);
	}
}

/* ---- both ------------------------------------------------------------------------ */

static void begin(pk_emit *e, const char *key, bool object)
{
	if (e->depth == PK_EMIT_DEPTH)
		abort();    /* a record's shape is the program's, not the input's */
	if (e->text) {
		text_lead(e, key);
		put_char(e, object ? '{' : '[');
		e->close[e->depth++] = object ? '}' : ']';
		e->comma = false;
		return;
	}
	cJSON *c = object ? cJSON_CreateObject() : cJSON_CreateArray();
	tree_add(e, key, c);
	e->open[e->depth++] = c;
}

void pk_emit_object(pk_emit *e, const char *key)
{
	begin(e, key, true);
}

void pk_emit_array(pk_emit *e, const char *key)
{
	begin(e, key, false);
}

void pk_emit_end(pk_emit *e)
{
	if (e->depth == 0)
		abort();
	e->depth--;
	if (e->text) {
		put_char(e, e->close[e->depth]);
		e->comma = true;
	}
}

void pk_emit_string_n(pk_emit *e, const char *key, const char *s, size_t n)
{
	if (!s)
		return;
	if (e->text) {
		text_lead(e, key);
		put_quoted(e, s, n);
		return;
	}
	char *copy = pk_xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	tree_add(e, key, cJSON_CreateString(copy));
	free(copy);
}

void pk_emit_string(pk_emit *e, const char *key, const char *s)
{
	if (s && e->text)
		pk_emit_string_n(e, key, s, strlen(s));
	else if (s)
		tree_add(e, key, cJSON_CreateString(s));
}

void pk_emit_number(pk_emit *e, const char *key, double v)
{
	if (e->text) {
		text_lead(e, key);
		put_number(e, v);
		return;
	}
	tree_add(e, key, cJSON_CreateNumber(v));
}

void pk_emit_bool(pk_emit *e, const char *key, bool b)
{
	if (e->text) {
		text_lead(e, key);
		put(e, b ? "true" : "false", b ? 4 : 5);
		return;
	}
	tree_add(e, key, cJSON_CreateBool(b));
}

void pk_emit_null(pk_emit *e, const char *key)
{
	if (e->text) {
		text_lead(e, key);
		put(e, "null", 4);
		return;
	}
	tree_add(e, key, cJSON_CreateNull());
}

void pk_emit_item(pk_emit *e, const char *key, const cJSON *item)
{
	if (!item)
		return;
	if (!e->text) {
		tree_add(e, key, cJSON_Duplicate(item, 1));
		return;
	}
	char *text = cJSON_PrintUnformatted(item);
	if (!text)
		pk_out_of_memory();
	text_lead(e, key);
	put(e, text, strlen(text));
	free(text);
}

char *pk_emit_text_done(pk_emit *e)
{
	char *s = e->buf;
	s[e->len] = '\0';
	e->buf = NULL;
	return s;
}

cJSON *pk_emit_tree_done(pk_emit *e)
{
	cJSON *root = e->root;
	e->root = NULL;
	return root;
}
