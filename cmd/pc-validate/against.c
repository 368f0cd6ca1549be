/* --against REV: the objects of the same paths at git revision REV are the
 * existing objects, as `buf breaking --against` compares with a previous
 * version. git lists the files (ls-tree, so directory operands work as the
 * reader walks them) and hands out their old contents (one cat-file
 * process); each old version goes through the common reader. A file that
 * did not exist at REV is simply new. */
#include "pcv.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct git_proc {
	pid_t pid;
	FILE *in;   /* its standard input, or NULL */
	FILE *out;  /* its standard output */
} git_proc;

/* Start git with argv; stdin is a pipe when want_stdin, else /dev/null.
 * git's own messages go to our standard error unless quiet. */
static int git_start(git_proc *g, char *const argv[], bool want_stdin, bool quiet)
{
	int out[2], in[2] = {-1, -1};
	posix_spawn_file_actions_t fa;
	memset(g, 0, sizeof *g);
	if (pipe(out) < 0)
		return -1;
	if (want_stdin && pipe(in) < 0) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	if (want_stdin) {
		posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
		posix_spawn_file_actions_addclose(&fa, in[1]);
	} else {
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	}
	if (quiet)
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&g->pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (want_stdin)
		close(in[0]);
	if (rc != 0) {
		close(out[0]);
		if (want_stdin)
			close(in[1]);
		errno = rc;
		return -1;
	}
	g->out = fdopen(out[0], "r");
	g->in = want_stdin ? fdopen(in[1], "w") : NULL;
	return g->out && (!want_stdin || g->in) ? 0 : -1;
}

/* Close the pipes and return git's exit status (-1: did not exit). */
static int git_finish(git_proc *g)
{
	int st = 0;
	if (g->in)
		fclose(g->in);
	if (g->out)
		fclose(g->out);
	if (g->pid <= 0)
		return -1;
	while (waitpid(g->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run git and collect its standard output; returns its exit status. */
static int git_output(char *const argv[], char **buf, size_t *len, bool quiet)
{
	git_proc g;
	*buf = NULL;
	*len = 0;
	if (git_start(&g, argv, false, quiet) < 0)
		return -1;
	size_t cap = 0;
	for (;;) {
		if (*len + 4096 > cap) {
			char *nb = realloc(*buf, cap = cap * 2 + 8192);
			if (!nb)
				break;
			*buf = nb;
		}
		size_t n = fread(*buf + *len, 1, cap - *len - 1, g.out);
		*len += n;
		if (n == 0)
			break;
	}
	if (*buf)
		(*buf)[*len] = '\0';
	return git_finish(&g);
}

/* A question to git: its exit status, its messages not shown. */
static int git_asks(char *const argv[])
{
	char *buf;
	size_t len;
	int st = git_output(argv, &buf, &len, true);
	free(buf);
	return st;
}

static bool has_manifest_suffix(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

static const char *without_dot_slash(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* The reader takes a file named as an operand whatever its name, and under
 * a directory only *.yaml, *.yml and *.json: so does the comparison. */
static bool is_input(const char *path, char *const *paths, size_t npaths)
{
	for (size_t i = 0; i < npaths; i++)
		if (strcmp(without_dot_slash(paths[i]), path) == 0)
			return true;
	/* as the reader walks directories: no name that starts with "." */
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/') {
		size_t n = strcspn(p, "/");
		if (p[0] == '.' && !(n == 1 || (n == 2 && p[1] == '.')))
			return false;
	}
	return has_manifest_suffix(path);
}

/* REV does not name a commit: an unborn HEAD (the first commit of a
 * repository) means that nothing existed before; anything else is a usage
 * error. Returns 0 for "nothing to compare", -1 for the error. */
static int rev_missing(pcv_ctx *c, const char *rev)
{
	char *const git_dir[] = {"git", "rev-parse", "--git-dir", NULL};
	char *const head[] = {"git", "symbolic-ref", "--quiet", "HEAD", NULL};
	const char *prog = c->cli->prog;
	if (git_asks(git_dir) != 0) {
		fprintf(stderr, "%s: --against %s: not inside a git repository\n", prog, rev);
		return -1;
	}
	if (strcmp(rev, "HEAD") == 0 && git_asks(head) == 0) {
		fprintf(stderr, "%s: --against HEAD: the repository has no commit yet; every object is new\n", prog);
		return 0;
	}
	fprintf(stderr, "%s: --against %s: not a commit of this repository\n", prog, rev);
	return -1;
}

/* The old version of one file: "<sha> blob <size>\n<bytes>\n" from
 * cat-file --batch, written to tmp for the reader. False when the object is
 * missing or not a blob. */
static bool old_version(git_proc *cat, const char *rev, const char *path, int tmp)
{
	char header[512];
	fprintf(cat->in, "%s:./%s\n", rev, path);
	fflush(cat->in);
	if (!fgets(header, sizeof header, cat->out))
		return false;
	char type[32];
	unsigned long long size;
	if (sscanf(header, "%*s %31s %llu", type, &size) != 2 || strcmp(type, "blob") != 0)
		return false;  /* "<name> missing" */
	if (ftruncate(tmp, 0) < 0 || lseek(tmp, 0, SEEK_SET) < 0)
		return false;
	char buf[65536];
	bool ok = true;
	while (size > 0) {
		size_t want = size < sizeof buf ? (size_t)size : sizeof buf;
		size_t n = fread(buf, 1, want, cat->out);
		if (n == 0)
			return false;
		if (ok && write(tmp, buf, n) != (ssize_t)n)
			ok = false;
		size -= n;
	}
	(void)fgetc(cat->out);  /* the newline after the contents */
	return ok;
}

static int load_listed(pcv_ctx *c, const char *rev, const char *list, size_t len, char *const *paths,
                       size_t npaths)
{
	const char *dir = getenv("TMPDIR");
	char tmppath[4096];
	snprintf(tmppath, sizeof tmppath, "%s/pc-validate-against-XXXXXX", dir && *dir ? dir : "/tmp");
	int tmp = mkstemp(tmppath);
	if (tmp < 0) {
		fprintf(stderr, "%s: --against: cannot create a temporary file: %s\n", c->cli->prog, strerror(errno));
		return -1;
	}
	char *const cat_argv[] = {"git", "cat-file", "--batch", NULL};
	git_proc cat;
	int rc = 0;
	if (git_start(&cat, cat_argv, true, false) < 0) {
		fprintf(stderr, "%s: --against: cannot run git: %s\n", c->cli->prog, strerror(errno));
		rc = -1;
	}
	char *tmparg[] = {tmppath};
	c->loading_cluster = c->against_soft = true;
	for (const char *p = list; rc == 0 && p < list + len; p += strlen(p) + 1) {
		if (!*p || !is_input(p, paths, npaths) || !old_version(&cat, rev, p, tmp))
			continue;
		char name[4200];
		snprintf(name, sizeof name, "%s:%s", rev, p);
		c->loading_name = name;
		pk_read_paths(&c->cli->reader, tmparg, 1, pcv_on_record, c);
	}
	c->loading_cluster = c->against_soft = false;
	c->loading_name = NULL;
	if (cat.pid > 0 && git_finish(&cat) != 0 && rc == 0) {
		fprintf(stderr, "%s: --against: git cat-file failed\n", c->cli->prog);
		rc = -1;
	}
	close(tmp);
	unlink(tmppath);
	return rc;
}

int pcv_against_load(pcv_ctx *c, const char *rev, char *const *paths, size_t npaths)
{
	char spec[1100];
	snprintf(spec, sizeof spec, "%s^{commit}", rev);
	char *const verify[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
	int st = git_asks(verify);
	if (st != 0)
		return rev_missing(c, rev);

	/* git ls-tree -r -z --name-only REV -- <operands>: the paths, relative
	 * to the current directory as the operands are */
	static const char *const head[] = {"git", "ls-tree", "-r", "-z", "--name-only"};
	const size_t nhead = sizeof head / sizeof head[0];
	char **argv = calloc(nhead + npaths + 3, sizeof *argv);
	if (!argv)
		return -1;
	size_t n = 0, named = 0;
	for (; n < nhead; n++)
		argv[n] = (char *)head[n];
	argv[n++] = (char *)rev;
	argv[n++] = "--";
	for (size_t i = 0; i < npaths; i++)
		if (strcmp(paths[i], "-") != 0)
			argv[n++] = paths[i], named++;
	argv[n] = NULL;
	if (!named) {
		free(argv);
		return 0;  /* standard input has no old version */
	}
	char *list;
	size_t len;
	st = git_output(argv, &list, &len, false);
	free(argv);
	if (st != 0) {
		free(list);
		fprintf(stderr, "%s: --against %s: git ls-tree failed\n", c->cli->prog, rev);
		return -1;
	}
	int rc = list ? load_listed(c, rev, list, len, paths, npaths) : 0;
	free(list);
	return rc;
}
