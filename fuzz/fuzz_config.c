/* Every hook-file dialect's loader, through the entry the CLI uses
 * (hs_config_load_file on a real file), then what the CLI and the
 * supervisor do with a loaded config: finish it, compute the shim's
 * interest bits, and match its hooks against an exec and a write.
 *
 * Input: one byte choosing how the file is read, then the file's bytes.
 *   byte % (HS_NDIALECT + NPLACES) < HS_NDIALECT: that dialect, forced
 *     (--dialect), at a neutral path;
 *   otherwise: detected, from the path of place k (a dialect's directory
 *     or none, so detection by shape is fuzzed too). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/load.h"
#include "engine/dispatch.h"
#include "engine/match.h"

static const char *const places[] = {
	"hooks.json", ".claude/settings.json", ".memcode/hooks.json",
	".mnemoai/hooks/hooks.json", ".memoh/hooks.json",
	".hookshim/hooks.json",
};
#define NPLACES (sizeof(places) / sizeof(places[0]))

static char dir[64];
static char paths[NPLACES][128];
/* Deepest first, so that the cleanup can remove them in this order. */
static const char *const subdirs[] = { ".mnemoai/hooks", ".claude",
				       ".memcode", ".mnemoai", ".memoh",
				       ".hookshim" };
#define NSUBDIRS (sizeof(subdirs) / sizeof(subdirs[0]))

static void cleanup(void)
{
	char sub[128];

	for (size_t i = 0; i < NPLACES; i++)
		unlink(paths[i]);
	for (size_t i = 0; i < NSUBDIRS; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, subdirs[i]);
		rmdir(sub);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char sub[128];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/hookshim-fuzz-config.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	for (size_t i = NSUBDIRS; i-- > 0;) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, subdirs[i]);
		mkdir(sub, 0700);
	}
	for (size_t i = 0; i < NPLACES; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, places[i]);
	atexit(cleanup);
	return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	if (size)
		n = write(fd, data, size);
	close(fd);
	return (size_t)n == size ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const argv[] = { "bash", "-c", "rm -rf /tmp/x", NULL };
	struct hs_event exec = { .kind = HS_KIND_PRE, .op = HS_OP_EXEC,
				 .command = "rm -rf /tmp/x", .argv = argv,
				 .exe = "/bin/bash", .cwd = dir, .root = dir };
	struct hs_event wr = { .kind = HS_KIND_PRE, .op = HS_OP_WRITE,
			       .operation = "overwrite", .cwd = dir,
			       .root = dir };
	char wpath[160];
	struct hs_config cfg;
	unsigned choice;
	int dialect = -1;
	const char *path;

	if (!size)
		return 0;
	choice = data[0] % (HS_NDIALECT + NPLACES);
	if (choice < HS_NDIALECT) {
		dialect = (int)choice;
		path = paths[0];
	} else {
		path = paths[choice - HS_NDIALECT];
	}
	if (write_file(path, data + 1, size - 1) < 0)
		abort();
	snprintf(wpath, sizeof(wpath), "%s/secrets/key.pem", dir);
	wr.path = wpath;

	hs_config_init(&cfg, dir);
	hs_config_load_file(&cfg, path, dialect, false);
	hs_config_finish(&cfg);
	(void)hs_config_has_fatal(&cfg);
	(void)hs_config_interest(&cfg);
	for (size_t i = 0; i < cfg.nhooks; i++) {
		struct hs_event post = exec;

		(void)hs_hook_matches(&cfg.hooks[i], &exec);
		(void)hs_hook_matches(&cfg.hooks[i], &wr);
		post.kind = HS_KIND_POST;
		(void)hs_hook_matches(&cfg.hooks[i], &post);
	}
	hs_config_free(&cfg);
	return 0;
}
