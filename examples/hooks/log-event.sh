#!/bin/sh
# Any event: append one line to .hookshim/events.log in the project root.
mkdir -p "$CLAUDE_PROJECT_DIR/.hookshim"
jq -c '{time: (now|todate), event: .hook_event_name, tool: .tool_name,
	input: (.tool_input.command // .tool_input.file_path // null)}' \
	>> "$CLAUDE_PROJECT_DIR/.hookshim/events.log"
exit 0
