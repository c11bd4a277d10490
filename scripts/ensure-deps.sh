#!/bin/sh
# Installs hookshim's build dependencies from Debian when missing.
# As root it runs apt-get itself; otherwise it stops with the command to run.
set -eu
missing=""
[ -f /usr/include/cjson/cJSON.h ] || missing="$missing libcjson-dev"
[ -f /usr/include/pcre2.h ] || missing="$missing libpcre2-dev"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
# The tests read JUnit output with xmllint and drive a terminal with tmux.
command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
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
