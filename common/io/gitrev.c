/* A git revision's committed files and the index's staged ones: one
 * ls-tree, one ls-files, one cat-file --batch (see gitrev.h). The contents
 * are handed out from memory. cat-file's requests are written to a
 * temporary file first and given as its standard input, so that neither
 * side waits on a full pipe. */
#include "io/gitrev.h"
#include "io/nonobject.h"
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
#include "base/strtab.h"

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
		pk_git_status st2 = strcmp(rev, "HEAD") == 0 && git_asks(head) == 0 ? PK_GIT_UNBORN : PK_GIT_NO_REV;
		if (toplevel && st2 == PK_GIT_UNBORN)
			*toplevel = buf;
		else
			free(buf);
		return st2;
	}
	if (toplevel)
		*toplevel = buf;
	else
		free(buf);
	return PK_GIT_OK;
}

/* ---- listings ---- */

/* A regular file of a listing: ls-tree's or ls-files' entry. */
typedef struct entry {
	const char *path;   /* into the listing's text */
	char oid[72];
	bool kustomization; /* a kustomization file, read first */
	bool replaced;      /* committed: not in the resulting state as it is */
	bool changed;       /* staged: the index adds or changes it */
	bool unchanged;     /* the same blob on both sides */
} entry;

typedef struct listing {
	char *text;         /* git's NUL-separated output */
	size_t len;
	entry *v;
	size_t n, cap;
} listing;

static void listing_free(listing *l)
{
	free(l->text);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* A path component that starts with ".": not what a directory walk takes. */
static bool dot_component(const char *path)
{
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.')
			return true;
	return false;
}

/* Regular files only: not symbolic links (120000) nor submodules. */
static bool regular_mode(const char *mode)
{
	return strcmp(mode, "100644") == 0 || strcmp(mode, "100755") == 0;
}

static void keep_entry(listing *l, const char *path, const char *oid)
{
	/* the files a directory walk takes (manifests), and kustomizations */
	bool kz = pk_kustomization_name(path);
	if (dot_component(path) || (!kz && !pk_manifest_name(path)))
		return;
	l->v = pk_grow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	entry *e = &l->v[l->n++];
	memset(e, 0, sizeof *e);
	e->path = path;
	e->kustomization = kz;
	snprintf(e->oid, sizeof e->oid, "%s", oid);
}

/* ls-tree -z: "<mode> <type> <oid>\t<path>". */
static int list_tree(const char *rev, listing *l, char *err, size_t errsize)
{
	char *const argv[] = {"git", "ls-tree", "-r", "-z", "--full-tree", (char *)rev, NULL};
	if (git_output(argv, &l->text, &l->len, false) != 0) {
		snprintf(err, errsize, "git ls-tree %s failed", rev);
		return -1;
	}
	for (char *p = l->text; p && p < l->text + l->len; p += strlen(p) + 1) {
		char mode[16], type[16], oid[72];
		char *tab = strchr(p, '\t');
		if (tab && sscanf(p, "%15s %15s %71s", mode, type, oid) == 3 && strcmp(type, "blob") == 0 &&
		    regular_mode(mode))
			keep_entry(l, tab + 1, oid);
	}
	return 0;
}

/* ls-files -s -z: "<mode> <oid> <stage>\t<path>"; stage 0 only (a path
 * with a conflict cannot be committed, git says so). The whole index, from
 * any directory of the work tree. */
static int list_index(listing *l, char *err, size_t errsize)
{
	char *const argv[] = {"git", "ls-files", "-s", "-z", "--full-name", "--", ":/", NULL};
	if (git_output(argv, &l->text, &l->len, false) != 0) {
		snprintf(err, errsize, "git ls-files failed");
		return -1;
	}
	for (char *p = l->text; p && p < l->text + l->len; p += strlen(p) + 1) {
		char mode[16], oid[72];
		int stage;
		char *tab = strchr(p, '\t');
		if (tab && sscanf(p, "%15s %71s %d", mode, oid, &stage) == 3 && stage == 0 && regular_mode(mode))
			keep_entry(l, tab + 1, oid);
	}
	return 0;
}

/* ---- one cat-file --batch for a list of entries ---- */

/* A blob read: data (NUL-terminated) or, for a file over the bound that
 * is binary, NULL; binary says why it is not text. */
typedef int (*blob_fn)(void *ctx, const entry *e, const char *data, size_t len, const char *binary);

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

/* The requests, one object id a line, in a temporary file at offset 0. */
static int write_requests(entry *const *order, size_t n, char *err, size_t errsize)
{
	int fd = temp_fd(err, errsize);
	FILE *req = fd < 0 ? NULL : fdopen(dup(fd), "w+");
	if (!req) {
		if (fd >= 0) {
			snprintf(err, errsize, "cannot write a temporary file: %s", strerror(errno));
			close(fd);
		}
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(req, "%s\n", order[i]->oid);
	bool ok = fflush(req) == 0 && lseek(fd, 0, SEEK_SET) == 0;
	fclose(req);
	if (!ok) {
		snprintf(err, errsize, "cannot write a temporary file: %s", strerror(errno));
		close(fd);
		return -1;
	}
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

/* A blob over the bound: its start says whether it is binary (skipped,
 * the rest read past) or text that cannot be compared whole. */
static const char *read_past(FILE *in, unsigned long long size)
{
	char head[8192], sink[65536];
	size_t n = size < sizeof head ? (size_t)size : sizeof head;
	if (fread(head, 1, n, in) != n)
		return NULL;
	const char *binary = pk_nonobject_bytes(head, n < size ? n : (size_t)size);
	for (unsigned long long left = size - n; binary && left;) {
		size_t k = left < sizeof sink ? (size_t)left : sizeof sink;
		if (fread(sink, 1, k, in) != k)
			return NULL;
		left -= k;
	}
	if (binary)
		(void)fgetc(in);
	return binary;
}

static int read_batch(entry *const *order, size_t n, size_t max_blob, blob_fn fn, void *ctx, char *err,
                      size_t errsize)
{
	if (!n)
		return 0;
	int req_fd = write_requests(order, n, err, errsize);
	if (req_fd < 0)
		return -1;
	char *const argv[] = {"git", "cat-file", "--batch", NULL};
	git_proc cat;
	if (git_start(&cat, argv, req_fd, false) < 0) {
		snprintf(err, errsize, "cannot run git cat-file: %s", strerror(errno));
		close(req_fd);
		return -1;
	}
	close(req_fd);
	size_t bound = max_blob ? max_blob : PK_DEFAULT_MAX_RECORD_BYTES;
	int rc = 0;
	char *blob = NULL;
	size_t cap = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const entry *e = order[i];
		char header[256], type[32];
		unsigned long long size;
		if (!fgets(header, sizeof header, cat.out) || sscanf(header, "%*s %31s %llu", type, &size) != 2 ||
		    strcmp(type, "blob") != 0) {
			snprintf(err, errsize, "git cat-file: cannot read %s", e->path);
			rc = -1;
		} else if (size > bound) {
			/* A file is read whole: bound it as a record is bounded,
			 * and stop rather than compare with a state missing a
			 * file; binary contents are skipped. */
			const char *binary = read_past(cat.out, size);
			if (binary) {
				rc = fn(ctx, e, NULL, 0, binary);
			} else {
				snprintf(err, errsize,
				         "%s is %llu bytes, over the --max-record-bytes limit of %zu: not read (raise the "
				         "limit to compare with it)", e->path, size, bound);
				rc = -1;
			}
		} else if (!read_blob(cat.out, size, &blob, &cap)) {
			snprintf(err, errsize, "git cat-file: cannot read %s", e->path);
			rc = -1;
		} else {
			rc = fn(ctx, e, blob, (size_t)size, pk_nonobject_bytes(blob, (size_t)size));
		}
	}
	free(blob);
	if (git_finish(&cat) != 0 && rc == 0) {
		snprintf(err, errsize, "git cat-file failed");
		rc = -1;
	}
	return rc;
}

/* ---- the state compared with: --against REV and --staged ---- */

typedef struct state {
	const char *prog;
	const char *rev;
	const char *top;        /* the work tree, absolute */
	char prefix[4096];      /* the current directory under top ("" or "sub/") */
	char **replaced;        /* --against: operands, relative to top ("" = all of it) */
	size_t nreplaced;
	bool work_tree;         /* --against: a file gone from the work tree is deleted */
	pk_kpatches committed_patches, staged_patches;
	pk_git_file_fn fn;
	void *ctx;
} state;

static bool is_replaced(const state *a, const char *path)
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

/* The work-tree file as named from the current directory. */
static char *local_name(const state *a, const char *path)
{
	size_t np = strlen(a->prefix), n = strlen(a->top) + strlen(path) + 2;
	char *local = pk_xmalloc(n);
	if (strncmp(path, a->prefix, np) == 0)
		snprintf(local, n, "%s", path + np);
	else
		snprintf(local, n, "%s/%s", a->top, path);
	return local;
}

/* The kustomizations come first: each feeds the patch index of its side
 * (an unchanged one both). */
static void read_kustomization(state *a, const entry *e, const char *data, size_t len, bool staged)
{
	char *local = local_name(a, e->path);
	if (!staged || e->unchanged)
		pk_kpatches_add(&a->committed_patches, e->path, local, data, len);
	if (staged || e->unchanged)
		pk_kpatches_add(&a->staged_patches, e->path, local, data, len);
	free(local);
}

static int hand_out(state *a, const entry *e, const char *data, size_t len, const char *binary, bool staged)
{
	const char *by = NULL, *skip = binary;
	if (e->kustomization) {
		if (data && !binary)
			read_kustomization(a, e, data, len, staged);
		skip = PK_NONOBJECT_KUSTOMIZATION;  /* a staged one is said, as the reader says it */
	} else if ((by = pk_kpatches_find(staged ? &a->staged_patches : &a->committed_patches, e->path)) != NULL) {
		skip = binary ? binary : PK_NONOBJECT_KPATCH;
	}
	if (skip && !staged)
		return 0;  /* not an existing object */
	char *local = local_name(a, e->path);
	size_t nname = strlen(a->rev) + strlen(e->path) + 2;
	char *name = pk_xmalloc(nname);
	snprintf(name, nname, "%s:%s", a->rev, e->path);
	pk_git_file f = {
		.path = e->path, .name = staged ? local : name, .local = local, .staged = staged,
		.replaced = !staged && (a->work_tree ? is_replaced(a, e->path) : e->replaced),
		.skip = skip, .skip_by = !binary && !e->kustomization ? by : NULL,
		.data = skip ? NULL : data, .len = skip ? 0 : len,
	};
	int rc = a->fn(a->ctx, &f);
	free(name);
	free(local);
	return rc;
}

static int on_committed_blob(void *ctx, const entry *e, const char *data, size_t len, const char *binary)
{
	return hand_out(ctx, e, data, len, binary, false);
}

static int on_staged_blob(void *ctx, const entry *e, const char *data, size_t len, const char *binary)
{
	return hand_out(ctx, e, data, len, binary, true);
}

/* Which side each request belongs to: the first nc of order are
 * committed, the rest staged. */
typedef struct sided {
	state *a;
	size_t nc, i;
} sided;

static int on_blob(void *ctx, const entry *e, const char *data, size_t len, const char *binary)
{
	sided *s = ctx;
	bool staged = s->i++ >= s->nc;
	return (staged ? on_staged_blob : on_committed_blob)(s->a, e, data, len, binary);
}

/* Read the committed entries (c) and the staged ones (st) in one batch,
 * in this order: the committed kustomizations (each feeds the committed
 * side's patch index, and the staged side's when the index keeps it),
 * the committed manifests, the kustomizations the index adds or changes,
 * the manifests it adds or changes. So each side's patches are known
 * before its manifests come, and every committed object before any
 * input. */
static int read_state(state *a, listing *c, listing *st, size_t max_file, char *err, size_t errsize)
{
	size_t n = c->n + (st ? st->n : 0);
	entry **order = pk_xcalloc(n + 1, sizeof *order);
	size_t k = 0, nc;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].kustomization)
			order[k++] = &c->v[i];
	for (size_t i = 0; i < c->n; i++)
		if (!c->v[i].kustomization)
			order[k++] = &c->v[i];
	nc = k;
	for (size_t i = 0; st && i < st->n; i++)
		if (st->v[i].kustomization && !st->v[i].unchanged)
			order[k++] = &st->v[i];
	for (size_t i = 0; st && i < st->n; i++)
		if (!st->v[i].kustomization && st->v[i].changed)
			order[k++] = &st->v[i];
	sided s = {a, nc, 0};
	int rc = read_batch(order, k, max_file, on_blob, &s, err, errsize);
	free(order);
	return rc;
}

/* Operands as paths under the work tree; a path outside it has no
 * committed version to compare with. */
static int replaced_paths(state *a, char *const *paths, size_t npaths)
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
			        "to compare with\n", a->prog, a->rev, paths[i], a->top);
			free(real);
			return -1;
		}
		memmove(real, real + ntop + (real[ntop] == '/'), strlen(real + ntop) + 1);
		a->replaced[a->nreplaced++] = real;
	}
	return 0;
}

static void current_prefix(state *a)
{
	char *cwd = getcwd(NULL, 0), *top = realpath(a->top, NULL);
	size_t n = top ? strlen(top) : 0;
	a->prefix[0] = '\0';
	if (cwd && top && strncmp(cwd, top, n) == 0 && cwd[n] == '/')
		snprintf(a->prefix, sizeof a->prefix, "%s/", cwd + n + 1);
	free(cwd);
	free(top);
}

/* opt: how the user asked ("--against HEAD", "--staged"). */
static int say_status(const char *prog, const char *opt, pk_git_status st)
{
	switch (st) {
	case PK_GIT_UNBORN:
		fprintf(stderr, "%s: %s: the repository has no commit yet; every object is new\n", prog, opt);
		return 0;
	case PK_GIT_NOT_REPO:
		fprintf(stderr, "%s: %s: not inside a git repository\n", prog, opt);
		return -1;
	case PK_GIT_NO_REV:
		fprintf(stderr, "%s: %s: not a commit of this repository\n", prog, opt);
		return -1;
	case PK_GIT_FAILED:
		fprintf(stderr, "%s: %s: cannot run git: %s\n", prog, opt, strerror(errno));
		return -1;
	case PK_GIT_OK:
		break;
	}
	return 0;
}

static void state_init(state *a, const char *prog, const char *rev, char *top, pk_git_file_fn fn, void *ctx)
{
	memset(a, 0, sizeof *a);
	a->prog = prog;
	a->rev = rev;
	a->top = top;
	a->fn = fn;
	a->ctx = ctx;
	pk_kpatches_init(&a->committed_patches);
	pk_kpatches_init(&a->staged_patches);
	current_prefix(a);
}

static void state_free(state *a)
{
	for (size_t i = 0; i < a->nreplaced; i++)
		free(a->replaced[i]);
	free(a->replaced);
	pk_kpatches_free(&a->committed_patches);
	pk_kpatches_free(&a->staged_patches);
}

int pk_git_against(const char *prog, const char *rev, char *const *operands, size_t noperands, size_t max_file,
                   pk_git_file_fn fn, void *ctx)
{
	char *top = NULL, opt[1100];
	snprintf(opt, sizeof opt, "--against %s", rev);
	pk_git_status st = pk_git_resolve(rev, &top);
	if (st != PK_GIT_OK) {
		free(top);
		return say_status(prog, opt, st);
	}
	state a;
	state_init(&a, prog, rev, top, fn, ctx);
	a.work_tree = true;
	int rc = replaced_paths(&a, operands, noperands);
	listing c = {0};
	char err[600] = "";
	if (rc == 0)
		rc = list_tree(rev, &c, err, sizeof err);
	if (rc == 0)
		rc = read_state(&a, &c, NULL, max_file, err, sizeof err);
	if (rc != 0 && *err)
		fprintf(stderr, "%s: %s: %s\n", prog, opt, err);
	listing_free(&c);
	state_free(&a);
	free(top);
	return rc == 0 ? 0 : -1;
}

/* Compare the index with the committed tree by path and object id: what
 * the index adds or changes is staged, what it changes or drops is
 * replaced. Returns how many paths the commit adds, changes or deletes. */
static long compare(listing *c, listing *st)
{
	pk_strmap committed;
	pk_strmap_init(&committed);
	for (size_t i = 0; i < c->n; i++) {
		c->v[i].replaced = true;  /* until the index has it unchanged */
		pk_strmap_put(&committed, c->v[i].path, &c->v[i]);
	}
	long changes = 0, kept = 0;
	for (size_t i = 0; i < st->n; i++) {
		entry *s = &st->v[i], *old = pk_strmap_get(&committed, s->path);
		if (old && strcmp(old->oid, s->oid) == 0) {
			old->replaced = false;
			old->unchanged = s->unchanged = true;
			kept++;
		} else {
			s->changed = true;
			changes++;
			kept += old != NULL;  /* changed in place: counted once */
		}
	}
	pk_strmap_free(&committed, NULL);
	return changes + ((long)c->n - kept);  /* and the paths the index no longer has */
}

int pk_git_staged(const char *prog, const char *rev, size_t max_file, pk_git_file_fn fn, void *ctx, long *changes)
{
	char *top = NULL, opt[1100];
	if (strcmp(rev, "HEAD") == 0)
		snprintf(opt, sizeof opt, "--staged");
	else
		snprintf(opt, sizeof opt, "--staged --against %s", rev);
	*changes = 0;
	pk_git_status st = pk_git_resolve(rev, &top);
	if (st != PK_GIT_OK && st != PK_GIT_UNBORN) {
		free(top);
		return say_status(prog, opt, st);
	}
	state a;
	state_init(&a, prog, rev, top, fn, ctx);
	listing c = {0}, idx = {0};
	char err[600] = "";
	int rc = st == PK_GIT_OK ? list_tree(rev, &c, err, sizeof err) : 0;
	if (rc == 0)
		rc = list_index(&idx, err, sizeof err);
	if (rc == 0) {
		*changes = compare(&c, &idx);
		if (st == PK_GIT_UNBORN && *changes)
			say_status(prog, opt, st);
		if (*changes)
			rc = read_state(&a, &c, &idx, max_file, err, sizeof err);
	}
	if (rc != 0 && *err)
		fprintf(stderr, "%s: %s: %s\n", prog, opt, err);
	listing_free(&c);
	listing_free(&idx);
	state_free(&a);
	free(top);
	return rc == 0 ? 0 : -1;
}
