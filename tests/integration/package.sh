# Issue 26 items 2 and 6: the man page says what the CLI says (every
# verb, every option of every verb's help), the bash completion offers
# the verbs and each verb's options from the same help, `make install`
# and `make uninstall` leave nothing behind, and `make deb` builds a
# Debian package that dpkg installs into a clean root, whose hookshim
# runs a session from the installed files alone (the shim found next to
# it) and denies what its policy denies, and that dpkg removes again.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
BUILD_DIR=$(dirname "$(dirname "$HOOKSHIM")")
MAN=$BUILD_DIR/man/hookshim.1
verbs=$("$HOOKSHIM" --help | sed -n 's/^  hookshim \([a-z][a-z]*\) .*/\1/p')
check "the help lists verbs" test -n "$verbs"
# every option a verb's help names: a word starting with - or --, not
# the tail of a hyphenated word ("force-push")
options() { "$HOOKSHIM" help "$1" | grep -oE -- '(^|[^a-zA-Z0-9-])--?[a-zA-Z][a-zA-Z-]*' | sed -E 's/^[^-]*//' | sort -u; }

# --- the man page ----------------------------------------------------------
if [ ! -f "$MAN" ]; then
	fail "man page built ($MAN)"
elif ! command -v man >/dev/null; then
	skip "man page: no man to render it"
else
	page=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$MAN" 2>/dev/null)
	expect_contains "man page: its name line" "$page" "hookshim - hooks for any agent, from the outside"
	missing=""
	for v in $verbs; do
		grep -q "^\.SS $v\$" "$MAN" || missing="$missing $v"
		for o in $(options "$v"); do
			grep -q -- "\(^\|[^a-zA-Z-]\)$o\b" <<<"$page" || missing="$missing $v:$o"
		done
	done
	expect_eq "man page: every verb and every option of its help" "" "$missing"
	# the page is made from the help: one verb's text, word for word
	expect_contains "man page: a verb's help, as the CLI prints it" "$(tr -s ' \n' ' ' <<<"$page")" \
		"$("$HOOKSHIM" help check | sed -n 3p | tr -s ' ' ' ' | sed 's/^ //')"
fi

# --- bash completion -------------------------------------------------------
BIN=$(dirname "$HOOKSHIM")
complete_() { # WORDS...: what completing the last word offers
	PATH=$BIN:$PATH bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hookshim; printf "%s\n" "${COMPREPLY[@]}"' \
		"$HOOKSHIM_TOP/completions/hookshim.bash" hookshim "$@" | sort -u
}
expect_eq "completion: the verbs" "$(printf '%s\n' $verbs help | sort -u)" "$(complete_ '')"
bad=""
for v in $verbs; do
	[ "$(complete_ "$v" -)" = "$(options "$v")" ] || bad="$bad $v"
done
expect_eq "completion: each verb's options, as its help names them" "" "$bad"
expect_eq "completion: --import's dialects" "claude" "$(complete_ run --import cl)"
expect_contains "completion: after --, a command" "$(complete_ run -c p.json -- bas)" "bash"
if command -v zsh >/dev/null; then
	check "zsh completion parses" zsh -n "$HOOKSHIM_TOP/completions/_hookshim"
else
	skip "zsh completion: no zsh here"
fi

# --- make install / make uninstall ----------------------------------------
DEST=$TMP/dest
make -s --no-print-directory -C "$HOOKSHIM_TOP" BUILD="$(basename "$BUILD_DIR")" install DESTDIR="$DEST" PREFIX=/usr >/dev/null 2>&1
for f in bin/hookshim lib/libhookshim.so share/man/man1/hookshim.1 \
	share/bash-completion/completions/hookshim share/zsh/vendor-completions/_hookshim \
	share/doc/hookshim/README.md share/doc/hookshim/docs/team.md; do
	check "make install: /usr/$f" test -f "$DEST/usr/$f"
done
make -s --no-print-directory -C "$HOOKSHIM_TOP" BUILD="$(basename "$BUILD_DIR")" uninstall DESTDIR="$DEST" PREFIX=/usr >/dev/null 2>&1
expect_eq "make uninstall: no file left" "" "$(find "$DEST" -type f)"

# --- make deb ----------------------------------------------------------------
if ! command -v dpkg-deb >/dev/null || ! command -v dpkg >/dev/null; then
	skip "deb: no dpkg here"; exit 0
fi
deb=$(make -s --no-print-directory -C "$HOOKSHIM_TOP" BUILD="$(basename "$BUILD_DIR")" deb 2>"$TMP/deb.err" | tail -1)
check "make deb: a package ($deb)" test -f "$deb"
[ -f "$deb" ] || { note "$(cat "$TMP/deb.err")"; exit 0; }
expect_eq "deb: its name" hookshim "$(dpkg-deb -f "$deb" Package)"
expect_eq "deb: its version is the binary's" "$("$HOOKSHIM" --version | awk '{print $2}')" "$(dpkg-deb -f "$deb" Version)"
expect_contains "deb: depends on the libraries it links" "$(dpkg-deb -f "$deb" Depends)" "libcjson1"
expect_contains "deb: ... and PCRE2" "$(dpkg-deb -f "$deb" Depends)" "libpcre2-8-0"
R=$TMP/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
: > "$R/var/lib/dpkg/status"; : > "$R/var/lib/dpkg/available"
# the clean root has no libraries of its own: its dependencies are this
# machine's
dpkg --root="$R" --force-depends --force-not-root --force-script-chrootless \
	-i "$deb" > "$TMP/dpkg.out" 2>&1
check "deb: dpkg installs it into a clean root" test -x "$R/usr/bin/hookshim"
expect_eq "deb: dpkg knows it" "install ok installed" \
	"$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Status}' hookshim 2>/dev/null)"
check "deb: the man page" test -f "$R/usr/share/man/man1/hookshim.1"
mkdir -p "$TMP/w"; touch "$TMP/w/victim"
cat > "$TMP/w/p.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0"}]}]}}
J
out=$(cd "$TMP/w" && env -u HOOKSHIM_LIB "$R/usr/bin/hookshim" run --no-notices -c p.json -- bash -c 'rm -rf victim; echo ran' 2>&1)
check "deb: the installed hookshim denies what its policy denies" test -e "$TMP/w/victim"
expect_contains "deb: ...with the hook's reason" "$out" "no rm -rf"
expect_contains "deb: its doctor finds the installed shim" \
	"$(env -u HOOKSHIM_LIB "$R/usr/bin/hookshim" doctor 2>&1)" "$R/usr/lib/libhookshim.so"
expect_contains "deb: ... and libcurl (http hooks, the export)" "$(dpkg-deb -f "$deb" Depends)" "libcurl4"
# `make demo` from the installed files: a real agent under the installed
# hookshim and shim, its report checked (exit 0), when the agents install
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
if e2e_install; then
	out=$(env -u HOOKSHIM_LIB HOOKSHIM="$R/usr/bin/hookshim" DEMO_AGENT=pi \
		NO_COLOR=1 timeout -k 10 300 "$HOOKSHIM_TOP/examples/demo.sh" 2>&1)
	rc=$?
	expect_eq "deb: the demo runs from the installed files, every check held" 0 "$rc"
	[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -15 | sed 's/^/# /'
else
	skip "deb: the demo from the installed files: $E2E_SKIP_REASON"
fi
dpkg --root="$R" --force-not-root --force-script-chrootless -r hookshim > "$TMP/dpkg.out" 2>&1
check "deb: dpkg removes it" test ! -e "$R/usr/bin/hookshim"
