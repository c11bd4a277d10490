/* shim/symbols.c against the loader itself: for every function the shim
 * forwards to, and a few awkward cases, the batch lookup must name the
 * same definition dlsym(RTLD_NEXT) / dlvsym does, or leave the slot for
 * dlsym. Run from this executable, "next" means libc and what follows. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shim/interposed.h"
#include "shim/symbols.h"
#include "tests/unit/check.h"

/* Every interposed name, from the shim's own list: what the shim forwards
 * to (FWD rows) and what it re-implements (OWN rows) alike must exist in
 * libc, under the version the row asks for. Then a few awkward cases. */
#define ROW(name, version, family, real) { #name, version, #family },
static const struct {
	const char *name, *version, *family;
} rows[] = { HS_INTERPOSED(ROW) };

static const char *const names[] = {
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
	enum { R = sizeof(rows) / sizeof(rows[0]) };
	enum { N = R + sizeof(names) / sizeof(names[0]) };
	struct hs_symbol syms[N + 2];
	void *out[N + 2] = { 0 };
	char label[128];

	for (int i = 0; i < N; i++) {
		const char *name = i < R ? rows[i].name : names[i - R];
		const char *version = i < R ? rows[i].version : "";

		CHECK("symbols: the name fits",
		      strlen(name) < sizeof(syms[i].name) &&
			      strlen(version) < sizeof(syms[i].version));
		snprintf(syms[i].name, sizeof(syms[i].name), "%s", name);
		snprintf(syms[i].version, sizeof(syms[i].version), "%s",
			 version);
	}
	syms[N] = (struct hs_symbol){ "posix_spawn", "GLIBC_2.15" };
	syms[N + 1] = (struct hs_symbol){ "posix_spawn", "GLIBC_2.2.5" };
	hs_next_symbols(syms, out, N + 2);

	for (int i = 0; i < N; i++) {
		const char *name = syms[i].name, *version = syms[i].version;
		void *want = version[0] ? dlvsym(RTLD_NEXT, name, version)
					: dlsym(RTLD_NEXT, name);

		/* (the ?: quiets a false -Wformat-truncation under ASan) */
		snprintf(label, sizeof(label), "symbols: %s%s%s%s%s in libc",
			 i < R ? rows[i].family : "", i < R ? " " : "",
			 name[0] ? name : "?", version[0] ? "@" : "", version);
		if (i < R) /* an interposer of nothing would be a typo */
			CHECK(label, want != NULL);
		snprintf(label + strlen(label) - strlen("in libc"),
			 sizeof(label) - strlen(label) + strlen("in libc"),
			 "as dl%ssym", version[0] ? "v" : "");
		/* (under ASan the next object is libasan, whose memcpy is
		 * an ordinary function) */
		CHECK(label, out[i] == want || (is_ifunc(name) && !out[i]));
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
