/* Recognising what is not a Kubernetes object (see nonobject.h). */
#include "io/nonobject.h"
#include "io/internal.h"

#include <stdio.h>
#include <string.h>

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

void pk_nonobject_note(const char *why, const char *prog, char *buf, size_t size)
{
	if (strcmp(why, PK_NONOBJECT_TEMPLATE) == 0)
		snprintf(buf, size, "skipped: %s, not Kubernetes objects; to check it, render it: helm template CHART | %s -",
		         why, prog);
	else if (strcmp(why, PK_NONOBJECT_KUSTOMIZATION) == 0)
		snprintf(buf, size, "skipped: %s, not a Kubernetes object; to check what it builds: kustomize build DIR | %s -",
		         why, prog);
	else
		snprintf(buf, size, "skipped: %s, not Kubernetes objects", why);
}

const char *pk_nonobject_document(const cJSON *obj)
{
	/* metadata makes it an object that lost its type (a UI's template of
	 * a PriorityClass, say): kubectl rejects it, and so do the tools */
	if (!cJSON_IsObject(obj) || pk_get(obj, "apiVersion") || pk_get(obj, "kind") || pk_get(obj, "metadata"))
		return NULL;
	return "not a Kubernetes object (no apiVersion, no kind)";
}
