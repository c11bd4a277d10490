/* `hookshim __supervise --pid PID --fd FD [--lib LIB]`: the supervisor
 * of a bare `LD_PRELOAD=libhookshim.so CMD` session, started by the
 * shim's constructor (shim/boot.c). The config comes from where a
 * session without a command line takes it (HOOKSHIM_CONFIG, else
 * hookshim's default files); the session is supervisor/bare.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../supervisor/bare.h"

int cmd_supervise(int argc, char **argv)
{
	struct hs_sources src = { 0 };
	pid_t pid = 0;
	int fd = -1, rc;
	const char *lib = NULL;
	char *files;

	enum { PID = HS_OPT_VERB, FD, LIB };
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, PID },
		{ "fd", required_argument, NULL, FD },
		{ "lib", required_argument, NULL, LIB },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = hs_cli_getopt(argc, argv, "", opts, "__supervise", "")) !=
	       -1) {
		if (c == PID)
			pid = (pid_t)atol(optarg);
		else if (c == FD)
			fd = atoi(optarg);
		else if (c == LIB)
			lib = optarg;
		else
			pid = 0;
	}
	if (pid <= 0 || fd < 0 || optind != argc) {
		fprintf(stderr, "usage: hookshim __supervise --pid PID --fd FD "
				"[--lib LIB]\n");
		return 64;
	}
	if (hs_sources_from_env(&src, &files) < 0) {
		static const char why[] = "!cannot load the config";

		/* (out of memory) told the shim as any failure is */
		if (write(fd, why, sizeof(why)) < 0)
			perror("hookshim: __supervise");
		close(fd);
		rc = 1;
	} else {
		rc = hs_bare_session(&src, fd, pid, lib);
	}
	hs_sources_free(&src);
	free(files);
	return rc;
}
