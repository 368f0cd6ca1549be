/* common/base: the one interner (same pointer and dense id for equal
 * strings, through growth and hash collisions), the arena's alignment, the
 * string map, the growth helper and the out-of-memory policy. */
#include "t.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/hash.h"
#include "base/nsname.h"
#include "base/strtab.h"

/* Two strings with the same 64-bit FNV-1a hash would be a search; a table
 * of 1024 slots (the string table's first) puts many strings on one home
 * slot, which is the collision the probing must get right: find such a set. */
static int same_home(const char *a, const char *b)
{
	return (pk_hash_str(a) & 1023) == (pk_hash_str(b) & 1023);
}

static void test_intern(void)
{
	pk_strtab *t = pk_strtab_new();
	char a[] = "kube-system", b[] = "kube-system";
	const char *pa = pk_intern(t, a), *pb = pk_intern(t, b);
	CHECK(pa == pb && pa != a && pa != b, "equal strings intern to one copy, not the caller's");
	CHECK(pk_intern_id(t, a) == 0 && pk_intern_id(t, "default") == 1 && pk_intern_id(t, b) == 0,
	      "dense ids in first-seen order, the same for equal strings");
	CHECK(pk_strtab_str(t, 1) == pk_intern(t, "default"), "an id gives back the interned string");
	CHECK(pk_intern(t, NULL) == NULL, "NULL stays NULL");
	CHECK(pk_intern_n(t, "defaultX", 7) == pk_strtab_str(t, 1), "a prefix interns as its own string");
	CHECK(pk_strtab_find(t, "absent") == NULL && pk_strtab_find_id(t, "absent") == -1 &&
	      pk_strtab_count(t) == 2, "find does not intern");
	CHECK(pk_intern(t, "") != NULL && pk_strtab_find_id(t, "") == 2, "the empty string is a string");
	pk_strtab_free(t);
}

static void test_growth(void)
{
	pk_strtab *t = pk_strtab_new();
	enum { N = 100000 };
	const char **first = malloc(sizeof *first * N);
	char buf[32];
	for (int i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "pod-%d", i);
		first[i] = pk_intern(t, buf);
	}
	int same = 1;
	for (int i = 0; i < N && same; i++) {
		snprintf(buf, sizeof buf, "pod-%d", i);
		same = pk_intern(t, buf) == first[i] && pk_intern_id(t, buf) == (uint32_t)i &&
		       pk_strtab_str(t, (uint32_t)i) == first[i];
	}
	CHECK(same && pk_strtab_count(t) == N, "100,000 strings: the table grew, pointers and ids stayed");
	free(first);
	pk_strtab_free(t);
}

static void test_collisions(void)
{
	pk_strtab *t = pk_strtab_new();
	/* Strings that share a home slot in the first table: each must keep
	 * its own id, and be found again, wherever the probe put it. */
	char names[8][16];
	int n = 0;
	snprintf(names[n++], sizeof names[0], "n0");
	for (int i = 1; n < 8 && i < 1000000; i++) {
		char cand[16];
		snprintf(cand, sizeof cand, "n%d", i);
		if (same_home(cand, names[0]))
			snprintf(names[n++], sizeof names[0], "%s", cand);
	}
	CHECK(n == 8, "eight strings on one home slot");
	for (int i = 0; i < n; i++)
		pk_intern_id(t, names[i]);
	int ok = 1;
	for (int i = 0; i < n; i++)
		ok = ok && pk_strtab_find_id(t, names[i]) == i && strcmp(pk_strtab_str(t, (uint32_t)i), names[i]) == 0;
	CHECK(ok, "colliding strings keep their own ids");
	uint32_t p1 = pk_intern_pair(t, pk_intern(t, "app"), pk_intern(t, "web"));
	uint32_t p2 = pk_intern_pair(t, pk_intern(t, "app"), pk_intern(t, "db"));
	CHECK(p1 != p2 && pk_intern_pair(t, pk_intern(t, "app"), pk_intern(t, "web")) == p1,
	      "a pair of interned strings has one id");
	pk_str_pair *const *chunks = pk_strtab_pairs(t);
	CHECK(chunks[0][p2].value == pk_intern(t, "db"), "a pair id finds its pair");
	int blob[3] = { 1, 2, 3 }, same[3] = { 1, 2, 3 };
	CHECK(pk_intern_blob(t, blob, sizeof blob) == pk_intern_blob(t, same, sizeof same) &&
	      pk_strtab_blobs(t) == 1, "equal blobs are one copy");
	pk_strtab_free(t);
}

static void test_arena(void)
{
	pk_arena a;
	pk_arena_init(&a);
	int aligned = 1, zero = 1;
	for (size_t size = 1; size < 3000; size += 7) {
		unsigned char *p = pk_arena_alloc(&a, size);
		aligned = aligned && (uintptr_t)p % 16 == 0;
		for (size_t i = 0; i < size; i++)
			zero = zero && p[i] == 0;
		memset(p, 0xff, size);
		pk_arena_strndup(&a, "odd", 3); /* unaligned strings in between */
	}
	CHECK(aligned, "arena memory is 16-byte aligned after unaligned strings");
	CHECK(zero, "arena memory is zeroed");
	void *big = pk_arena_alloc(&a, 1u << 20);
	CHECK(big && (uintptr_t)big % 16 == 0, "a block bigger than the arena's is aligned too");
	CHECK(strcmp(pk_arena_strndup(&a, "abcdef", 3), "abc") == 0, "strndup copies n bytes and ends them");
	pk_arena_free(&a);
	CHECK(a.used_bytes == 0 && a.head == NULL, "free empties the arena");
}

static void test_strmap(void)
{
	pk_strmap m;
	pk_strmap_init(&m);
	CHECK(pk_strmap_get(&m, "x") == NULL, "an empty map has nothing");
	int one = 1, two = 2;
	CHECK(pk_strmap_put(&m, "high", &one) == NULL, "a new key has no previous value");
	CHECK(pk_strmap_put(&m, "high", &two) == &one && pk_strmap_get(&m, "high") == &two,
	      "put replaces and returns the previous value");
	for (int i = 0; i < 5000; i++) {
		char k[16];
		snprintf(k, sizeof k, "k%d", i);
		pk_strmap_put(&m, k, (void *)(intptr_t)(i + 1));
	}
	CHECK(pk_strmap_get(&m, "k4321") == (void *)(intptr_t)4322 && pk_strmap_get(&m, "k5000") == NULL,
	      "values survive growth");
	pk_strmap_free(&m, NULL);
}

static void test_grow(void)
{
	size_t cap = 0;
	int *v = NULL;
	for (int i = 0; i < 1000; i++) {
		v = pk_grow(v, &cap, (size_t)i + 1, sizeof *v);
		v[i] = i;
	}
	CHECK(cap >= 1000 && v[999] == 999 && v[0] == 0, "pk_grow keeps the contents");
	size_t before = cap;
	CHECK(pk_grow(v, &cap, 10, sizeof *v) == v && cap == before, "enough room: nothing moves");
	free(v);
}

/* Run f in a child; its exit status and what it wrote on stderr. */
static int child_status(void (*f)(void), char *err, size_t size)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDERR_FILENO);
		f();
		_exit(0);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], err, size - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void overflowing_grow(void)
{
	size_t cap = 1;
	void *p = pk_xmalloc(16);
	pk_grow(p, &cap, SIZE_MAX / 2, 16);
}

static void overflowing_realloc(void)
{
	pk_xrealloc(NULL, SIZE_MAX / 4, 8);
}

static void test_out_of_memory(void)
{
	char err[128];
	CHECK(child_status(overflowing_grow, err, sizeof err) == 2 && strcmp(err, "test_base: out of memory\n") == 0,
	      "a growth whose size overflows: 'prog: out of memory', exit 2 (got '%s')", err);
	CHECK(child_status(overflowing_realloc, err, sizeof err) == 2 && strstr(err, ": out of memory\n"),
	      "n * size beyond size_t: out of memory, exit 2");
}

typedef struct nsobj {
	int other;
	const char *ns, *name;
} nsobj;

static void test_nsname(void)
{
	const nsobj v[] = {{0, "a", "x"}, {1, "a", "y"}, {2, "b", "a"}, {3, "b", "x"}, {4, "c", "z"}};
	const long n = (long)(sizeof v / sizeof v[0]);
	int found = 1;
	for (long i = 0; i < n; i++)
		found &= pk_nsname_find(v, n, sizeof v[0], offsetof(nsobj, ns), offsetof(nsobj, name), v[i].ns, v[i].name) == i;
	CHECK(found, "every element of a (namespace, name) sorted array is found at its index");
	CHECK(pk_nsname_find(v, n, sizeof v[0], offsetof(nsobj, ns), offsetof(nsobj, name), "a", "z") == -1 &&
	          pk_nsname_find(v, n, sizeof v[0], offsetof(nsobj, ns), offsetof(nsobj, name), "b", "y") == -1 &&
	          pk_nsname_find(v, n, sizeof v[0], offsetof(nsobj, ns), offsetof(nsobj, name), "d", "a") == -1 &&
	          pk_nsname_find(v, 0, sizeof v[0], offsetof(nsobj, ns), offsetof(nsobj, name), "a", "x") == -1,
	      "a name in another namespace, between two, past the end or in an empty array is not found");
}

int main(void)
{
	test_intern();
	test_growth();
	test_collisions();
	test_arena();
	test_strmap();
	test_grow();
	test_out_of_memory();
	test_nsname();
	return T_DONE();
}
