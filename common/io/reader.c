/* Operands to records: open each path (recursing into directories), sniff
 * JSON or YAML from the first significant byte, and stream. */
#include "io/internal.h"
#include "io/nonobject.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/alloc.h"

static void apply_defaults(const pk_limits *in, pk_limits *out)
{
	*out = *in;
	if (!out->max_record_bytes)
		out->max_record_bytes = PK_DEFAULT_MAX_RECORD_BYTES;
	if (!out->max_depth || out->max_depth > PK_DEFAULT_MAX_DEPTH)
		out->max_depth = PK_DEFAULT_MAX_DEPTH;
	if (!out->max_alias_expansions)
		out->max_alias_expansions = PK_DEFAULT_MAX_ALIAS_EXPANSIONS;
}

/* Read up to the first significant byte (after a BOM, blanks). */
static int sniff(int fd, char *buf, size_t cap, size_t *n, int *first)
{
	*n = 0;
	*first = -1;
	while (*n < cap) {
		ssize_t r = read(fd, buf + *n, cap - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		*n += (size_t)r;
		size_t i = (*n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) ? 3 : 0;
		for (; i < *n; i++)
			if (!strchr(" \t\r\n", buf[i])) {
				*first = (unsigned char)buf[i];
				if (*first == 0x1F && i + 1 == *n)
					break;   /* gzip's magic is two bytes: read the second */
				return 0;
			}
	}
	return 0;
}

/* ---- gzip ------------------------------------------------------------------
 * A gzip input (magic bytes 1f 8b, on a file or a pipe) is inflated by a
 * thread into one end of a socket pair; the other end is read as any input,
 * so positions are those of the inflated text and memory stays bounded by
 * the parsers' own windows. A socket, not a pipe: a reader that stops early
 * closes its end and the inflater's send gets EPIPE, not SIGPIPE. */
typedef struct gunzip {
	int in, out;             /* the compressed input; the inflated text's write end */
	const char *prefix;      /* bytes of `in` already read for sniffing */
	size_t nprefix;
	char error[160];         /* why inflating stopped early, or "" */
} gunzip;

static int send_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Why inflate stopped, in words that name the check that failed: zlib
 * checks each member's trailer (CRC-32 and length of the text) as it ends. */
static void gzip_failure(gunzip *g, int rc, const z_stream *z)
{
	const char *msg = z->msg ? z->msg : "";
	if (strcmp(msg, "incorrect data check") == 0)
		snprintf(g->error, sizeof g->error, "gzip CRC mismatch: the compressed data is corrupt");
	else if (strcmp(msg, "incorrect length check") == 0)
		snprintf(g->error, sizeof g->error, "gzip length mismatch: the compressed data is corrupt");
	else if (rc == Z_MEM_ERROR)
		snprintf(g->error, sizeof g->error, "gzip: out of memory");
	else
		snprintf(g->error, sizeof g->error, "corrupt gzip stream: %s", *msg ? msg : "invalid compressed data");
}

static void *gunzip_thread(void *arg)
{
	gunzip *g = arg;
	unsigned char in[1 << 16], out[1 << 16];
	z_stream z = { 0 };
	int ended = 0;       /* the last member read ended, trailer checked */
	int more_out = 0;    /* inflate filled the output: it may hold more */

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		snprintf(g->error, sizeof g->error, "gzip: cannot start inflating");
		close(g->out);
		return NULL;
	}
	z.next_in = (unsigned char *)(uintptr_t)g->prefix;
	z.avail_in = (uInt)g->nprefix;
	for (;;) {
		if (z.avail_in == 0 && !more_out) {
			ssize_t r = read(g->in, in, sizeof in);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				snprintf(g->error, sizeof g->error, "read error: %s", strerror(errno));
				break;
			}
			if (r == 0) {
				/* the input ends: whole only if its last member did,
				 * trailer and all (gzip -t's rule) */
				if (!ended)
					snprintf(g->error, sizeof g->error,
					         "truncated gzip stream: it ends before the CRC and length that close its last "
					         "member");
				break;
			}
			z.next_in = in;
			z.avail_in = (uInt)r;
		}
		if (ended) {     /* concatenated members, as gzip -c a b > c writes */
			inflateReset(&z);
			ended = 0;
		}
		z.next_out = out;
		z.avail_out = sizeof out;
		int rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			gzip_failure(g, rc, &z);
			break;
		}
		more_out = z.avail_out == 0 && rc != Z_STREAM_END;
		if (send_all(g->out, out, sizeof out - z.avail_out) < 0)
			break;   /* the reader stopped */
		ended = rc == Z_STREAM_END;
	}
	inflateEnd(&z);
	close(g->out);
	return NULL;
}

static int read_fd(pk_sink *s, int fd, int may_gzip);

static int read_gzip(pk_sink *s, int fd, const char *prefix, size_t n)
{
	int sv[2];
	pthread_t t;
	gunzip g = { .in = fd, .prefix = prefix, .nprefix = n };

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "gzip: %s", strerror(errno));
	g.out = sv[1];
	if (pthread_create(&t, NULL, gunzip_thread, &g) != 0) {
		close(sv[0]);
		close(sv[1]);
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "gzip: cannot start a thread");
	}
	int rc = read_fd(s, sv[0], 0);   /* gzip inside gzip is not unpacked */
	close(sv[0]);    /* an inflater still sending gets EPIPE */
	pthread_join(t, NULL);
	if (g.error[0] && !s->stop)
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "%s", g.error);
	return rc;
}

/* Text (JSON, YAML) holds no control bytes but tab, newline, carriage
 * return and json-seq's record separator, and is UTF-8. Whether the first
 * block read says otherwise: then *why says how, and it is not parsed at
 * all (a parser would wade through megabytes of binary looking for where
 * the next document might start). A character cut by the block's end is
 * not held against it. */
static bool binary_block(const char *buf, size_t n, char *why, size_t size)
{
	const unsigned char *p = (const unsigned char *)buf;
	if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
		snprintf(why, size, "UTF-16 text (byte order mark %02X %02X): not read; convert it to UTF-8 first "
		         "(iconv -f UTF-16 -t UTF-8)", p[0], p[1]);
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= 0x20 || p[i] == '\t' || p[i] == '\n' || p[i] == '\r' || p[i] == 0x1E)
			continue;
		if (p[i] == 0)
			snprintf(why, size, "binary input (a NUL byte at offset %zu): not JSON or YAML", i);
		else
			snprintf(why, size, "binary input (control byte 0x%02X at offset %zu): not JSON or YAML", p[i], i);
		return true;
	}
	size_t bad = pk_utf8_check(p, n);
	if (bad < n) {
		size_t want = p[bad] >= 0xF0 ? 4 : p[bad] >= 0xE0 ? 3 : 2, k = bad + 1;
		while (k < n && (p[k] & 0xC0) == 0x80)
			k++;
		if (p[bad] >= 0xC2 && p[bad] <= 0xF4 && k == n && n - bad < want)
			return false;   /* a character the block's end cut */
		snprintf(why, size, "not UTF-8 text (byte 0x%02X at offset %zu): not JSON or YAML, which are UTF-8",
		         p[bad], bad);
		return true;
	}
	return false;
}

static int read_fd(pk_sink *s, int fd, int may_gzip)
{
	char prefix[4096];
	size_t n;
	int first;
	char why[200];

	if (sniff(fd, prefix, sizeof prefix, &n, &first) < 0)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "read error: %s", strerror(errno));
	if (may_gzip && n >= 2 && (unsigned char)prefix[0] == 0x1F && (unsigned char)prefix[1] == 0x8B)
		return read_gzip(s, fd, prefix, n);
	if (binary_block(prefix, n, why, sizeof why))
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_PARSE, 1, 1, -1, 0, NULL, "%s", why);
	if (first == -1) {
		s->input_empty = 1;
		return 0;        /* empty input: no documents */
	}
	if (s->opts->skip_file && pk_nonobject_text(s->file, prefix, n)) {
		s->opts->skip_file(s->ctx, s->file, PK_NONOBJECT_TEMPLATE);
		return 0;
	}
	if (first == '{' || first == '[' || first == 0x1E)
		return pk_json_stream(s, fd, prefix, n);
	return pk_yaml_stream(s, fd, prefix, n);
}

int pk_manifest_name(const char *name)
{
	size_t n = strlen(name);
	if (n > 3 && strcmp(name + n - 3, ".gz") == 0)
		n -= 3;   /* deploy/nodes.json.gz */
	return (n > 5 && strncmp(name + n - 5, ".yaml", 5) == 0) || (n > 4 && strncmp(name + n - 4, ".yml", 4) == 0) ||
	       (n > 5 && strncmp(name + n - 5, ".json", 5) == 0);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_path(pk_sink *s, const char *path, int depth);

static int read_dir(pk_sink *s, const char *path, int depth)
{
	DIR *d = opendir(path);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	if (!d)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "%s", strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		names = pk_grow(names, &cap, n + 1, sizeof *names);
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[n] = pk_xmalloc(len);
		/* "deploy/" names "deploy/a.yaml", not "deploy//a.yaml" */
		snprintf(names[n], len, "%s%s%s", path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		n++;
	}
	closedir(d);
	if (n)  /* an empty directory: names is NULL, which qsort may not take */
		qsort(names, n, sizeof *names, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!rc && stat(names[i], &st) == 0 &&
		    (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && pk_manifest_name(names[i]))))
			rc = read_path(s, names[i], depth + 1);
		free(names[i]);
	}
	free(names);
	return rc;
}

static void input_begins(pk_sink *s)
{
	s->input_records = s->input_errors = 0;
	s->input_closed = s->input_empty = 0;
}

/* A stage that reads another stage's records (opts->stream_end_of) takes
 * an input as a whole answer only when it ends with the StreamEnd record
 * that stage writes last: otherwise the stage was cut (`| head`, a full
 * disk, a killed process) or failed, and its exit status may be lost in a
 * pipeline without `set -o pipefail`. Said once per input, unless reading
 * it has failed already (that message names the cut). */
static void input_ends(pk_sink *s)
{
	const char *stage = s->opts->stream_end_of;
	if (!stage || s->stop || s->input_errors)
		return;
	if (s->input_empty)
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL,
		              "no input: the stage before wrote nothing (a complete %s answer ends with a "
		              "StreamEnd record): it failed or was not run", stage);
	else if (!s->input_closed)
		pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL,
		              "the input ends without the StreamEnd record that closes a complete %s answer "
		              "(%ld record(s) read): the stage before was cut or failed", stage, s->input_records);
}

static int read_path(pk_sink *s, const char *path, int depth)
{
	struct stat st;
	int rc;

	s->file = path;
	input_begins(s);
	if (strcmp(path, "-") == 0) {
		s->opened++;
		rc = read_fd(s, STDIN_FILENO, 1);
		input_ends(s);
		if (s->opts->file_done)
			s->opts->file_done(s->ctx, path);
		return rc;
	}
	const char *other = s->opts->skip_file ? pk_nonobject_file(path) : NULL;
	int fd = other ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (other) {
		s->opts->skip_file(s->ctx, path, other);
		if (s->opts->file_done)
			s->opts->file_done(s->ctx, path);
		return 0;
	}
	if (fd < 0)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "%s", strerror(errno));
	s->opened++;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		if (depth > 64)
			return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "directories nested too deep");
		return read_dir(s, path, depth);
	}
	rc = read_fd(s, fd, 1);
	close(fd);
	input_ends(s);
	if (s->opts->file_done)
		s->opts->file_done(s->ctx, path);
	return rc;
}

int pk_read_paths(const pk_reader_opts *opts, char *const *paths, size_t npaths,
                  pk_record_fn fn, void *ctx)
{
	pk_sink s = { .opts = opts, .fn = fn, .ctx = ctx };
	static char *const stdin_path[] = { "-" };

	apply_defaults(&opts->limits, &s.lim);
	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	for (size_t i = 0; i < npaths && !s.stop; i++)
		read_path(&s, paths[i], 0);
	if (!s.stop && s.opened == 0)
		return -1;   /* every operand failed to open: said already, nothing more to say */
	return s.stop;
}

int pk_read_named_buffer(const pk_reader_opts *opts, const char *buf, size_t len, const char *name,
                         pk_record_fn fn, void *ctx)
{
	pk_sink s = { .opts = opts, .fn = fn, .ctx = ctx, .file = name };
	apply_defaults(&opts->limits, &s.lim);
	const char *other = opts->skip_file ? pk_nonobject_file(name) : NULL;
	size_t i = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	char why[200];
	if (other) {
		opts->skip_file(ctx, name, other);
	} else if (binary_block(buf, len < 4096 ? len : 4096, why, sizeof why)) {
		pk_sink_error(&s, PK_REC_ERROR, PK_ERR_PARSE, 1, 1, -1, 0, NULL, "%s", why);
	} else if (i == len) {
		/* no documents */
	} else if (opts->skip_file && pk_nonobject_text(name, buf, len)) {
		opts->skip_file(ctx, name, PK_NONOBJECT_TEMPLATE);
	} else {
		/* the streams read on from an fd after the text they are
		 * given: an empty one, and a regular file, so that JSON takes
		 * its path for small files (no parse threads) */
		int eof = memfd_create("pk-empty", MFD_CLOEXEC);
		if (eof < 0)
			pk_sink_error(&s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "memfd_create: %s", strerror(errno));
		else if (buf[i] == '{' || buf[i] == '[' || buf[i] == 0x1E)
			pk_json_stream(&s, eof, buf, len);
		else
			pk_yaml_stream(&s, eof, buf, len);
		if (eof >= 0)
			close(eof);
	}
	if (opts->file_done)
		opts->file_done(ctx, name);
	return s.stop;
}

/* ---- small helpers for tests and fuzzers -------------------------------- */

typedef struct first_ctx {
	cJSON *obj;
	char *err;
	size_t errsize;
} first_ctx;

static int take_first(void *ctx, pk_record *rec)
{
	first_ctx *f = ctx;
	if (rec->type == PK_REC_ERROR && f->err && !f->err[0])
		snprintf(f->err, f->errsize, "%ld:%ld: %s", rec->origin.line, rec->origin.col, rec->message);
	if (rec->type == PK_REC_OBJECT && !f->obj) {
		f->obj = rec->obj;
		rec->obj = NULL;
	}
	return 0;
}

static cJSON *parse_text(const char *text, size_t len, char *err, size_t errsize, int yaml)
{
	int fds[2];
	first_ctx f = { .err = err, .errsize = errsize };
	pk_reader_opts opts = { .threads = 1 };
	pk_sink s = { .opts = &opts, .fn = take_first, .ctx = &f, .file = "<text>" };

	if (err && errsize)
		err[0] = '\0';
	apply_defaults(&opts.limits, &s.lim);
	/* feed through a pipe would need a thread; a temporary file keeps it simple */
	FILE *tmp = tmpfile();
	if (!tmp)
		return NULL;
	fwrite(text, 1, len, tmp);
	fflush(tmp);
	rewind(tmp);
	fds[0] = fileno(tmp);
	(void)fds;
	if (yaml)
		pk_yaml_stream(&s, fileno(tmp), "", 0);
	else
		read_fd(&s, fileno(tmp), 1);
	fclose(tmp);
	return f.obj;
}

cJSON *pk_parse_json_text(const char *text, size_t len, char *err, size_t errsize)
{
	return parse_text(text, len, err, errsize, 0);
}

cJSON *pk_parse_yaml_text(const char *text, size_t len, char *err, size_t errsize)
{
	return parse_text(text, len, err, errsize, 1);
}
