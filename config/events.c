/* Event names: a dialect's own (its row's list) and the ones no dialect's
 * hooks can fire here. */
#include <string.h>

#include "loadkit.h"

/* Events dialects document that no outside observer can produce: the
 * model's turns, prompts, memory, approvals, compaction, messaging. One
 * list for every dialect: a file naming one loads with a notice instead of
 * an "unknown event". */
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

bool hs_event_catalog_only(const char *name)
{
	for (size_t i = 0; i < sizeof(catalog_only) / sizeof(catalog_only[0]);
	     i++)
		if (strcmp(catalog_only[i], name) == 0)
			return true;
	return false;
}

int hs_dialect_event(const struct hs_dialect_ops *ops, const char *name,
		     enum hs_kind *kind, unsigned *post_mask,
		     unsigned *event_ops)
{
	for (const struct hs_event_def *e = ops->events; e && e->name; e++) {
		if (strcmp(e->name, name) == 0) {
			*kind = e->kind;
			*post_mask = e->post_mask;
			*event_ops = e->ops;
			return 0;
		}
	}
	if (!hs_event_catalog_only(name))
		return -1;
	*kind = HS_KIND_NONE;
	*post_mask = 0;
	*event_ops = 0;
	return 0;
}
