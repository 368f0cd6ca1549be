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
/* One committed file: its len bytes of contents (NUL-terminated; valid
 * during the call). Return non-zero to stop. */
typedef int (*pk_git_blob_fn)(void *ctx, const char *path, const char *data, size_t len);

/* Hand every regular file of rev's whole tree that accept takes to fn, in
 * the tree's (sorted) order. Each file is read whole, so one larger than
 * max_blob bytes (0: the reader's default bound) stops the walk. Returns 0, the callback's non-zero value,
 * or -1 with a message in err. */
int pk_git_read_tree(const char *rev, pk_git_accept_fn accept, pk_git_blob_fn fn, void *ctx, size_t max_blob,
                     char *err, size_t errsize);

/* ---- --against REV, as the tools take it ---- */

/* One committed file of the state at REV. */
typedef struct pk_git_file {
	const char *path;   /* relative to the top of the work tree */
	const char *name;   /* "REV:path", for messages */
	const char *local;  /* the work-tree file as named from the current directory */
	bool replaced;      /* an operand names it (or a directory operand holds
	                       it), or it is gone from the work tree: its objects
	                       are no longer in the resulting state unless an
	                       input defines them again */
	const char *data;   /* its contents, valid during the call */
	size_t len;
} pk_git_file;
typedef int (*pk_git_file_fn)(void *ctx, const pk_git_file *f);

/* Hand every committed manifest of rev (the files a directory walk takes:
 * *.yaml, *.yml, *.json, no component starting with ".") to fn, with the
 * operands (the tool's inputs) deciding what is replaced. Returns 0; 0
 * after a note when rev is HEAD of a repository without commits (nothing
 * exists); -1 after a message on stderr (not a repository, not a commit,
 * an operand outside the repository, a committed manifest over max_file
 * bytes — the tool's --max-record-bytes —, git failing): usage trouble. */
int pk_git_against(const char *prog, const char *rev, char *const *operands, size_t noperands, size_t max_file,
                   pk_git_file_fn fn, void *ctx);

#endif
