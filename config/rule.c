/* Claude Code's permission-rule syntax for a handler's "if": Tool(pattern),
 * or a bare Tool name. */
#include <stdlib.h>
#include <string.h>

#include "loadkit.h"

int hs_rule_parse(const char *text, struct hs_rule *rule)
{
	const char *open = strchr(text, '(');
	size_t n = strlen(text);

	memset(rule, 0, sizeof(*rule));
	while (n && text[n - 1] == ' ')
		n--;
	if (!open) {
		for (size_t i = 0; i < n; i++)
			if (!((text[i] >= 'a' && text[i] <= 'z') ||
			      (text[i] >= 'A' && text[i] <= 'Z') ||
			      (text[i] >= '0' && text[i] <= '9') ||
			      text[i] == '_'))
				return -1;
		if (!n)
			return -1;
		rule->tool = strndup(text, n);
		return rule->tool ? 0 : -1;
	}
	if (open == text || text[n - 1] != ')')
		return -1;
	rule->tool = strndup(text, (size_t)(open - text));
	rule->pattern = strndup(open + 1, (size_t)(text + n - 1 - (open + 1)));
	if (!rule->tool || !rule->pattern) {
		free(rule->tool);
		free(rule->pattern);
		return -1;
	}
	if (rule->pattern[0] == '\0' || strcmp(rule->pattern, "*") == 0) {
		free(rule->pattern);
		rule->pattern = NULL;
	}
	return 0;
}
