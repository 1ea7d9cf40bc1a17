// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - where -o writes.
 *
 * A regular file is replaced atomically, as node_exporter's textfile
 * collector wants: the output goes to a temporary file beside it, which is
 * fsync'ed and renamed over it, and the directory is fsync'ed, so a reader
 * sees the old file or the new one, whole, even after a crash. Anything
 * else is written in place: renaming over /dev/null or a FIFO would put a
 * regular file where the device or the pipe was. A symlink is followed to
 * what it names, which stays a symlink. SIGINT, SIGTERM or SIGHUP while the
 * temporary file exists removes it before the signal ends the tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "util.h"

/* Symlinks followed before ELOOP, as the kernel's path walk allows. */
#define OUTPUT_MAX_LINKS	40

static const int output_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* The temporary file, removed by output_signal() while tmp_live. */
static char tmp_name[PATH_MAX];
static volatile sig_atomic_t tmp_live;

static void output_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_name);
	signal(sig, SIG_DFL);
	raise(sig);	/* delivered when the handler returns */
}

/*
 * Catch the signals, except those ignored (nohup's SIGHUP), and block them:
 * the handler runs only once tmp_live says whether the file exists.
 */
static void signals_catch(struct sigaction *old, sigset_t *saved)
{
	struct sigaction sa = { .sa_handler = output_signal };
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(output_signals); i++) {
		sigaction(output_signals[i], NULL, &old[i]);
		if (old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(output_signals[i], &sa, NULL);
		sigaddset(&set, output_signals[i]);
	}
	sigprocmask(SIG_BLOCK, &set, saved);
}

static void signals_restore(const struct sigaction *old, const sigset_t *saved)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(output_signals); i++)
		sigaction(output_signals[i], &old[i], NULL);
	sigprocmask(SIG_SETMASK, saved, NULL);
}

static void signals_block(sigset_t *saved)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(output_signals); i++)
		sigaddset(&set, output_signals[i]);
	sigprocmask(SIG_BLOCK, &set, saved);
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* The length of @path's directory part, its last '/' included; 0 if none. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path + 1) : 0;
}

/*
 * @path with its symlinks followed to what they name, which need not
 * exist: a dangling symlink's target is created. NULL with errno set.
 */
static char *output_target(const char *path)
{
	char *p = xstrdup(path), *next, link[PATH_MAX];
	struct stat st;
	ssize_t n;
	int hops;

	for (hops = 0; hops <= OUTPUT_MAX_LINKS; hops++) {
		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			return p;
		n = readlink(p, link, sizeof(link));
		if (n < 0 || n == sizeof(link)) {
			if (n >= 0)
				errno = ENAMETOOLONG;
			free(p);
			return NULL;
		}
		if (link[0] == '/')
			next = xstrndup(link, n);
		else
			next = xasprintf("%.*s%.*s", (int)dir_len(p), p, (int)n, link);
		free(p);
		p = next;
	}
	free(p);
	errno = ELOOP;
	return NULL;
}

static int write_in_place(const char *target, const char *buf, size_t len)
{
	int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC), ret, saved;

	if (fd < 0)
		return -1;
	ret = write_all(fd, buf, len);
	saved = errno;
	if (close(fd) && !ret)
		return -1;
	errno = saved;
	return ret;
}

/* fsync @target's directory, so that the rename into it lasts a crash. */
static int sync_dir(const char *target)
{
	char *dir = dir_len(target) ? xstrndup(target, dir_len(target)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	free(dir);
	if (fd < 0)
		return -1;
	/* Some file systems cannot sync a directory: nothing to do there. */
	if (fsync(fd) && errno != EINVAL)
		ret = -1;
	close(fd);
	return ret;
}

/* The temporary file's mode and owner: the replaced file's, if there is one. */
static int tmp_attrs(int fd, const struct stat *old)
{
	mode_t mask;

	if (!old) {
		mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask);
	}
	/* A file of someone else stays theirs when we may give it back. */
	if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
	    fchown(fd, old->st_uid, old->st_gid) && errno != EPERM)
		return -1;
	return fchmod(fd, old->st_mode & 07777);
}

static int write_replace(const char *target, const struct stat *old,
			 const char *buf, size_t len)
{
	struct sigaction sa_old[ARRAY_SIZE(output_signals)];
	sigset_t saved, unused;
	int fd, ret, err;

	if (snprintf(tmp_name, sizeof(tmp_name), "%s.tmp.XXXXXX", target) >=
	    (int)sizeof(tmp_name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	signals_catch(sa_old, &saved);
	fd = mkstemp(tmp_name);
	err = errno;
	tmp_live = fd >= 0;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	ret = fd < 0 ? -1 : 0;
	if (!ret) {
		ret = tmp_attrs(fd, old) || write_all(fd, buf, len) || fsync(fd) ? -1 : 0;
		err = errno;
		if (close(fd) && !ret) {
			ret = -1;
			err = errno;
		}
	}
	signals_block(&unused);
	if (!ret && rename(tmp_name, target)) {
		ret = -1;
		err = errno;
	}
	if (ret && tmp_live)
		unlink(tmp_name);
	tmp_live = 0;
	signals_restore(sa_old, &saved);
	if (!ret && sync_dir(target)) {
		ret = -1;
		err = errno;
	}
	errno = err;
	return ret;
}

int write_output(const char *path, const char *buf, size_t len)
{
	struct stat st;
	char *target;
	int ret, err;

	if (!strcmp(path, "-")) {
		fwrite(buf, 1, len, stdout);
		return fflush(stdout) || ferror(stdout) ? -1 : 0;
	}
	target = output_target(path);
	if (!target)
		return -1;
	if (stat(target, &st))
		ret = errno == ENOENT ? write_replace(target, NULL, buf, len) : -1;
	else if (S_ISREG(st.st_mode))
		ret = write_replace(target, &st, buf, len);
	else
		ret = write_in_place(target, buf, len);
	err = errno;
	free(target);
	errno = err;
	return ret;
}

void output_open(struct output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return;
	}
	o->path = path;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
}

int output_close(struct output *o)
{
	int ret;

	if (!o->path)
		return stdout_close();
	ret = ferror(o->f) ? -1 : 0;
	if (fclose(o->f))
		ret = -1;
	if (!ret)
		ret = write_output(o->path, o->buf, o->len);
	if (ret)
		aie_err("cannot write %s: %s", o->path, strerror(errno));
	free(o->buf);
	return ret;
}
