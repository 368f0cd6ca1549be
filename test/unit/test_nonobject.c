/* What is not a Kubernetes object (common/io/nonobject.c): file names of
 * other tools, Go template actions where YAML cannot have them, documents
 * without apiVersion and kind. */
#include "t.h"
#include "io/nonobject.h"

static int is_template(const char *text)
{
	return pk_nonobject_text("deploy/x.yaml", text, strlen(text));
}

static void test_names(void)
{
	CHECK_STR(pk_nonobject_file("k8s/base/kustomization.yaml"), PK_NONOBJECT_KUSTOMIZATION, "kustomization.yaml");
	CHECK_STR(pk_nonobject_file("charts/shop/Chart.yaml"), "Helm chart metadata", "Chart.yaml");
	CHECK_STR(pk_nonobject_file("charts/shop/values-prod.yaml"), "Helm chart values", "values-prod.yaml");
	CHECK_STR(pk_nonobject_file("values.yml"), "Helm chart values", "values.yml");
	CHECK_STR(pk_nonobject_file(".github/workflows/ci.yml"), "CI configuration", ".github/workflows/ci.yml");
	CHECK_STR(pk_nonobject_file("HEAD:.github/dependabot.yml"), "CI configuration", "a REV:path name");
	CHECK_STR(pk_nonobject_file("docker-compose.override.yml"), "Compose file", "docker-compose.override.yml");
	CHECK_STR(pk_nonobject_file("compose.yaml"), "Compose file", "compose.yaml");
	CHECK_STR(pk_nonobject_file("ui/package.json"), "npm package manifest", "package.json");
	CHECK(pk_nonobject_file("deploy/values/classes.yaml") == NULL, "a directory named values is not a values file");
	CHECK(pk_nonobject_file("deploy/valuesfile.yaml") == NULL, "valuesfile.yaml is not values-*.yaml");
	CHECK(pk_nonobject_file("deploy/composer.yaml") == NULL, "composer.yaml is not a compose file");
	CHECK(pk_nonobject_file("deploy/classes.yaml") == NULL, "an ordinary manifest");
}

static void test_templates(void)
{
	CHECK(is_template("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"),
	      "an unquoted action in a value");
	CHECK(is_template("{{- if .Values.enabled }}\napiVersion: v1\n"), "an action at the start of the file");
	CHECK(is_template("metadata:\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n"),
	      "an action on its own line");
	CHECK(is_template("image: repo/app:{{ .Values.tag }}\n"), "an action inside a plain scalar");
	CHECK(!is_template("image: \"{{ .Values.tag }}\"\n"), "a quoted action alone is valid YAML (a chart's "
	      "templates/ still are recognised by their unquoted actions)");
	CHECK(!is_template("data:\n  alert.tmpl: |\n    {{ .Labels.alertname }} firing\n  other: x\n"),
	      "an action inside a block scalar is text");
	CHECK(is_template("data:\n  a: |\n    {{ x }}\nname: {{ y }}\n"), "an action after the block scalar ends");
	CHECK(!is_template("# {{ not an action }}\nkind: Pod\n"), "a comment");
	CHECK(!is_template("summary: '{{ $labels.instance }} down' # {{ x }}\n"), "single quotes and a trailing comment");
	CHECK(!is_template("{\"a\": \"{{ x }}\"}\n"), "JSON strings");
	CHECK(!is_template("apiVersion: v1\nkind: Pod\n"), "no action at all");
	CHECK(!is_template("\xff\xfe{{ garbage \x01"), "binary that happens to hold {{ is not a template");
	CHECK(is_template("name: {{ .Values.x }} # caf\xc3\xa9\n"), "UTF-8 text is text");
	static const char quoted[] = "metadata:\n  name: \"{{ .Release.Name }}\"\n";
	CHECK(pk_nonobject_text("charts/shop/templates/svc.yaml", quoted, sizeof quoted - 1),
	      "in a chart's templates/ directory, a quoted action makes a template too");
	CHECK(!pk_nonobject_text("charts/shop/templates/svc.yaml", "kind: Service\n", 14),
	      "templates/ without an action is a manifest");
}

static void test_documents(void)
{
	cJSON *none = cJSON_Parse("{\"services\":{\"web\":{}}}");
	cJSON *half = cJSON_Parse("{\"kind\":\"Pod\"}");
	cJSON *half2 = cJSON_Parse("{\"apiVersion\":\"v1\"}");
	cJSON *typeless = cJSON_Parse("{\"metadata\":{\"generateName\":\"pc-\"},\"value\":1000}");
	CHECK(pk_nonobject_document(none) != NULL, "neither apiVersion nor kind: not an object");
	CHECK(pk_nonobject_document(half) == NULL, "kind alone is a broken manifest, not skipped");
	CHECK(pk_nonobject_document(half2) == NULL, "apiVersion alone is a broken manifest, not skipped");
	CHECK(pk_nonobject_document(typeless) == NULL, "metadata without a type is a broken manifest, not skipped");
	cJSON_Delete(typeless);
	cJSON_Delete(none);
	cJSON_Delete(half);
	cJSON_Delete(half2);
}

static void add(pk_kpatches *k, const char *path, const char *text)
{
	pk_kpatches_add(k, path, path, text, strlen(text));
}

static void test_kustomize_patches(void)
{
	pk_kpatches k;
	pk_kpatches_init(&k);
	add(&k, "k8s/overlays/prod/kustomization.yaml",
	    "resources: [../../base]\n"
	    "patches:\n- path: replicas.yaml\n- patch: |-\n    kind: Deployment\n- path: ./sub/../limits.yaml\n"
	    "patchesStrategicMerge:\n- ../prod/./memory.yaml\n- |-\n  apiVersion: apps/v1\n  kind: Deployment\n"
	    "patchesJson6902:\n- target: {kind: Deployment, name: api}\n  path: api.json\n");
	add(&k, "kustomization.yaml", "patches:\n- path: top.yaml\n");
	add(&k, "components/x/Kustomization", "kind: Component\npatches:\n- {path: ../../outside.yaml}\n");
	add(&k, "broken/kustomization.yaml", "patches: [\n");
	CHECK_STR(pk_kpatches_find(&k, "k8s/overlays/prod/replicas.yaml"), "k8s/overlays/prod/kustomization.yaml",
	          "patches[].path, joined to the kustomization's directory");
	CHECK_STR(pk_kpatches_find(&k, "k8s/overlays/prod/limits.yaml"), "k8s/overlays/prod/kustomization.yaml",
	          "'.' and '..' resolved");
	CHECK_STR(pk_kpatches_find(&k, "k8s/overlays/prod/memory.yaml"), "k8s/overlays/prod/kustomization.yaml",
	          "patchesStrategicMerge file entries");
	CHECK_STR(pk_kpatches_find(&k, "k8s/overlays/prod/api.json"), "k8s/overlays/prod/kustomization.yaml",
	          "patchesJson6902[].path");
	CHECK_STR(pk_kpatches_find(&k, "top.yaml"), "kustomization.yaml", "a kustomization at the top");
	CHECK_STR(pk_kpatches_find(&k, "outside.yaml"), "components/x/Kustomization", "a Component's patches, above it");
	CHECK(pk_kpatches_find(&k, "k8s/base/deployment.yaml") == NULL, "a resource is no patch");
	CHECK(pk_kpatches_find(&k, "replicas.yaml") == NULL, "the same name elsewhere is no patch");
	CHECK(pk_kustomization_name("a/b/kustomization.yml") && pk_kustomization_name("Kustomization") &&
	      !pk_kustomization_name("a/kustomization.yaml.bak"), "kustomization file names");
	pk_kpatches_free(&k);
}

static void test_bytes(void)
{
	static const char nul[] = "apiVersion: v1\0kind: Pod\n";
	CHECK_STR(pk_nonobject_bytes(nul, sizeof nul - 1), "binary file (a NUL byte)", "a NUL byte");
	CHECK_STR(pk_nonobject_bytes("name: caf\xe9\n", 11), "not UTF-8 text", "Latin-1");
	CHECK(pk_nonobject_bytes("name: caf\xc3\xa9\n", 12) == NULL, "UTF-8");
	char big[9000];
	memset(big, 'a', sizeof big);
	big[8190] = '\xc3', big[8191] = '\xa9';
	CHECK(pk_nonobject_bytes(big, sizeof big) == NULL, "a character cut by the end of what is looked at");
	big[8191] = 'a';
	big[8500] = '\0';
	CHECK_STR(pk_nonobject_bytes(big, sizeof big), "not UTF-8 text", "only the first 8 KB are looked at");
}

static void test_notes(void)
{
	char buf[600];
	pk_nonobject_note(PK_NONOBJECT_TEMPLATE, "charts/shop/templates/web.yaml", NULL, "pc-validate", buf, sizeof buf);
	CHECK(strstr(buf, "helm template charts/shop | pc-validate -") != NULL, "the chart is named: %s", buf);
	pk_nonobject_note(PK_NONOBJECT_KUSTOMIZATION, "k8s/base/kustomization.yaml", NULL, "pp-match", buf, sizeof buf);
	CHECK(strstr(buf, "kustomize build k8s/base | pp-match -") != NULL, "the directory is named: %s", buf);
	pk_nonobject_note(PK_NONOBJECT_KPATCH, "o/r.yaml", "o/kustomization.yaml", "pc-validate", buf, sizeof buf);
	CHECK_STR(buf, "skipped: a patch that o/kustomization.yaml applies (a partial object, not a definition); to "
	          "check what it builds: kustomize build o | pc-validate -", "a patch names its kustomization");
}

int main(void)
{
	test_names();
	test_templates();
	test_documents();
	test_kustomize_patches();
	test_bytes();
	test_notes();
	return T_DONE();
}
