/* The agent's own reads as events (tool Read in Claude's dialect): an
 * open for reading, by an agent process (hs_st.reads), of an existing
 * regular file that a read hook's path filter names, under the root.
 *
 * Opt-in: hs_st.reads is set only when some pre hook names the read tool
 * (engine/match.c, hs_hook_names_read), so without one a read-only open
 * costs write.c one more flag test. Only agent processes: a tool call's
 * shell and everything it starts have role "tool" (shim/exec_decide.c),
 * and `cat .env` in a command is that command's Bash event, as in Claude
 * Code, whose Read hook fires for its Read tool only. A denied read fails
 * with the session's errno; the reason goes to stderr and to the
 * thread's next error message (reason.h). Pre only: no post event. */
#include "read_event.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "client.h"
#include "path.h"
#include "reason.h"
#include "state.h"
#include "write.h"
#include "write_scope.h"

/* Does an open of c->path fire a read event? Its absolute path in abs.
 * HS_PATH_TOOLONG: it has no name we can hold (path.h), so whether a read
 * hook would see it cannot be told. */
static int watched(int dirfd, const char *path, int flags, char *abs)
{
	struct stat sb;
	int r;

	if (flags & (O_PATH | O_DIRECTORY))
		return 0;
	if ((r = hs_path_abs(dirfd, path, hs_wopts()->follow, abs)) < 0)
		return r == HS_PATH_TOOLONG ? r : 0;
	return hs_rscope_match(abs) && stat(abs, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

int hs_rbegin(int dirfd, const char *path, int flags)
{
	int saved = errno;
	char abs[PATH_MAX], id[64];
	struct hs_reply rep;
	int fire;

	if (!path || !hs_st.reads)
		return 0;
	hs_guard_enter();
	fire = watched(dirfd, path, flags, abs);
	hs_guard_leave();
	errno = saved;
	if (!fire)
		return 0;
	/* unnamed: asked with the caller's text, to be logged, and denied
	 * whatever the answer (the supervisor's rule denies it too) */
	if (fire < 0) /* under PATH_MAX, or hs_path_abs would have said -1 */
		hs_copy(abs, path, hs_len(path) + 1);
	hs_make_id(id);
	hs_guard_enter();
	hs_ask(&(struct hs_msg){ .op = "read", .phase = "pre", .nested = -1,
				 .id = id, .path = abs,
				 .operation = fire < 0 ? HS_OPERATION_UNNAMED
						       : NULL },
	       &rep);
	hs_guard_leave();
	if (!rep.deny && fire > 0) {
		errno = saved;
		return 0;
	}
	if (!rep.deny) {
		static const char why[] = "hookshim: the path is PATH_MAX or "
					  "longer once joined to its directory";

		rep.deny_errno = ENAMETOOLONG;
		hs_copy(rep.reason, why, sizeof(why));
	}
	hs_say_denied("read of", abs, rep.reason);
	saved = rep.deny_errno ? rep.deny_errno : EACCES;
	hs_reason_set(saved, rep.reason);
	hs_pending_set("read of", abs, rep.reason);
	errno = saved;
	return -1;
}
