#!/bin/bash
# The two trust models on real work (issue 23 item 8): plain vs guard vs
# enforce, interleaved in the same run (plain, guard, enforce, plain, ...)
# so that drift in the machine's load hits all of them alike. Reported as
# medians of ROUNDS, with the range, of wall time and of CPU time (user +
# sys of the whole process tree: the agent's side and the supervisor's,
# hooks included), as ratios to plain.
#
# The policy is an ordinary one: a Bash hook on the agent's commands and
# a Write hook on secrets/**, which no workload touches, so what is
# measured is the interception itself: in guard mode the shim's
# in-process filter (and the floor for static programs), in enforce mode
# a round trip to the supervisor for every write-class and exec syscall
# of every process.
#
# A fourth mode, "bare" (when make bench built bench/notify_bare), runs
# the workload under the floor's enforce-mode filter with every
# notification continued at once and no hookshim at all: the kernel's
# price for notifying each write and exec, which enforce mode pays before
# any work of its own (enforce - bare is hookshim's part).
#
# Usage: BUILD=build bench/modes_bench.sh   (ROUNDS=5, N_FILES=5000, ONLY=...)
# (the Go row needs go: scripts/ensure-deps.sh bench, which make bench runs)
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
. bench/lib.bash
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
BARE=$TOP/$BUILD/bench/notify_bare
[ -x "$HS" ] || { echo "modes bench: build first"; exit 1; }
"$HS" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ echo "modes bench: no syscall floor here: enforce cannot run"; exit 0; }
ROUNDS=${ROUNDS:-5}
N_FILES=${N_FILES:-5000}
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d $base/hookshim-mbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home; mkdir -p "$HOME"
git config --global user.email bench@example.invalid
git config --global user.name bench

cat > "$T/policy.json" <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'git push --force' && exit 2; exit 0"}]},
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}
J

# --- the workloads ------------------------------------------------------------
mkdir -p "$T/src/tree"
for d in $(seq 1 $((N_FILES / 50))); do
	mkdir -p "$T/src/tree/d$d"
	for f in $(seq 1 50); do echo "file $d $f" > "$T/src/tree/d$d/f$f.txt"; done
done
(cd "$T/src" && tar cf "$T/tree.tar" tree)
# a C project: hookshim's own common/, config/ and engine/, built -j2
mkdir -p "$T/csrc"
cp -r common config engine supervisor "$T/csrc/"
cat > "$T/csrc/Makefile" <<'M'
OBJ := $(patsubst %.c,o/%.o,$(wildcard common/*.c config/*.c engine/*.c))
all: $(OBJ)
o/%.o: %.c
	@mkdir -p $(@D)
	@$(CC) -D_GNU_SOURCE -I. -std=gnu11 -O1 -c $< -o $@
M
BB=$(command -v busybox || true)
[ -n "$BB" ] && ! file -L "$BB" | grep -q 'statically linked' && BB=

# the interpreter itself: a version manager's python3 (pyenv's) is a
# shell script that runs some 30 processes before python starts, which
# is no part of python writing files
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3
declare -A work
work[exec]="for i in \$(seq 500); do /bin/true; done"
work[cbuild]="make -s -C $T/csrc -j2 && rm -rf $T/csrc/o"
work[git]="rm -rf $T/g && git clone -q --no-hardlinks $TOP $T/g && cd $T/g && for i in \$(seq 50); do echo \$i >> f; git add f; git commit -qm c\$i; done && git log -p -60 > /dev/null"
work[python]="rm -rf $T/py && mkdir $T/py && $PY -c \"
for i in range(2000):
    open('$T/py/f%d' % i, 'w').write('x' * 100)\""
work[gnutar]="rm -rf $T/x && mkdir $T/x && tar xf $T/tree.tar -C $T/x && rm -r $T/x"
[ -n "$BB" ] && work[bbtar]="rm -rf $T/x && mkdir $T/x && cd $T/x && $BB tar xf $T/tree.tar && cd / && $BB rm -r $T/x"
order="exec cbuild git python gnutar"
[ -n "$BB" ] && order="$order bbtar"
# a Go build: gofmt with every package it needs compiled afresh (-a; a
# build cache of its own, emptied each run). The go command, the
# compiler and the linker make their syscalls themselves, not through
# libc (compile and link are static): the floor sees all of their work
if command -v go >/dev/null 2>&1; then
	work[gobuild]="rm -rf $T/gocache && GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS= GOPROXY=off go build -a -o $T/gofmt cmd/gofmt"
	order="$order gobuild"
fi
# npm ci from the offline cache, when a small project can be cached here
npm_project "$T/npm" &&
	{ work[npm]="cd $T/npm && rm -rf node_modules && npm ci --offline --silent --no-audit --no-fund"; order="$order npm"; }

# ONLY="gnutar bbtar": a subset
[ -n "${ONLY:-}" ] && order=$ONLY


# one MODE WORKLOAD: "wall cpu"; a run that fails is said (a failed
# workload would measure nothing)
one() {
	case $1 in
	plain) timed "modes bench: $1" bash -c "$2" ;;
	bare) timed "modes bench: $1" "$BARE" bash -c "$2" ;;
	*) timed "modes bench: $1" "$HS" run --$1 --no-notices -c "$T/policy.json" -- bash -c "$2" ;;
	esac
}
one_w() { one "$1" "${work[$w]}"; } # the workload of the loop below

modes="plain guard enforce"
if [ ! -x "$BARE" ]; then
	echo "modes bench: no bare column ($BARE not built: make bench builds it)"
elif ! bare_err=$("$BARE" true 2>&1); then
	echo "modes bench: no bare column ($bare_err)"
else
	modes="$modes bare"
fi
printf '%-8s %-7s %26s %26s\n' workload mode "wall s (ratio, range)" "cpu s (ratio, range)"
for w in $order; do
	declare -A wall=() cpu=()
	one plain "${work[$w]}" >/dev/null # warm caches
	# shellcheck disable=SC2086 # the modes, one word each
	interleave one_w $modes
	for m in $modes; do
		printf '%-8s %-7s %s\n' "$w" "$m" "$(cells "${wall[$m]}" "${cpu[$m]}" "${wall[plain]}" "${cpu[plain]}")"
	done
	unset wall cpu
done
