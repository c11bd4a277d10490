/* The floor under load, from a static binary: THREADS threads each make
 * N file-system calls (creates, appends, renames, unlinks, mkdirs) in
 * cold/, every HOT-th one a create in hot/ (which a hook watches); each
 * thread forks FORKS children along the way that make two hot creates
 * each. With SIGURG=1 one more thread sends SIGURG to the others every
 * millisecond, as Go's preemption does. Prints "hot=H failed=F": H hot
 * creates attempted, F calls that failed. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int threads, n, hot_every, forks, storm;
static atomic_int hot, failed, done;
static pid_t tids[64];

static void on_urg(int sig) { (void)sig; }

/* A failed call: counted, and said on stderr (the test shows it). */
static void failed_at(const char *what, const char *p)
{
	fprintf(stderr, "%s %s: %s\n", what, p, strerror(errno));
	atomic_fetch_add(&failed, 1);
}

static void create(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		failed_at("create", p);
	else if (write(fd, "x\n", 2) != 2)
		failed_at("write", p);
	if (fd >= 0)
		close(fd);
}

static void *work(void *arg)
{
	int id = (int)(long)arg;
	char p[128], q[128];

	tids[id] = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < n; i++) {
		if (hot_every && i % hot_every == 0) {
			snprintf(p, sizeof(p), "hot/t%d_%d", id, i);
			atomic_fetch_add(&hot, 1);
			create(p);
			continue;
		}
		snprintf(p, sizeof(p), "cold/t%d_%d", id, i % 7);
		switch (i % 5) {
		case 0: case 1: create(p); break;
		case 2: {
			int fd = open(p, O_WRONLY | O_APPEND | O_CREAT, 0644);

			if (fd < 0) failed_at("append", p); else close(fd);
			break;
		}
		case 3:
			snprintf(q, sizeof(q), "cold/r%d", id);
			if (rename(p, q) < 0 && errno != ENOENT)
				failed_at("rename", p);
			unlink(q);
			break;
		case 4:
			snprintf(q, sizeof(q), "cold/d%d_%d", id, i);
			if (mkdir(q, 0755) < 0 || rmdir(q) < 0)
				failed_at("mkdir/rmdir", q);
			break;
		}
		if (forks && i % (n / forks + 1) == n / forks / 2) {
			pid_t c = fork();

			if (c == 0) {
				for (int k = 0; k < 2; k++) {
					snprintf(p, sizeof(p), "hot/f%d_%d_%d", id, i, k);
					create(p);
				}
				_exit(0);
			}
			atomic_fetch_add(&hot, 2);
			if (c > 0) {
				int st;

				while (waitpid(c, &st, 0) < 0 && errno == EINTR)
					;
			}
		}
	}
	atomic_fetch_add(&done, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	struct sigaction sa;

	if (argc < 6)
		return 2;
	threads = atoi(argv[1]);
	n = atoi(argv[2]);
	hot_every = atoi(argv[3]);
	forks = atoi(argv[4]);
	storm = atoi(argv[5]);
	if (threads > 64)
		threads = 64;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_urg;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGURG, &sa, NULL);
	mkdir("hot", 0755);
	mkdir("cold", 0755);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, work, (void *)(long)i);
	while (storm && atomic_load(&done) < threads) {
		struct timespec ms = { 0, 1000000 };

		for (int i = 0; i < threads; i++)
			if (tids[i])
				syscall(SYS_tgkill, getpid(), tids[i], SIGURG);
		nanosleep(&ms, NULL);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("hot=%d failed=%d\n", atomic_load(&hot), atomic_load(&failed));
	return 0;
}
