/* A static program's connects for tests/integration/network.sh, from the
 * ways a caller could hide one from the floor:
 *   net_static_connect PORT plain      connect 127.0.0.1:PORT from main
 *   net_static_connect PORT leaderless connect from a second thread after
 *                                      the main thread has exited (its
 *                                      /proc/TGID entries are gone)
 * Prints "connect=0" or "connect=ERRNO". */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int port;

static void *one(void *arg)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((unsigned short)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), r;

	(void)arg;
	if (arg) /* leaderless: let main be gone first */
		usleep(200000);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	printf("connect=%d\n", r == 0 ? 0 : errno);
	fflush(stdout);
	if (arg)
		exit(0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3)
		return 2;
	port = atoi(argv[1]);
	if (strcmp(argv[2], "plain") == 0) {
		one(NULL);
		return 0;
	}
	pthread_create(&t, NULL, one, (void *)1);
	pthread_exit(NULL);
}
