/* A string-keyed hash map (open addressing, FNV-1a) for the set-level facts:
 * cross-object checks stay linear in the number of objects. */
#ifndef PCV_STRMAP_H
#define PCV_STRMAP_H

#include <stddef.h>

typedef struct pcv_strmap_slot {
	char *key;     /* owned */
	void *value;   /* not owned; freed by the caller through pcv_strmap_each */
} pcv_strmap_slot;

typedef struct pcv_strmap {
	pcv_strmap_slot *slots;
	size_t cap, len;
} pcv_strmap;

void pcv_strmap_init(pcv_strmap *m);
/* Free keys and table; values are the caller's (call free_value on each if non-NULL). */
void pcv_strmap_free(pcv_strmap *m, void (*free_value)(void *));
void *pcv_strmap_get(const pcv_strmap *m, const char *key);
/* Insert or replace; returns the previous value (or NULL). Returns the value
 * itself if memory ran out (nothing stored). */
void *pcv_strmap_put(pcv_strmap *m, const char *key, void *value);

/* Interned strings in first-seen order, each with its index (file names,
 * rule ids). */
typedef struct pcv_names {
	char **v;
	size_t n, cap;
	pcv_strmap index;  /* name -> index + 1 */
} pcv_names;

void pcv_names_init(pcv_names *s);
void pcv_names_free(pcv_names *s);
/* The index of name, added if new; -1 if memory ran out. The last name is
 * checked first: names come in runs (the records of one file), so
 * interning stays linear for 10,000 files. */
long pcv_names_intern(pcv_names *s, const char *name);

#endif
