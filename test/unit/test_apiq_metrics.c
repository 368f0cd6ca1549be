/* apiq-sim's Prometheus text: floats as the Go client writes them
 * (strconv.FormatFloat(v, 'g', -1, 64)), and the bucket bounds of
 * ExponentialBuckets. Expected strings written by hand from Go's rules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "t.h"
#include "metrics.h"

static void check_float(double v, const char *want)
{
	char buf[40];
	CHECK_STR(apiq_format_float(v, buf, sizeof buf), want, "%.17g -> %s (got %s)", v, want, buf);
}

int main(void)
{
	check_float(0.04, "0.04");
	check_float(0.1 + 0.2, "0.30000000000000004");
	check_float(1, "1");
	check_float(0, "0");
	check_float(-1, "-1");
	check_float(-0.5, "-0.5");
	check_float(100, "100");
	check_float(123456, "123456");
	check_float(1e6, "1e+06");          /* exponent 6: %e form, as Go */
	check_float(1234567, "1.234567e+06");
	check_float(0.0001, "0.0001");
	check_float(0.00001, "1e-05");
	check_float(0.000123, "0.000123");
	check_float(1e21, "1e+21");
	check_float(347.272795, "347.272795");
	check_float(5e-324, "5e-324");
	check_float(1.7976931348623157e308, "1.7976931348623157e+308");
	check_float(INFINITY, "+Inf");
	check_float(-INFINITY, "-Inf");
	check_float(NAN, "NaN");

	/* ExponentialBuckets(0.01, 2, 20): every bound short, none 0.040000000000000001 */
	static const char *const want[20] = {
		"0.01", "0.02", "0.04", "0.08", "0.16", "0.32", "0.64", "1.28", "2.56", "5.12",
		"10.24", "20.48", "40.96", "81.92", "163.84", "327.68", "655.36", "1310.72", "2621.44", "5242.88",
	};
	apiq_hist h;
	apiq_hist_init_exp(&h, 0.01, 2, 20);
	for (int i = 0; i < 20; i++)
		check_float(h.le[i], want[i]);
	apiq_hist_init_exp(&h, 0.001, 2, 15);
	check_float(h.le[14], "16.384");
	return T_DONE();
}
