#!/bin/sh
# PreToolUse(Bash): refuse force-pushes, whatever the model reasons itself into.
cmd=$(jq -r '.tool_input.command // ""')
if printf '%s' "$cmd" | grep -Eq 'push[^|;&]*( --force| -f\b| --force-with-lease|\+[^ ]+)'; then
	echo "force-push is blocked by policy: $cmd" >&2
	exit 2
fi
exit 0
