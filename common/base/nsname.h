/* Looking up a namespaced object by (namespace, name) in an array sorted
 * that way: PersistentVolumeClaims (k8s/volume.c), ResourceClaims
 * (k8s/dra.c). */
#ifndef PK_BASE_NSNAME_H
#define PK_BASE_NSNAME_H

#include <stddef.h>

/* The index in base[0..n) (elements of size bytes, sorted by namespace then
 * name, each a const char * at ns_off and name_off) of the element named
 * ns/name, or -1. */
long pk_nsname_find(const void *base, long n, size_t size, size_t ns_off, size_t name_off, const char *ns,
                    const char *name);

#endif
