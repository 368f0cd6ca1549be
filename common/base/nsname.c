#include "base/nsname.h"

#include <string.h>

static int nsname_cmp(const char *elem, size_t ns_off, size_t name_off, const char *ns, const char *name)
{
	const char *ens, *ename;
	memcpy(&ens, elem + ns_off, sizeof ens);
	memcpy(&ename, elem + name_off, sizeof ename);
	int c = strcmp(ens, ns);
	return c ? c : strcmp(ename, name);
}

long pk_nsname_find(const void *base, long n, size_t size, size_t ns_off, size_t name_off, const char *ns,
                    const char *name)
{
	const char *a = base;
	long lo = 0, hi = n;
	while (lo < hi) { /* the first element not before ns/name */
		long mid = (lo + hi) / 2;
		if (nsname_cmp(a + (size_t)mid * size, ns_off, name_off, ns, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && nsname_cmp(a + (size_t)lo * size, ns_off, name_off, ns, name) == 0 ? lo : -1;
}
