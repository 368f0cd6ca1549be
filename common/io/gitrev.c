/* A git revision's committed files: one ls-tree, one cat-file --batch (see
 * gitrev.h). The contents are handed out from memory. cat-file's requests are written to a temporary file first and
 * given as its standard input, so that neither side waits on a full pipe. */
#include "io/gitrev.h"
#include "io/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"

extern char **environ;

typedef struct git_proc {
	pid_t pid;
	FILE *out;  /* its standard output */
} git_proc;

/* Start git with argv; standard input is in_fd (-1: /dev/null). git's own
 * messages go to our standard error unless quiet. */
static int git_start(git_proc *g, char *const argv[], int in_fd, bool quiet)
{
	int out[2];
	posix_spawn_file_actions_t fa;
	memset(g, 0, sizeof *g);
	if (pipe(out) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (quiet)
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&g->pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (rc != 0) {
		close(out[0]);
		g->pid = 0;
		errno = rc;
		return -1;
	}
	g->out = fdopen(out[0], "r");
	return g->out ? 0 : -1;
}

/* Close the pipe and return git's exit status (-1: did not exit). */
static int git_finish(git_proc *g)
{
	int st = 0;
	if (g->out)
		fclose(g->out);
	if (g->pid <= 0)
		return -1;
	while (waitpid(g->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run git and collect its standard output; returns its exit status. */
static int git_output(char *const argv[], char **buf, size_t *len, bool quiet)
{
	git_proc g;
	*buf = NULL;
	*len = 0;
	if (git_start(&g, argv, -1, quiet) < 0)
		return -1;
	size_t cap = 0;
	for (;;) {
		*buf = pk_grow(*buf, &cap, *len + 65536, 1);
		size_t n = fread(*buf + *len, 1, cap - *len - 1, g.out);
		*len += n;
		if (n == 0)
			break;
	}
	if (*buf)
		(*buf)[*len] = '\0';
	return git_finish(&g);
}

static int git_asks(char *const argv[])
{
	char *buf;
	size_t len;
	int st = git_output(argv, &buf, &len, true);
	free(buf);
	return st;
}

pk_git_status pk_git_resolve(const char *rev, char **toplevel)
{
	char spec[1100];
	snprintf(spec, sizeof spec, "%s^{commit}", rev);
	char *const top[] = {"git", "rev-parse", "--show-toplevel", NULL};
	char *const verify[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
	char *const head[] = {"git", "symbolic-ref", "--quiet", "HEAD", NULL};
	char *buf;
	size_t len;
	if (toplevel)
		*toplevel = NULL;
	int st = git_output(top, &buf, &len, true);
	if (st < 0) {
		free(buf);
		return PK_GIT_FAILED;
	}
	if (st != 0 || !buf || !len) {
		free(buf);
		return PK_GIT_NOT_REPO;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (git_asks(verify) != 0) {
		free(buf);
		return strcmp(rev, "HEAD") == 0 && git_asks(head) == 0 ? PK_GIT_UNBORN : PK_GIT_NO_REV;
	}
	if (toplevel)
		*toplevel = buf;
	else
		free(buf);
	return PK_GIT_OK;
}

/* One ls-tree -z entry: "<mode> <type> <oid>\t<path>". */
typedef struct tree_entry {
	const char *path;
	char oid[72];
} tree_entry;

static bool parse_entry(const char *e, tree_entry *out)
{
	char mode[16], type[16];
	const char *tab = strchr(e, '\t');
	if (!tab || sscanf(e, "%15s %15s %71s", mode, type, out->oid) != 3)
		return false;
	out->path = tab + 1;
	/* regular files only: not symbolic links (120000) nor submodules */
	return strcmp(type, "blob") == 0 && (strcmp(mode, "100644") == 0 || strcmp(mode, "100755") == 0);
}

static int temp_fd(char *err, size_t errsize)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/preemptkit-git-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		snprintf(err, errsize, "cannot create a temporary file: %s", strerror(errno));
	else
		unlink(path);
	return fd;
}

/* size bytes of cat-file's output into *buf (grown as needed). */
static bool read_blob(FILE *in, unsigned long long size, char **buf, size_t *cap)
{
	if (size >= SIZE_MAX)
		pk_out_of_memory();
	*buf = pk_grow(*buf, cap, (size_t)size + 1, 1);
	if (size && fread(*buf, 1, (size_t)size, in) != (size_t)size)
		return false;
	(*buf)[size] = '\0';
	(void)fgetc(in);  /* the newline after the contents */
	return true;
}

/* The accepted entries' object ids, one a line, into req. */
static size_t write_requests(const char *list, size_t len, pk_git_accept_fn accept, void *ctx, FILE *req)
{
	size_t n = 0;
	tree_entry e;
	for (const char *p = list; p < list + len; p += strlen(p) + 1)
		if (parse_entry(p, &e) && accept(ctx, e.path)) {
			fprintf(req, "%s\n", e.oid);
			n++;
		}
	return n;
}

static int read_blobs(const char *list, size_t len, pk_git_accept_fn accept, pk_git_blob_fn fn, void *ctx,
                      size_t max_blob, int req_fd, char *err, size_t errsize)
{
	char *const argv[] = {"git", "cat-file", "--batch", NULL};
	git_proc cat;
	if (git_start(&cat, argv, req_fd, false) < 0) {
		snprintf(err, errsize, "cannot run git cat-file: %s", strerror(errno));
		return -1;
	}
	int rc = 0;
	tree_entry e;
	char *blob = NULL;
	size_t cap = 0;
	for (const char *p = list; rc == 0 && p < list + len; p += strlen(p) + 1) {
		if (!parse_entry(p, &e) || !accept(ctx, e.path))
			continue;
		char header[256], type[32];
		unsigned long long size;
		if (!fgets(header, sizeof header, cat.out) || sscanf(header, "%*s %31s %llu", type, &size) != 2 ||
		    strcmp(type, "blob") != 0) {
			snprintf(err, errsize, "git cat-file: cannot read %s", e.path);
			rc = -1;
			break;
		}
		/* A committed file is read whole: bound it as a record is bounded,
		 * and stop rather than compare with a state missing a file. */
		if (size > (max_blob ? max_blob : PK_DEFAULT_MAX_RECORD_BYTES)) {
			snprintf(err, errsize,
			         "%s is %llu bytes, over the --max-record-bytes limit of %zu: not read (raise the "
			         "limit to compare with it)",
			         e.path, size, max_blob ? max_blob : PK_DEFAULT_MAX_RECORD_BYTES);
			rc = -1;
			break;
		}
		if (!read_blob(cat.out, size, &blob, &cap)) {
			snprintf(err, errsize, "git cat-file: cannot read %s", e.path);
			rc = -1;
			break;
		}
		rc = fn(ctx, e.path, blob, (size_t)size);
	}
	free(blob);
	if (git_finish(&cat) != 0 && rc == 0) {
		snprintf(err, errsize, "git cat-file failed");
		rc = -1;
	}
	return rc;
}

int pk_git_read_tree(const char *rev, pk_git_accept_fn accept, pk_git_blob_fn fn, void *ctx, size_t max_blob,
                     char *err, size_t errsize)
{
	char *const ls[] = {"git", "ls-tree", "-r", "-z", "--full-tree", (char *)rev, NULL};
	char *list;
	size_t len;
	int st = git_output(ls, &list, &len, false);
	if (st != 0) {
		free(list);
		snprintf(err, errsize, "git ls-tree %s failed", rev);
		return -1;
	}
	int req_fd = temp_fd(err, errsize);
	FILE *req = req_fd < 0 ? NULL : fdopen(dup(req_fd), "w+");
	int rc = -1;
	if (req) {
		size_t n = write_requests(list ? list : "", list ? len : 0, accept, ctx, req);
		bool ok = fflush(req) == 0 && lseek(req_fd, 0, SEEK_SET) == 0;
		fclose(req);
		if (!ok)
			snprintf(err, errsize, "cannot write a temporary file: %s", strerror(errno));
		else
			rc = n ? read_blobs(list, len, accept, fn, ctx, max_blob, req_fd, err, errsize) : 0;
	} else if (req_fd >= 0) {
		snprintf(err, errsize, "cannot write a temporary file: %s", strerror(errno));
	}
	if (req_fd >= 0)
		close(req_fd);
	free(list);
	return rc;
}

/* ---- --against REV ---- */

typedef struct against {
	const char *rev;
	const char *top;        /* the work tree, absolute */
	char prefix[4096];      /* the current directory under top ("" or "sub/") */
	char **replaced;        /* operands, relative to top ("" = all of it) */
	size_t nreplaced;
	pk_git_file_fn fn;
	void *ctx;
} against;

/* The files the reader takes from a directory: manifests, no component
 * that starts with "." */
static bool accept_manifest(void *ctx, const char *path)
{
	(void)ctx;
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.')
			return false;
	return pk_manifest_name(path);
}

static bool is_replaced(const against *a, const char *path)
{
	for (size_t i = 0; i < a->nreplaced; i++) {
		size_t n = strlen(a->replaced[i]);
		if (n == 0 || (strncmp(path, a->replaced[i], n) == 0 && (path[n] == '\0' || path[n] == '/')))
			return true;
	}
	size_t n = strlen(a->top) + strlen(path) + 2;
	char *full = pk_xmalloc(n);
	snprintf(full, n, "%s/%s", a->top, path);
	bool gone = access(full, F_OK) != 0;  /* deleted from the work tree */
	free(full);
	return gone;
}

static int on_committed(void *ctx, const char *path, const char *data, size_t len)
{
	against *a = ctx;
	size_t np = strlen(a->prefix);
	size_t nname = strlen(a->rev) + strlen(path) + 2, nlocal = strlen(a->top) + strlen(path) + 2;
	char *name = pk_xmalloc(nname), *local = pk_xmalloc(nlocal);
	int rc = -1;
	if (name && local) {
		snprintf(name, nname, "%s:%s", a->rev, path);
		if (strncmp(path, a->prefix, np) == 0)
			snprintf(local, nlocal, "%s", path + np);
		else
			snprintf(local, nlocal, "%s/%s", a->top, path);
		pk_git_file f = {path, name, local, is_replaced(a, path), data, len};
		rc = a->fn(a->ctx, &f);
	}
	free(name);
	free(local);
	return rc;
}

/* Operands as paths under the work tree; a path outside it has no
 * committed version to compare with. */
static int replaced_paths(against *a, const char *prog, char *const *paths, size_t npaths)
{
	size_t ntop = strlen(a->top);
	a->replaced = pk_xcalloc(npaths + 1, sizeof *a->replaced);
	for (size_t i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-") == 0)
			continue;
		char *real = realpath(paths[i], NULL);
		if (!real)
			continue;  /* the reader says why it cannot be read */
		if (strncmp(real, a->top, ntop) != 0 || (real[ntop] != '\0' && real[ntop] != '/')) {
			fprintf(stderr, "%s: --against %s: %s is outside the repository %s; it has no committed version "
			        "to compare with\n", prog, a->rev, paths[i], a->top);
			free(real);
			return -1;
		}
		memmove(real, real + ntop + (real[ntop] == '/'), strlen(real + ntop) + 1);
		a->replaced[a->nreplaced++] = real;
	}
	return 0;
}

static void current_prefix(against *a)
{
	char *cwd = getcwd(NULL, 0), *top = realpath(a->top, NULL);
	size_t n = top ? strlen(top) : 0;
	a->prefix[0] = '\0';
	if (cwd && top && strncmp(cwd, top, n) == 0 && cwd[n] == '/')
		snprintf(a->prefix, sizeof a->prefix, "%s/", cwd + n + 1);
	free(cwd);
	free(top);
}

static int say_status(const char *prog, const char *rev, pk_git_status st)
{
	switch (st) {
	case PK_GIT_UNBORN:
		fprintf(stderr, "%s: --against HEAD: the repository has no commit yet; every object is new\n", prog);
		return 0;
	case PK_GIT_NOT_REPO:
		fprintf(stderr, "%s: --against %s: not inside a git repository\n", prog, rev);
		return -1;
	case PK_GIT_NO_REV:
		fprintf(stderr, "%s: --against %s: not a commit of this repository\n", prog, rev);
		return -1;
	case PK_GIT_FAILED:
		fprintf(stderr, "%s: --against %s: cannot run git: %s\n", prog, rev, strerror(errno));
		return -1;
	case PK_GIT_OK:
		break;
	}
	return 0;
}

int pk_git_against(const char *prog, const char *rev, char *const *operands, size_t noperands, size_t max_file,
                   pk_git_file_fn fn, void *ctx)
{
	char *top = NULL;
	pk_git_status st = pk_git_resolve(rev, &top);
	if (st != PK_GIT_OK)
		return say_status(prog, rev, st);
	against a = {.rev = rev, .top = top, .fn = fn, .ctx = ctx};
	int rc = replaced_paths(&a, prog, operands, noperands);
	if (rc == 0) {
		char err[600] = "";
		current_prefix(&a);
		rc = pk_git_read_tree(rev, accept_manifest, on_committed, &a, max_file, err, sizeof err);
		if (rc != 0 && *err)
			fprintf(stderr, "%s: --against %s: %s\n", prog, rev, err);
	}
	for (size_t i = 0; i < a.nreplaced; i++)
		free(a.replaced[i]);
	free(a.replaced);
	free(top);
	return rc == 0 ? 0 : -1;
}
