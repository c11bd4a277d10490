#!/bin/bash
# Write interception cost on real workloads, against plain runs:
#   1. extracting a tarball of 5,000 files, and `git checkout` back and
#      forth in a clone of this repository, with a Write hook narrowed to a
#      directory the workload never touches (goal <= 1.05x);
#   2. the same extraction with a hook matching 1% of the files: the cost
#      per matched write against a bare spawn of the hook command.
# Each measurement runs the whole loop inside one `hookshim run`, best of
# three. Usage: BUILD=build bench/write_bench.sh
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$TOP/$BUILD/lib/libhookshim.so
[ -x "$HS" ] && [ -f "$HOOKSHIM_LIB" ] || { echo "write bench: build first"; exit 1; }
# tmpfs when there is one: a disk-backed /tmp makes the kernel's share of
# the workload (and its noise) dwarf what is measured
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d $base/hookshim-wbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home; mkdir -p "$HOME"
REPS=${REPS:-5}

now() { date +%s.%N; }
# best CMD...: best of five wall times of CMD, in seconds
best() {
	local b=999999 t0 t1 d
	for _ in 1 2 3 4 5; do
		rm -rf "$T/x"; mkdir -p "$T/x"
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l)
		if (( $(echo "$d < $b" | bc -l) )); then b=$d; fi
	done
	echo "$b"
}
# pair LOOP: "plain hookshim" best times, runs interleaved so that drift
# in the machine's load hits both alike
pair() {
	local bp=999999 bh=999999 t0 t1 d
	for _ in 1 2 3 4 5; do
		rm -rf "$T/x"; mkdir -p "$T/x"
		t0=$(now); bash -c "$1" >/dev/null 2>&1; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l); (( $(echo "$d < $bp" | bc -l) )) && bp=$d
		rm -rf "$T/x"; mkdir -p "$T/x"
		t0=$(now); under "$T/narrow.json" "$1" >/dev/null 2>&1; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l); (( $(echo "$d < $bh" | bc -l) )) && bh=$d
	done
	echo "$bp $bh"
}
ratio() { printf '%.3f' "$(echo "$1 / $2" | bc -l)"; }

# --- the workloads -----------------------------------------------------------
mkdir -p "$T/src/tree"
for d in $(seq -w 0 99); do
	mkdir -p "$T/src/tree/d$d"
	for f in $(seq 1 50); do echo "file $d $f" > "$T/src/tree/d$d/f$f.txt"; done
done
(cd "$T/src" && tar cf "$T/tree.tar" tree)
git clone -q --no-hardlinks "$TOP" "$T/repo" 2>/dev/null
first=$(git -C "$T/repo" rev-list --max-parents=0 HEAD | tail -1)
head=$(git -C "$T/repo" rev-parse HEAD)
mkdir -p "$T/x"

# extraction into fresh directories; the removal is not timed
untar_loop="cd $T/x && for i in \$(seq $REPS); do mkdir \$i && cd \$i && tar xf $T/tree.tar && cd ..; done"
git_loop="cd $T/repo && for i in \$(seq $REPS); do git checkout -q $first 2>/dev/null; git checkout -q $head 2>/dev/null; done"

cat > "$T/narrow.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(never-touched/**)","command":"exit 2"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(never-touched/**)","command":"true"}]}]}}
J
cat > "$T/one.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(**/tree/d07/**)","command":"cat > /dev/null"}]}]}}
J
under() { # config, shell loop
	"$HS" run -c "$1" --root "$T" -- bash -c "$2"
}

echo "write bench: $REPS x extract 5,000 files; $REPS x git checkout $first <-> HEAD"
read -r p h <<<"$(pair "$untar_loop")"
echo "tar x, hook narrowed elsewhere:     plain ${p}s  hookshim ${h}s  ratio $(ratio "$h" "$p")  (goal <= 1.05)"
read -r p h <<<"$(pair "$git_loop")"
echo "git checkout, hook narrowed:        plain ${p}s  hookshim ${h}s  ratio $(ratio "$h" "$p")  (goal <= 1.05)"

# 1%: d07 holds 50 of the 5,000 files (plus its directory)
one_loop="cd $T/x && mkdir one && cd one && tar xf $T/tree.tar"
n=$(best under "$T/narrow.json" "$one_loop"); o=$(best under "$T/one.json" "$one_loop")
spawn=$(best bash -c 'for i in $(seq 51); do sh -c "cat > /dev/null" </dev/null; done')
per=$(echo "($o - $n) / 51" | bc -l); bare=$(echo "$spawn / 51" | bc -l)
printf 'tar x, hook matching 1%% (51 writes): %.2f ms per matched write, bare spawn of the hook %.2f ms, ratio %s\n' \
	"$(echo "$per * 1000" | bc -l)" "$(echo "$bare * 1000" | bc -l)" "$(ratio "$per" "$bare")"
