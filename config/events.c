/* Every event name of every dialect, and what it means here. */
#include "load.h"

#include <string.h>
#include <strings.h>

struct event_def {
	const char *name;
	enum hs_kind kind;
	unsigned post_mask;
	unsigned ops;
};

#define POST_BOTH (HS_POST_SUCCESS | HS_POST_FAILURE)

/* Names are unique across dialects except where they mean the same thing,
 * so one table serves `hookshim test EVENT` in any spelling. */
static const struct event_def events[] = {
	/* Claude Code, mnemoai, memoh tool events */
	{ "PreToolUse", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "PostToolUse", HS_KIND_POST, HS_POST_SUCCESS, HS_OP_ANY },
	{ "PostToolUseFailure", HS_KIND_POST, HS_POST_FAILURE, HS_OP_ANY },
	{ "SessionStart", HS_KIND_SESSION_START, 0, 0 },
	{ "SessionEnd", HS_KIND_SESSION_END, 0, 0 },
	/* memcode */
	{ "pre_tool_use", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "post_tool_use", HS_KIND_POST, POST_BOTH, HS_OP_ANY },
	{ "session_start", HS_KIND_SESSION_START, 0, 0 },
	{ "session_end", HS_KIND_SESSION_END, 0, 0 },
	/* memoh, live here */
	{ "ToolError", HS_KIND_POST, HS_POST_FAILURE, HS_OP_ANY },
	{ "WorkspaceStart", HS_KIND_SESSION_START, 0, 0 },
	{ "WorkspaceStop", HS_KIND_SESSION_END, 0, 0 },
	{ "BeforeWorkspaceCommand", HS_KIND_PRE, 0, HS_OP_EXEC },
	{ "AfterWorkspaceCommand", HS_KIND_POST, POST_BOTH, HS_OP_EXEC },
	{ "BeforeFileWrite", HS_KIND_PRE, 0, HS_OP_WRITE },
	{ "AfterFileWrite", HS_KIND_POST, POST_BOTH, HS_OP_WRITE },
};

/* Events a dialect documents that no outside observer can produce: the
 * model's turns, prompts, memory, approvals, compaction, messaging. */
static const char *const catalog_only[] = {
	/* Claude Code */
	"UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
	"Notification", "PreCompact", "PostCompact", "PermissionRequest",
	"PermissionDenied", "StopFailure", "TaskCreated", "TaskCompleted",
	"TeammateIdle", "InstructionsLoaded", "ConfigChange", "CwdChanged",
	"FileChanged", "WorktreeCreate", "WorktreeRemove", "Elicitation",
	"ElicitationResult", "Setup",
	/* memoh */
	"UserMessageReceived", "BeforePromptBuild", "AfterPromptBuild",
	"BeforeModelCall", "AfterModelCall", "TurnEnd", "TurnError",
	"BeforeMemorySearch", "AfterMemorySearch", "BeforeMemoryWrite",
	"AfterMemoryWrite", "MemoryExtracted", "BeforeApprovalCreate",
	"ApprovalRequested", "ApprovalResolved", "ApprovalTimeout",
	"InboundMessageNormalized", "BeforeOutboundMessage",
	"AfterOutboundMessage", "ChannelDeliveryFailed",
};

int hs_event_parse(const char *name, enum hs_kind *kind, unsigned *post_mask,
		   unsigned *ops)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (strcmp(events[i].name, name) == 0) {
			*kind = events[i].kind;
			*post_mask = events[i].post_mask;
			*ops = events[i].ops;
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(catalog_only) / sizeof(catalog_only[0]);
	     i++) {
		if (strcmp(catalog_only[i], name) == 0) {
			*kind = HS_KIND_NONE;
			*post_mask = 0;
			*ops = 0;
			return 0;
		}
	}
	return -1;
}
