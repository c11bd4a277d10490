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

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--pid") == 0)
			pid = (pid_t)atol(argv[i + 1]);
		else if (strcmp(argv[i], "--fd") == 0)
			fd = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--lib") == 0)
			lib = argv[i + 1];
	}
	if (pid <= 0 || fd < 0) {
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
