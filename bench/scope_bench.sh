#!/bin/bash
# The write scope's default (issue 24, item 1): what judging every write
# of the commands an agent runs, wherever it lands, would cost against
# today's default (writes under the root, plus what a hook's "if" rule
# names outside it). Plain vs root scope vs whole-file-system scope
# ("writes": {"include": ["//**"]}), interleaved in the same run, guard
# mode, medians of ROUNDS with the range, wall and CPU time as ratios to
# plain, on work that writes outside the project: npm ci (its cache in
# ~/.npm) and a C build whose objects go to /tmp.
#
# Two policies, because the scope's cost depends on the hooks: one with a
# path filter (a Write hook on secrets/**: outside writes are dismissed
# by the shim's in-process glob, no round trip), and one with a catch-all
# PostToolUse formatter-style hook (every write in scope runs it).
#
# Usage: BUILD=build bench/scope_bench.sh   (ROUNDS=3, ONLY="npm cbuild")
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
. bench/lib.bash
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
[ -x "$HS" ] || { echo "scope bench: build first"; exit 1; }
ROUNDS=${ROUNDS:-3}
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d $base/hookshim-sbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home; mkdir -p "$HOME" "$T/proj"

filtered='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}'
catchall='{"matcher":"Write|Edit","hooks":[{"type":"command","command":"true"}]}'
for p in filtered catchall; do
	printf '{"hooks":{"PreToolUse":[%s],"PostToolUse":[%s]}}\n' \
		"${!p}" "$([ $p = catchall ] && echo "$catchall" || echo "$filtered")" \
		> "$T/$p-root.json"
	printf '{"hookshim":{"writes":{"include":["//**"]}},"hooks":{"PreToolUse":[%s],"PostToolUse":[%s]}}\n' \
		"${!p}" "$([ $p = catchall ] && echo "$catchall" || echo "$filtered")" \
		> "$T/$p-all.json"
done

# --- the workloads: run from the project root, writing outside it -------------
mkdir -p "$T/csrc"
cp -r common config engine "$T/csrc/"
cat > "$T/csrc/Makefile" <<'M'
OBJ := $(patsubst %.c,$(OUT)/%.o,$(wildcard common/*.c config/*.c engine/*.c))
all: $(OBJ)
$(OUT)/%.o: %.c
	@mkdir -p $(@D)
	@$(CC) -D_GNU_SOURCE -I. -std=gnu11 -O1 -c $< -o $@
M
declare -A work
work[cbuild]="make -s -C $T/csrc -j2 OUT=$T/tmp-objs && rm -rf $T/tmp-objs"
order="cbuild"
npm_project "$T/npm" &&
	{ work[npm]="cd $T/npm && rm -rf node_modules && npm ci --offline --silent --no-audit --no-fund"; order="$order npm"; }
[ -n "${ONLY:-}" ] && order=$ONLY


# one POLICY WORKLOAD: "wall cpu" (POLICY "plain": no hookshim)
one() {
	if [ "$1" = plain ]; then
		timed "scope bench: $1" bash -c "cd $T/proj && $2"
	else
		timed "scope bench: $1" "$HS" run --guard --no-notices --root "$T/proj" -c "$T/$1.json" -- bash -c "$2"
	fi
}
one_w() { one "$1" "${work[$w]}"; } # the workload of the loop below

modes="plain filtered-root filtered-all catchall-root catchall-all"
printf '%-7s %-14s %26s %26s\n' workload scope "wall s (ratio, range)" "cpu s (ratio, range)"
for w in $order; do
	declare -A wall=() cpu=()
	one plain "${work[$w]}" >/dev/null # warm caches
	interleave one_w $modes
	for m in $modes; do
		printf '%-7s %-14s %s\n' "$w" "$m" "$(cells "${wall[$m]}" "${cpu[$m]}" "${wall[plain]}" "${cpu[plain]}")"
	done
	unset wall cpu
done
