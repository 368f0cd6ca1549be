/* A git revision's committed files and the index's staged ones, read the
 * way a tool reads its inputs: one `git ls-tree` and one `git ls-files`
 * for the names, one `git cat-file --batch` for every content, never a
 * process per file. For --against REV and --staged (pc-validate,
 * pp-match): the committed state is the existing objects; with --staged
 * the files the index adds or changes are the inputs.
 *
 * What is not Kubernetes objects is decided here for files that come from
 * git (io/nonobject.h): a file a kustomization applies as a patch (by the
 * kustomizations of the same state), contents that are binary or not
 * UTF-8. The reader's own checks (by name, Go template actions) apply as
 * the tool reads each file. */
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

/* Resolve rev from the current directory. On PK_GIT_OK and PK_GIT_UNBORN,
 * *toplevel (when not NULL) is the work tree's absolute path, to free. */
pk_git_status pk_git_resolve(const char *rev, char **toplevel);

/* One file of the state at REV, or of the index (--staged). */
typedef struct pk_git_file {
	const char *path;   /* relative to the top of the work tree */
	const char *name;   /* for messages: "REV:path" when committed, the
	                       local name when staged */
	const char *local;  /* the work-tree file as named from the current directory */
	bool staged;        /* the index's version of a file the commit adds or
	                       changes (--staged): an input, not an existing object */
	bool replaced;      /* committed: an operand names it (or a directory
	                       operand holds it), it is gone from the work tree
	                       (--against) or from the index, or the index
	                       changes it (--staged): its objects are no longer
	                       in the resulting state unless an input defines
	                       them again */
	const char *skip;   /* staged: why it is not Kubernetes objects (binary,
	                       not UTF-8, PK_NONOBJECT_KPATCH), else NULL; data
	                       is then not to be read. A committed file that
	                       would be skipped is not handed out. */
	const char *skip_by;/* skip is PK_NONOBJECT_KPATCH: the kustomization
	                       (local name) that applies it */
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

/* --staged: the commit being made, whatever pre-commit does with the file
 * list. The index (`git ls-files -s`, GIT_INDEX_FILE honoured) is compared
 * with rev's tree by object id: fn gets every committed manifest first
 * (replaced when the index changes or drops it), then the index's version
 * of every manifest it adds or changes (staged). *changes counts those
 * and the deletions; when it is 0 nothing is read (a commit that touches
 * no manifest costs two listings). A repository without commits has an
 * empty committed state (said in a note when rev is HEAD). Returns 0, or
 * -1 after a message on stderr as pk_git_against. */
int pk_git_staged(const char *prog, const char *rev, size_t max_file, pk_git_file_fn fn, void *ctx,
                  long *changes);

#endif
