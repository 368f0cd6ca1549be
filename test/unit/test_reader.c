/* The reader: formats, List streaming, positions, YAML typing as kubectl
 * types it (go-yaml v2 / YAML 1.1), limits. */
#include "t.h"
#include <stdint.h>
#include <stdlib.h>
#include "io/reader.h"
#include "io/internal.h"
#include "k8s/json.h"

static cJSON *yaml(const char *text)
{
	char err[300];
	return pk_parse_yaml_text(text, strlen(text), err, sizeof err);
}

static char *yaml_json(const char *text)
{
	cJSON *o = yaml(text);
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	return s;
}

static void typed(const char *yaml_text, const char *want)
{
	char *got = yaml_json(yaml_text);
	CHECK_STR(got, want, "YAML %s -> %s (got %s)", yaml_text, want, got ? got : "(null)");
	free(got);
}

typedef struct collect {
	int objects, errors, warnings;
	char names[16][64];
	long lines[16];
	char last_error[300];
} collect;

static int on_record(void *ctx, pk_record *rec)
{
	collect *c = ctx;
	if (rec->type == PK_REC_OBJECT) {
		if (c->objects < 16) {
			snprintf(c->names[c->objects], 64, "%s/%s", pk_kind(rec->obj), pk_name(rec->obj));
			c->lines[c->objects] = rec->origin.line;
		}
		c->objects++;
	} else if (rec->type == PK_REC_ERROR) {
		c->errors++;
		snprintf(c->last_error, sizeof c->last_error, "%ld:%ld %s", rec->origin.line, rec->origin.col, rec->message);
	} else {
		c->warnings++;
	}
	return 0;
}

static collect read_text_opts(const char *text, pk_reader_opts o)
{
	char path[] = "/tmp/pk-reader-XXXXXX";
	int fd = mkstemp(path);
	collect c = {0};
	if (fd < 0)
		return c;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	char *paths[] = { path };
	pk_read_paths(&o, paths, 1, on_record, &c);
	remove(path);
	return c;
}

static int same_collect(const collect *a, const collect *b)
{
	if (a->objects != b->objects || a->errors != b->errors || a->warnings != b->warnings ||
	    strcmp(a->last_error, b->last_error) != 0)
		return 0;
	for (int i = 0; i < a->objects && i < 16; i++)
		if (strcmp(a->names[i], b->names[i]) != 0 || a->lines[i] != b->lines[i])
			return 0;
	return 1;
}

/* The List scanner skips whole 64-byte blocks where it can: damaged
 * Lists (brackets, quotes, backslashes and newlines inserted, removed or
 * swapped, texts cut short) must read exactly as with the byte loop alone -
 * the same objects, errors and positions. */
static void test_block_scanner(void)
{
	char base[24000];
	size_t len = 0;
	len += (size_t)snprintf(base + len, sizeof base - len, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
	for (int i = 0; i < 30; i++)
		len += (size_t)snprintf(base + len, sizeof base - len,
		                        "        {\n            \"kind\": \"Pod\",\n            \"metadata\": {\n"
		                        "                \"name\": \"p%d\",\n                \"labels\": {\"a\": \"%.*s\"},\n"
		                        "                \"annotations\": {\"n\": \"%s\"}\n            },\n"
		                        "            \"spec\": {\"c\": [[1, 2], {\"x\": \"[{]}\"}]}\n        }%s\n",
		                        i, i * 3 % 70, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		                        i % 5 == 0 ? "q \\\" b \\\\" : "plain", i < 29 ? "," : "");
	len += (size_t)snprintf(base + len, sizeof base - len, "    ],\n    \"kind\": \"List\"\n}\n");
	static const char special[] = "{}[]\"\\\n,: x";
	unsigned long long r = 88172645463325252ull;
	int same = 0, runs = 600, broken = 0;
	char *t = malloc(len + 16);
	for (int n = 0; n < runs; n++) {
		memcpy(t, base, len + 1);
		size_t tl = len;
		for (int k = 0; k < 1 + n % 4; k++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			size_t at = (size_t)(r % tl);
			int op = (int)(r >> 40) % 3;
			char ch = special[(r >> 20) % (sizeof special - 1)];
			if (op == 0) {          /* insert */
				memmove(t + at + 1, t + at, tl - at + 1);
				t[at] = ch;
				tl++;
			} else if (op == 1) {   /* remove */
				memmove(t + at, t + at + 1, tl - at);
				tl--;
			} else {
				t[at] = ch;
			}
		}
		if (n % 10 == 9)
			t[tl = (size_t)(r % tl)] = '\0';
		collect a = read_text_opts(t, (pk_reader_opts){ .threads = 1 });
		collect b = read_text_opts(t, (pk_reader_opts){ .threads = 1, .scan_bytewise = 1 });
		same += same_collect(&a, &b);
		broken += b.errors > 0;
	}
	free(t);
	CHECK(same == runs, "%d damaged Lists (%d with errors) read the same with and without the 64-byte lane (%d)",
	      runs, broken, same);
}

/* Every record as one line of text, for comparing whole streams. */
typedef struct transcript {
	char *text;
	size_t len, cap;
	long objects, stop_after;
	int docs_wrong;             /* NDJSON object k not in document k */
} transcript;

static int on_record_line(void *ctx, pk_record *rec)
{
	transcript *t = ctx;
	char line[600];
	int n = snprintf(line, sizeof line, "%d %ld:%ld item %ld doc %ld %s %s\n", (int)rec->type, rec->origin.line,
	                 rec->origin.col, rec->origin.item, rec->origin.doc,
	                 rec->type == PK_REC_OBJECT ? pk_name(rec->obj) : rec->message, rec->field ? rec->field : "-");
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1 << 16;
		t->text = realloc(t->text, t->cap);
	}
	memcpy(t->text + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
	if (rec->type == PK_REC_OBJECT) {
		const char *name = pk_name(rec->obj);
		if (name && name[0] == 'o' && atol(name + 1) != rec->origin.doc)
			t->docs_wrong++;
		if (++t->objects == t->stop_after)
			return 1;
	}
	return 0;
}

static transcript read_transcript(const char *path, int threads, long stop_after)
{
	transcript t = { .stop_after = stop_after };
	pk_reader_opts o = { .threads = threads, .report_duplicates = 1 };
	char *paths[] = { (char *)path };
	pk_read_paths(&o, paths, 1, on_record_line, &t);
	return t;
}

/* An input of 4 MB and more is cut by a scanner thread, parsed by workers
 * and delivered by the caller: the records, errors and warnings must come
 * in the order and with the positions and document numbers one thread
 * gives, and a callback that stops must see no record after it stopped. */
static void test_threads_keep_the_stream(void)
{
	char path[] = "/tmp/pk-reader-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	long docs = 0;
	/* every 500th line something a reader must say, never two in a row
	 * (a broken object's resynchronisation skips to the next object) */
	for (int i = 0; i < 60000; i++, docs++) {
		int special = i % 500 == 250 ? i / 500 % 6 : -1;
		if (special == 0)
			fprintf(f, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"o%ld\"},\"spec\":[1 2]}\n", docs);
		else if (special == 1)
			fprintf(f, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"o%ld\",\"name\":\"o%ld\"}}\n", docs, docs);
		else if (special == 2)
			fprintf(f, "\"not an object\"\n");
		else if (special == 3)
			fprintf(f, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"\xff\"}}\n");
		else if (special == 4)
			fprintf(f, "{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"o%ld\"}}]}\n", docs);
		else if (special == 5)
			fprintf(f, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"o%ld\"}]}\n", docs);
		else
			fprintf(f, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"o%ld\",\"labels\":{\"app\":\"%0*d\"}}}\n",
			        docs, 40, i);
	}
	fclose(f);
	transcript one = read_transcript(path, 1, 0), four = read_transcript(path, 4, 0);
	CHECK(one.text && four.text && strcmp(one.text, four.text) == 0 && one.objects > 50000,
	      "a 5 MB NDJSON with errors: four threads give the records one gives, in order (%ld objects)", one.objects);
	CHECK(one.docs_wrong == 0 && four.docs_wrong == 0,
	      "each NDJSON object carries its own document number (%d, %d wrong)", one.docs_wrong, four.docs_wrong);
	transcript stop1 = read_transcript(path, 1, 25000), stop4 = read_transcript(path, 4, 25000);
	CHECK(stop1.objects == 25000 && stop4.objects == 25000 && strcmp(stop1.text, stop4.text) == 0,
	      "a callback that stops hears nothing more, with four threads as with one (%ld, %ld)", stop1.objects,
	      stop4.objects);
	free(one.text);
	free(four.text);
	free(stop1.text);
	free(stop4.text);
	remove(path);
}

static int by_address_down(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(cJSON *const *)a, y = (uintptr_t)*(cJSON *const *)b;
	return (x < y) - (x > y);
}

/* A duplicate key is reported where its later occurrence stands, whatever
 * the order of the nodes in memory (the fuzzer found it depended on it):
 * twelve members, "dup" three times, placed in descending address order. */
static void test_duplicate_order(void)
{
	enum { N = 12 };
	cJSON *nodes[N];
	for (int i = 0; i < N; i++)
		nodes[i] = cJSON_CreateNumber(i);
	qsort(nodes, N, sizeof nodes[0], by_address_down);
	cJSON *obj = cJSON_CreateObject();
	pk_posmap *pos = pk_posmap_new();
	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof name, "k%d", i);
		cJSON_AddItemToObject(obj, i % 5 == 1 ? "dup" : name, nodes[i]);   /* members 1, 6, 11 */
		pk_posmap_put(pos, nodes[i], 10 + i, 3);
	}
	pk_reader_opts o = { .report_duplicates = 1 };
	pk_finding *f = pk_check_object(&o, obj, pos, 1, 1);
	long lines[4] = {0};
	int n = 0;
	for (pk_finding *x = f, *next; x; x = next) {
		next = x->next;
		if (x->et == PK_ERR_DUPLICATE_FIELD && n < 4)
			lines[n++] = x->line;
		free(x);
	}
	CHECK(n == 2 && lines[0] == 16 && lines[1] == 21, "duplicates reported at their later occurrences (%d: %ld, %ld)",
	      n, lines[0], lines[1]);
	pk_posmap_free(pos);
	cJSON_Delete(obj);
}

/* The members reported as duplicates of an object whose names are given
 * (every one a later occurrence, in document order), into dup[]. */
static int reported_duplicates(const char *const *names, int n, int *dup)
{
	cJSON *obj = cJSON_CreateObject();
	pk_posmap *pos = pk_posmap_new();
	for (int i = 0; i < n; i++) {
		cJSON *v = cJSON_CreateNumber(i);
		cJSON_AddItemToObject(obj, names[i], v);
		pk_posmap_put(pos, v, 1 + i, 1);
	}
	pk_reader_opts o = { .report_duplicates = 1 };
	int k = 0;
	for (pk_finding *x = pk_check_object(&o, obj, pos, 1, 1), *next; x; x = next) {
		next = x->next;
		if (x->et == PK_ERR_DUPLICATE_FIELD)
			dup[k++] = (int)x->line - 1;
		free(x);
	}
	pk_posmap_free(pos);
	cJSON_Delete(obj);
	return k;
}

/* Objects of 2 to 100 members whose names share first bytes ("name",
 * "namespace", "nameX"...), some with a name repeated: exactly the later
 * occurrences are reported, whatever the size. */
static void test_duplicate_sizes(void)
{
	static const int sizes[] = { 2, 3, 8, 9, 12, 16, 17, 40, 63, 64, 65, 100 };
	char names[100][16];
	const char *ptr[100];
	int failures = 0, cases = 0;
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		int n = sizes[s];
		for (int variant = 0; variant < 4; variant++, cases++) {
			for (int i = 0; i < n; i++) {
				snprintf(names[i], sizeof names[i], i % 3 == 0 ? "name%d" : i % 3 == 1 ? "namespace%d" : "n%d", i);
				ptr[i] = names[i];
			}
			if (variant >= 1)
				ptr[n - 1] = ptr[0];               /* the first repeated last */
			if (variant >= 2 && n >= 4)
				ptr[n / 2] = ptr[1];               /* another in the middle */
			if (variant == 3 && n >= 6)
				ptr[n - 2] = ptr[1];               /* and a third occurrence */
			int want[100], nwant = 0, got[100];
			for (int i = 0; i < n; i++)
				for (int j = 0; j < i; j++)
					if (strcmp(ptr[j], ptr[i]) == 0) {
						want[nwant++] = i;
						break;
					}
			int ngot = reported_duplicates(ptr, n, got);
			failures += ngot != nwant || memcmp(got, want, sizeof *want * (size_t)nwant) != 0;
		}
	}
	CHECK(failures == 0, "%d objects of 2 to 100 members: each later occurrence reported once, in order "
	                     "(%d wrong)", cases, failures);
}

static collect read_text(const char *text, int threads)
{
	return read_text_opts(text, (pk_reader_opts){ .threads = threads, .report_duplicates = 1 });
}

int main(void)
{
	/* go-yaml v2 resolution (YAML 1.1) */
	typed("a: yes", "{\"a\":true}");
	typed("a: On", "{\"a\":true}");
	typed("a: off", "{\"a\":false}");
	typed("a: y", "{\"a\":true}");
	typed("a: 'yes'", "{\"a\":\"yes\"}");
	typed("a: ~", "{\"a\":null}");
	typed("a: null", "{\"a\":null}");
	typed("a:", "{\"a\":null}");
	typed("a: 0777", "{\"a\":511}");
	typed("a: 0x1F", "{\"a\":31}");
	typed("a: 1_000", "{\"a\":1000}");
	typed("a: 1e3", "{\"a\":1000}");
	typed("a: 1.10", "{\"a\":1.1}");
	typed("a: -1000", "{\"a\":-1000}");
	typed("a: 2024-01-02T03:04:05Z", "{\"a\":\"2024-01-02T03:04:05Z\"}");
	typed("a: 1.2.3", "{\"a\":\"1.2.3\"}");
	typed("a: \"100\"", "{\"a\":\"100\"}");
	typed("a: !!str 100", "{\"a\":\"100\"}");
	typed("1: a", "{\"1\":\"a\"}");
	typed("true: a", "{\"true\":\"a\"}");
	typed("a: &x {b: 1}\nc: *x", "{\"a\":{\"b\":1},\"c\":{\"b\":1}}");
	typed("base: &b {x: 1, z: 2}\nd:\n  <<: *b\n  z: 3", "{\"base\":{\"x\":1,\"z\":2},\"d\":{\"x\":1,\"z\":3}}");
	/* an explicit key set before the merge wins; a second merge replaces the first's key */
	typed("b: &b {x: 1, z: 2}\nd:\n  z: 3\n  <<: *b", "{\"b\":{\"x\":1,\"z\":2},\"d\":{\"z\":3,\"x\":1}}");
	typed("p: &p {x: 1}\nq: &q {x: 2}\nd:\n  <<: [*p, *q]\n  w: 0", "{\"p\":{\"x\":1},\"q\":{\"x\":2},\"d\":{\"x\":2,\"w\":0}}");
	typed("p: &p {x: 1}\nd:\n  <<: *p\n  x: 5\n  <<: *p", "{\"p\":{\"x\":1},\"d\":{\"x\":5}}");
	typed("a: [x, y, n]", "{\"a\":[\"x\",true,false]}"); /* go-yaml v2 reads y and n as booleans */
	typed("{a: 1, b: [x, z],}", "{\"a\":1,\"b\":[\"x\",\"z\"]}");

	/* formats and streaming */
	collect c = read_text("{\"apiVersion\":\"v1\",\"items\":[{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}},"
	                      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\"}}],\"kind\":\"List\"}", 1);
	CHECK(c.objects == 2 && t_streq(c.names[1], "Pod/b"), "kind: List items are streamed");
	c = read_text("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"n1\"}}]}", 1);
	CHECK(c.objects == 1 && t_streq(c.names[0], "Node/n1"), "typed List items get their kind");
	c = read_text("[{\"kind\":\"A\"},{\"kind\":\"B\"}]", 1);
	CHECK(c.objects == 2, "top-level array");
	c = read_text("{\"kind\":\"A\"}\n{\"kind\":\"B\"}\n\n{\"kind\":\"C\"}\n", 1);
	CHECK(c.objects == 3 && c.errors == 0, "NDJSON");
	c = read_text("{\"kind\":\"A\"}{\"kind\":\"B\"}", 1);
	CHECK(c.objects == 2, "concatenated JSON");
	c = read_text("\xEF\xBB\xBF{\"kind\":\"A\"}", 1);
	CHECK(c.objects == 1 && c.errors == 0, "UTF-8 BOM before JSON");
	c = read_text("# a comment\n{\"kind\": \"A\", \"metadata\": {\"name\": \"x\"}}\n", 1);
	CHECK(c.objects == 1 && t_streq(c.names[0], "A/x"), "comment before JSON is read as YAML, as kubectl does");
	c = read_text("kind: A\r\nmetadata:\r\n  name: x\r\n", 1);
	CHECK(c.objects == 1 && t_streq(c.names[0], "A/x"), "CRLF YAML");
	c = read_text("---\n---\nkind: A\n---\nnull\n---\n", 1);
	CHECK(c.objects == 1 && c.errors == 0, "empty and null documents are skipped");
	c = read_text("kind: A\n---\nkind: [\n---\nkind: C\n", 1);
	CHECK(c.objects == 2 && c.errors == 1, "a broken YAML document does not hide the next one (%s)", c.last_error);
	c = read_text("kind: List\nitems:\n- kind: Pod\n  metadata: {name: a}\n- kind: Pod\n  metadata: {name: b}\n", 1);
	CHECK(c.objects == 2 && c.lines[1] == 5, "YAML List items streamed with their lines (%ld)", c.lines[1]);
	c = read_text("{\"kind\":\"A\",\"kind\":\"B\"}", 1);
	CHECK(c.objects == 1 && c.warnings == 1, "duplicate keys are reported");
	c = read_text("{\"kind\":\"A\",\"n\":99999999999999999999}", 1);
	CHECK(c.warnings == 1, "integers beyond 2^53 are reported");
	c = read_text("{\"kind\":\"A\"", 1);
	CHECK(c.objects == 0 && c.errors == 1, "truncated JSON is an error (%s)", c.last_error);
	c = read_text("\"just a string\"\n", 1);
	CHECK(c.errors == 1, "a non-object document is an error");

	/* threads give the same records in the same order */
	char big[200000];
	size_t n = 0;
	n += (size_t)snprintf(big + n, sizeof big - n, "{\"kind\":\"List\",\"items\":[");
	for (int i = 0; i < 2000; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "%s{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%d\"}}",
		                      i ? "," : "", i);
	snprintf(big + n, sizeof big - n, "]}");
	collect c1 = read_text(big, 1), c4 = read_text(big, 4);
	CHECK(c1.objects == 2000 && c4.objects == 2000 && t_streq(c4.names[15], "Pod/p15"),
	      "parallel parse keeps order and count");
	/* a string that ends just past the first 4096-byte read (reported by pp-match's author) */
	char pad[8192];
	snprintf(pad, sizeof pad, "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"pad\"}, "
	         "\"data\": {\"k\": \"%0*d\"}}\n{\"kind\": \"Deployment\", \"metadata\": {\"name\": \"d1\"}}\n", 3904, 0);
	c = read_text(pad, 1);
	CHECK(c.objects == 2 && c.errors == 0, "strings across read boundaries (%s)", c.last_error);

	/* fuzzer findings stay fixed: each file must read without a crash */
	const char *crashers[] = { "test/fuzz/regressions/reader-err-near-end.json" };
	for (size_t i = 0; i < sizeof crashers / sizeof crashers[0]; i++) {
		collect r = {0};
		pk_reader_opts o = { .threads = 2, .report_duplicates = 1, .node_positions = 1 };
		char *paths[] = { (char *)crashers[i] };
		pk_read_paths(&o, paths, 1, on_record, &r);
		CHECK(r.errors + r.objects > 0, "fuzz regression %s reads (%d errors)", crashers[i], r.errors);
	}
	c = read_text("[,]", 1);
	CHECK(c.errors >= 1, "an empty list element is an error");
	test_block_scanner();
	test_duplicate_order();
	test_duplicate_sizes();
	test_threads_keep_the_stream();
	return T_DONE();
}
