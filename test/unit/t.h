/* Minimal TAP for C unit tests: each CHECK is one test line. */
#ifndef PK_T_H
#define PK_T_H
#include <stdio.h>
#include <string.h>

static int t_n, t_fail;
#define CHECK(cond, ...) do { \
	++t_n; \
	if (cond) printf("ok %d - ", t_n); \
	else { ++t_fail; printf("not ok %d - %s:%d: ", t_n, __FILE__, __LINE__); } \
	printf(__VA_ARGS__); putchar('\n'); \
} while (0)
static inline int t_streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
#define CHECK_STR(got, want, ...) CHECK(t_streq((got), (want)), __VA_ARGS__)
#define T_DONE() (printf("1..%d\n", t_n), t_fail ? 1 : 0)
#endif
