/* libFuzzer: arbitrary bytes through the sniffer, the JSON stream scanner,
 * cJSON, the YAML converter and record post-processing, with positions on.
 * With bit 3 of the first byte set, the input is read twice, through the
 * List scanner's 64-byte lane and through its byte loop, and the records
 * (types and positions) must agree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "io/reader.h"
#include "k8s/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch(void *ctx, pk_record *rec)
{
	(void)ctx;
	if (rec->type == PK_REC_OBJECT) {
		pk_origin o = pk_record_path_origin(rec, "spec.containers[0].resources.requests.cpu");
		(void)o;
		(void)pk_name(rec->obj);
	}
	return 0;
}

/* What a read produced, to compare the List scanner's two lanes. */
typedef struct trace {
	unsigned long long sum;
	long records;
} trace;

static int record(void *ctx, pk_record *rec)
{
	trace *t = ctx;
	if (getenv("DUMP")) fprintf(stderr, "REC %d %ld:%ld %s\n", rec->type, rec->origin.line, rec->origin.col, rec->message ? rec->message : "");
	t->records++;
	t->sum = t->sum * 1000003u + (unsigned long long)rec->type * 7919u + (unsigned long long)rec->origin.line * 131u +
	         (unsigned long long)rec->origin.col;
	touch(NULL, rec);
	return 0;
}

static trace read_once(const char *path, pk_reader_opts o)
{
	trace t = { 0, 0 };
	char *paths[] = { (char *)path };
	pk_read_paths(&o, paths, 1, record, &t);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	char path[64];

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	char *paths[] = { path };
	static const char *const prune[] = { "metadata.managedFields", "status.containerStatuses", "spec.volumes",
	                                     "spec.containers[].env", NULL };
	/* the first byte picks threads, node positions, pruning and the comparison of the two scanner lanes */
	pk_reader_opts o = { .threads = size && (data[0] & 1) ? 2 : 1, .report_duplicates = 1,
	                     .node_positions = size && (data[0] & 2), .prune = size && (data[0] & 4) ? prune : NULL };
	o.limits.max_record_bytes = 1 << 20;
	o.limits.max_alias_expansions = 10000;
	if (size && (data[0] & 8)) {
		/* the 64-byte lane and the byte loop must agree on every record */
		o.threads = 1;
		trace a = read_once(path, o);
		lseek(fd, 0, SEEK_SET);
		o.scan_bytewise = 1;
		trace b = read_once(path, o);
		if (a.records != b.records || a.sum != b.sum) {
			fprintf(stderr, "MISMATCH a %ld %llu b %ld %llu\n", a.records, a.sum, b.records, b.sum);
			abort();
		}
	} else {
		pk_read_paths(&o, paths, 1, touch, NULL);
	}
	close(fd);
	return 0;
}
