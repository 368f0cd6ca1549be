/* resource.Quantity parsing: cases from apimachinery's quantity_test.go
 * (TestQuantityParse, TestQuantityParseZero, TestQuantityParseNonNumericPanic
 * and the MilliValue rounding rules). */
#include "t.h"
#include <inttypes.h>
#include <stdint.h>
#include "k8s/quantity.h"

static void ok(const char *in, int64_t want)
{
	int64_t got = -777;
	pk_qty_status st = pk_qty_parse(in, &got);
	CHECK(st == PK_QTY_OK && got == want, "quantity %-12s = %" PRId64 "m (got %" PRId64 ", status %d)", in,
	      want, got, st);
}

static void bad(const char *in)
{
	int64_t got;
	CHECK(pk_qty_parse(in, &got) != PK_QTY_OK, "quantity \"%s\" is rejected", in);
}

int main(void)
{
	ok("0", 0);
	ok("0n", 0);
	ok("0Ki", 0);
	ok("1", 1000);
	ok("+1", 1000);
	ok("-1", -1000);
	ok("1m", 1);
	ok("100m", 100);
	ok("250m", 250);
	ok("7910m", 7910);
	ok("1.5", 1500);
	ok(".5", 500);
	ok("5.", 5000);
	ok("0.001", 1);
	ok("1k", 1000000);
	ok("1M", INT64_C(1000000000));
	ok("1G", INT64_C(1000000000000));
	ok("1Ki", 1024000);
	ok("1Mi", INT64_C(1048576000));
	ok("50Mi", INT64_C(52428800000));
	ok("1.5Gi", INT64_C(1610612736000));
	ok("16954240Ki", INT64_C(17361141760000));
	ok("15625027559", INT64_C(15625027559000));
	ok("1e3", 1000000);
	ok("1E3", 1000000);
	ok("1e-3", 1);
	ok("12e6", INT64_C(12000000000));
	ok("1.1e1", 11000);
	ok("100.035k", INT64_C(100035000));
	/* finer than a milli-unit: rounded up, as MilliValue does */
	ok("1n", 1);
	ok("1u", 1);
	ok("0.0001", 1);
	ok("1500u", 2);
	ok("1.0001m", 2);
	/* trailing zeros carry no precision */
	ok("1.000000000000000000000000000000000000000000000", 1000);
	ok("0000000000000000000000000000000001", 1000);
	bad("");
	bad(" 1");
	bad("1 ");
	bad("1.1.1");
	bad("1+1");
	bad("aoeu");
	bad("Ki");
	bad(".5i");
	bad("1i");
	bad("1Kb");
	bad("1e");
	bad("1.0e");
	bad("-3.01e-");
	bad("0.1mi");
	bad("0.1am");
	bad("0x10");
	bad("-");
	bad(".");
	/* beyond int64 milli-units */
	bad("9223372036854775807");
	bad("10E");
	bad("100000000000000000000000000000000000000000");
	int64_t m;
	CHECK(pk_qty_parse("8Ei", &m) == PK_QTY_RANGE, "8Ei is out of range in milli-units");
	char buf[32];
	pk_qty_format(1500, buf, sizeof buf);
	CHECK_STR(buf, "1500m", "format 1500m");
	pk_qty_format(2000, buf, sizeof buf);
	CHECK_STR(buf, "2", "format 2");
	cJSON *num = cJSON_CreateNumber(1);
	CHECK(pk_qty_from_json(num, &m) == PK_QTY_OK && m == 1000, "YAML integer cpu: 1 is one core");
	cJSON_Delete(num);
	num = cJSON_CreateNumber(0.5);
	CHECK(pk_qty_from_json(num, &m) == PK_QTY_OK && m == 500, "YAML number 0.5 is 500m");
	cJSON_Delete(num);
	return T_DONE();
}
