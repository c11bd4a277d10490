#!/bin/bash
# PreToolUse(Bash): refuse a recursive rm whose target lies outside the
# project root (or is the root itself).
set -u
input=$(cat)
cmd=$(jq -r '.tool_input.command // ""' <<<"$input")
cwd=$(jq -r '.cwd // ""' <<<"$input")
root=${CLAUDE_PROJECT_DIR:-$cwd}
[[ "$cmd" =~ (^|[;&|[:space:]])rm[[:space:]] ]] || exit 0
read -ra words <<<"${cmd#*rm }"
recursive=0 targets=()
for w in "${words[@]}"; do
	case "$w" in
	';'|'&&'|'||'|'|') break ;;
	--recursive|-*[rR]*) recursive=1 ;;
	-*) ;;
	*) targets+=("$w") ;;
	esac
done
[ "$recursive" = 1 ] || exit 0
for t in "${targets[@]}"; do
	t=${t%\"}; t=${t#\"}; t=${t%\'}; t=${t#\'}
	case "$t" in /*) abs=$t ;; "~"*) abs=$HOME${t#\~} ;; *) abs=$cwd/$t ;; esac
	abs=$(realpath -m -- "$abs")
	if [ "$abs" = "$root" ] || [[ "$abs" != "$root"/* ]]; then
		echo "rm -r outside the project root is blocked by policy: $t resolves to $abs (root: $root)" >&2
		exit 2
	fi
done
exit 0
