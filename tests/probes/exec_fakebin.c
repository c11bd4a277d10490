/* A stand-in for the hookshim binary's internal subcommands, for
 * shim-level tests (HOOKSHIM_BIN points here; it exports the symbol the
 * real binary exports, common/wire.h, so the shim is inert in it):
 *   __deny EXIT REASON       print REASON on stderr, exit EXIT
 *   __exec --id ID [--nested] -- EXE ARGV...
 *                            log "ID EXE" to $HS_FAKEBIN_LOG, mark the
 *                            command checked, exec it in place */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/wire.h"

__attribute__((used)) const char HS_EXE_MARK[] = "exec_fakebin";

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "__deny") == 0) {
		fprintf(stderr, "%s\n", argv[3]);
		return atoi(argv[2]);
	}
	if (argc >= 6 && strcmp(argv[1], "__exec") == 0) {
		const char *id = argv[3], *log = getenv("HS_FAKEBIN_LOG");
		int i = 4;
		char mark[32];

		while (i < argc && strcmp(argv[i], "--") != 0)
			i++;
		if (i + 2 >= argc)
			return 2;
		if (log) {
			FILE *f = fopen(log, "a");

			if (f) {
				fprintf(f, "%s %s%s\n", id, argv[i + 1],
					strcmp(argv[4], "--nested") == 0
						? " nested" : "");
				fclose(f);
			}
		}
		snprintf(mark, sizeof(mark), "exec:%d", (int)getpid());
		setenv("HOOKSHIM_CHECKED", mark, 1);
		setenv("HOOKSHIM_ROLE", "tool", 1);
		execv(argv[i + 1], argv + i + 2);
		perror("fakebin: exec");
		return 127;
	}
	fprintf(stderr, "fakebin: bad usage\n");
	return 2;
}
