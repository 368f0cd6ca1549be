/* The CEL interpreter for DRA's device selectors (k8s/cel.h).
 *
 * Part 1 ports kubernetes/kubernetes
 * staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go at
 * 052bb7dc3f0c41961235699a75e46e8476b8883c (TestCEL's table): every case
 * but the two that need an environment with a feature gate off, by its
 * upstream name, with its expected match, compile error or evaluation error
 * (upstream checks them as substrings, so do we). Part 2 ports semver_test.go at
 * e8e6f6566fdeaec0390831d678df51f78be6a3ad (TestSemver), each expression
 * compared with its expected value so that it is a selector. Part 3 are our
 * own cases: CEL's type rules, error absorption, overflow, and bad input. */
#include "t.h"
#include <stdlib.h>
#include "k8s/cel.h"

#define DRA "dra.example.com"
#define B(d, n, v) {.domain = d, .name = n, .kind = PK_CEL_V_BOOL, .b = v}
#define I(d, n, v) {.domain = d, .name = n, .kind = PK_CEL_V_INT, .i = v}
#define S(d, n, v) {.domain = d, .name = n, .kind = PK_CEL_V_STRING, .s = v}
#define V(d, n, v) {.domain = d, .name = n, .kind = PK_CEL_V_VERSION, .s = v}
#define Q(d, n, m) {.domain = d, .name = n, .kind = PK_CEL_V_QUANTITY, .milli = m}
#define LIST(...) ((const pk_cel_attr[]){__VA_ARGS__}), (int)(sizeof((const pk_cel_attr[]){__VA_ARGS__}) / sizeof(pk_cel_attr))
#define NONE NULL, 0
/* a list-type attribute: L(domain, name, item...), items written BI(v), II(v), SI(v), VI(v) */
#define L(d, n, ...) {.domain = d, .name = n, .kind = PK_CEL_V_LIST, .items = (const pk_cel_attr[]){__VA_ARGS__}, \
		      .nitems = (int)(sizeof((const pk_cel_attr[]){__VA_ARGS__}) / sizeof(pk_cel_attr))}
#define BI(v) {.kind = PK_CEL_V_BOOL, .b = v}
#define II(v) {.kind = PK_CEL_V_INT, .i = v}
#define SI(v) {.kind = PK_CEL_V_STRING, .s = v}
#define VI(v) {.kind = PK_CEL_V_VERSION, .s = v}

enum want { W_FALSE, W_TRUE, W_COMPILE, W_EVAL };

typedef struct cel_case {
	const char *name;
	const char *expr;
	const char *driver;
	const pk_cel_attr *attrs;
	int nattrs;
	const pk_cel_attr *cap;
	int ncap;
	bool multi;
	enum want want;
	const char *msg; /* W_COMPILE, W_EVAL: a substring of the error */
} cel_case;

static const cel_case upstream[] = {
	{"true", "true", "", NONE, NONE, false, W_TRUE, NULL},
	{"false", "false", "", NONE, NONE, false, W_FALSE, NULL},
	{"syntax-error", "?!", "", NONE, NONE, false, W_COMPILE, "Syntax error"},
	{"type-error", "1", "", NONE, NONE, false, W_COMPILE, "must evaluate to bool or the unknown type, not int"},
	{"runtime-error-lookup-identifier", "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))",
	 "", NONE, NONE, false, W_EVAL, "no such key: noSuchAttr"},
	{"runtime-error-lookup-map", "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))",
	 "", NONE, NONE, false, W_EVAL, "no such key: noSuchAttr"},
	{"domain-check-negative", "\"no-such-domain\" in device.attributes", "", NONE, NONE, false, W_FALSE, NULL},
	{"domain-check-positive", "\"dra.example.com\" in device.attributes", "", LIST(B(DRA, "something", true)), NONE,
	 false, W_TRUE, NULL},
	{"empty-driver-name", "device.driver == \"\"", "", NONE, NONE, false, W_TRUE, NULL},
	{"real-driver-name", "device.driver == \"dra.example.com\"", DRA, NONE, NONE, false, W_TRUE, NULL},
	{"driver-name-qualifier", "device.attributes[\"dra.example.com\"].name", DRA, LIST(B(DRA, "name", true)), NONE,
	 false, W_TRUE, NULL},
	{"driver-name-qualifier-map-lookup", "device.attributes[\"dra.example.com\"][\"name\"]", DRA,
	 LIST(B(DRA, "name", true)), NONE, false, W_TRUE, NULL},
	{"bind", "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)", DRA, LIST(B(DRA, "name", true)), NONE,
	 false, W_TRUE, NULL},
	{"qualified-attribute-name", "device.attributes[\"other.example.com\"].name", DRA,
	 LIST(B("other.example.com", "name", true)), NONE, false, W_TRUE, NULL},
	{"bool", "device.attributes[\"dra.example.com\"].name", DRA, LIST(B(DRA, "name", true)), NONE, false, W_TRUE, NULL},
	{"int", "device.attributes[\"dra.example.com\"].name > 0", DRA, LIST(I(DRA, "name", 1)), NONE, false, W_TRUE, NULL},
	{"string", "device.attributes[\"dra.example.com\"].name == \"fish\"", DRA, LIST(S(DRA, "name", "fish")), NONE,
	 false, W_TRUE, NULL},
	{"macro-exists-on-int", "device.attributes[\"dra.example.com\"].name.exists(x, x > 0)", DRA,
	 LIST(I(DRA, "name", 1)), NONE, false, W_EVAL, "got 'types.Int', expected iterable type"},
	{"macro-exists-on-bool", "device.attributes[\"dra.example.com\"].name.exists(x, x == true)", DRA,
	 LIST(B(DRA, "name", true)), NONE, false, W_EVAL, "got 'types.Bool', expected iterable type"},
	{"macro-exists-on-string", "device.attributes[\"dra.example.com\"].name.exists(x, x == \"fish\")", DRA,
	 LIST(S(DRA, "name", "fish")), NONE, false, W_EVAL, "got 'types.String', expected iterable type"},
	{"list-result-type-causes-match-error", "device.attributes[\"dra.example.com\"].names", DRA,
	 LIST(L(DRA, "names", SI("fish"), SI("bird"))), NONE, false, W_EVAL, "CEL result of type list could not be converted to bool"},
	{"includes-function-can-evaluate", "device.attributes[\"dra.example.com\"].name.includes(\"fish\")", DRA,
	 LIST(L(DRA, "name", SI("fish"), SI("bird"))), NONE, false, W_TRUE, NULL},
	{"list-of-bool", "device.attributes[\"dra.example.com\"].names.size() == 2", DRA,
	 LIST(L(DRA, "names", BI(true), BI(false))), NONE, false, W_TRUE, NULL},
	{"list-of-int", "device.attributes[\"dra.example.com\"].names.size() == 2", DRA,
	 LIST(L(DRA, "names", II(1), II(2))), NONE, false, W_TRUE, NULL},
	{"list-of-string", "device.attributes[\"dra.example.com\"].names.size() == 2", DRA,
	 LIST(L(DRA, "names", SI("fish"), SI("bird"))), NONE, false, W_TRUE, NULL},
	{"list-of-semver", "device.attributes[\"dra.example.com\"].names.size() == 2", DRA,
	 LIST(L(DRA, "names", VI("1.0.0"), VI("2.0.0"))), NONE, false, W_TRUE, NULL},
	{"macro-on-list-of-int", "device.attributes[\"dra.example.com\"].names.exists(x, x > 0)", DRA,
	 LIST(L(DRA, "names", II(1), II(2))), NONE, false, W_TRUE, NULL},
	{"macro-on-list-of-string", "device.attributes[\"dra.example.com\"].names.all(x, x != \"\")", DRA,
	 LIST(L(DRA, "names", SI("fish"), SI("bird"))), NONE, false, W_TRUE, NULL},
	{"macro-on-list-of-semver", "device.attributes[\"dra.example.com\"].names.all(x, x.isGreaterThan(semver(\"0.0.1\")))", DRA,
	 LIST(L(DRA, "names", VI("1.0.0"), VI("2.0.0"))), NONE, false, W_TRUE, NULL},
	{"includes-function-on-bool-list-positive", "device.attributes[\"dra.example.com\"].name.includes(true)", DRA,
	 LIST(L(DRA, "name", BI(true), BI(false))), NONE, false, W_TRUE, NULL},
	{"includes-function-on-bool-list-negative", "device.attributes[\"dra.example.com\"].name.includes(false)", DRA,
	 LIST(L(DRA, "name", BI(true), BI(true))), NONE, false, W_FALSE, NULL},
	{"includes-function-on-int-list-positive", "device.attributes[\"dra.example.com\"].name.includes(1)", DRA,
	 LIST(L(DRA, "name", II(1), II(2))), NONE, false, W_TRUE, NULL},
	{"includes-function-on-int-list-negative", "device.attributes[\"dra.example.com\"].name.includes(3)", DRA,
	 LIST(L(DRA, "name", II(1), II(2))), NONE, false, W_FALSE, NULL},
	{"includes-function-on-string-list-positive", "device.attributes[\"dra.example.com\"].name.includes(\"fish\")", DRA,
	 LIST(L(DRA, "name", SI("fish"), SI("bird"))), NONE, false, W_TRUE, NULL},
	{"includes-function-on-string-list-negative", "device.attributes[\"dra.example.com\"].name.includes(\"cat\")", DRA,
	 LIST(L(DRA, "name", SI("fish"), SI("bird"))), NONE, false, W_FALSE, NULL},
	{"includes-function-on-semver-list-positive", "device.attributes[\"dra.example.com\"].name.includes(semver(\"1.0.0\"))", DRA,
	 LIST(L(DRA, "name", VI("1.0.0"), VI("2.0.0"))), NONE, false, W_TRUE, NULL},
	{"includes-function-on-semver-list-negative", "device.attributes[\"dra.example.com\"].name.includes(semver(\"3.0.0\"))", DRA,
	 LIST(L(DRA, "name", VI("1.0.0"), VI("2.0.0"))), NONE, false, W_FALSE, NULL},
	/* the two very long lists (48 and 49 values "value-<i>") are made by main() */
	{"includes-function-on-very-long-list-positive", "device.attributes[\"dra.example.com\"].name.includes(\"value-48\")", DRA,
	 NONE, NONE, false, W_FALSE, NULL},
	{"includes-function-on-very-long-list-runtime-error", "device.attributes[\"dra.example.com\"].name.includes(\"value-49\")", DRA,
	 NONE, NONE, false, W_EVAL, "'includes' function cannot be applied to lists longer than 48 values"},
	{"in-operator-on-list", "1 in device.attributes[\"dra.example.com\"].names", DRA,
	 LIST(L(DRA, "names", II(1), II(2), II(3))), NONE, false, W_TRUE, NULL},
	{"includes-function-compilation-and-eval-success", "device.attributes[\"dra.example.com\"].attr.includes(\"fish\")",
	 DRA, LIST(S(DRA, "attr", "fish")), NONE, false, W_TRUE, NULL},
	{"includes-function-on-bool-scalar-positive", "device.attributes[\"dra.example.com\"].name.includes(true)", DRA,
	 LIST(B(DRA, "name", true)), NONE, false, W_TRUE, NULL},
	{"includes-function-on-bool-scalar-negative", "device.attributes[\"dra.example.com\"].name.includes(true)", DRA,
	 LIST(B(DRA, "name", false)), NONE, false, W_FALSE, NULL},
	{"includes-function-on-int-scalar-positive", "device.attributes[\"dra.example.com\"].name.includes(1)", DRA,
	 LIST(I(DRA, "name", 1)), NONE, false, W_TRUE, NULL},
	{"includes-function-on-int-scalar-negative", "device.attributes[\"dra.example.com\"].name.includes(1)", DRA,
	 LIST(I(DRA, "name", 2)), NONE, false, W_FALSE, NULL},
	{"includes-function-on-string-scalar-positive", "device.attributes[\"dra.example.com\"].name.includes(\"fish\")",
	 DRA, LIST(S(DRA, "name", "fish")), NONE, false, W_TRUE, NULL},
	{"includes-function-on-string-scalar-negative", "device.attributes[\"dra.example.com\"].name.includes(\"bird\")",
	 DRA, LIST(S(DRA, "name", "fish")), NONE, false, W_FALSE, NULL},
	{"includes-function-on-semver-scalar-positive",
	 "device.attributes[\"dra.example.com\"].name.includes(semver(\"1.0.0\"))", DRA, LIST(V(DRA, "name", "1.0.0")),
	 NONE, false, W_TRUE, NULL},
	{"includes-function-on-semver-scalar-negative",
	 "device.attributes[\"dra.example.com\"].name.includes(semver(\"2.0.0\"))", DRA, LIST(V(DRA, "name", "1.0.0")),
	 NONE, false, W_FALSE, NULL},
	{"version", "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))", DRA,
	 LIST(V(DRA, "name", "1.0.0")), NONE, false, W_TRUE, NULL},
	{"version_v",
	 "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", true)) && isSemver(\"v1.0.0\", true)",
	 DRA, LIST(V(DRA, "name", "1.0.0")), NONE, false, W_TRUE, NULL},
	{"macro-exists-on-version", "device.attributes[\"dra.example.com\"].name.exists(x, x.isGreaterThan(semver(\"0.0.1\")))",
	 DRA, LIST(V(DRA, "name", "1.0.0")), NONE, false, W_EVAL, "got 'cel.Semver', expected iterable type"},
	{"quantity", "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", DRA, NONE,
	 LIST(Q(DRA, "name", 1048576000)), false, W_TRUE, NULL},
	{"check-positive",
	 "\"name\" in device.capacity[\"dra.example.com\"] && device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
	 DRA, NONE, LIST(Q(DRA, "name", 1048576000)), false, W_TRUE, NULL},
	{"check-negative",
	 "!(\"name\" in device.capacity[\"dra.example.com\"]) || device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
	 "", NONE, NONE, false, W_TRUE, NULL},
	{"all",
	 "\ndevice.capacity[\"dra.example.com\"].quantity.isGreaterThan(quantity(\"1Ki\")) &&\n"
	 "device.attributes[\"dra.example.com\"].bool &&\n"
	 "device.attributes[\"dra.example.com\"].int > 0 &&\n"
	 "device.attributes[\"dra.example.com\"].string == \"fish\" &&\n"
	 "device.attributes[\"dra.example.com\"].version.isGreaterThan(semver(\"0.0.1\")) &&\n"
	 "device.capacity[\"dra.example.com\"][\"quantity\"].isGreaterThan(quantity(\"1Ki\")) &&\n"
	 "device.attributes[\"dra.example.com\"][\"bool\"] &&\n"
	 "device.attributes[\"dra.example.com\"][\"int\"] > 0 &&\n"
	 "device.attributes[\"dra.example.com\"][\"string\"] == \"fish\" &&\n"
	 "device.attributes[\"dra.example.com\"][\"version\"].isGreaterThan(semver(\"0.0.1\"))\n",
	 DRA, LIST(B(DRA, "bool", true), I(DRA, "int", 1), S(DRA, "string", "fish"), V(DRA, "version", "1.0.0")),
	 LIST(Q(DRA, "quantity", 1048576000)), false, W_TRUE, NULL},
	{"many",
	 "device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b && device.attributes[\"dra.example.com\"].c",
	 DRA, LIST(B(DRA, "a", true), B(DRA, "b", true), B(DRA, "c", true)), NONE, false, W_TRUE, NULL},
	{"check_attribute_domains", "device.attributes.exists_one(x, x == \"dra.example.com\")", DRA,
	 LIST(S(DRA, "services", "some_example_value")), NONE, false, W_TRUE, NULL},
	{"check_attribute_ids", "device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")", DRA,
	 LIST(S(DRA, "services", "some_example_value")), NONE, false, W_TRUE, NULL},
	{"split_attribute", "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2", DRA,
	 LIST(S(DRA, "services", "some_example_value")), NONE, false, W_TRUE, NULL},
	{"regexp_attribute", "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")", DRA,
	 LIST(S(DRA, "services", "asymetric")), NONE, false, W_TRUE, NULL},
	{"check_capacity_domains", "device.capacity.exists_one(x, x == \"dra.example.com\")", DRA, NONE,
	 LIST(Q(DRA, "memory", 1048576000)), false, W_TRUE, NULL},
	{"check_capacity_ids", "device.capacity[\"dra.example.com\"].exists_one(x, x == \"memory\")", DRA, NONE,
	 LIST(Q(DRA, "memory", 1048576000)), false, W_TRUE, NULL},
	/* "expensive": upstream's device has 32 long-named string attributes,
	 * which the expression never reads; main() adds them. */
	{"expensive",
	 "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, "
	 "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, "
	 "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))",
	 DRA, NONE, NONE, false, W_EVAL, "actual cost limit exceeded"},
	{"allow_multiple_allocations", "device.allowMultipleAllocations == true", DRA, NONE, NONE, true, W_TRUE, NULL},
	{"allow_multiple_allocations_default", "device.allowMultipleAllocations == false", DRA, NONE, NONE, false, W_TRUE, NULL},
	{"allow_multiple_allocations_false", "device.allowMultipleAllocations == false", DRA, NONE, NONE, false, W_TRUE, NULL},
	{"allow_multiple_allocations_new", "device.allowMultipleAllocations == false", DRA, NONE, NONE, false, W_TRUE, NULL},
	{"allow_multiple_allocations_enabled", "device.allowMultipleAllocations == false", DRA, NONE, NONE, false, W_TRUE, NULL},
	/* Not ported (2 of upstream's 71): the environment without a feature
	 * (environment.NewExpressions with a gate off),
	 * includes-function-compilation-error and
	 * allow_multiple_allocations_disabled: this interpreter has one
	 * environment, the stored expressions' (all fields and functions). */
};

static const cel_case semver_cases[] = {
	{"parse", "semver(\"1.2.3\") == semver(\"1.2.3\")", "", NONE, NONE, false, W_TRUE, NULL},
	{"parseInvalidVersion", "semver(\"v1.0\") == semver(\"1.0.0\")", "", NONE, NONE, false, W_EVAL,
	 "No Major.Minor.Patch elements found"},
	{"isSemver", "isSemver(\"1.2.3-beta.1+build.1\")", "", NONE, NONE, false, W_TRUE, NULL},
	{"isSemver_false", "isSemver(\"v1.0\")", "", NONE, NONE, false, W_FALSE, NULL},
	{"isSemver_noOverload", "isSemver([1, 2, 3])", "", NONE, NONE, false, W_COMPILE,
	 "found no matching overload for 'isSemver' applied to"},
	{"equality_reflexivity", "semver(\"1.2.3\") == semver(\"1.2.3\")", "", NONE, NONE, false, W_TRUE, NULL},
	{"inequality", "semver(\"1.2.3\") == semver(\"1.0.0\")", "", NONE, NONE, false, W_FALSE, NULL},
	{"semver_less", "semver(\"1.0.0\").isLessThan(semver(\"1.2.3\"))", "", NONE, NONE, false, W_TRUE, NULL},
	{"semver_less_false", "semver(\"1.0.0\").isLessThan(semver(\"1.0.0\"))", "", NONE, NONE, false, W_FALSE, NULL},
	{"semver_greater", "semver(\"1.2.3\").isGreaterThan(semver(\"1.0.0\"))", "", NONE, NONE, false, W_TRUE, NULL},
	{"semver_greater_false", "semver(\"1.0.0\").isGreaterThan(semver(\"1.0.0\"))", "", NONE, NONE, false, W_FALSE, NULL},
	{"compare_equal", "semver(\"1.2.3\").compareTo(semver(\"1.2.3\")) == 0", "", NONE, NONE, false, W_TRUE, NULL},
	{"compare_less", "semver(\"1.0.0\").compareTo(semver(\"1.2.3\")) == -1", "", NONE, NONE, false, W_TRUE, NULL},
	{"compare_greater", "semver(\"1.2.3\").compareTo(semver(\"1.0.0\")) == 1", "", NONE, NONE, false, W_TRUE, NULL},
	{"major", "semver(\"1.2.3\").major() == 1", "", NONE, NONE, false, W_TRUE, NULL},
	{"minor", "semver(\"1.2.3\").minor() == 2", "", NONE, NONE, false, W_TRUE, NULL},
	{"patch", "semver(\"1.2.3\").patch() == 3", "", NONE, NONE, false, W_TRUE, NULL},
};

/* Our own: CEL's type rules and error absorption, the Kubernetes
 * libraries, and bad input (each a compile error with its column). */
static const cel_case own[] = {
	/* strong typing: no matching overload, never false */
	{"int-vs-string", "1 == \"1\"", "", NONE, NONE, false, W_COMPILE, "found no matching overload for '_==_' applied to '(int, string)' (column 3)"},
	{"int-less-string", "1 < \"a\"", "", NONE, NONE, false, W_COMPILE, "no matching overload for '_<_'"},
	{"attr-int-less-string", "device.attributes[\"dra.example.com\"].n < \"a\"", DRA, LIST(I(DRA, "n", 1)), NONE, false,
	 W_EVAL, "no such overload: _<_(int, string)"},
	{"attr-eq-other-type", "device.attributes[\"dra.example.com\"].n == \"a\"", DRA, LIST(I(DRA, "n", 1)), NONE, false,
	 W_FALSE, NULL},
	{"not-int", "!1", "", NONE, NONE, false, W_COMPILE, "no matching overload for '!_'"},
	{"and-int", "true && 1", "", NONE, NONE, false, W_COMPILE, "no matching overload for '_&&_'"},
	{"startsWith-int", "device.driver.startsWith(1)", "", NONE, NONE, false, W_COMPILE,
	 "no matching overload for 'startsWith'"},
	{"undefined-field", "device.drivers == \"\"", "", NONE, NONE, false, W_COMPILE, "undefined field 'drivers' (column 8)"},
	{"undeclared", "node.name == \"a\"", "", NONE, NONE, false, W_COMPILE, "undeclared reference to 'node' (column 1)"},
	{"unknown-function", "device.driver.frobnicate()", "", NONE, NONE, false, W_COMPILE, "undeclared reference to 'frobnicate'"},
	/* missing names */
	{"missing-attr", "device.attributes[\"dra.example.com\"].x", DRA, LIST(B(DRA, "y", true)), NONE, false, W_EVAL, "no such key: x"},
	{"has-missing", "has(device.attributes[\"dra.example.com\"].x)", DRA, LIST(B(DRA, "y", true)), NONE, false, W_FALSE, NULL},
	{"has-present", "has(device.attributes[\"dra.example.com\"].y)", DRA, LIST(B(DRA, "y", true)), NONE, false, W_TRUE, NULL},
	{"has-guard", "has(device.attributes[\"dra.example.com\"].x) && device.attributes[\"dra.example.com\"].x", DRA,
	 LIST(B(DRA, "y", true)), NONE, false, W_FALSE, NULL},
	{"has-not-select", "has(device)", "", NONE, NONE, false, W_COMPILE, "invalid argument to has() macro"},
	/* && and || absorb an error when the other side decides */
	{"false-and-error", "device.attributes[\"d\"].x && false", "", NONE, NONE, false, W_FALSE, NULL},
	{"error-and-false", "false && device.attributes[\"d\"].x", "", NONE, NONE, false, W_FALSE, NULL},
	{"true-or-error", "device.attributes[\"d\"].x || true", "", NONE, NONE, false, W_TRUE, NULL},
	{"true-and-error", "true && device.attributes[\"d\"].x", "", NONE, NONE, false, W_EVAL, "no such key: x"},
	{"false-or-error", "device.attributes[\"d\"].x || false", "", NONE, NONE, false, W_EVAL, "no such key: x"},
	{"all-absorbs", "[1, 0].all(x, 10 / x > 20)", "", NONE, NONE, false, W_FALSE, NULL},
	{"exists-absorbs", "[0, 1].exists(x, 10 / x > 5)", "", NONE, NONE, false, W_TRUE, NULL},
	{"exists-error", "[0, 1].exists(x, 10 / x > 50)", "", NONE, NONE, false, W_EVAL, "division by zero"},
	/* ternary, arithmetic, strings, lists */
	{"ternary", "device.driver == \"\" ? 1 + 2 * 3 == 7 : false", "", NONE, NONE, false, W_TRUE, NULL},
	{"ternary-types", "(true ? 1 : \"a\") == 1", "", NONE, NONE, false, W_TRUE, NULL},
	{"overflow-add", "9223372036854775807 + 1 > 0", "", NONE, NONE, false, W_EVAL, "integer overflow"},
	{"overflow-mul", "device.attributes[\"d\"].n * 2 > 0", "", LIST(I("d", "n", INT64_MAX)), NONE, false, W_EVAL, "integer overflow"},
	{"overflow-neg", "-(-9223372036854775808) > 0", "", NONE, NONE, false, W_EVAL, "integer overflow"},
	{"min-int-literal", "-9223372036854775808 < 0", "", NONE, NONE, false, W_TRUE, NULL},
	{"modulus-zero", "5 % (1 - 1) == 0", "", NONE, NONE, false, W_EVAL, "modulus by zero"},
	{"concat", "device.driver + \"/\" + \"gpu\" == \"dra.example.com/gpu\"", DRA, NONE, NONE, false, W_TRUE, NULL},
	{"string-functions",
	 "device.driver.startsWith(\"dra.\") && device.driver.endsWith(\".com\") && device.driver.contains(\"example\") && "
	 "device.driver.upperAscii() == \"DRA.EXAMPLE.COM\" && \"ÄB\".lowerAscii() == \"Äb\" && size(\"héllo\") == 5",
	 DRA, NONE, NONE, false, W_TRUE, NULL},
	{"in-list", "device.attributes[\"dra.example.com\"].model in [\"a100\", \"h100\"]", DRA, LIST(S(DRA, "model", "h100")),
	 NONE, false, W_TRUE, NULL},
	{"list-size-concat", "size([1, 2] + [3]) == 3 && [1, 2][1] == 2", "", NONE, NONE, false, W_TRUE, NULL},
	{"index-out-of-range", "[1, 2][2] == 2", "", NONE, NONE, false, W_EVAL, "index out of range"},
	{"map-size", "size(device.attributes) == 2 && device.attributes[\"a\"].size() == 2", "",
	 LIST(B("a", "x", true), B("a", "y", true), B("b", "x", true)), NONE, false, W_TRUE, NULL},
	{"matches-anchors", "\"gpu-7\".matches(\"^gpu-[0-9]+$\") && !\"xgpu-7\".matches(\"^gpu\") && matches(\"ab\", \"b$\")",
	 "", NONE, NONE, false, W_TRUE, NULL},
	{"matches-group", "device.driver.matches(\"(a|b)\")", "", NONE, NONE, false, W_COMPILE,
	 "not supported by this interpreter: a group ( ) in a regular expression (column 23)"},
	{"matches-variable-pattern", "device.driver.matches(device.driver)", "", NONE, NONE, false, W_COMPILE,
	 "pattern that is not a string literal"},
	{"find", "\"abc123def\".find(\"[0-9]+\") == \"123\" && \"abc\".find(\"[0-9]+\") == \"\"", "", NONE, NONE, false, W_TRUE, NULL},
	{"int-string", "int(\"-42\") == -42 && string(7) == \"7\"", "", NONE, NONE, false, W_TRUE, NULL},
	/* the Kubernetes quantity and semver libraries */
	{"quantity-functions",
	 "quantity(\"1.5\").compareTo(quantity(\"1500m\")) == 0 && quantity(\"2Gi\").isGreaterThan(quantity(\"2G\")) && "
	 "quantity(\"100m\").isLessThan(quantity(\"1\")) && quantity(\"3\").asInteger() == 3 && !quantity(\"1.5\").isInteger() && "
	 "quantity(\"1\").add(2) == quantity(\"3\") && quantity(\"1\").sub(quantity(\"2\")).sign() == -1 && isQuantity(\"1Ki\") && !isQuantity(\"1KB\")",
	 "", NONE, NONE, false, W_TRUE, NULL},
	{"quantity-invalid", "quantity(\"1KB\").sign() == 1", "", NONE, NONE, false, W_EVAL, "quantity(\"1KB\")"},
	{"quantity-asInteger", "quantity(\"1500m\").asInteger() == 1", "", NONE, NONE, false, W_EVAL, "cannot convert value to integer"},
	{"quantity-vs-semver", "quantity(\"1\").isGreaterThan(semver(\"1.0.0\"))", "", NONE, NONE, false, W_COMPILE,
	 "found no matching overload for 'isGreaterThan'"},
	{"semver-prerelease", "semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0\")) && semver(\"1.0.0-alpha.2\").isLessThan(semver(\"1.0.0-alpha.10\")) "
	 "&& semver(\"1.0.0-alpha.1\").isLessThan(semver(\"1.0.0-beta\")) && semver(\"01.2\", true) == semver(\"1.2.0\")",
	 "", NONE, NONE, false, W_TRUE, NULL},
	{"semver-leading-zero", "semver(\"01.0.0\") == semver(\"1.0.0\")", "", NONE, NONE, false, W_EVAL,
	 "Major number must not contain leading zeroes"},
	{"version-attr-invalid", "device.attributes[\"d\"].v.major() == 1", "", LIST(V("d", "v", "1.0")), NONE, false, W_EVAL,
	 "attribute d/v: parse semantic version: No Major.Minor.Patch elements found"},
	{"version-attr-invalid-unread", "true", "", LIST(B("d", "b", true), V("d", "v", "1.0")), NONE, false, W_EVAL,
	 "attribute d/v: parse semantic version"},
	/* refused by name */
	{"double", "1.5 > 1", "", NONE, NONE, false, W_COMPILE, "not supported by this interpreter: double literals (column 1)"},
	{"uint", "1u > 0u", "", NONE, NONE, false, W_COMPILE, "unsigned integer literals"},
	{"null", "device.driver == null", "", NONE, NONE, false, W_COMPILE, "not supported by this interpreter: null (column 18)"},
	{"map-literal", "{\"a\": 1}.size() == 1", "", NONE, NONE, false, W_COMPILE, "map literals"},
	{"bytes", "b\"a\" == b\"a\"", "", NONE, NONE, false, W_COMPILE, "bytes literals"},
	{"map-macro", "[1].map(x, x * 2).size() == 1", "", NONE, NONE, false, W_COMPILE, "the function or macro 'map'"},
	{"replace", "device.driver.replace(\"a\", \"b\") == \"\"", "", NONE, NONE, false, W_COMPILE, "'replace'"},
	/* bad input */
	{"empty", "", "", NONE, NONE, false, W_COMPILE, "Syntax error: unexpected end of expression (column 1)"},
	{"unterminated", "device.driver == \"abc", "", NONE, NONE, false, W_COMPILE, "unterminated string (column 18)"},
	{"invalid-utf8", "device.driver == \"a\xff\"", "", NONE, NONE, false, W_COMPILE, "invalid UTF-8 in a string literal (column 20)"},
	{"invalid-utf8-outside", "true \xc3", "", NONE, NONE, false, W_COMPILE, "invalid UTF-8 (column 6)"},
	{"huge-int", "99999999999999999999 > 0", "", NONE, NONE, false, W_COMPILE, "invalid int literal: out of range (column 1)"},
	{"int-too-big", "9223372036854775808 > 0", "", NONE, NONE, false, W_COMPILE, "invalid int literal: out of range"},
	{"single-equals", "device.driver = \"a\"", "", NONE, NONE, false, W_COMPILE, "Syntax error"},
	{"trailing", "true true", "", NONE, NONE, false, W_COMPILE, "Syntax error: mismatched input 'true' (column 6)"},
	{"second-line", "true &&\n  frob", "", NONE, NONE, false, W_COMPILE, "undeclared reference to 'frob' (line 2, column 3)"},
	{"reserved", "if", "", NONE, NONE, false, W_COMPILE, "reserved identifier: if"},
	{"escapes", "\"\\u00e9\\x41\\n\" == \"éA\\n\" && r\"\\d\" == \"\\\\d\" && '''a\nb''' == \"a\\nb\"", "", NONE, NONE, false, W_TRUE, NULL},
	{"bad-escape", "\"\\q\" == \"\"", "", NONE, NONE, false, W_COMPILE, "invalid escape sequence '\\q'"},
};

static int ported, passed;

static bool run_case(const char *table, const cel_case *c, const pk_cel_attr *attrs, int nattrs)
{
	char err[512] = "";
	pk_cel_program *p = pk_cel_compile(c->expr, err, sizeof err);
	pk_cel_result r = PK_CEL_ERROR;
	bool ok;
	if (!p) {
		ok = c->want == W_COMPILE && strstr(err, c->msg);
	} else {
		pk_cel_device d = {.driver = c->driver, .attrs = attrs, .nattrs = nattrs, .capacity = c->cap,
				   .ncapacity = c->ncap, .allow_multiple_allocations = c->multi};
		err[0] = '\0';
		r = pk_cel_eval_device(p, &d, err, sizeof err);
		if (c->want == W_EVAL)
			ok = r == PK_CEL_ERROR && strstr(err, c->msg);
		else
			ok = r == (c->want == W_TRUE ? PK_CEL_TRUE : PK_CEL_FALSE);
		/* compile once, evaluate many: the same answer again */
		if (ok && r != PK_CEL_ERROR)
			ok = pk_cel_eval_device(p, &d, err, sizeof err) == r;
	}
	static const char *const wants[] = {"false", "true", "compile error", "evaluation error"};
	CHECK(ok, "%s %s: %s%s%s (got %s%s%s)", table, c->name, wants[c->want], c->msg ? ": " : "", c->msg ? c->msg : "",
	      !p ? "compile error" : r == PK_CEL_TRUE ? "true" : r == PK_CEL_FALSE ? "false" : "evaluation error",
	      err[0] ? ": " : "", err);
	pk_cel_free(p);
	return ok;
}

static void run_table(const char *table, const cel_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const cel_case *c = &cases[i];
		const pk_cel_attr *attrs = c->attrs;
		int nattrs = c->nattrs;
		pk_cel_attr many[32];
		static char names[32][64];
		pk_cel_attr values[49], longlist;
		static char texts[49][24];
		if (strncmp(c->name, "includes-function-on-very-long-list-", 36) == 0) {
			int nv = strstr(c->name, "positive") ? 48 : 49;
			for (int k = 0; k < nv; k++) {
				snprintf(texts[k], sizeof texts[k], "value-%d", k);
				values[k] = (pk_cel_attr)SI(texts[k]);
			}
			longlist = (pk_cel_attr){.domain = DRA, .name = "name", .kind = PK_CEL_V_LIST, .items = values, .nitems = nv};
			attrs = &longlist;
			nattrs = 1;
		}
		if (strcmp(c->name, "expensive") == 0) { /* upstream's 32 attributes of the longest names */
			for (int k = 0; k < 32; k++) {
				char suffix[8];
				int sl = snprintf(suffix, sizeof suffix, "-%d", k);
				memset(names[k], 'x', (size_t)(63 - sl));
				memcpy(names[k] + 63 - sl, suffix, (size_t)sl + 1);
				many[k] = (pk_cel_attr)S(DRA, names[k], "abc");
			}
			attrs = many;
			nattrs = 32;
		}
		ported += cases == upstream;
		passed += run_case(table, c, attrs, nattrs) && cases == upstream;
	}
}

/* The depth limit: deep nesting is a compile error, never a crash. */
static void deep_nesting(void)
{
	size_t depth = 100000;
	char *s = malloc(2 * depth + 8);
	memset(s, '(', depth);
	strcpy(s + depth, "true");
	memset(s + depth + 4, ')', depth);
	s[2 * depth + 4] = '\0';
	char err[256];
	pk_cel_program *p = pk_cel_compile(s, err, sizeof err);
	CHECK(!p && strstr(err, "recursion limit exceeded"), "100000 nested parentheses: %s", err);
	memset(s, '!', depth);
	strcpy(s + depth, "true");
	p = pk_cel_compile(s, err, sizeof err);
	CHECK(!p && strstr(err, "recursion limit exceeded"), "100000 nested !: %s", err);
	/* 100 levels are fine */
	memset(s, '(', 100);
	strcpy(s + 100, "true");
	memset(s + 104, ')', 100);
	s[204] = '\0';
	p = pk_cel_compile(s, err, sizeof err);
	char e2[64];
	CHECK(p && pk_cel_eval_device(p, NULL, e2, sizeof e2) == PK_CEL_TRUE, "100 nested parentheses compile and are true");
	pk_cel_free(p);
	/* a chain of && is one node; a chain of + nests one level per operand */
	strcpy(s, "true");
	for (int i = 0; i < 2000; i++)
		strcat(s, " && true");
	p = pk_cel_compile(s, err, sizeof err);
	CHECK(p && pk_cel_eval_device(p, NULL, e2, sizeof e2) == PK_CEL_TRUE, "a chain of 2001 && operands is true");
	pk_cel_free(p);
	strcpy(s, "1");
	for (int i = 0; i < 2000; i++)
		strcat(s, " + 1");
	strcat(s, " > 0");
	p = pk_cel_compile(s, err, sizeof err);
	CHECK(!p && strstr(err, "more than 1000 nested operations"), "a chain of 2001 + operands: %s", err);
	free(s);
}

/* A pattern that backtracks badly stops at the cost limit, never hangs. */
static void regex_cost(void)
{
	char err[256];
	pk_cel_program *p = pk_cel_compile("\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\".matches(\"a*a*a*a*a*a*a*a*a*b\")", err, sizeof err);
	CHECK(p && pk_cel_eval_device(p, NULL, err, sizeof err) == PK_CEL_ERROR && strstr(err, "actual cost limit exceeded"),
	      "a backtracking regular expression: %s", err);
	pk_cel_free(p);
}

static void positions(void)
{
	int line = -1, col = -1;
	char err[256];
	pk_cel_program *p = pk_cel_compile_at("true &&\n\tdevice.x", &line, &col, err, sizeof err);
	CHECK(!p && line == 2 && col == 9 && strcmp(err, "undefined field 'x'") == 0,
	      "pk_cel_compile_at gives the line and column apart: %d:%d %s", line, col, err);
	p = pk_cel_compile("\"é\" == 1", err, sizeof err);
	CHECK(!p && strstr(err, "(column 5)"), "columns count code points: %s", err);
	/* a long selector and a cost that stays small */
	p = pk_cel_compile("device.attributes.exists(d, device.attributes[d].exists(n, n == \"model\"))", err, sizeof err);
	pk_cel_attr a[] = {S("a", "x", "1"), S("b", "model", "h100")};
	pk_cel_device d = {.attrs = a, .nattrs = 2};
	CHECK(p && pk_cel_eval_device(p, &d, err, sizeof err) == PK_CEL_TRUE, "nested comprehensions over the maps: %s", p ? "" : err);
	pk_cel_free(p);
}

int main(void)
{
	run_table("compile_test.go", upstream, sizeof upstream / sizeof *upstream);
	run_table("semver_test.go", semver_cases, sizeof semver_cases / sizeof *semver_cases);
	run_table("own", own, sizeof own / sizeof *own);
	deep_nesting();
	regex_cost();
	positions();
	printf("# compile_test.go: %d cases ported, %d pass\n", ported, passed);
	return T_DONE();
}
