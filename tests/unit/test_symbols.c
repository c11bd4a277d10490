/* shim/symbols.c against the loader itself: for every function the shim
 * forwards to, and a few awkward cases, the batch lookup must name the
 * same definition dlsym(RTLD_NEXT) / dlvsym does, or leave the slot for
 * dlsym. Run from this executable, "next" means libc and what follows. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shim/symbols.h"
#include "tests/unit/check.h"

static const char *const names[] = {
	/* the exec family (shim/real.c) */
	"execve", "execveat", "fexecve", "system", "popen", "pclose",
	/* the write table (shim/write.c) */
	"open", "open64", "__open_2", "__open64_2", "openat", "openat64",
	"__openat_2", "__openat64_2", "creat", "creat64", "fopen", "fopen64",
	"freopen", "freopen64", "truncate", "truncate64", "rename",
	"renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"unlink", "unlinkat", "remove", "rmdir", "mkdir", "mkdirat",
	"mkstemp", "mkstemp64", "mkostemp", "mkostemp64", "mkstemps",
	"mkstemps64", "mkostemps", "mkostemps64", "mkdtemp", "close",
	"fclose", "dup2", "dup3", "syscall", "chdir", "fchdir", "_exit",
	"_Exit", "closedir", "close_range", "closefrom",
	/* two versions each (a compat one and the default) */
	"realpath", "pthread_cond_wait",
	/* IFUNCs in libc: the loader must run their resolvers, so dlsym
	 * decides */
	"memcpy", "strlen",
	"hs_no_such_fn",
};

/* Exported from this executable (the Makefile says so), as the hookshim
 * binary exports HS_EXE_MARK. */
__attribute__((used)) const char hookshim_test_mark[] = "test";

static bool is_ifunc(const char *name)
{
	return strcmp(name, "memcpy") == 0 || strcmp(name, "strlen") == 0;
}

int main(void)
{
	enum { N = sizeof(names) / sizeof(names[0]) };
	struct hs_symbol syms[N + 2];
	void *out[N + 2] = { 0 };
	char label[128];

	for (int i = 0; i < N; i++) {
		CHECK("symbols: the name fits",
		      strlen(names[i]) < sizeof(syms[i].name));
		snprintf(syms[i].name, sizeof(syms[i].name), "%s", names[i]);
		syms[i].version[0] = '\0';
	}
	syms[N] = (struct hs_symbol){ "posix_spawn", "GLIBC_2.15" };
	syms[N + 1] = (struct hs_symbol){ "posix_spawn", "GLIBC_2.2.5" };
	hs_next_symbols(syms, out, N + 2);

	for (int i = 0; i < N; i++) {
		void *want = dlsym(RTLD_NEXT, names[i]);

		/* (the ?: quiets a false -Wformat-truncation under ASan) */
		snprintf(label, sizeof(label), "symbols: %s as dlsym",
			 names[i] ? names[i] : "?");
		/* (under ASan the next object is libasan, whose memcpy is
		 * an ordinary function) */
		CHECK(label, out[i] == want || (is_ifunc(names[i]) && !out[i]));
	}
	CHECK("symbols: an unknown name stays NULL", out[N - 1] == NULL);
	CHECK("symbols: posix_spawn@GLIBC_2.15 as dlvsym",
	      out[N] && out[N] == dlvsym(RTLD_NEXT, "posix_spawn",
					  "GLIBC_2.15"));
	CHECK("symbols: the compat posix_spawn@GLIBC_2.2.5 as dlvsym",
	      out[N + 1] && out[N + 1] == dlvsym(RTLD_NEXT, "posix_spawn",
						  "GLIBC_2.2.5"));
	CHECK("symbols: the two versions differ", out[N] != out[N + 1]);

	CHECK("symbols: the main program's export is found",
	      hs_main_exports("hookshim_test_mark"));
	CHECK("symbols: a function it does not export is not",
	      !hs_main_exports("main"));
	CHECK("symbols: nor a name it lacks",
	      !hs_main_exports("hs_no_such_fn"));

	/* a slot already filled is left alone */
	{
		struct hs_symbol one = { "open", "" };
		void *mine = (void *)main;

		hs_next_symbols(&one, &mine, 1);
		CHECK("symbols: filled slots are kept", mine == (void *)main);
	}
	CHECK_DONE();
}
