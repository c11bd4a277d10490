/* Asking the session from hookshim's own helpers; see consult.h. */
#include "consult.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../common/wire.h"
#include "session.h"
#include "sources.h"

/* "KEY=<number>" out of HOOKSHIM_FLAGS; -1 when absent. */
static long flag(char key)
{
	const char *f = getenv(HS_ENV_FLAGS);

	for (const char *p = f; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (p[0] == key && p[1] == '=')
			return strtol(p + 2, NULL, 10);
	return -1;
}

/* The listener on fd is the supervisor HOOKSHIM_FLAGS names (p=, t=), as
 * the shim checks it (shim/client.c): whoever bound the name after it
 * died, or replays its answers, is not. */
static bool peer_is_supervisor(int fd)
{
	long peer = hs_wire_peer_pid(fd);
	char path[40];
	int sfd;
	bool ok;

	if (peer <= 0 || peer != flag('p'))
		return false;
	hs_proc_stat_path(path, peer);
	sfd = open(path, O_RDONLY | O_CLOEXEC);
	ok = hs_wire_supervisor_matches(peer, sfd, flag('p'), flag('t'));
	if (sfd >= 0)
		close(sfd);
	return ok;
}

int hs_client_ask(const char *name, const struct hs_msg *req,
		  struct hs_answer *ans)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd, rc = -1;

	if (!name || hs_wire_addr(name, &sa, &len) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	while (connect(fd, (struct sockaddr *)&sa, len) < 0) {
		if (errno != EINTR)
			goto out;
	}
	if (!peer_is_supervisor(fd)) {
		fprintf(stderr, "hookshim: the process answering on @%s is not "
				"the session's supervisor; ignored\n", name);
		goto out;
	}
	if (hs_msg_write(fd, req) < 0)
		goto out;
	shutdown(fd, SHUT_WR);
	rc = hs_answer_read(fd, ans);
out:
	close(fd);
	return rc;
}

/* The in-process fallback of hs_consult: the files HOOKSHIM_CONFIG names,
 * else hookshim's default ones, loaded on first use and kept for the life
 * of this short-lived helper. */
static struct hs_session *local_session(void)
{
	static struct hs_config cfg;
	static struct hs_session s;
	static int state; /* 0 untried, 1 ready, -1 failed */
	struct hs_sources src = { 0 };
	char *files;
	int rc;

	if (state)
		return state > 0 ? &s : NULL;
	state = -1;
	src.root = getenv(HS_ENV_ROOT);
	if (src.root && !src.root[0])
		src.root = NULL;
	/* the same sources as a bare LD_PRELOAD session: HOOKSHIM_CONFIG,
	 * else hookshim's default files */
	rc = hs_sources_from_env(&src, &files);
	if (rc == 0)
		rc = hs_sources_load(&src, &cfg);
	hs_sources_free(&src);
	free(files);
	if (rc < 0)
		return NULL;
	/* What is not loaded (an unusable file, an untrusted project file,
	 * a hook skipped) is said: the wrapper runs without it. */
	for (size_t i = 0; i < cfg.ndiags; i++)
		if (cfg.diags[i].error)
			fprintf(stderr, "hookshim: %s\n", cfg.diags[i].text);
	if (hs_session_init(&s, &cfg, getenv(HS_ENV_SESSION), NULL) < 0)
		return NULL;
	state = 1;
	return &s;
}

static const char *session_sock(void)
{
	const char *sock = getenv(HS_ENV_SOCK);

	return sock && sock[0] ? sock : NULL;
}

void hs_consult(const struct hs_msg *req, struct hs_answer *ans)
{
	struct hs_session *s;

	if (hs_client_ask(session_sock(), req, ans) == 0)
		return;
	/* In a session whose supervisor is gone (or was forged), the
	 * session's on_supervisor_loss holds for its helpers as for the
	 * shim: "deny" (CI mode, strict) refuses; otherwise the default
	 * config decides, here. */
	if (session_sock() && (flag('l') == 1 || flag('s') == 1)) {
		fprintf(stderr, "hookshim: supervisor unreachable; denying "
				"(on_supervisor_loss: deny)\n");
		memset(ans, 0, sizeof(*ans));
		ans->verdict = HS_DENY;
		ans->reason = strdup("hookshim: supervisor unreachable");
		ans->deny_exit = flag('x') >= 0 ? (int)flag('x') : 126;
		ans->deny_errno = flag('e') > 0 ? (int)flag('e') : EACCES;
		return;
	}
	s = local_session();
	if (s) {
		hs_session_decide(s, req, ans);
		return;
	}
	memset(ans, 0, sizeof(*ans));
	ans->verdict = HS_ALLOW;
	ans->deny_exit = 126;
	ans->deny_errno = EACCES;
}


unsigned hs_consult_interest(void)
{
	struct hs_session *s;
	long bits;

	/* A live session said what its hooks want in HOOKSHIM_FLAGS. */
	if (session_sock() && (bits = flag('i')) >= 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_un sa;
		socklen_t len;
		bool live = false;

		if (fd >= 0 && hs_wire_addr(session_sock(), &sa, &len) == 0)
			live = connect(fd, (struct sockaddr *)&sa, len) == 0 &&
			       peer_is_supervisor(fd);
		if (fd >= 0)
			close(fd);
		if (live)
			return (unsigned)bits;
	}
	s = local_session();
	return s ? hs_config_interest(s->cfg) : 0;
}
