/* Recognising what is not a Kubernetes object (see nonobject.h). */
#include "io/nonobject.h"
#include "io/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "k8s/json.h"

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static bool yaml_name(const char *base, size_t n)
{
	return ends_with(base, n, ".yaml") || ends_with(base, n, ".yml");
}

/* base (n bytes) is stem + ".yaml"/".yml", or stem + "." + anything + ".yaml"
 * (values-prod.yaml, docker-compose.override.yml). */
static bool yaml_named(const char *base, size_t n, const char *stem)
{
	size_t k = strlen(stem);
	if (!yaml_name(base, n) || n < k || memcmp(base, stem, k) != 0)
		return false;
	return base[k] == '.' || base[k] == '-' || base[k] == '_';
}

/* A directory component of path equal to dir. */
static bool has_dir(const char *path, const char *dir)
{
	size_t k = strlen(dir);
	for (const char *p = path; (p = strstr(p, dir)) != NULL; p += k)
		if ((p == path || p[-1] == '/' || p[-1] == ':') && p[k] == '/')
			return true;
	return false;
}

static const struct {
	const char *name, *why;
} exact_names[] = {
	{"kustomization.yaml", PK_NONOBJECT_KUSTOMIZATION},
	{"kustomization.yml", PK_NONOBJECT_KUSTOMIZATION},
	{"Kustomization", PK_NONOBJECT_KUSTOMIZATION},
	{"Chart.yaml", "Helm chart metadata"},
	{"Chart.lock", "Helm chart lock file"},
	{"values.schema.json", "Helm chart values schema"},
	{"helmfile.yaml", "helmfile"},
	{".gitlab-ci.yml", "CI configuration"},
	{".travis.yml", "CI configuration"},
	{"azure-pipelines.yml", "CI configuration"},
	{"bitbucket-pipelines.yml", "CI configuration"},
	{".drone.yml", "CI configuration"},
	{"appveyor.yml", "CI configuration"},
	{"codecov.yml", "tool configuration"},
	{".pre-commit-config.yaml", "pre-commit configuration"},
	{".pre-commit-hooks.yaml", "pre-commit hook definitions"},
	{"mkdocs.yml", "tool configuration"},
	{".golangci.yml", "tool configuration"},
	{".goreleaser.yml", "tool configuration"},
	{".goreleaser.yaml", "tool configuration"},
	{"package.json", "npm package manifest"},
	{"package-lock.json", "npm lock file"},
	{"composer.json", "PHP package manifest"},
	{"composer.lock", "PHP lock file"},
	{"tsconfig.json", "TypeScript configuration"},
	{"jsconfig.json", "JavaScript configuration"},
	{"renovate.json", "Renovate configuration"},
	{".eslintrc.json", "ESLint configuration"},
	{"devcontainer.json", "dev container configuration"},
	{"openapi.yaml", "OpenAPI document"},
	{"openapi.json", "OpenAPI document"},
	{"swagger.yaml", "OpenAPI document"},
	{"swagger.json", "OpenAPI document"},
};

const char *pk_nonobject_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	for (size_t i = 0; i < sizeof exact_names / sizeof exact_names[0]; i++)
		if (strcmp(base, exact_names[i].name) == 0)
			return exact_names[i].why;
	if (has_dir(path, ".github") || has_dir(path, ".circleci") || has_dir(path, ".gitlab") ||
	    has_dir(path, ".buildkite"))
		return "CI configuration";
	if (strcmp(base, "values.yaml") == 0 || strcmp(base, "values.yml") == 0 || yaml_named(base, n, "values"))
		return "Helm chart values";
	if (strcmp(base, "docker-compose.yaml") == 0 || strcmp(base, "docker-compose.yml") == 0 ||
	    strcmp(base, "compose.yaml") == 0 || strcmp(base, "compose.yml") == 0 ||
	    yaml_named(base, n, "docker-compose") || yaml_named(base, n, "compose"))
		return "Compose file";
	if (ends_with(base, n, ".tpl") || ends_with(base, n, ".gotmpl"))
		return PK_NONOBJECT_TEMPLATE;
	return NULL;
}

/* ---- Go template actions in YAML text ---- */

static size_t line_end(const char *text, size_t len, size_t at)
{
	const char *nl = memchr(text + at, '\n', len - at);
	return nl ? (size_t)(nl - text) : len;
}

/* The line [b, e) opens a block scalar: its last token (before a comment)
 * is |, >, or one of them with indentation and chomping indicators. */
static bool opens_block_scalar(const char *s, size_t b, size_t e)
{
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	size_t t = e;
	while (t > b && (s[t - 1] == '-' || s[t - 1] == '+' || (s[t - 1] >= '1' && s[t - 1] <= '9')))
		t--;
	if (t == b || (s[t - 1] != '|' && s[t - 1] != '>'))
		return false;
	t--;
	return t == b || s[t - 1] == ' ' || s[t - 1] == '\t';
}

/* A "{{" outside quotes and comments on the line [b, e); sets *end to where
 * the content ends (before a comment). */
static bool action_on_line(const char *s, size_t b, size_t e, size_t *end)
{
	char quote = 0;
	*end = e;
	for (size_t i = b; i < e; i++) {
		char ch = s[i];
		if (quote) {
			if (ch == quote)
				quote = 0;
			else if (ch == '\\' && quote == '"')
				i++;
			continue;
		}
		if (ch == '#' && (i == b || s[i - 1] == ' ' || s[i - 1] == '\t')) {
			*end = i;
			return false;
		}
		if ((ch == '"' || ch == '\'') && (i == b || strchr(" \t:,[{-", s[i - 1])))
			quote = ch;
		else if (ch == '{' && i + 1 < e && s[i + 1] == '{')
			return true;
	}
	return false;
}

/* Text, not binary: no NUL, valid UTF-8 (but for a character cut off at
 * the end of a prefix). Garbage that happens to hold "{{" stays garbage. */
static bool is_text(const char *text, size_t len)
{
	if (memchr(text, '\0', len))
		return false;
	size_t bad = pk_utf8_check((const unsigned char *)text, len);
	return bad == len || (len - bad < 4 && (unsigned char)text[bad] >= 0xC0);
}

bool pk_nonobject_text(const char *path, const char *text, size_t len)
{
	if (!memmem(text, len, "{{", 2) || !is_text(text, len))
		return false;
	if (path && has_dir(path, "templates") && memmem(text, len, "{{", 2))
		return true;
	long block_indent = -1;  /* inside a block scalar opened at this indent */
	for (size_t b = 0; b < len;) {
		size_t e = line_end(text, len, b), i = b;
		while (i < e && text[i] == ' ')
			i++;
		long indent = (long)(i - b);
		bool blank = i == e || text[i] == '\r';
		if (block_indent >= 0 && (blank || indent > block_indent)) {
			b = e + 1;
			continue;
		}
		block_indent = -1;
		size_t content_end;
		if (!blank && action_on_line(text, i, e, &content_end))
			return true;
		if (!blank && opens_block_scalar(text, i, content_end))
			block_indent = indent;
		b = e + 1;
	}
	return false;
}

/* dir of file into buf ("." when it has none). */
static void dir_of(const char *file, char *buf, size_t size)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		snprintf(buf, size, ".");
	else if (slash == file)
		snprintf(buf, size, "/");
	else
		snprintf(buf, size, "%.*s", (int)(slash - file), file);
}

/* The chart a template belongs to: the directory above its templates/. */
static void chart_of(const char *file, char *buf, size_t size)
{
	for (const char *p = file; (p = strstr(p, "templates/")) != NULL; p++) {
		if (p == file) {
			snprintf(buf, size, ".");
			return;
		}
		if (p[-1] == '/') {
			snprintf(buf, size, "%.*s", (int)(p - 1 - file), file);
			return;
		}
	}
	snprintf(buf, size, "CHART");
}

void pk_nonobject_note(const char *why, const char *file, const char *by, const char *prog, char *buf,
                       size_t size)
{
	char dir[1024];
	if (strcmp(why, PK_NONOBJECT_TEMPLATE) == 0) {
		chart_of(file ? file : "", dir, sizeof dir);
		snprintf(buf, size, "skipped: %s, not Kubernetes objects; to check it, render it: helm template %s | %s -",
		         why, dir, prog);
	} else if (strcmp(why, PK_NONOBJECT_KUSTOMIZATION) == 0) {
		dir_of(file ? file : "", dir, sizeof dir);
		snprintf(buf, size, "skipped: %s, not a Kubernetes object; to check what it builds: kustomize build %s | %s -",
		         why, dir, prog);
	} else if (strcmp(why, PK_NONOBJECT_KPATCH) == 0 && by) {
		dir_of(by, dir, sizeof dir);
		snprintf(buf, size, "skipped: a patch that %s applies (a partial object, not a definition); to check what "
		         "it builds: kustomize build %s | %s -", by, dir, prog);
	} else {
		snprintf(buf, size, "skipped: %s, not Kubernetes objects", why);
	}
}

bool pk_nonobject_renders(const char *why)
{
	return strcmp(why, PK_NONOBJECT_TEMPLATE) == 0 || strcmp(why, PK_NONOBJECT_KUSTOMIZATION) == 0 ||
	       strcmp(why, PK_NONOBJECT_KPATCH) == 0;
}

void pk_nonobject_render_hint(const char *prog, char *buf, size_t size)
{
	snprintf(buf, size, " (to check charts and kustomizations, render them: helm template CHART | %s -, "
	         "kustomize build DIR | %s -)", prog, prog);
}

/* How much of a file the byte check reads: enough for any header, little
 * enough for a 200 MB file to cost nothing. */
#define BYTES_LOOKED_AT 8192

/* The k bytes at p are the start of a character cut off by the end of
 * what is looked at: a lead byte and fewer continuation bytes than it
 * announces. */
static bool cut_character(const char *p, size_t k)
{
	unsigned char lead = (unsigned char)p[0];
	size_t want = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
	if (!want || k >= want)
		return false;
	for (size_t i = 1; i < k; i++)
		if (((unsigned char)p[i] & 0xC0) != 0x80)
			return false;
	return true;
}

const char *pk_nonobject_bytes(const char *data, size_t len)
{
	size_t n = len < BYTES_LOOKED_AT ? len : BYTES_LOOKED_AT;
	if (memchr(data, '\0', n))
		return "binary file (a NUL byte)";
	size_t bad = pk_utf8_check((const unsigned char *)data, n);
	return bad == n || (n < len && cut_character(data + bad, n - bad)) ? NULL : "not UTF-8 text";
}

const char *pk_nonobject_document(const cJSON *obj)
{
	/* metadata makes it an object that lost its type (a UI's template of
	 * a PriorityClass, say): kubectl rejects it, and so do the tools */
	if (!cJSON_IsObject(obj) || pk_get(obj, "apiVersion") || pk_get(obj, "kind") || pk_get(obj, "metadata"))
		return NULL;
	return "not a Kubernetes object (no apiVersion, no kind)";
}

/* ---- kustomize patches ---- */

void pk_kpatches_init(pk_kpatches *k)
{
	memset(k, 0, sizeof *k);
	pk_strmap_init(&k->patches);
	pk_strmap_init(&k->dirs);
	pk_strmap_init(&k->canon);
}

void pk_kpatches_free(pk_kpatches *k)
{
	pk_strmap_free(&k->patches, free);
	pk_strmap_free(&k->dirs, NULL);
	pk_strmap_free(&k->canon, free);
	free(k->cwd);
	memset(k, 0, sizeof *k);
}

bool pk_kustomization_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	return strcmp(base, "kustomization.yaml") == 0 || strcmp(base, "kustomization.yml") == 0 ||
	       strcmp(base, "Kustomization") == 0;
}

/* dir joined with rel, "." and ".." resolved, into a fresh string; an
 * absolute rel stands alone. A ".." above the top is kept ("../x"). */
static char *join_normal(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *in = pk_xmalloc(n), *out = pk_xmalloc(n + 1);
	if (rel[0] == '/' || !*dir)
		snprintf(in, n, "%s", rel);
	else
		snprintf(in, n, "%s/%s", dir, rel);
	bool absolute = in[0] == '/';
	size_t o = 0;
	if (absolute)
		out[o++] = '/';
	size_t floor = o;  /* ".." does not climb above this */
	for (char *p = in; *p;) {
		size_t len = strcspn(p, "/");
		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* an empty component or "." */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (o > floor) {
				while (o > floor && out[o - 1] != '/')
					o--;
				if (o > floor)
					o--;  /* the slash before it */
				else if (absolute)
					o = floor;
			} else if (!absolute) {
				memcpy(out + o, "../", 3);
				o += 3;
				floor = o;
			}
		} else {
			if (o > 0 && out[o - 1] != '/')
				out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	while (o > 1 && out[o - 1] == '/')
		o--;
	out[o] = '\0';
	free(in);
	return out;
}

/* A patchesStrategicMerge entry is a file name or an inline patch. */
static bool names_a_file(const char *s)
{
	return *s && !strchr(s, '\n') && !strstr(s, ": ");
}

static void add_patch(pk_kpatches *k, const char *dir, const char *rel, const char *name)
{
	if (!rel || !names_a_file(rel))
		return;
	char *key = join_normal(dir, rel);
	char *value = pk_xstrdup(name);
	void *prev = pk_strmap_put(&k->patches, key, value);
	if (prev == value)
		free(value);
	else
		free(prev);  /* the last kustomization read names it */
	free(key);
}

void pk_kpatches_add(pk_kpatches *k, const char *path, const char *name, const char *text, size_t len)
{
	char err[200];
	cJSON *kz = pk_parse_yaml_text(text, len, err, sizeof err);
	if (!cJSON_IsObject(kz)) {
		cJSON_Delete(kz);
		return;
	}
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (slash)
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	else
		dir[0] = '\0';
	const cJSON *e;
	cJSON_ArrayForEach(e, pk_get(kz, "patches")) {
		add_patch(k, dir, pk_str(e, "path"), name);
	}
	cJSON_ArrayForEach(e, pk_get(kz, "patchesJson6902")) {
		add_patch(k, dir, pk_str(e, "path"), name);
	}
	cJSON_ArrayForEach(e, pk_get(kz, "patchesStrategicMerge")) {
		if (cJSON_IsString(e))
			add_patch(k, dir, e->valuestring, name);
	}
	cJSON_Delete(kz);
}

const char *pk_kpatches_find(const pk_kpatches *k, const char *path)
{
	return pk_strmap_get(&k->patches, path);
}

/* realpath of a directory as named, once per name. */
static const char *canonical_dir(pk_kpatches *k, const char *dir)
{
	char *real = pk_strmap_get(&k->canon, dir);
	if (real)
		return real;
	real = realpath(*dir ? dir : ".", NULL);
	if (!real)
		return NULL;
	pk_strmap_put(&k->canon, dir, real);
	return real;
}

/* How messages name a file at an absolute path: from the current
 * directory when it is below it. */
static const char *display_name(const pk_kpatches *k, const char *abs)
{
	size_t n = k->cwd ? strlen(k->cwd) : 0;
	if (n && strncmp(abs, k->cwd, n) == 0 && abs[n] == '/')
		return abs + n + 1;
	return abs;
}

/* Bounded: a kustomization is a few lines; a huge file of that name is
 * someone else's business. */
#define KUSTOMIZATION_MAX ((size_t)1 << 20)

static void load_kustomizations(pk_kpatches *k, const char *dir)
{
	static const char *const names[] = {"kustomization.yaml", "kustomization.yml", "Kustomization"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n = strlen(dir) + strlen(names[i]) + 2;
		char *path = pk_xmalloc(n);
		snprintf(path, n, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, names[i]);
		FILE *fp = fopen(path, "rb");
		if (fp) {
			char *text = pk_xmalloc(KUSTOMIZATION_MAX);
			size_t len = fread(text, 1, KUSTOMIZATION_MAX, fp);
			if (len < KUSTOMIZATION_MAX)
				pk_kpatches_add(k, path, display_name(k, path), text, len);
			free(text);
			fclose(fp);
		}
		free(path);
	}
}

const char *pk_kpatches_find_file(pk_kpatches *k, const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return NULL;
	if (!k->cwd)
		k->cwd = getcwd(NULL, 0);
	char named[4096];
	dir_of(path, named, sizeof named);
	const char *dir = canonical_dir(k, named);
	if (!dir)
		return NULL;
	/* this directory and its parents, each read once: stop at the
	 * first one read before (its parents were read with it) */
	char *walk = pk_xstrdup(dir);
	for (;;) {
		if (pk_strmap_get(&k->dirs, walk))
			break;
		pk_strmap_put(&k->dirs, walk, k);
		load_kustomizations(k, walk);
		char *slash = strrchr(walk, '/');
		if (!slash || strcmp(walk, "/") == 0)
			break;
		if (slash == walk)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(walk);
	const char *base = strrchr(path, '/');
	char *key = join_normal(dir, base ? base + 1 : path);
	const char *by = pk_kpatches_find(k, key);
	free(key);
	return by;
}

/* ---- a document skipped whole ---- */

void pk_held_drop(pk_held *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].field);
		free(h->v[i].message);
	}
	h->n = 0;
}

void pk_held_free(pk_held *h)
{
	pk_held_drop(h);
	free(h->v);
	free(h->file);
	memset(h, 0, sizeof *h);
}

bool pk_held_for(const pk_held *h, const pk_record *rec)
{
	return h->n && h->doc == rec->origin.doc && h->file && strcmp(h->file, rec->origin.file ? rec->origin.file : "-") == 0;
}

void pk_held_release(pk_held *h, pk_held_fn fn, void *ctx)
{
	for (size_t i = 0; i < h->n; i++) {
		const pk_held_item *it = &h->v[i];
		pk_record rec = {
			.type = it->type, .err_type = it->err_type, .field = it->field, .message = it->message,
			.origin = {.file = h->file, .line = it->line, .col = it->col, .item = -1, .doc = h->doc},
		};
		fn(ctx, &rec);
	}
	pk_held_drop(h);
}

void pk_held_add(pk_held *h, const pk_record *rec, pk_held_fn fn, void *ctx)
{
	if (h->n && !pk_held_for(h, rec))
		pk_held_release(h, fn, ctx);
	if (!h->n) {
		free(h->file);
		h->file = pk_xstrdup(rec->origin.file ? rec->origin.file : "-");
		h->doc = rec->origin.doc;
	}
	h->v = pk_grow(h->v, &h->cap, h->n + 1, sizeof *h->v);
	h->v[h->n++] = (pk_held_item){rec->type, rec->err_type, rec->origin.line, rec->origin.col,
	                              rec->field ? pk_xstrdup(rec->field) : NULL,
	                              rec->message ? pk_xstrdup(rec->message) : NULL};
}
