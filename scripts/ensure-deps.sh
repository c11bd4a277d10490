#!/bin/sh
# Installs hookshim's build dependencies from Debian when missing.
# As root it runs apt-get itself; otherwise it stops with the command to run.
#   scripts/ensure-deps.sh        what the build and the tests need
#   scripts/ensure-deps.sh fuzz   also clang and its libFuzzer (make fuzz)
#   scripts/ensure-deps.sh uring  also liburing-dev (the floor's io_uring
#                                 test builds a liburing program)
#   scripts/ensure-deps.sh bench  also Go (make bench's Go build)
set -eu
missing=""
if [ "${1:-}" = fuzz ]; then
	command -v clang >/dev/null 2>&1 || missing="$missing clang"
	ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
		>/dev/null 2>&1 || missing="$missing libclang-rt-dev"
fi
if [ "${1:-}" = uring ]; then
	[ -f /usr/include/liburing.h ] || missing="$missing liburing-dev"
fi
if [ "${1:-}" = bench ]; then
	command -v go >/dev/null 2>&1 || missing="$missing golang-go"
fi
[ -f /usr/include/cjson/cJSON.h ] || missing="$missing libcjson-dev"
[ -f /usr/include/pcre2.h ] || missing="$missing libpcre2-dev"
# SHA-256 for the trust records of project hook files (config/trust.c)
[ -f /usr/include/nettle/sha2.h ] || missing="$missing nettle-dev"
# libcurl for http hooks (engine/http_hook.c)
[ -n "$(ls /usr/include/curl/curl.h /usr/include/*/curl/curl.h 2>/dev/null)" ] ||
	missing="$missing libcurl4-openssl-dev"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
# The man page is help2man's, over the binary's own help (make all).
command -v help2man >/dev/null 2>&1 || missing="$missing help2man"
# The tests read JUnit output with xmllint and drive a terminal with tmux.
command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
# ed, which runs the commands it reads (tests/integration/code_words.sh)
command -v ed >/dev/null 2>&1 || missing="$missing ed"
# The floor's tests run a static shell: a static /bin/busybox (the dynamic
# "busybox" package would not do).
{ [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; } ||
	missing="$missing busybox-static"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "hookshim: missing build dependencies:$missing" >&2
	echo "run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "hookshim: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
apt-get install -y -qq $missing >/dev/null
