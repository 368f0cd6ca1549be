/* --against REV: the repository's whole committed state at REV is what
 * exists, as --cluster's objects are (common/io/gitrev.c reads it with one
 * `git ls-tree` and one `git cat-file --batch`). An input with the identity
 * of a committed object is an update of it, wherever either file is. A
 * committed file that an operand names (or a directory operand holds), or
 * that is gone from the work tree, is replaced: its objects are compared
 * with but are no longer part of the resulting state unless an input
 * defines them again (crossobject.c). */
#include "pcv.h"

#include "io/gitrev.h"

static int on_committed(void *ctx, const pk_git_file *f)
{
	pcv_ctx *c = ctx;
	c->loading_name = f->name;
	c->against_local = f->local;
	c->against_replaced = f->replaced;
	pk_read_named_buffer(&c->cli->reader, f->data, f->len, f->name, pcv_on_record, c);
	return c->trouble ? -1 : 0;
}

int pcv_against_load(pcv_ctx *c, const char *rev, char *const *paths, size_t npaths)
{
	c->loading_cluster = c->against_soft = true;
	int rc = pk_git_against(c->cli->prog, rev, paths, npaths, c->cli->reader.limits.max_record_bytes,
	                        on_committed, c);
	c->loading_cluster = c->against_soft = c->against_replaced = false;
	c->loading_name = c->against_local = NULL;
	return rc;
}
