# Another LD_PRELOAD library loaded after the shim (a profiler, fakeroot)
# still receives every call the shim forwards: the shim finds the "next"
# definition as dlsym(RTLD_NEXT) would, in that library before libc.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
if [ ! -f "${HOOKSHIM_LIB:-}" ] || ! command -v "${CC:-cc}" >/dev/null; then
	skip "shim_chain: needs libhookshim.so and a C compiler"
	exit 0
fi

cat > other.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

static void note(const char *what, const char *path)
{
	write(2, "other:", 6);
	write(2, what, strlen(what));
	write(2, " ", 1);
	write(2, path, strlen(path));
	write(2, "\n", 1);
}

int unlink(const char *path)
{
	note("unlink", path);
	return ((int (*)(const char *))dlsym(RTLD_NEXT, "unlink"))(path);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	note("unlinkat", path);
	return ((int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat"))(
		dirfd, path, flags);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	note("execve", path);
	return ((int (*)(const char *, char *const[], char *const[]))dlsym(
		RTLD_NEXT, "execve"))(path, argv, envp);
}
C
${CC:-cc} -shared -fPIC -o libother.so other.c -ldl || { fail "shim_chain: libother.so builds"; exit 0; }

cat > hooks.json <<J
{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"p=\$(jq -r '.tool_input.file_path // empty'); echo \"\$p\" >> $TMP/seen; case \"\$p\" in */secrets/*) echo 'no secrets' >&2; exit 2;; esac; exit 0"}]}]}}
J

mkdir -p secrets; echo a > plain.txt; echo b > secrets/key
LD_PRELOAD=$TMP/libother.so hs run -c hooks.json -- \
	bash -c "rm plain.txt; rm secrets/key; /bin/true" 2>err.txt
expect_contains "chain: the next library's unlinkat runs for an allowed write" \
	"$(cat err.txt)" "other:unlinkat plain.txt"
check "chain: the allowed unlink happened" test ! -e plain.txt
expect_contains "chain: the hook saw the write" "$(cat seen)" "$TMP/plain.txt"
check "chain: the denied unlink changed nothing" test -e secrets/key
expect_contains "chain: the hook's reason" "$(cat err.txt)" "no secrets"
if grep -q "other:unlinkat secrets/key" err.txt; then
	fail "chain: a denied unlink never reaches the next library"
else
	pass "chain: a denied unlink never reaches the next library"
fi
: > py.txt
LD_PRELOAD=$TMP/libother.so hs run -c hooks.json -- \
	python3 -c 'import os; os.unlink("py.txt")' 2>err2.txt
expect_contains "chain: the next library's unlink runs" "$(cat err2.txt)" \
	"other:unlink py.txt"
check "chain: python's unlink happened" test ! -e py.txt
expect_contains "chain: the next library's execve runs" "$(cat err.txt)" \
	"other:execve /bin/true"

# An open that creates, where no rule fires for its name (guard mode's
# O_EXCL first, shim/write.c EXCL_FIRST): the next library sees the call
# the program made, its flags as they were, once
cat > opens.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static void note(const char *what, const char *path, int fl)
{
	const char *x = fl & O_EXCL ? " excl\n" : " asked\n";

	if (!strstr(path, "made.txt"))
		return;
	write(2, "other:", 6);
	write(2, what, strlen(what));
	write(2, " ", 1);
	write(2, path, strlen(path));
	write(2, x, strlen(x));
}

#define OPEN(name, params, args, ...)                                   \
	int name params                                                 \
	{                                                               \
		va_list ap;                                             \
		mode_t m;                                               \
                                                                        \
		va_start(ap, fl);                                       \
		m = va_arg(ap, mode_t);                                 \
		va_end(ap);                                             \
		note(#name, p, fl);                                     \
		return ((int (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name))args; \
	}
OPEN(open, (const char *p, int fl, ...), (p, fl, m), const char *, int, mode_t)
OPEN(open64, (const char *p, int fl, ...), (p, fl, m), const char *, int, mode_t)
OPEN(openat, (int d, const char *p, int fl, ...), (d, p, fl, m), int, const char *, int, mode_t)
OPEN(openat64, (int d, const char *p, int fl, ...), (d, p, fl, m), int, const char *, int, mode_t)
C
${CC:-cc} -shared -fPIC -o libopens.so opens.c -ldl || { fail "shim_chain: libopens.so builds"; exit 0; }
echo '{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 2","if":"Write(secrets/**)"}]}]}}' > secrets.json
LD_PRELOAD=$TMP/libopens.so hs run --guard --no-notices -c secrets.json -- \
	python3 -c 'open("made.txt", "w").write("x")' 2>err3.txt
expect_eq "chain: a create no rule fires for reaches the next library once, as asked" \
	"asked" "$(grep -o 'made.txt [a-z]*' err3.txt | cut -d' ' -f2 | sort | uniq -c | awk '{print $1 $2}' | sed 's/^1//')"
check "chain: and makes its file" test -s made.txt
