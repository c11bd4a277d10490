# docs/architecture.md's rules about who may use whom, read from the
# code itself: the includes of every source file, and for the floor the
# calls between its files (the symbols each object file takes from
# another, as the linker sees them). Issue 23 item 7: the floor is a room
# of its own with no loops between its files.
. "$HOOKSHIM_TOP/tests/lib.sh"
cd "$HOOKSHIM_TOP" || exit 1

# includes DIR: the folders DIR's files include from ("../X/...")
includes() {
	grep -ho '#include "\.\./[a-z]*/' "$1"/*.c "$1"/*.h 2>/dev/null |
		sed 's|#include "\.\./||; s|/$||' | sort -u | tr '\n' ' ' | sed 's/ $//'
}
allowed() { # NAME DIR ALLOWED...: DIR includes only from ALLOWED
	local name=$1 dir=$2; shift 2
	local bad=""
	for d in $(includes "$dir"); do
		case " $* " in *" $d "*) ;; *) bad="$bad $d" ;; esac
	done
	expect_eq "$name" "" "$bad"
}
allowed "shim/ includes only shim/ and common/" shim common
allowed "common/ includes only common/" common
allowed "floor/ never includes cli/ or shim/" floor common config engine supervisor
allowed "supervisor/ never includes cli/ or shim/ (issue 26 item 8)" supervisor common config engine floor
allowed "cli/ never includes shim/" cli common config engine floor supervisor
allowed "engine/ includes no session, floor, CLI, shim or dialect code" engine common config
allowed "config/ includes only config/ and common/ (issue 26 item 8)" config common
allowed "dialects/ include no session, floor, CLI or shim code" dialects common config engine

# The floor's object files: an arrow A -> B when A calls a function B
# defines. tsort fails on a cycle.
OBJ=$(dirname "$(dirname "$HOOKSHIM")")/obj/floor
if ! command -v nm >/dev/null || ! command -v tsort >/dev/null || ! ls "$OBJ"/*.o >/dev/null 2>&1; then
	skip "floor call graph: no nm, tsort or floor objects in $OBJ"
else
	defs=$TMP/defs edges=$TMP/edges
	for o in "$OBJ"/*.o; do
		nm --defined-only "$o" | awk -v f="$(basename "$o" .o)" '$2 == "T" { print $3, f }'
	done | sort > "$defs"
	for o in "$OBJ"/*.o; do
		nm -u "$o" | awk '{ print $2 }' | sort | join - "$defs" |
			awk -v f="$(basename "$o" .o)" '$2 != f { print f, $2 }'
	done | sort -u > "$edges"
	check "the floor's files call each other (sanity: $(wc -l < "$edges") arrows)" test -s "$edges"
	if out=$(tsort "$edges" 2>&1 >/dev/null) && [ -z "$out" ]; then
		pass "no loop between the floor's files"
	else
		fail "no loop between the floor's files"; note "$out"
	fi
fi

# Every file path the code and the docs name exists (issue 26 item 8:
# paths left behind by a move). Names with a placeholder (NAME, AGENT)
# and places under a user's home (config/opencode/...) are not files here.
stale=$(git ls-files 2>/dev/null | grep -E '\.(c|h|md|sh|py|ld|json)$|(^|/)Makefile$' |
	grep -v -e node_modules -e '^tests/fixtures/public-hooks' -e '^tests/e2e/public-hooks' |
	xargs grep -ohE '\b(shim|common|cli|supervisor|floor|engine|config|dialects|tests|bench|docs|examples|scripts|fuzz|completions)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(c|h|sh|md|py|ld|json|yml|xsd)\b' 2>/dev/null |
	sort -u | grep -v -e NAME -e AGENT -e '^config/hookshim/' -e '^config/opencode/' |
	while read -r f; do [ -e "$f" ] || echo "$f"; done | tr '\n' ' ')
if git rev-parse --git-dir >/dev/null 2>&1; then
	expect_eq "every file path named in the code and docs exists" "" "$stale"
else
	skip "file paths named: not a git checkout"
fi
