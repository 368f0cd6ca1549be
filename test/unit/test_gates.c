/* --feature-gates parsing as component-base does it (one parser for all tools). */
#include "t.h"
#include <stddef.h>
#include "k8s/gates.h"

typedef struct gates { bool a, b; } gates;
static const pk_gate_field fields[] = { {"Alpha", offsetof(gates, a)}, {"Beta", offsetof(gates, b)} };

static int parse(const char *spec, gates *g, char *err)
{
	return pk_gates_parse_fields(spec, fields, 2, g, err, 200);
}

int main(void)
{
	gates g = { false, true };
	char err[200] = "";
	CHECK(parse("Alpha=true,Beta=false", &g, err) == 0 && g.a && !g.b, "two gates");
	CHECK(parse("Alpha=0, Beta=T", &g, err) == 0 && !g.a && g.b, "ParseBool forms and a space after a comma");
	CHECK(parse("Gamma=true", &g, err) != 0, "unknown gate");
	CHECK_STR(err, "unrecognized feature gate: Gamma", "upstream's text for an unknown gate");
	CHECK(parse("Alpha", &g, err) != 0, "no value");
	CHECK_STR(err, "missing bool value for Alpha", "upstream's text for a missing value");
	CHECK(parse("Alpha=yes", &g, err) != 0, "yes is not a Go bool");
	CHECK_STR(err, "invalid value of Alpha=yes, err: invalid syntax", "upstream's text for a bad value");
	bool v;
	CHECK(pk_parse_go_bool("TRUE", &v) && v && pk_parse_go_bool("f", &v) && !v && !pk_parse_go_bool("on", &v),
	      "strconv.ParseBool");
	return T_DONE();
}
