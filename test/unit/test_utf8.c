/* The UTF-8 check: the offset of the first bad byte, wherever it falls
 * relative to the 64- and 8-byte fast lanes for ASCII. */
#include "t.h"
#include <stdlib.h>
#include "io/internal.h"

enum { LEN = 300 };

/* A bad byte (0xFF) at every offset of an ASCII text of every length up
 * to LEN: found exactly there; and without it, the whole text passes. */
static void test_bad_byte_everywhere(void)
{
	unsigned char buf[LEN];
	int wrong = 0;
	for (size_t len = 1; len <= LEN; len++) {
		memset(buf, 'a', len);
		if (pk_utf8_check(buf, len) != len)
			wrong++;
		for (size_t at = 0; at < len; at++) {
			buf[at] = 0xFF;
			if (pk_utf8_check(buf, len) != at)
				wrong++;
			buf[at] = 'a';
		}
	}
	CHECK(wrong == 0, "a bad byte is found at its own offset in ASCII of any length (%d misses)", wrong);
}

/* A valid three-byte character straddling each block boundary passes;
 * the same with its last byte cut off is reported where it starts. */
static void test_sequences_across_blocks(void)
{
	unsigned char buf[LEN];
	int wrong = 0;
	for (size_t at = 0; at + 3 <= LEN; at++) {
		memset(buf, 'a', LEN);
		memcpy(buf + at, "\xE2\x82\xAC", 3);     /* U+20AC EURO SIGN */
		if (pk_utf8_check(buf, LEN) != LEN)
			wrong++;
		buf[at + 2] = 'a';
		if (pk_utf8_check(buf, LEN) != at)
			wrong++;
	}
	CHECK(wrong == 0, "a three-byte character is accepted, and a cut one reported, at any offset (%d misses)",
	      wrong);
}

static void test_rejects(void)
{
	static const struct { const char *text; size_t bad; } cases[] = {
		{ "\xC0\x80", 0 },               /* overlong NUL */
		{ "ab\xED\xA0\x80", 2 },         /* a UTF-16 surrogate */
		{ "abc\xF4\x90\x80\x80", 3 },    /* beyond U+10FFFF */
		{ "\xE0\x9F\xBF", 0 },           /* overlong three-byte form */
		{ "ok \xF0\x9F\x98\x80", 7 },    /* a valid four-byte character: all read */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = strlen(cases[i].text);
		size_t got = pk_utf8_check((const unsigned char *)cases[i].text, len);
		CHECK(got == cases[i].bad, "utf8 case %zu: first bad byte at %zu (got %zu)", i, cases[i].bad, got);
	}
}

int main(void)
{
	test_bad_byte_everywhere();
	test_sequences_across_blocks();
	test_rejects();
	return T_DONE();
}
