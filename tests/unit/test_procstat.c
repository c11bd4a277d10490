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

/* fields 23 to 52: 26 startcode, 47 start_brk, 48 arg_start, 50
 * env_start */
#define IMAGE                                                              \
	" 1 2 3 93824992231424 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 " \
	"22 23 24 93824992260096 140737488347000 27 140737488347100 29 30\n"

extern char **environ;

int main(int argc, char **argv)
{
	struct hs_proc_stat st;
	char *env0 = environ[0];

	(void)argc;

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
	CHECK("the image's argument and environment addresses (48, 50)",
	      parse("42 (bash) S 7 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 987654"
		    IMAGE, &st) == 0 &&
		      st.start == 987654 && st.start_code == 93824992231424UL &&
		      st.start_brk == 93824992260096UL &&
		      st.arg_start == 140737488347000UL &&
		      st.env_start == 140737488347100UL);
	CHECK("a line that ends before them: read, the addresses 0",
	      parse("42 (bash) S 7 1 1" TAIL, &st) == 0 && st.arg_start == 0 &&
		      st.env_start == 0);
	CHECK("this process: its arguments and environment where the kernel "
	      "put them, its code below main",
	      hs_proc_stat((long)getpid(), &st) == 0 &&
		      st.arg_start == (unsigned long)argv[0] &&
		      st.env_start == (unsigned long)env0 && st.start_code &&
		      st.start_code <= (unsigned long)&main && st.start_brk);
	CHECK("a pid that does not exist", hs_proc_stat(0x3fffffff, &st) < 0);
	CHECK_DONE();
}
