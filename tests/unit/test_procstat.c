/* common/wire.c's /proc/PID/stat parser: the command name may hold
 * spaces and ')', so fields count from the last ')'; a real process's
 * own entry agrees with what the kernel says elsewhere. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/wire.h"
#include "check.h"

/* The parse of `text` as if it were the file. */
static int parse(const char *text, struct hs_proc_stat *st)
{
	int p[2], r;

	if (pipe(p) < 0)
		return -2;
	if (write(p[1], text, strlen(text)) < 0)
		return -2;
	close(p[1]);
	r = hs_proc_stat_fd(p[0], st);
	close(p[0]);
	return r;
}

/* fields 7 to 21, then the start time (22), then more */
#define TAIL " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 987654 0 0\n"

int main(void)
{
	struct hs_proc_stat st;

	CHECK("a plain name", parse("42 (bash) S 7 1 1" TAIL, &st) == 0 &&
				      st.state == 'S' && st.ppid == 7 &&
				      st.start == 987654);
	CHECK("a name with spaces and ')' (the last one counts)",
	      parse("42 (a) b) R 9 (c) Z 1 1" TAIL, &st) == 0 &&
		      st.state == 'Z' && st.ppid == 1);
	CHECK("a zombie's state", parse("5 (x) Z 3 1 1" TAIL, &st) == 0 &&
					  st.state == 'Z' && st.ppid == 3);
	CHECK("cut before the start time: unreadable",
	      parse("42 (bash) S 7 1 1 0 0", &st) < 0);
	CHECK("no ')': unreadable", parse("42 bash S 7", &st) < 0);
	CHECK("empty: unreadable", parse("", &st) < 0);
	CHECK("a closed descriptor: unreadable", hs_proc_stat_fd(-1, &st) < 0);
	CHECK("this process: its parent is getppid()",
	      hs_proc_stat((long)getpid(), &st) == 0 &&
		      st.ppid == (long)getppid() && st.state == 'R' &&
		      st.start > 0);
	CHECK("a pid that does not exist", hs_proc_stat(0x3fffffff, &st) < 0);
	CHECK_DONE();
}
