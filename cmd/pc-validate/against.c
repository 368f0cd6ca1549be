/* --against REV: the repository's whole committed state at REV is what
 * exists, as --cluster's objects are. Every committed manifest (the files
 * a directory walk takes: *.yaml, *.yml, *.json, no name starting with
 * ".") is read with one `git ls-tree` and one `git cat-file --batch`
 * (common/io/gitrev.c). An input with the identity of a committed object
 * is an update of it, wherever either file is. A committed file that an
 * operand names (or a directory operand holds), or that is gone from the
 * work tree, is replaced: its objects are compared with but are no longer
 * part of the resulting state, unless an input defines them again. */
#include "pcv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/gitrev.h"

typedef struct against {
	pcv_ctx *c;
	const char *rev;
	const char *top;        /* the work tree, absolute */
	const char *prefix;     /* the current directory under top ("" or "sub/") */
	char **replaced;        /* operands, relative to top ("" = all of it) */
	size_t nreplaced;
	char *name;             /* "REV:path" of the file being read */
	char *local;            /* its work-tree path as the user names it */
} against;

static bool has_manifest_suffix(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

/* The files the reader takes from a directory: manifests, no component
 * that starts with "." */
static bool accept(void *ctx, const char *path)
{
	(void)ctx;
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.')
			return false;
	return has_manifest_suffix(path);
}

static bool is_replaced(const against *a, const char *path)
{
	for (size_t i = 0; i < a->nreplaced; i++) {
		size_t n = strlen(a->replaced[i]);
		if (n == 0 || (strncmp(path, a->replaced[i], n) == 0 && (path[n] == '\0' || path[n] == '/')))
			return true;
	}
	char full[PATH_MAX + 8];
	snprintf(full, sizeof full, "%s/%s", a->top, path);
	return access(full, F_OK) != 0;  /* deleted from the work tree */
}

/* path (relative to top) as the user names it from the current directory. */
static char *local_name(const against *a, const char *path)
{
	size_t n = strlen(a->prefix);
	char *s = malloc(strlen(a->top) + strlen(path) + 2);
	if (!s)
		return NULL;
	if (strncmp(path, a->prefix, n) == 0)
		strcpy(s, path + n);
	else
		sprintf(s, "%s/%s", a->top, path);
	return s;
}

static int on_blob(void *ctx, const char *path, int fd)
{
	against *a = ctx;
	pcv_ctx *c = a->c;
	free(a->name);
	free(a->local);
	a->name = malloc(strlen(a->rev) + strlen(path) + 2);
	a->local = local_name(a, path);
	if (!a->name || !a->local)
		return -1;
	sprintf(a->name, "%s:%s", a->rev, path);
	c->loading_name = a->name;
	c->against_local = a->local;
	c->against_replaced = is_replaced(a, path);
	pk_read_named_fd(&c->cli->reader, fd, a->name, pcv_on_record, c);
	return c->trouble ? -1 : 0;
}

/* Operands as paths under the work tree; a path outside it has no
 * committed version to compare with: usage trouble. */
static int replaced_paths(against *a, char *const *paths, size_t npaths)
{
	const char *prog = a->c->cli->prog;
	size_t ntop = strlen(a->top);
	a->replaced = calloc(npaths + 1, sizeof *a->replaced);
	if (!a->replaced)
		return -1;
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

static int current_prefix(against *a, char *buf, size_t size)
{
	char *cwd = getcwd(NULL, 0), *top = realpath(a->top, NULL);
	size_t n = top ? strlen(top) : 0;
	buf[0] = '\0';
	if (cwd && top && strncmp(cwd, top, n) == 0 && cwd[n] == '/')
		snprintf(buf, size, "%s/", cwd + n + 1);
	free(cwd);
	free(top);
	a->prefix = buf;
	return 0;
}

static int say_status(pcv_ctx *c, const char *rev, pk_git_status st)
{
	const char *prog = c->cli->prog;
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

int pcv_against_load(pcv_ctx *c, const char *rev, char *const *paths, size_t npaths)
{
	char *top = NULL, prefix[PATH_MAX];
	pk_git_status st = pk_git_resolve(rev, &top);
	if (st != PK_GIT_OK)
		return say_status(c, rev, st);
	against a = {.c = c, .rev = rev, .top = top};
	int rc = replaced_paths(&a, paths, npaths);
	if (rc == 0) {
		current_prefix(&a, prefix, sizeof prefix);
		char err[600] = "";
		c->loading_cluster = c->against_soft = true;
		rc = pk_git_read_tree(rev, accept, on_blob, &a, err, sizeof err);
		c->loading_cluster = c->against_soft = c->against_replaced = false;
		c->loading_name = c->against_local = NULL;
		if (rc != 0 && *err)
			fprintf(stderr, "%s: --against %s: %s\n", c->cli->prog, rev, err);
	}
	for (size_t i = 0; i < a.nreplaced; i++)
		free(a.replaced[i]);
	free(a.replaced);
	free(a.name);
	free(a.local);
	free(top);
	return rc == 0 ? 0 : -1;
}
