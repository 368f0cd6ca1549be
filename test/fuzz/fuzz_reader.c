/* libFuzzer: arbitrary bytes through the sniffer, the JSON stream scanner,
 * cJSON, the YAML converter and record post-processing, with positions on. */
#include <stdint.h>
#include <stdio.h>
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
	/* the first byte picks threads, node positions or pruning (they exclude each other) */
	pk_reader_opts o = { .threads = size && (data[0] & 1) ? 2 : 1, .report_duplicates = 1,
	                     .node_positions = size && (data[0] & 2), .prune = size && (data[0] & 4) ? prune : NULL };
	o.limits.max_record_bytes = 1 << 20;
	o.limits.max_alias_expansions = 10000;
	pk_read_paths(&o, paths, 1, touch, NULL);
	close(fd);
	return 0;
}
