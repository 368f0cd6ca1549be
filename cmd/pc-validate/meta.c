/* Generic name and ObjectMeta rules (apimachinery's validation helpers),
 * with the apiserver's messages. */
#include "pcv.h"
#include "k8s/json.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char MSG_SUBDOMAIN[] =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
	"and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
	"validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
static const char MSG_LABEL[] =
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
	"start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
	"validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
static const char MSG_QNAME_CHARS[] =
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
	"alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation "
	"is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
static const char MSG_LABEL_VALUE[] =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
	"must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
	"regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

static bool lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? over s[0..n) */
static bool is_label_chars(const char *s, size_t n)
{
	if (n == 0 || !lower_alnum(s[0]) || !lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool is_subdomain_chars(const char *s)
{
	size_t n = strlen(s);
	if (n == 0)
		return false;
	const char *p = s;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		if (!is_label_chars(p, len))
			return false;
		if (!dot)
			return true;
		p = dot + 1;
	}
}

int pcv_dns_subdomain_errors(const char *s, const char *msgs[2])
{
	int n = 0;
	if (strlen(s) > 253)
		msgs[n++] = "must be no more than 253 characters";
	if (!is_subdomain_chars(s))
		msgs[n++] = MSG_SUBDOMAIN;
	return n;
}

int pcv_dns_label_errors(const char *s, const char *msgs[2])
{
	int n = 0;
	if (strlen(s) > 63)
		msgs[n++] = "must be no more than 63 characters";
	if (!is_label_chars(s, strlen(s)))
		msgs[n++] = MSG_LABEL;
	return n;
}

static bool alnum(char c)
{
	return isalnum((unsigned char)c) != 0;
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] */
static bool is_qname_part(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || !alnum(s[0]) || !alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

int pcv_qualified_name_errors(const char *s, char msgs[3][400])
{
	int n = 0;
	const char *slash = strchr(s, '/');
	const char *name = s;
	if (slash && strchr(slash + 1, '/')) {
		snprintf(msgs[n++], 400, "a qualified name %s with an optional DNS subdomain prefix and '/' "
		         "(e.g. 'example.com/MyName')", MSG_QNAME_CHARS);
		return n;
	}
	if (slash) {
		char prefix[300];
		size_t plen = (size_t)(slash - s);
		name = slash + 1;
		if (plen == 0) {
			snprintf(msgs[n++], 400, "prefix part must be non-empty");
		} else if (plen >= sizeof prefix) {
			snprintf(msgs[n++], 400, "prefix part must be no more than 253 characters");
		} else {
			memcpy(prefix, s, plen);
			prefix[plen] = '\0';
			const char *sub[2];
			int k = pcv_dns_subdomain_errors(prefix, sub);
			for (int i = 0; i < k && n < 3; i++)
				snprintf(msgs[n++], 400, "prefix part %s", sub[i]);
		}
	}
	if (!*name) {
		snprintf(msgs[n++], 400, "name part must be non-empty");
	} else {
		if (strlen(name) > 63 && n < 3)
			snprintf(msgs[n++], 400, "name part must be no more than 63 characters");
		if (!is_qname_part(name) && n < 3)
			snprintf(msgs[n++], 400, "name part %s", MSG_QNAME_CHARS);
	}
	return n;
}

const char *pcv_path_segment_error(const char *s)
{
	if (strcmp(s, ".") == 0)
		return "may not be '.'";
	if (strcmp(s, "..") == 0)
		return "may not be '..'";
	if (strchr(s, '/'))
		return "may not contain '/'";
	if (strchr(s, '%'))
		return "may not contain '%'";
	return NULL;
}

void pcv_check_subdomain(pcv_obj *o, const char *field, const char *value)
{
	const char *msgs[2];
	int n = pcv_dns_subdomain_errors(value, msgs);
	for (int i = 0; i < n; i++)
		pcv_invalid_str(o, field, value, msgs[i]);
}

void pcv_check_label(pcv_obj *o, const char *field, const char *value)
{
	const char *msgs[2];
	int n = pcv_dns_label_errors(value, msgs);
	for (int i = 0; i < n; i++)
		pcv_invalid_str(o, field, value, msgs[i]);
}

void pcv_check_label_key(pcv_obj *o, const char *field, const char *value)
{
	char msgs[3][400];
	int n = pcv_qualified_name_errors(value, msgs);
	for (int i = 0; i < n; i++)
		pcv_invalid_str(o, field, value, msgs[i]);
}

/* generateName is checked as a prefix: a trailing '-' is allowed. */
static void check_generate_name(pcv_obj *o, const char *gen)
{
	char masked[300];
	size_t n = strlen(gen);
	if (n >= sizeof masked) {
		pcv_invalid_str(o, "metadata.generateName", gen, "must be no more than 253 characters");
		return;
	}
	memcpy(masked, gen, n + 1);
	if (n > 1 && masked[n - 1] == '-')
		masked[n - 1] = 'a';
	const char *msgs[2];
	int k = pcv_dns_subdomain_errors(masked, msgs);
	for (int i = 0; i < k; i++)
		pcv_invalid_str(o, "metadata.generateName", gen, msgs[i]);
}

static void check_labels(pcv_obj *o, const cJSON *labels, const char *path)
{
	if (!cJSON_IsObject(labels))
		return;
	for (const cJSON *m = labels->child; m; m = m->next) {
		pcv_check_label_key(o, path, m->string ? m->string : "");
		if (!cJSON_IsString(m))
			continue;
		const char *v = m->valuestring;
		if (strlen(v) > 63)
			pcv_invalid_str(o, path, v, "must be no more than 63 characters");
		if (*v && !is_qname_part(v))
			pcv_invalid_str(o, path, v, MSG_LABEL_VALUE);
	}
}

static void check_annotations(pcv_obj *o, const cJSON *ann, const char *path)
{
	if (!cJSON_IsObject(ann))
		return;
	size_t total = 0;
	for (const cJSON *m = ann->child; m; m = m->next) {
		const char *k = m->string ? m->string : "";
		char lower[512];
		size_t i;
		for (i = 0; k[i] && i + 1 < sizeof lower; i++)
			lower[i] = (char)tolower((unsigned char)k[i]);
		lower[i] = '\0';
		char msgs[3][400];
		int n = pcv_qualified_name_errors(lower, msgs);
		for (int j = 0; j < n; j++)
			pcv_invalid_str(o, path, k, msgs[j]);
		total += strlen(k) + (cJSON_IsString(m) ? strlen(m->valuestring) : 0);
	}
	if (total > 256 * 1024)
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path,
		           "Too long: may not be more than %d bytes", 256 * 1024);
}

void pcv_check_meta(pcv_obj *o, bool namespaced)
{
	const cJSON *meta = pk_get(o->root, "metadata");
	const char *name = pk_str(meta, "name");
	const char *gen = pk_str(meta, "generateName");
	if (gen && *gen)
		check_generate_name(o, gen);
	if (!name || !*name) {
		if (!gen || !*gen)
			pcv_required(o, "metadata.name", "name or generateName is required");
	} else {
		pcv_check_subdomain(o, "metadata.name", name);
	}

	const char *ns = pk_str(meta, "namespace");
	if (namespaced) {
		/* A manifest without a namespace is applied to the context's
		 * namespace; only an explicitly set value is checked. */
		if (ns && *ns)
			pcv_check_label(o, "metadata.namespace", ns);
		else if (o->ctx->strict)
			pcv_required(o, "metadata.namespace", NULL);
	} else if (ns && *ns && o->update) {
		pcv_invalid_str(o, "metadata.namespace", ns, "field is immutable");
	} else if (ns && *ns) {
		pcv_forbidden(o, "metadata.namespace", "not allowed on this type");
	}
	check_labels(o, pk_get(meta, "labels"), "metadata.labels");
	check_annotations(o, pk_get(meta, "annotations"), "metadata.annotations");
}

void pcv_check_template_meta(pcv_obj *o, const char *path)
{
	const cJSON *meta = pk_getp(o->root, path);
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.labels", path);
	check_labels(o, pk_get(meta, "labels"), p);
	pcv_path(p, "%s.annotations", path);
	check_annotations(o, pk_get(meta, "annotations"), p);
}
