/* Operands to records: open each path (recursing into directories), sniff
 * JSON or YAML from the first significant byte, and stream. */
#include "io/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
				return 0;
			}
	}
	return 0;
}

static int read_fd(pk_sink *s, int fd)
{
	char prefix[4096];
	size_t n;
	int first;

	if (sniff(fd, prefix, sizeof prefix, &n, &first) < 0)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "read error: %s", strerror(errno));
	if (first == -1)
		return 0;        /* empty input: no documents */
	if (first == '{' || first == '[' || first == 0x1E)
		return pk_json_stream(s, fd, prefix, n);
	return pk_yaml_stream(s, fd, prefix, n);
}

static int has_manifest_suffix(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
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
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			char **nn = realloc(names, cap * sizeof *nn);
			if (!nn)
				break;
			names = nn;
		}
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len)))
			break;
		/* "deploy/" names "deploy/a.yaml", not "deploy//a.yaml" */
		snprintf(names[n], len, "%s%s%s", path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		n++;
	}
	closedir(d);
	if (n > 1) /* an empty directory has no array at all */
		qsort(names, n, sizeof *names, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!rc && stat(names[i], &st) == 0 &&
		    (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && has_manifest_suffix(names[i]))))
			rc = read_path(s, names[i], depth + 1);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int read_path(pk_sink *s, const char *path, int depth)
{
	struct stat st;
	int rc;

	s->file = path;
	if (strcmp(path, "-") == 0) {
		rc = read_fd(s, STDIN_FILENO);
		if (s->opts->file_done)
			s->opts->file_done(s->ctx, path);
		return rc;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "%s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		if (depth > 64)
			return pk_sink_error(s, PK_REC_ERROR, PK_ERR_IO, 0, 0, -1, 0, NULL, "directories nested too deep");
		return read_dir(s, path, depth);
	}
	rc = read_fd(s, fd);
	close(fd);
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
		read_fd(&s, fileno(tmp));
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
