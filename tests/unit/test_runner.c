/* engine/runner.c against real processes: exit codes, captured streams,
 * timeouts that kill the whole group, SIGPIPE, descriptors, zombies and
 * threads. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/runner.h"
#include "tests/unit/check.h"

#define MB (1024 * 1024)

static char *const clean_env[] = { "PATH=/usr/local/bin:/usr/bin:/bin",
				   "HS_FOO=bar baz", NULL };

static int run_full(const char *cmd, const char *in, size_t in_len,
		    int timeout_ms, size_t max_out, const char *cwd,
		    struct hs_run_result *res)
{
	struct hs_run_spec spec = {
		.shell = "/bin/sh",
		.command = cmd,
		.cwd = cwd,
		.env = clean_env,
		.input = in,
		.input_len = in_len,
		.timeout_ms = timeout_ms,
		.max_output = max_out,
	};

	return hs_run(&spec, res);
}

static int run(const char *cmd, struct hs_run_result *res)
{
	return run_full(cmd, NULL, 0, 10000, 0, NULL, res);
}

static bool exited_with(int rc, const struct hs_run_result *res, int code)
{
	return rc == 0 && res->status == HS_RUN_EXITED &&
	       res->exit_code == code;
}

static char *tmp_path(const char *tag)
{
	static char buf[4][128];
	static int i;
	char *p = buf[i++ % 4];

	snprintf(p, 128, "/tmp/hs-test-runner.%d.%s", (int)getpid(), tag);
	return p;
}

static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = -1;

	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = -1;
		fclose(f);
	}
	unlink(path);
	return pid;
}

/* Gone, or a zombie waiting for an init that does not reap (as in some
 * containers): either way no longer running. Waits up to 2 s for SIGKILL
 * to land. */
static bool is_dead(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		char path[64], stat[256];
		FILE *f;
		char *p;

		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (f) {
			p = fgets(stat, sizeof(stat), f);
			fclose(f);
			p = p ? strrchr(stat, ')') : NULL;
			if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
				return true;
		}
		usleep(10000);
	}
	return false;
}

/* Valgrind runs posix_spawn's clone(CLONE_VFORK) as a plain fork, so an
 * exec failure reaches us as exit 127 instead of an error. */
static bool under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

static void check_spawn_failed(const char *name, int rc,
			       const struct hs_run_result *res, int err)
{
	if (under_valgrind() && exited_with(rc, res, 127)) {
		printf("SKIP %s: valgrind hides posix_spawn exec errors\n",
		       name);
		return;
	}
	CHECK(name, rc == 0 && res->status == HS_RUN_SPAWN_FAILED &&
			    res->spawn_errno == err);
}

static bool no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static bool sigpipe_pending(void)
{
	sigset_t s;

	return sigpending(&s) == 0 && sigismember(&s, SIGPIPE) == 1;
}

static bool sigpipe_blocked(void)
{
	sigset_t s;

	return pthread_sigmask(SIG_SETMASK, NULL, &s) == 0 &&
	       sigismember(&s, SIGPIPE) == 1;
}

static char *big_input(size_t n)
{
	char *p = malloc(n);

	if (p)
		memset(p, 'x', n);
	return p;
}

static void test_exit_codes(void)
{
	struct hs_run_result res;
	int rc;

	rc = run("exit 0", &res);
	CHECK("exit 0", exited_with(rc, &res, 0));
	CHECK("exit 0: empty out, not NULL",
	      res.out && res.out[0] == '\0' && res.out_len == 0);
	CHECK("exit 0: empty err, not NULL",
	      res.err && res.err[0] == '\0' && res.err_len == 0);
	hs_run_result_free(&res);

	rc = run("exit 2", &res);
	CHECK("exit 2", exited_with(rc, &res, 2));
	hs_run_result_free(&res);

	rc = run("exit 42", &res);
	CHECK("exit 42", exited_with(rc, &res, 42));
	hs_run_result_free(&res);

	rc = run("exit 255", &res);
	CHECK("exit 255", exited_with(rc, &res, 255));
	hs_run_result_free(&res);

	rc = run("no_such_command_hs_xyz", &res);
	CHECK("missing command exits 127", exited_with(rc, &res, 127));
	hs_run_result_free(&res);

	rc = run("kill -USR1 $$", &res);
	CHECK("signaled", rc == 0 && res.status == HS_RUN_SIGNALED &&
				  res.signo == SIGUSR1);
	hs_run_result_free(&res);

	rc = run_full("echo hi", NULL, 0, 0, 0, NULL, &res);
	CHECK("no timeout", exited_with(rc, &res, 0));
	CHECK_STR("no timeout: out", "hi\n", res.out);
	CHECK("duration measured", res.duration_ms >= 0 &&
					   res.duration_ms < 5000);
	hs_run_result_free(&res);
}

static void test_streams(void)
{
	const char payload[] = "{\"tool\":\"Bash\",\"cmd\":\"ls\"}";
	struct hs_run_result res;
	int rc;

	rc = run_full("cat", payload, strlen(payload), 10000, 0, NULL, &res);
	CHECK("stdin echoed by cat", exited_with(rc, &res, 0));
	CHECK_STR("stdin echoed: out", payload, res.out);
	CHECK("stdin echoed: out_len", res.out_len == strlen(payload));
	hs_run_result_free(&res);

	rc = run("echo out; echo oops >&2; exit 3", &res);
	CHECK("stdout and stderr", exited_with(rc, &res, 3));
	CHECK_STR("stdout captured", "out\n", res.out);
	CHECK_STR("stderr captured", "oops\n", res.err);
	CHECK("nothing truncated", !res.out_truncated && !res.err_truncated);
	hs_run_result_free(&res);

	rc = run_full("read line; echo \"got $line\"", "a\nb\n", 4, 10000, 0,
		      NULL, &res);
	CHECK("stdin ends after the payload", exited_with(rc, &res, 0));
	CHECK_STR("stdin read by line", "got a\n", res.out);
	hs_run_result_free(&res);

	/* No terminal: without a payload, stdin is at EOF at once. */
	rc = run("cat; echo done", &res);
	CHECK("empty stdin is EOF", exited_with(rc, &res, 0));
	CHECK_STR("empty stdin: out", "done\n", res.out);
	hs_run_result_free(&res);
}

static void test_caps(void)
{
	struct hs_run_result res;
	char *in;
	int rc;

	rc = run_full("printf hello", NULL, 0, 10000, 5, NULL, &res);
	CHECK("cap: exactly full", exited_with(rc, &res, 0));
	CHECK_STR("cap: exactly full out", "hello", res.out);
	CHECK("cap: exactly full not truncated", !res.out_truncated);
	hs_run_result_free(&res);

	rc = run_full("printf hello!; printf 123456 >&2", NULL, 0, 10000, 5,
		      NULL, &res);
	CHECK("cap: over", exited_with(rc, &res, 0));
	CHECK_STR("cap: over out", "hello", res.out);
	CHECK("cap: out truncated", res.out_truncated && res.out_len == 5);
	CHECK_STR("cap: over err", "12345", res.err);
	CHECK("cap: err truncated", res.err_truncated && res.err_len == 5);
	hs_run_result_free(&res);

	rc = run_full("head -c 50000000 /dev/zero", NULL, 0, 30000, 0, NULL,
		      &res);
	CHECK("50 MB output drained", exited_with(rc, &res, 0));
	CHECK("50 MB output capped at the 64 KiB default",
	      res.out_len == 65536 && res.out_truncated &&
	      res.out[65536] == '\0');
	CHECK("50 MB output returns promptly", res.duration_ms < 10000);
	hs_run_result_free(&res);

	in = big_input(10 * MB);
	if (!in) {
		CHECK("malloc 10 MB", 0);
		return;
	}
	rc = run_full("wc -c", in, 10 * MB, 30000, 0, NULL, &res);
	CHECK("10 MB payload delivered whole", exited_with(rc, &res, 0));
	CHECK_STR("10 MB payload: count", "10485760\n", res.out);
	hs_run_result_free(&res);

	/* Reads stdin while writing as much back: deadlocks a runner that
	 * writes without reading. */
	rc = run_full("cat", in, 10 * MB, 30000, 0, NULL, &res);
	CHECK("10 MB echoed back without deadlock", exited_with(rc, &res, 0));
	CHECK("10 MB echo capped", res.out_len == 65536 && res.out_truncated);
	hs_run_result_free(&res);
	free(in);
}

static void test_timeouts(void)
{
	const char *bgfile = tmp_path("bg");
	struct hs_run_result res;
	char cmd[256];
	pid_t bg;
	char *in;
	int rc;

	snprintf(cmd, sizeof(cmd), "sleep 100 & echo $! > %s; sleep 100",
		 bgfile);
	rc = run_full(cmd, NULL, 0, 300, 0, NULL, &res);
	CHECK("timeout", rc == 0 && res.status == HS_RUN_TIMEOUT);
	CHECK("timeout: killed within ~1 s",
	      res.duration_ms >= 290 && res.duration_ms < 3000);
	bg = read_pid(bgfile);
	CHECK("timeout: background child killed too", bg > 0 && is_dead(bg));
	hs_run_result_free(&res);

	in = big_input(10 * MB);
	if (!in) {
		CHECK("malloc 10 MB", 0);
		return;
	}
	rc = run_full("sleep 100", in, 10 * MB, 500, 0, NULL, &res);
	CHECK("hook never reading 10 MB: timeout",
	      rc == 0 && res.status == HS_RUN_TIMEOUT);
	CHECK("hook never reading 10 MB: returns at the timeout",
	      res.duration_ms < 3000);
	hs_run_result_free(&res);

	rc = run_full("cat; exec yes", in, 10 * MB, 500, 0, NULL, &res);
	CHECK("hook printing forever: timeout",
	      rc == 0 && res.status == HS_RUN_TIMEOUT);
	CHECK("hook printing forever: returns at the timeout",
	      res.duration_ms < 3000);
	CHECK("hook printing forever: capped", res.out_truncated);
	hs_run_result_free(&res);
	free(in);

	/* The main process is done; a background child holds stdout. */
	snprintf(cmd, sizeof(cmd), "sleep 100 & echo $! > %s; echo hi",
		 bgfile);
	rc = run_full(cmd, NULL, 0, 10000, 0, NULL, &res);
	CHECK("background holder: exit status kept", exited_with(rc, &res, 0));
	CHECK_STR("background holder: out", "hi\n", res.out);
	CHECK("background holder: no wait for the timeout",
	      res.duration_ms < 3000);
	bg = read_pid(bgfile);
	CHECK("background holder: killed", bg > 0 && is_dead(bg));
	hs_run_result_free(&res);

	/* A background job that let go of our pipes is left alone. */
	rc = run("sleep 5 >/dev/null 2>&1 </dev/null & echo $!", &res);
	bg = rc == 0 ? atoi(res.out) : -1;
	CHECK("detached background: returns at once",
	      exited_with(rc, &res, 0) && res.duration_ms < 3000);
	CHECK("detached background: still running",
	      bg > 0 && kill(bg, 0) == 0 && !is_dead(bg));
	if (bg > 0)
		kill(bg, SIGKILL);
	hs_run_result_free(&res);
}

static void test_sigpipe(void)
{
	struct hs_run_result res;
	char *in = big_input(10 * MB);
	int rc;

	if (!in) {
		CHECK("malloc 10 MB", 0);
		return;
	}
	signal(SIGPIPE, SIG_DFL);

	rc = run_full("exit 0", in, 10 * MB, 10000, 0, NULL, &res);
	CHECK("exits without reading 10 MB: we survive",
	      exited_with(rc, &res, 0));
	hs_run_result_free(&res);

	/* Closes stdin but lives on: our next write is an EPIPE for sure. */
	rc = run_full("exec 0<&-; sleep 0.3; echo alive", in, 10 * MB, 10000,
		      0, NULL, &res);
	CHECK("stdin closed early: we survive the EPIPE",
	      exited_with(rc, &res, 0));
	CHECK_STR("stdin closed early: out", "alive\n", res.out);
	CHECK("stdin closed early: mask restored", !sigpipe_blocked());
	CHECK("stdin closed early: no SIGPIPE pending", !sigpipe_pending());
	hs_run_result_free(&res);

	/* A caller that blocks SIGPIPE itself must not find ours pending. */
	{
		sigset_t set, old;

		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &set, &old);
		rc = run_full("exec 0<&-; sleep 0.3", in, 10 * MB, 10000, 0,
			      NULL, &res);
		CHECK("SIGPIPE blocked by caller: ok", exited_with(rc, &res, 0));
		CHECK("SIGPIPE blocked by caller: still blocked",
		      sigpipe_blocked());
		CHECK("SIGPIPE blocked by caller: ours consumed",
		      !sigpipe_pending());
		hs_run_result_free(&res);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	free(in);
}

static void test_environment(void)
{
	struct hs_run_result res;
	char dir[] = "/tmp/hs-test-runner-cwd.XXXXXX";
	char want[64];
	int rc;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	rc = run_full("pwd", NULL, 0, 10000, 0, dir, &res);
	snprintf(want, sizeof(want), "%s\n", dir);
	CHECK("cwd", exited_with(rc, &res, 0));
	CHECK_STR("cwd honoured", want, res.out);
	hs_run_result_free(&res);
	rmdir(dir);

	rc = run_full("pwd", NULL, 0, 10000, 0, "/nonexistent/hs-dir", &res);
	check_spawn_failed("missing cwd: spawn failed", rc, &res, ENOENT);
	hs_run_result_free(&res);

	rc = run("printf '%s|%s' \"$HS_FOO\" \"${HOME-unset}\"", &res);
	CHECK("env", exited_with(rc, &res, 0));
	CHECK_STR("env honoured, nothing else inherited", "bar baz|unset",
		  res.out);
	hs_run_result_free(&res);

	rc = run("[ \"$(cut -d' ' -f5 /proc/$$/stat)\" = $$ ] && echo own",
		 &res);
	CHECK_STR("own process group", "own\n", res.out);
	hs_run_result_free(&res);
}

static void test_spawn_failures(void)
{
	struct hs_run_spec spec = { .shell = "/nonexistent/sh",
				    .command = "true" };
	struct hs_run_result res;
	int rc;

	rc = hs_run(&spec, &res);
	check_spawn_failed("missing shell: spawn failed", rc, &res, ENOENT);
	CHECK("missing shell: buffers still valid",
	      res.out && res.err && res.out_len == 0);
	hs_run_result_free(&res);
	hs_run_result_free(&res);
	CHECK("free is idempotent", res.out == NULL && res.err == NULL);

	rc = hs_run(NULL, &res);
	CHECK("NULL spec: error", rc == -1 && res.status ==
					      HS_RUN_SPAWN_FAILED &&
				  res.spawn_errno == EINVAL);
	hs_run_result_free(&res);
}

/* The caller's signal state is not the hook's. */
static void test_signal_state(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_pipe;
	struct hs_run_result res;
	sigset_t set, old;
	int rc;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, &old);

	rc = run("exec grep -E '^Sig(Blk|Ign)' /proc/self/status", &res);
	CHECK("signal state", exited_with(rc, &res, 0));
	{
		unsigned long long blk = ~0ull, ign = ~0ull;

		if (res.out)
			sscanf(res.out, "SigBlk: %llx SigIgn: %llx", &blk, &ign);
		CHECK("hook starts with no blocked signal", blk == 0);
		/* Only 1..31: glibc's posix_spawn itself leaves its internal
		 * signals 32 and 33 ignored, and sigaddset refuses them. */
		CHECK("hook starts with no ignored standard signal",
		      (ign & 0x7fffffffull) == 0);
		if (blk || (ign & 0x7fffffffull))
			printf("# %s", res.out ? res.out : "(null)\n");
	}
	hs_run_result_free(&res);

	pthread_sigmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGINT, &old_int, NULL);
}

static bool fd_list_clean(const char *out)
{
	/* ls itself holds 3 for reading the directory. */
	return strcmp(out, "0\n1\n2\n3\n") == 0;
}

static void test_descriptors(void)
{
	struct hs_run_result res;
	int fd = open("/dev/null", O_RDONLY);
	int saved;
	int rc;

	CHECK("leaky fd opened", fd >= 0 && dup2(fd, 57) == 57);
	rc = run("ls /proc/self/fd", &res);
	CHECK("fd listing", exited_with(rc, &res, 0));
	CHECK("no caller descriptor leaks into the hook",
	      res.out && fd_list_clean(res.out));
	if (res.out && !fd_list_clean(res.out))
		printf("# fds: %s\n", res.out);
	hs_run_result_free(&res);
	close(57);
	close(fd);

	/* A caller with stdin closed: the pipe ends land on 0..2. */
	saved = dup(0);
	close(0);
	rc = run_full("cat", "x", 1, 10000, 0, NULL, &res);
	dup2(saved, 0);
	close(saved);
	CHECK("caller stdin closed: works", exited_with(rc, &res, 0));
	CHECK_STR("caller stdin closed: out", "x", res.out);
	hs_run_result_free(&res);
}

static void test_zombies(void)
{
	struct hs_run_result res;
	int ok = 0;

	for (int i = 0; i < 200; i++) {
		int rc = run(i % 2 ? "true" : "exit 1", &res);

		ok += exited_with(rc, &res, i % 2 ? 0 : 1);
		hs_run_result_free(&res);
	}
	CHECK("200 runs", ok == 200);
	CHECK("no zombie or child left", no_children());
}

#define NTHREADS 8
#define NRUNS 50

static void *thread_main(void *arg)
{
	int id = (int)(long)arg, bad = 0;
	char *big = big_input(MB);

	for (int i = 0; i < NRUNS; i++) {
		struct hs_run_result res;
		char in[64], want[64];
		int rc;

		if (i % 5 == 4 && big) {
			/* Exits unread: EPIPE on a non-main thread. */
			rc = run_full("exit 7", big, MB, 10000, 0, NULL, &res);
			bad += !exited_with(rc, &res, 7);
		} else {
			snprintf(in, sizeof(in), "t%d-%d", id, i);
			snprintf(want, sizeof(want), "t%d-%d", id, i);
			rc = run_full("cat; echo e >&2", in, strlen(in), 10000,
				      0, NULL, &res);
			bad += !exited_with(rc, &res, 0) ||
			       strcmp(res.out, want) != 0 ||
			       strcmp(res.err, "e\n") != 0;
		}
		hs_run_result_free(&res);
	}
	free(big);
	return (void *)(long)bad;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	long bad = 0;
	int started = 0;

	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, thread_main,
				   (void *)(long)i) == 0)
			started++;
	for (int i = 0; i < started; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	CHECK("8 threads started", started == NTHREADS);
	CHECK("8 threads x 50 hooks all succeed", bad == 0);
	if (bad)
		printf("# %ld failed runs\n", bad);
	CHECK("threads: no zombie or child left", no_children());
}

int main(void)
{
	test_exit_codes();
	test_streams();
	test_caps();
	test_timeouts();
	test_sigpipe();
	test_environment();
	test_spawn_failures();
	test_signal_state();
	test_descriptors();
	test_zombies();
	test_threads();
	CHECK_DONE();
}
