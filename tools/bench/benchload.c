// SPDX-License-Identifier: GPL-2.0
/*
 * benchload - the userspace workloads of `make bench`, built static for
 * the guest. Each prints one line: its name, how many operations it made,
 * and its rounds in CLOCK_MONOTONIC nanoseconds (under QEMU with -icount
 * shift=0, guest instructions): the median round, the fastest and the
 * slowest. The msg workloads' rounds differ by several percent, as the
 * scheduler interleaves their processes differently from one round to the
 * next: the median is the figure, the fastest and the slowest the spread.
 *
 *   benchload msg pipe|socket <groups> <pairs> <messages> <rounds>
 *	In each group, <pairs> senders and <pairs> receivers, each a
 *	process; every sender sends <messages> messages of AIE_MSG_SIZE
 *	bytes to every receiver of its group, over a pipe or a unix stream
 *	socket (one per receiver, shared by the senders). An operation is
 *	one message.
 *   benchload files <dir> <files> <rounds>
 *	Create a file in <dir>, write AIE_FILE_SIZE bytes to it, close it
 *	and unlink it, <files> times. An operation is one file.
 *   benchload read <file> <rounds>
 *	Read <file> to its end in AIE_READ_BUF chunks; prints the bytes read
 *	in place of operations.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AIE_MSG_SIZE	100
#define AIE_FILE_SIZE	4096
#define AIE_READ_BUF	65536
#define AIE_MAX_ROUNDS	63

static void die(const char *what)
{
	fprintf(stderr, "benchload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		buf += n;
		len -= n;
	}
}

/* Wait for the start byte, then send to every receiver in turn. */
static void sender(int start, const int *out, int pairs, int messages)
{
	char msg[AIE_MSG_SIZE];
	int i, r;

	memset(msg, 'm', sizeof(msg));
	if (read(start, msg, 1) != 1)
		die("read start");
	for (i = 0; i < messages; i++)
		for (r = 0; r < pairs; r++)
			write_all(out[r], msg, sizeof(msg));
	exit(0);
}

static void receiver(int start, int in, size_t bytes)
{
	char buf[AIE_MSG_SIZE];
	ssize_t n;

	if (read(start, buf, 1) != 1)
		die("read start");
	while (bytes) {
		n = read(in, buf, bytes < sizeof(buf) ? bytes : sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("read message");
		bytes -= n;
	}
	exit(0);
}

/*
 * One round: fork every process, let them all go at once through the
 * start pipe, time until the last has exited.
 */
static uint64_t msg_round(int sockets, int groups, int pairs, int messages)
{
	int start[2], fds[2], *in, *out, g, r, s, nproc = 0;
	uint64_t t0;
	pid_t pid;

	in = calloc(pairs, sizeof(*in));
	out = calloc(pairs, sizeof(*out));
	if (!in || !out || pipe(start))
		die("setup");
	for (g = 0; g < groups; g++) {
		for (r = 0; r < pairs; r++) {
			if (sockets ? socketpair(AF_UNIX, SOCK_STREAM, 0, fds) :
				      pipe(fds))
				die(sockets ? "socketpair" : "pipe");
			in[r] = fds[0];
			out[r] = fds[1];
		}
		for (r = 0; r < pairs; r++) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid)
				receiver(start[0], in[r], (size_t)pairs *
					 messages * AIE_MSG_SIZE);
			nproc++;
		}
		for (s = 0; s < pairs; s++) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid)
				sender(start[0], out, pairs, messages);
			nproc++;
		}
		for (r = 0; r < pairs; r++) {
			close(in[r]);
			close(out[r]);
		}
	}
	t0 = now_ns();
	for (s = 0; s < nproc; s++)
		write_all(start[1], "g", 1);
	for (s = 0; s < nproc; s++) {
		if (wait(&r) < 0 || !WIFEXITED(r) || WEXITSTATUS(r))
			die("a worker failed");
	}
	t0 = now_ns() - t0;
	close(start[0]);
	close(start[1]);
	free(in);
	free(out);
	return t0;
}

static uint64_t files_round(const char *dir, int files)
{
	char path[4096], buf[AIE_FILE_SIZE];
	uint64_t t0 = now_ns();
	int i, fd;

	memset(buf, 'f', sizeof(buf));
	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/benchload.%d", dir, i % 64);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
		if (fd < 0)
			die(path);
		write_all(fd, buf, sizeof(buf));
		close(fd);
		if (unlink(path))
			die("unlink");
	}
	return now_ns() - t0;
}

static uint64_t read_round(const char *file, uint64_t *bytes)
{
	static char buf[AIE_READ_BUF];
	uint64_t t0 = now_ns();
	ssize_t n;
	int fd;

	*bytes = 0;
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*bytes += n;
	if (n < 0)
		die("read");
	close(fd);
	return now_ns() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: benchload msg pipe|socket <groups> <pairs> <messages> <rounds>\n"
		"       benchload files <dir> <files> <rounds>\n"
		"       benchload read <file> <rounds>\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t ns[AIE_MAX_ROUNDS], ops = 0;
	int i, rounds = 0, sockets = 0;
	const char *name;

	if (argc >= 7 && !strcmp(argv[1], "msg")) {
		sockets = !strcmp(argv[2], "socket");
		if (!sockets && strcmp(argv[2], "pipe"))
			usage();
		rounds = atoi(argv[6]);
		name = sockets ? "msg-socket" : "msg-pipe";
		ops = (uint64_t)atoi(argv[3]) * atoi(argv[4]) * atoi(argv[4]) *
		      atoi(argv[5]);
	} else if (argc >= 5 && !strcmp(argv[1], "files")) {
		rounds = atoi(argv[4]);
		name = "files";
		ops = atoi(argv[3]);
	} else if (argc >= 4 && !strcmp(argv[1], "read")) {
		rounds = atoi(argv[3]);
		name = "read";
	} else {
		usage();
	}
	if (rounds < 1 || rounds > AIE_MAX_ROUNDS)
		usage();
	for (i = 0; i < rounds; i++) {
		if (!strcmp(name, "read"))
			ns[i] = read_round(argv[2], &ops);
		else if (!strcmp(name, "files"))
			ns[i] = files_round(argv[2], atoi(argv[3]));
		else
			ns[i] = msg_round(sockets, atoi(argv[3]), atoi(argv[4]),
					  atoi(argv[5]));
	}
	if (!ops)
		usage();
	qsort(ns, rounds, sizeof(ns[0]), cmp_u64);
	printf("%s %llu %llu %llu %llu\n", name, (unsigned long long)ops,
	       (unsigned long long)ns[rounds / 2], (unsigned long long)ns[0],
	       (unsigned long long)ns[rounds - 1]);
	return 0;
}
