/* pc-validate: name formats, feature-gate parsing and the string map behind
 * the cross-object rules (base/strtab.h). The tool's sources are compiled in directly: they are
 * not part of the common library the unit tests link. */
#include "t.h"
#include "pcv.h"

static int subdomain_errors(const char *s)
{
	const char *m[2];
	return pcv_dns_subdomain_errors(s, m);
}

static int label_errors(const char *s)
{
	const char *m[2];
	return pcv_dns_label_errors(s, m);
}

static int qname_errors(const char *s, char first[400])
{
	char m[3][400];
	int n = pcv_qualified_name_errors(s, m);
	if (n)
		memcpy(first, m[0], 400);
	return n;
}

int main(void)
{
	char buf[400], name[300];

	CHECK(subdomain_errors("example.com") == 0, "example.com is a DNS subdomain");
	CHECK(subdomain_errors("tier&1") == 1, "tier&1 is not");
	CHECK(subdomain_errors(".workload") == 1, "a leading dot is not");
	memset(name, 'w', 254);
	name[254] = '\0';
	CHECK(subdomain_errors(name) == 1, "254 characters: length message only (the characters are fine)");
	name[253] = '\0';
	CHECK(subdomain_errors(name) == 0, "253 characters are allowed");
	CHECK(label_errors("my-name") == 0, "my-name is a DNS label");
	CHECK(label_errors("a.b") == 1, "a dot is not allowed in a label");
	memset(name, 'n', 64);
	name[64] = '\0';
	CHECK(label_errors(name) == 1, "a 64-character namespace is too long");

	CHECK(qname_errors("topology.kubernetes.io/zone", buf) == 0, "prefixed label key");
	CHECK(qname_errors("example.com/Foo", buf) == 0, "upper case is fine in the name part");
	CHECK(qname_errors("Example.com/Foo", buf) == 1 && strncmp(buf, "prefix part a lowercase RFC 1123", 32) == 0,
	      "upper case is not fine in the prefix: %s", buf);
	CHECK(qname_errors("/foo", buf) == 1 && strcmp(buf, "prefix part must be non-empty") == 0, "empty prefix");
	CHECK(qname_errors("a/b/c", buf) == 1 && strncmp(buf, "a qualified name must consist", 29) == 0, "two slashes");
	CHECK(qname_errors("foo/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", buf) == 1 &&
	          strcmp(buf, "name part must be no more than 63 characters") == 0, "64-character name part");

	CHECK(pcv_path_segment_error("..") && strcmp(pcv_path_segment_error(".."), "may not be '..'") == 0, "'..'");
	CHECK(pcv_path_segment_error("Deploy%ment") != NULL, "'%%' in a path segment");
	CHECK(pcv_path_segment_error("Deployment") == NULL, "a plain kind");

	pk_release_profile g;
	pk_feature_gates fg;
	char err[200];
	pk_feature_gates_default(&fg);
	pk_release_profile_of(&g, &fg);
	CHECK(g.generic_workload && g.composite_pod_groups && !g.topology_aware,
	      "defaults: GenericWorkload and CompositePodGroup on (their objects come from clusters that serve them), "
	      "field gates off");
	CHECK(pk_feature_gates_parse(&fg, "CompositePodGroup=false, TopologyAwareWorkloadScheduling=True", err,
	                             sizeof err) == 0, "gates parse");
	pk_release_profile_of(&g, &fg);
	CHECK(!g.composite_pod_groups && g.topology_aware, "pc-validate reads the shared gates (the release profile)");

	pk_strmap m;
	pk_strmap_init(&m);
	char key[32];
	for (intptr_t i = 1; i <= 5000; i++) {
		snprintf(key, sizeof key, "ns/w%ld", (long)i);
		pk_strmap_put(&m, key, (void *)i);
	}
	int found = 0;
	for (intptr_t i = 1; i <= 5000; i++) {
		snprintf(key, sizeof key, "ns/w%ld", (long)i);
		found += pk_strmap_get(&m, key) == (void *)i;
	}
	CHECK(found == 5000 && pk_strtab_count(m.keys) == 5000, "5000 keys survive growth (%d found)", found);
	CHECK(pk_strmap_put(&m, "ns/w7", (void *)9) == (void *)7 && pk_strtab_count(m.keys) == 5000,
	      "replacing returns the old value");
	CHECK(pk_strmap_get(&m, "ns/none") == NULL, "absent key");
	pk_strmap_free(&m, NULL);

	pcv_findings f;
	pcv_findings_init(&f);
	int a = pcv_intern_file(&f, "a.yaml"), b = pcv_intern_file(&f, "b.yaml");
	CHECK(a == 0 && b == 1 && pcv_intern_file(&f, "a.yaml") == 0, "file names are interned once");
	pcv_add_finding(&f, b, 3, 1, PK_SEV_ERROR, NULL, "value", PCV_INVALID, "x");
	pcv_add_finding(&f, a, 9, 1, PK_SEV_WARNING, NULL, NULL, PCV_FORBIDDEN, "y");
	pcv_add_finding(&f, a, 2, 5, PK_SEV_ERROR, NULL, "-", PCV_FORBIDDEN, "z");
	pcv_findings_sort(&f);
	CHECK(f.v[0].line == 2 && f.v[1].line == 9 && f.v[2].file == b, "findings sort by file order, line, column");
	CHECK(f.v[1].field == NULL, "a missing field path stays NULL: no placeholder reaches the output");
	CHECK(pcv_count_errors(&f, false) == 2 && pcv_count_errors(&f, true) == 3, "--strict counts warnings");
	pcv_findings_free(&f);
	return T_DONE();
}
