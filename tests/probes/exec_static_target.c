/* A static program: it cannot load the shim, so an exec of it is decided
 * in its dynamic parent. Prints its argv[1] and exits 0. */
#include <stdio.h>

int main(int argc, char **argv)
{
	printf("static target: %s\n", argc > 1 ? argv[1] : "");
	return 0;
}
