/* Leaving out members a tool never reads, before cJSON builds them.
 *
 * A planner over a 1 GB snapshot needs a pod's spec and a few status fields,
 * not its managedFields, container statuses or volumes; building those as
 * cJSON nodes is most of the parse cost. The scanner has already checked
 * that brackets balance and strings close, so this pass only has to follow
 * strings and brackets and recognise member names at depths 1 and 2. */
#include "io/internal.h"
#include "io/bytescan.h"

#include <string.h>

/* Past the string that starts at src[i] ('"'); returns the index after it. */
static size_t string_end(const char *src, size_t len, size_t i)
{
	const char *p = src + i + 1, *e = src + len;
	for (;;) {
		p = pk_scan_string(p, e);
		if (p >= e)
			return len;
		if (*p == '"')
			return (size_t)(p - src) + 1;
		p += 2;          /* a backslash and the byte it escapes (newlines cannot occur) */
	}
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Where a skipped object or array ends: 64 bytes at a time while a block
 * holds no backslash (strings found by the parity of their quotes, as the
 * scanner's fast lane does), the brackets outside strings counted from the
 * block's bit masks. A member left out is most of a pod's text (its
 * managedFields, container statuses, volumes). Starts just past the
 * opening bracket, outside any string; returns the index after the
 * matching close, or len when done bytewise is cheaper (fewer than 64
 * bytes left, or a backslash): *depth is then what is still open. */
static size_t close_by_blocks(const char *src, size_t len, size_t i, int *depth)
{
#ifdef PK_HAVE_BLOCK64
	while (len - i >= 64) {
		pk_block64 b;
		pk_classify64(src + i, &b);
		if (b.backslash)
			break;
		unsigned long long inside = pk_prefix_xor(b.quote);
		for (unsigned long long m = (b.open | b.close) & ~inside; m; m &= m - 1) {
			int k = __builtin_ctzll(m);
			if (b.open >> k & 1)
				++*depth;
			else if (--*depth == 0)
				return i + (size_t)k + 1;
		}
		if (inside >> 63) /* the block ends in a string: go past it */
			i = string_end(src, len, i + 63 - (size_t)__builtin_clzll(b.quote));
		else
			i += 64;
	}
#else
	(void)src, (void)depth;
#endif
	return i;
}

/* Past the value that starts at src[i] (after blanks). */
static size_t value_end(const char *src, size_t len, size_t i)
{
	int depth = 0;

	while (i < len && is_blank(src[i]))
		i++;
	if (i < len && src[i] != '{' && src[i] != '[' && src[i] != '"') {   /* a scalar */
		while (i < len && !is_blank(src[i]) && src[i] != ',' && src[i] != ']' && src[i] != '}')
			i++;
		return i;
	}
	size_t bytewise_until = 0;   /* a block with a backslash is read a byte at a time */
	for (; i < len; i++) {
		if (depth > 0 && i >= bytewise_until) {
			size_t at = close_by_blocks(src, len, i, &depth);
			if (depth == 0)
				return at;
			i = at;
			bytewise_until = i + 64;
		}
		i = (size_t)(pk_scan_structural(src + i, src + len, 0, NULL, NULL) - src);
		if (i >= len)
			break;
		char c = src[i];
		if (c == '"') {
			i = string_end(src, len, i) - 1;
			if (depth == 0)
				return i + 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (--depth == 0) {     /* '}' or ']' */
			return i + 1;
		}
	}
	return len;
}

/* Where a member stands: the key of the member being read at each object
 * depth, or an array marker. Depth 1 is the object itself. */
#define PRUNE_DEPTH 6

typedef struct segment {
	const char *key;      /* NULL for an array level */
	size_t len;
} segment;

/* Does pattern ("spec.containers[].env") name the member `key` read at
 * depth `depth` below the levels in path[1..depth-1]? */
static int pattern_matches(const char *pat, const segment *path, int depth, const char *key, size_t klen)
{
	for (int level = 1; level < depth; level++) {
		if (!path[level].key) {
			if (pat[0] != '[' || pat[1] != ']')
				return 0;
			pat += 2;
		} else {
			if (strncmp(pat, path[level].key, path[level].len) != 0)
				return 0;
			pat += path[level].len;
			if (*pat == '[' && level + 1 < depth && !path[level + 1].key)
				continue;        /* "containers[]": the array level follows */
		}
		if (*pat != '.')
			return 0;
		pat++;
	}
	return strncmp(pat, key, klen) == 0 && pat[klen] == '\0';
}

/* The depth at which a pattern's last member stands: one per segment, one
 * more per "[]". */
static int pattern_depth(const char *pat)
{
	int depth = 1;   /* "a": a member of the object; "a.b": one deeper */
	for (; *pat; pat++)
		if (*pat == '.')
			depth++;
		else if (*pat == '[')
			depth++;
	return depth;
}

static size_t length_class(size_t len)
{
	return len < 63 ? len : 63;
}

/* Does pattern a come before b (depth, then name length)? */
static int pattern_before(const pk_prune_set *set, int a, int b)
{
	if (set->depth[a] != set->depth[b])
		return set->depth[a] < set->depth[b];
	return length_class(set->last_len[a]) < length_class(set->last_len[b]);
}

static void pattern_swap(pk_prune_set *set, int a, int b)
{
	const char *pat = set->pat[a], *last = set->last[a];
	int depth = set->depth[a];
	size_t len = set->last_len[a];
	set->pat[a] = set->pat[b], set->last[a] = set->last[b];
	set->depth[a] = set->depth[b], set->last_len[a] = set->last_len[b];
	set->pat[b] = pat, set->last[b] = last, set->depth[b] = depth, set->last_len[b] = len;
}

void pk_prune_compile(const char *const *drop, pk_prune_set *set)
{
	set->n = 0;
	memset(set->first, 0, sizeof set->first);
	memset(set->count, 0, sizeof set->count);
	for (; drop && *drop && set->n < (int)(sizeof set->pat / sizeof set->pat[0]); drop++) {
		const char *last = strrchr(*drop, '.');
		int depth = pattern_depth(*drop);
		if (depth >= 8)     /* deeper than the pruner looks */
			continue;
		set->pat[set->n] = *drop;
		set->depth[set->n] = depth;
		set->last[set->n] = last ? last + 1 : *drop;
		set->last_len[set->n] = strlen(set->last[set->n]);
		/* insertion sort: a few dozen patterns, once per input */
		for (int i = set->n; i > 0 && pattern_before(set, i, i - 1); i--)
			pattern_swap(set, i, i - 1);
		set->n++;
	}
	for (int i = set->n - 1; i >= 0; i--) {
		size_t k = length_class(set->last_len[i]);
		set->first[set->depth[i]][k] = (unsigned char)i;
		set->count[set->depth[i]][k]++;
	}
}

static int dropped(const pk_prune_set *set, const segment *path, int depth, const char *key, size_t klen)
{
	if (depth >= 8)
		return 0;
	size_t k = length_class(klen);
	for (int i = set->first[depth][k], end = i + set->count[depth][k]; i < end; i++)
		if (set->last_len[i] == klen && set->last[i][0] == key[0] && memcmp(set->last[i], key, klen) == 0 &&
		    pattern_matches(set->pat[i], path, depth, key, klen))
			return 1;
	return 0;
}

/* The pruner's state: where each open object or array stands. Text is
 * copied lazily: only when a member is left out is what precedes it
 * written, in one piece (most of a pod is kept in a few long runs). */
typedef struct pruner {
	const char *src;
	size_t len;
	char *dst;
	size_t w;                       /* bytes written to dst */
	size_t copied;                  /* src before this is written or left out */
	const pk_prune_set *drop;
	int depth;
	char type[PRUNE_DEPTH + 1];
	int expect_key[PRUNE_DEPTH + 1];
	size_t sep[PRUNE_DEPTH + 1];    /* where the last '{' or ',' of that depth is in src */
	segment path[PRUNE_DEPTH + 1];
} pruner;

static void copy_upto(pruner *pr, size_t at)
{
	memcpy(pr->dst + pr->w, pr->src + pr->copied, at - pr->copied);
	pr->w += at - pr->copied;
	pr->copied = at;
}

/* A string at src[i] ending before end: a member name (left out with its
 * value when a pattern names it) or a value. Returns where to go on. */
static size_t on_string(pruner *pr, size_t i, size_t end)
{
	int d = pr->depth;
	if (d < 1 || d > PRUNE_DEPTH || pr->type[d] != '{' || !pr->expect_key[d])
		return end;
	const char *key = pr->src + i + 1;
	size_t klen = end - i - 2;
	pr->expect_key[d] = 0;
	pr->path[d] = (segment){ key, klen };
	if (d < 2 || !dropped(pr->drop, pr->path, d, key, klen))
		return end;
	size_t k = end;
	while (k < pr->len && pr->src[k] != ':')
		k++;
	k = value_end(pr->src, pr->len, k + 1);
	if (pr->src[pr->sep[d]] == ',') {
		copy_upto(pr, pr->sep[d]);      /* leave out "," + member */
	} else {                                /* the first member: member + "," */
		copy_upto(pr, i);
		while (k < pr->len && is_blank(pr->src[k]))
			k++;
		if (k < pr->len && pr->src[k] == ',')
			k++;
		pr->expect_key[d] = 1;
	}
	pr->copied = k;
	return k;
}

/* '{', '[', '}', ']' or ',' at src[i], outside strings. */
static void on_structural(pruner *pr, size_t i, char c)
{
	int d;
	if (c == '{' || c == '[') {
		d = ++pr->depth;
		if (d <= PRUNE_DEPTH) {
			pr->type[d] = c;
			pr->expect_key[d] = c == '{';
			pr->sep[d] = i;
			if (c == '[')
				pr->path[d] = (segment){ NULL, 0 };
		}
	} else if (c == '}' || c == ']') {
		pr->depth--;
	} else if ((d = pr->depth) >= 1 && d <= PRUNE_DEPTH) {   /* ',' */
		pr->expect_key[d] = pr->type[d] == '{';
		pr->sep[d] = i;
	}
}

#ifdef PK_HAVE_BLOCK64
/* The 64 bytes at src[i], i outside a string: every quote, bracket and
 * comma of the block from its bit masks, in order. A string is passed
 * whole (its closing quote from the masks when the block has no
 * backslash), so that what lies inside it is never taken for structure.
 * Returns where to go on: the block's end, or further when a string or a
 * member left out runs past it. */
static size_t prune_block(pruner *pr, size_t i)
{
	pk_block64 b;
	pk_classify64(pr->src + i, &b);
	size_t next = i;
	for (unsigned long long m = b.quote | b.open | b.close | b.comma; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		size_t at = i + (size_t)k;
		if (at < next)
			continue;          /* inside a string or a member left out */
		char c = pr->src[at];
		if (c != '"') {
			on_structural(pr, at, c);
			next = at + 1;
			continue;
		}
		unsigned long long later = k < 63 ? b.quote >> (k + 1) : 0;
		size_t end = !b.backslash && later ? at + (size_t)__builtin_ctzll(later) + 2
		                                   : string_end(pr->src, pr->len, at);
		next = on_string(pr, at, end);
	}
	return next > i + 64 ? next : i + 64;
}
#endif

size_t pk_prune_members(const char *src, size_t len, char *dst, const pk_prune_set *drop)
{
	pruner pr = { .src = src, .len = len, .dst = dst, .drop = drop };
	size_t i = 0;

	while (i < len) {
#ifdef PK_HAVE_BLOCK64
		if (len - i >= 64) {
			i = prune_block(&pr, i);
			continue;
		}
#endif
		i = (size_t)(pk_scan_structural(src + i, src + len, 1, NULL, NULL) - src);
		if (i >= len)
			break;
		if (src[i] == '"') {
			i = on_string(&pr, i, string_end(src, len, i));
		} else {
			on_structural(&pr, i, src[i]);
			i++;
		}
	}
	copy_upto(&pr, len);
	return pr.w;
}
