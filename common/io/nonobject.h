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

/* Why a file is not Kubernetes objects, as a short phrase
 * ("kustomization", "Helm chart values", ...), judged by its path; NULL
 * when its name says nothing. */
const char *pk_nonobject_file(const char *path);

/* The phrases for files whose rendered output can be checked. */
#define PK_NONOBJECT_TEMPLATE "Helm/Go template"
#define PK_NONOBJECT_KUSTOMIZATION "kustomization"

/* The note a tool prints for a skipped file: the phrase, and for a
 * template or a kustomization how to check what it renders with prog. */
void pk_nonobject_note(const char *why, const char *prog, char *buf, size_t size);

/* A Go template action ({{ ... }}) outside quotes, comments and block
 * scalars in text (the start of the file at path): YAML cannot parse it,
 * so the file is a template, not a manifest. In a directory named
 * templates (a Helm chart's), any "{{" will do: a template whose actions
 * are all quoted parses, but its values are not what will be applied. */
bool pk_nonobject_text(const char *path, const char *text, size_t len);

/* "not a Kubernetes object (no apiVersion, no kind)" when a mapping has
 * none of apiVersion, kind and metadata; else NULL. */
const char *pk_nonobject_document(const cJSON *obj);

#endif
