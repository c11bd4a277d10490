#!/bin/bash
# Write interception cost on real workloads, against plain runs:
#   1. extracting a tarball of 5,000 files, and `git checkout` back and
#      forth in a clone of this repository, with a Write hook narrowed to a
#      directory the workload never touches (goal <= 1.05x), and the
#      session's own start and end alone;
#   2. the same extraction with a hook matching 1% of the files: the cost
#      per matched write against a bare spawn of the hook command.
# Each measurement runs the whole loop inside one `hookshim run`.
# Usage: BUILD=build bench/write_bench.sh
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
# pair LOOP: "plain-wall hookshim-wall plain-cpu hookshim-cpu", medians of
# PAIRS runs interleaved so that drift in the machine's load hits both
# alike (wall time swings by 5-10% between runs of the same loop here; CPU
# time, user+sys of the whole process tree, somewhat less)
PAIRS=${PAIRS:-7}
median() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
	print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
pair() {
	local out TIMEFORMAT='%R %U %S' pw= hw= pc= hc=
	for _ in $(seq "$PAIRS"); do
		rm -rf "$T/x"; mkdir -p "$T/x"
		out=$( { time bash -c "$1" >/dev/null 2>&1; } 2>&1 )
		pw+="$(awk '{ print $1 }' <<<"$out") "; pc+="$(awk '{ print $2 + $3 }' <<<"$out") "
		rm -rf "$T/x"; mkdir -p "$T/x"
		out=$( { time under "$T/narrow.json" "$1" >/dev/null 2>&1; } 2>&1 )
		hw+="$(awk '{ print $1 }' <<<"$out") "; hc+="$(awk '{ print $2 + $3 }' <<<"$out") "
	done
	for v in "$pw" "$hw" "$pc" "$hc"; do tr ' ' '\n' <<<"$v" | grep . | median; done | tr '\n' ' '
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
# git checkout is quick (some 25 ms here): enough round trips that the
# session's own start (reported on its own below) does not dominate
GIT_REPS=${GIT_REPS:-20}
git_loop="cd $T/repo && for i in \$(seq $GIT_REPS); do git checkout -q $first 2>/dev/null; git checkout -q $head 2>/dev/null; done"

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

echo "write bench: $REPS x extract 5,000 files; $GIT_REPS x git checkout $first <-> HEAD"
# report LABEL LOOP
report() {
	local pw hw pc hc
	read -r pw hw pc hc <<<"$(pair "$2")"
	printf '%-28s wall %6.3fs -> %6.3fs %sx   cpu %6.3fs -> %6.3fs %sx\n' \
		"$1" "$pw" "$hw" "$(ratio "$hw" "$pw")" "$pc" "$hc" "$(ratio "$hc" "$pc")"
}
echo "(medians of $PAIRS interleaved runs, plain -> under hookshim; goal <= 1.05x)"
report "tar x, hook elsewhere:" "$untar_loop"
report "git checkout, hook elsewhere:" "$git_loop"
report "session start+end (true):" "true"

# 1%: d07 holds 50 of the 5,000 files (plus its directory)
one_loop="cd $T/x && mkdir one && cd one && tar xf $T/tree.tar"
n=$(best under "$T/narrow.json" "$one_loop"); o=$(best under "$T/one.json" "$one_loop")
spawn=$(best bash -c 'for i in $(seq 51); do sh -c "cat > /dev/null" </dev/null; done')
per=$(echo "($o - $n) / 51" | bc -l); bare=$(echo "$spawn / 51" | bc -l)
printf 'tar x, hook matching 1%% (51 writes): %.2f ms per matched write, bare spawn of the hook %.2f ms, ratio %s\n' \
	"$(echo "$per * 1000" | bc -l)" "$(echo "$bare * 1000" | bc -l)" "$(ratio "$per" "$bare")"

# Staged writes (docs/staged-writes.md): the same hook, "content": false
# (asked at open, the write goes to the file) against "content": true
# (staged: an O_TMPFILE, the content read by the supervisor, link+rename),
# on 100 matched writes of 64 KiB; and a content hook narrowed elsewhere
# against the narrow config above (a config whose content hooks match
# nothing costs what one without them does). Interleaved; medians with
# the range.
for c in false true; do
	cat > "$T/content-$c.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","content":$c,"if":"Write(x/st/**)","command":"cat > /dev/null"}]}]}}
J
done
cat > "$T/content-elsewhere.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","content":true,"if":"Write(never-touched/**)","command":"cat > /dev/null"}]}]}}
J
head -c 65536 /dev/urandom > "$T/blob"
st_loop="mkdir -p $T/x/st && for i in \$(seq 100); do cat $T/blob > $T/x/st/f\$i; done"
spread() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
	printf "%.3f [%.3f..%.3f]", (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2, v[1], v[NR] }'; }
tw() { local TIMEFORMAT='%R'; { time "$@" >/dev/null 2>&1; } 2>&1; }
a= b= e= n=
for _ in $(seq "$PAIRS"); do
	rm -rf "$T/x"; mkdir -p "$T/x"; a+="$(tw under "$T/content-false.json" "$st_loop") "
	rm -rf "$T/x"; mkdir -p "$T/x"; b+="$(tw under "$T/content-true.json" "$st_loop") "
	rm -rf "$T/x"; mkdir -p "$T/x"; n+="$(tw under "$T/narrow.json" "$untar_loop") "
	rm -rf "$T/x"; mkdir -p "$T/x"; e+="$(tw under "$T/content-elsewhere.json" "$untar_loop") "
done
ma=$(tr ' ' '\n' <<<"$a" | grep . | median); mb=$(tr ' ' '\n' <<<"$b" | grep . | median)
mn=$(tr ' ' '\n' <<<"$n" | grep . | median); me=$(tr ' ' '\n' <<<"$e" | grep . | median)
printf 'staged, 100 x 64 KiB matched writes: asked at open %ss, staged %ss (%sx); %.2f ms more per write\n' \
	"$(tr ' ' '\n' <<<"$a" | grep . | spread)" "$(tr ' ' '\n' <<<"$b" | grep . | spread)" \
	"$(ratio "$mb" "$ma")" "$(echo "($mb - $ma) * 10" | bc -l)"
printf 'tar x, content hook elsewhere vs hook elsewhere: %ss vs %ss (%sx)\n' \
	"$(tr ' ' '\n' <<<"$e" | grep . | spread)" "$(tr ' ' '\n' <<<"$n" | grep . | spread)" "$(ratio "$me" "$mn")"
