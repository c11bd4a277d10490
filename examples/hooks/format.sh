#!/bin/sh
# PostToolUse(Write|Edit): strip trailing white space from text files the
# agent wrote — a stand-in for gofmt, ruff format or prettier.
f=$(jq -r '.tool_input.file_path // .tool_input.path // ""')
case "$f" in
*.txt|*.md|*.py|*.sh|*.c|*.h|*.js|*.ts|*.json)
	[ -f "$f" ] && grep -q '[[:space:]]$' "$f" && sed -i 's/[[:space:]]*$//' "$f" &&
		echo "formatted $f" >&2
	;;
esac
exit 0
