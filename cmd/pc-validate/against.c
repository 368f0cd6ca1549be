/* --against REV and --staged: the repository's whole committed state at
 * REV is what exists, as --cluster's objects are (common/io/gitrev.c reads
 * it with one `git ls-tree` and one `git cat-file --batch`). An input with
 * the identity of a committed object is an update of it, wherever either
 * file is. A committed file that an operand names (or a directory operand
 * holds), or that is gone from the work tree, is replaced: its objects are
 * compared with but are no longer part of the resulting state unless an
 * input defines them again (crossobject.c). With --staged the inputs are
 * the index's versions of the files it adds or changes, read in the same
 * batch, and what the index drops or changes is replaced. */
#include "pcv.h"

#include "io/gitrev.h"

static int on_committed(pcv_ctx *c, const pk_git_file *f)
{
	c->loading_cluster = c->against_soft = true;
	c->loading_name = f->name;
	c->against_local = f->local;
	c->against_replaced = f->replaced;
	pk_read_named_buffer(&c->cli->reader, f->data, f->len, f->name, pcv_on_record, c);
	return c->trouble ? -1 : 0;
}

/* A staged file is an input: read as the reader reads a file, named as
 * the user names it. */
static int on_staged(pcv_ctx *c, const pk_git_file *f)
{
	c->loading_cluster = c->against_soft = c->against_replaced = false;
	c->loading_name = c->against_local = NULL;
	if (f->skip) {
		pcv_skip_file(c, f->name, f->skip, f->skip_by);
		pcv_on_file_done(c, f->name);
	} else {
		pk_read_named_buffer(&c->cli->reader, f->data, f->len, f->name, pcv_on_record, c);
	}
	return c->trouble ? -1 : 0;
}

static int on_file(void *ctx, const pk_git_file *f)
{
	return f->staged ? on_staged(ctx, f) : on_committed(ctx, f);
}

static void begin(pcv_ctx *c)
{
	c->loading_cluster = c->against_soft = true;
}

static void end(pcv_ctx *c)
{
	c->loading_cluster = c->against_soft = c->against_replaced = false;
	c->loading_name = c->against_local = NULL;
}

int pcv_against_load(pcv_ctx *c, const char *rev, char *const *paths, size_t npaths)
{
	begin(c);
	int rc = pk_git_against(c->cli->prog, rev, paths, npaths, c->cli->reader.limits.max_record_bytes, on_file, c);
	end(c);
	return rc;
}

int pcv_staged_load(pcv_ctx *c, const char *rev)
{
	begin(c);
	int rc = pk_git_staged(c->cli->prog, rev, c->cli->reader.limits.max_record_bytes, on_file, c,
	                       &c->staged_changes);
	end(c);
	return rc;
}
