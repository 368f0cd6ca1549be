/* Records printed straight as text (common/io/emit.h) are byte for byte what
 * cJSON prints for the same record built as a tree: strings with every byte
 * that needs escaping, numbers of every kind, nesting; and a Candidate
 * record both ways. pk_format_time's arithmetic against gmtime_r. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

#include "io/emit.h"
#include "sched/report/records.h"
#include "t.h"

/* build describes one record; both targets must print the same text. */
typedef void build_fn(pk_emit *e, const void *arg);

static bool same_both_ways(build_fn *build, const void *arg, char **text_out)
{
	pk_emit e;
	pk_emit_tree(&e);
	build(&e, arg);
	cJSON *tree = pk_emit_tree_done(&e);
	char *want = cJSON_PrintUnformatted(tree);
	pk_emit_text(&e);
	build(&e, arg);
	char *got = pk_emit_text_done(&e);
	bool same = want && got && strcmp(want, got) == 0;
	if (!same)
		fprintf(stderr, "tree: %s\ntext: %s\n", want, got);
	if (text_out)
		*text_out = got;
	else
		free(got);
	free(want);
	cJSON_Delete(tree);
	return same;
}

static void one_string(pk_emit *e, const void *arg)
{
	pk_emit_object(e, NULL);
	pk_emit_string(e, "s", arg);
	pk_emit_end(e);
}

static void test_strings(void)
{
	char s[2] = "";
	int differ = 0;
	for (int c = 1; c < 256; c++) {
		s[0] = (char)c;
		differ += !same_both_ways(one_string, s, NULL);
	}
	CHECK(differ == 0, "every byte alone is escaped as cJSON escapes it (%d differ)", differ);
	CHECK(same_both_ways(one_string, "tab\there \"quoted\" back\\slash \x01\x1f\x7f caf\xc3\xa9 \xe2\x82\xac", NULL),
	      "runs of plain bytes between escapes, UTF-8 as it is");
	CHECK(same_both_ways(one_string, "", NULL), "the empty string");
	char *text = NULL;
	same_both_ways(one_string, NULL, &text);
	CHECK_STR(text, "{}", "a NULL string adds no member, as cJSON_AddStringToObject");
	free(text);
}

typedef struct number_list {
	const double *v;
	int n;
} number_list;

static void numbers(pk_emit *e, const void *arg)
{
	const number_list *l = arg;
	pk_emit_array(e, NULL);
	for (int i = 0; i < l->n; i++)
		pk_emit_number(e, NULL, l->v[i]);
	pk_emit_end(e);
}

static void test_numbers(void)
{
	static const double v[] = { 0, -0.0, 1, -1, 10000, 1000000000, -2147483648.0, 2147483647.0,
		                    2147483648.0, -2147483649.0, 999999999999999.0, -999999999999999.0, 1e15,
		                    -1e15, 1e16, 123456789012345678.0, 0.5, -0.25,
		                    1.0 / 3, 1e-7, 3.14159, 1e300, -1e-300, NAN, INFINITY };
	number_list l = { v, (int)(sizeof v / sizeof *v) };
	CHECK(same_both_ways(numbers, &l, NULL), "ints, -0, the int range's edges, 15 digits and 16, fractions, exponents, NaN");
	int differ = 0;
	double w;
	number_list one = { &w, 1 };
	srand(7);
	for (int i = 0; i < 20000; i++) {
		w = (double)(rand() - RAND_MAX / 2) * (i % 3 ? 1 : 1e-3) * (i % 7 ? 1 : 1e6);
		differ += !same_both_ways(numbers, &one, NULL);
	}
	CHECK(differ == 0, "20,000 random numbers print alike (%d differ)", differ);
}

static void nested(pk_emit *e, const void *arg)
{
	(void)arg;
	pk_emit_object(e, NULL);
	pk_emit_array(e, "empty");
	pk_emit_end(e);
	pk_emit_object(e, "none");
	pk_emit_end(e);
	pk_emit_array(e, "list");
	pk_emit_object(e, NULL);
	pk_emit_bool(e, "t", true);
	pk_emit_bool(e, "f", false);
	pk_emit_null(e, "n");
	pk_emit_end(e);
	pk_emit_string(e, NULL, "x");
	pk_emit_number(e, NULL, 2);
	pk_emit_end(e);
	pk_emit_string_n(e, "cut", "web-abc12", 3);
	cJSON *item = cJSON_Parse("{\"a\":[1,\"b\"]}");
	pk_emit_item(e, "item", item);
	cJSON_Delete(item);
	pk_emit_string(e, "quoted", "it\"em");
	pk_emit_end(e);
}

static void test_nesting(void)
{
	char *text = NULL;
	CHECK(same_both_ways(nested, NULL, &text), "objects and arrays, empty and nested, in members and elements");
	CHECK_STR(text, "{\"empty\":[],\"none\":{},\"list\":[{\"t\":true,\"f\":false,\"n\":null},\"x\",2],"
	                "\"cut\":\"web\",\"item\":{\"a\":[1,\"b\"]},\"quoted\":\"it\\\"em\"}", "and the text is right");
	free(text);
}

/* ---- a Candidate record ---------------------------------------------------------- */

static void test_candidate(void)
{
	pk_victim_ref v[3] = {
		{ .namespace_ = "a", .name = "web-abc12-x1", .uid = "u-1", .node = "n1", .priority = 10,
		  .start_time = 1700000000123456789LL, .has_start_time = true, .class_name = "low",
		  .owner_kind = "ReplicaSet", .owner_name = "web-abc12", .owner_trim = 6, .pdb = "web-pdb",
		  .violating = true },
		{ .namespace_ = "b", .name = "odd \"name\"\n", .uid = "u-2", .node = "n1", .priority = -5,
		  .terminating = true, .owner_kind = "Job", .owner_name = "nightly", .pod_group = "g" },
		{ .namespace_ = "c", .name = "old", .uid = "u-3", .node = NULL, .priority = 2000000000,
		  .start_time = -1500000000LL, .has_start_time = true },
	};
	pk_candidate c = { .node = "n1", .victims = v, .nvictims = 2, .num_pdb_violations = 1,
		           .clear_nominations = v + 2, .nclear = 1,
		           .node_resources = cJSON_Parse("{\"node\":\"n1\",\"allocatable\":{\"cpu\":\"4\"}}") };
	pk_pod pre = { .namespace_ = "a", .name = "pre", .uid = "u-pre", .priority = 1000 };
	cJSON *tree = pk_candidate_json(NULL, &pre, &c, 36);
	char *want = cJSON_PrintUnformatted(tree);
	char *got = pk_candidate_text(NULL, &pre, &c, 36);
	CHECK_STR(got, want, "a Candidate record as text is what cJSON prints for its tree");
	CHECK(strstr(got, "\"owner\":{\"kind\":\"Deployment\",\"name\":\"web\"}") != NULL,
	      "a ReplicaSet's owner is its Deployment, named without the hash");
	CHECK(strstr(got, "\"startTime\":\"2023-11-14T22:13:20.123456789Z\"") &&
	      strstr(got, "\"startTime\":\"1969-12-31T23:59:58.5Z\"") && strstr(got, "\"startTime\":null"),
	      "start times with fractions, before 1970, and none");
	CHECK(strncmp(got, "{\"kind\":\"Candidate\",\"kubernetesVersion\":\"1.36\",", 45) == 0,
	      "a Candidate record names the release answered for, after its kind");
	free(want);
	free(got);
	cJSON_Delete(tree);
	cJSON_Delete(c.node_resources);
}

/* ---- times ----------------------------------------------------------------------- */

/* What pk_format_time printed before it did its own arithmetic. */
static void time_by_libc(int64_t ns, char *buf, size_t size)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000;
	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	time_t t = (time_t)sec;
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	if (frac) {
		char f[16];
		snprintf(f, sizeof f, ".%09lld", (long long)frac);
		size_t l = strlen(f);
		while (l > 1 && f[l - 1] == '0')
			f[--l] = '\0';
		snprintf(buf + n, size - n, "%sZ", f);
	} else {
		snprintf(buf + n, size - n, "Z");
	}
}

static void test_times(void)
{
	int differ = 0, n = 0;
	char a[64], b[64];
	srand(11);
	for (int i = 0; i < 200000; i++, n++) {
		/* any int64_t: the years 1677 to 2262, whole seconds, milliseconds or nanoseconds */
		int64_t ns = (int64_t)((uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand());
		if (i % 3 == 0)
			ns -= ns % 1000000000;
		else if (i % 3 == 1)
			ns -= ns % 1000000;
		pk_format_time(ns, a, sizeof a);
		time_by_libc(ns, b, sizeof b);
		differ += strcmp(a, b) != 0;
	}
	static const int64_t edges[] = { 0, -1, 1, 999999999, -999999999, 951782400LL * 1000000000,
		                         4107542400LL * 1000000000, -2203891200LL * 1000000000,
		                         INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++, n++) {
		pk_format_time(edges[i], a, sizeof a);
		time_by_libc(edges[i], b, sizeof b);
		differ += strcmp(a, b) != 0;
	}
	CHECK(differ == 0, "%d times over int64_t's range, leap days, 1900, 2100 and the epoch's edges, as "
	                   "gmtime_r and strftime print them (%d differ)", n, differ);
	pk_format_time(1700000000123456789LL, a, 12);
	CHECK_STR(a, "2023-11-14T", "cut short to the buffer, as snprintf would");
}

int main(void)
{
	test_strings();
	test_numbers();
	test_nesting();
	test_candidate();
	test_times();
	return T_DONE();
}
