/* What is not a Kubernetes object: the one place every tool asks, so that a
 * repository's other YAML and JSON (a Helm chart's templates and values, a
 * kustomization, CI workflows, compose files, package.json) is recognised
 * and skipped with a note instead of failing as a broken manifest.
 *
 * Three levels, each cheaper than reading the file:
 *   - by name (pk_nonobject_file): well-known files of other tools;
 *   - by the first bytes (pk_nonobject_text): Go template actions ({{ }})
 *     where YAML would not have them, i.e. a Helm template before rendering;
 *   - by the parsed document (pk_nonobject_document): neither apiVersion nor
 *     kind nor metadata. A document with one of apiVersion and kind but not
 *     the other, or with metadata but neither, is a broken manifest, not
 *     something else: it is not skipped.
 * The reader calls the first two when a tool sets pk_reader_opts.skip_file. */
#ifndef PK_NONOBJECT_H
#define PK_NONOBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "base/strtab.h"
#include "io/reader.h"

/* Why a file is not Kubernetes objects, as a short phrase
 * ("kustomization", "Helm chart values", ...), judged by its path; NULL
 * when its name says nothing. */
const char *pk_nonobject_file(const char *path);

/* The phrases for files whose rendered output can be checked. */
#define PK_NONOBJECT_TEMPLATE "Helm/Go template"
#define PK_NONOBJECT_KUSTOMIZATION "kustomization"
/* A file a kustomization applies as a patch: a partial object. */
#define PK_NONOBJECT_KPATCH "kustomize patch"

/* The note a tool prints for the skipped file (as named to the user): the
 * phrase, and for a template, a kustomization or a patch how to check what
 * it renders with prog (the chart's or the kustomization's directory named
 * when the path says it). by: the kustomization that applies a patch, or
 * NULL. */
void pk_nonobject_note(const char *why, const char *file, const char *by, const char *prog, char *buf,
                       size_t size);

/* Whether a file skipped for why renders to objects that can be checked
 * (a template, a kustomization, a patch it applies). */
bool pk_nonobject_renders(const char *why);

/* " (to check charts and kustomizations, render them: ...)": how to check
 * what skipped templates and kustomizations make, with prog, for a line
 * that counts skipped files. */
void pk_nonobject_render_hint(const char *prog, char *buf, size_t size);

/* Contents that are not text a manifest can be: a NUL byte ("binary") or
 * bytes that are not UTF-8 ("not UTF-8 text") in the first few KB of
 * data; else NULL. Cheap whatever len is: only the start is looked at. */
const char *pk_nonobject_bytes(const char *data, size_t len);

/* A Go template action ({{ ... }}) outside quotes, comments and block
 * scalars in text (the start of the file at path): YAML cannot parse it,
 * so the file is a template, not a manifest. In a directory named
 * templates (a Helm chart's), any "{{" will do: a template whose actions
 * are all quoted parses, but its values are not what will be applied. */
bool pk_nonobject_text(const char *path, const char *text, size_t len);

/* "not a Kubernetes object (no apiVersion, no kind)" when a mapping has
 * none of apiVersion, kind and metadata; else NULL. */
const char *pk_nonobject_document(const cJSON *obj);

/* ---- a document skipped whole ----
 * The reader says what it finds in a document (a duplicate key, a number
 * it cannot keep exactly) before it hands out the document's object. A
 * tool holds those warnings until the object comes: a document that is
 * not a Kubernetes object (pk_nonobject_document) is then skipped whole,
 * its warnings dropped; any other document gets them back. */
typedef struct pk_held_item {
	pk_rec_type type;
	pk_err_type err_type;
	long line, col;
	char *field, *message;
} pk_held_item;

typedef struct pk_held {
	pk_held_item *v;
	size_t n, cap;
	char *file;          /* the document's input and index */
	long doc;
} pk_held;

void pk_held_free(pk_held *h);
/* Hold what rec (a warning) says; what was held for another document is
 * given back first, to fn. */
typedef void (*pk_held_fn)(void *ctx, const pk_record *warning);
void pk_held_add(pk_held *h, const pk_record *rec, pk_held_fn fn, void *ctx);
/* Whether what is held is about rec's document. */
bool pk_held_for(const pk_held *h, const pk_record *rec);
/* Give every held warning back to fn, as the record it was, and forget it. */
void pk_held_release(pk_held *h, pk_held_fn fn, void *ctx);
/* Forget what is held: its document is skipped. */
void pk_held_drop(pk_held *h);

/* ---- kustomize patches ----
 * A kustomization's patches (patches[].path, patchesStrategicMerge,
 * patchesJson6902[].path; a Component's too) are partial objects that
 * kustomize merges into a resource: not definitions. The index maps each
 * such file to the kustomization that names it. Paths are joined to the
 * kustomization's directory and normalised ("." and ".." resolved); the
 * caller keeps one key space (paths inside a git tree, or absolute paths). */
typedef struct pk_kpatches {
	pk_strmap patches;  /* patch path -> the kustomization's name (char *) */
	pk_strmap dirs;     /* pk_kpatches_find_file: directories looked at */
	pk_strmap canon;    /* pk_kpatches_find_file: directory as named -> its real path */
	char *cwd;          /* pk_kpatches_find_file: the current directory's real path */
} pk_kpatches;

void pk_kpatches_init(pk_kpatches *k);
void pk_kpatches_free(pk_kpatches *k);

/* A kustomization file's name: kustomization.yaml, kustomization.yml or
 * Kustomization (in any directory). */
bool pk_kustomization_name(const char *path);

/* Register the patches of the kustomization at path (its text, len bytes);
 * name is how messages name it. Text that does not parse adds nothing. */
void pk_kpatches_add(pk_kpatches *k, const char *path, const char *name, const char *text, size_t len);

/* The name of the kustomization that applies path as a patch, or NULL. */
const char *pk_kpatches_find(const pk_kpatches *k, const char *path);

/* The same for a file on disk (path as given, relative or absolute): the
 * kustomization files of its directory and of every parent are read the
 * first time they are needed (kustomize loads patches from a
 * kustomization's own directory tree). "-" is never a patch. */
const char *pk_kpatches_find_file(pk_kpatches *k, const char *path);

#endif
