/* A git revision's committed files, read the way a tool reads its inputs:
 * one `git ls-tree` for the names and one `git cat-file --batch` for every
 * content, never a process per file. For --against REV (pc-validate,
 * pp-match): the committed state is the existing objects. */
#ifndef PK_GITREV_H
#define PK_GITREV_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	PK_GIT_OK,        /* rev names a commit */
	PK_GIT_UNBORN,    /* rev is HEAD and the repository has no commit yet */
	PK_GIT_NOT_REPO,  /* the current directory is not in a git work tree */
	PK_GIT_NO_REV,    /* rev names no commit of this repository */
	PK_GIT_FAILED,    /* git could not be run */
} pk_git_status;

/* Resolve rev from the current directory. On PK_GIT_OK, *toplevel (when
 * not NULL) is the work tree's absolute path, to free. */
pk_git_status pk_git_resolve(const char *rev, char **toplevel);

/* Which committed files to read: path is relative to the top of the work
 * tree. */
typedef bool (*pk_git_accept_fn)(void *ctx, const char *path);
/* One committed file: fd is positioned at its contents (a temporary file,
 * reused for the next one). Return non-zero to stop. */
typedef int (*pk_git_blob_fn)(void *ctx, const char *path, int fd);

/* Hand every regular file of rev's whole tree that accept takes to fn, in
 * the tree's (sorted) order. Returns 0, the callback's non-zero value, or
 * -1 with a message in err. */
int pk_git_read_tree(const char *rev, pk_git_accept_fn accept, pk_git_blob_fn fn, void *ctx, char *err,
                     size_t errsize);

#endif
