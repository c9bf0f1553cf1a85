/* SPDX-License-Identifier: MIT */
/*
 * Compiled and linked by th_config_supported() with exactly one config's flags:
 * proves the compiler and linker accept them, nothing more. The legitimate
 * indirect call and the heap copy make LTO, CFI lowering and the sanitizer
 * runtimes take part in the link.
 */
#include <stdlib.h>
#include <string.h>

static int add_one(int x)
{
	return x + 1;
}

/* volatile: keeps the call indirect, so the CFI lowering has a site to check. */
static int (*volatile fn)(int) = add_one;

int main(int argc, char **argv)
{
	char *p = malloc(16);

	(void)argv;
	if (!p)
		return 1;
	memcpy(p, "0123456789abcde", 16);
	argc = fn(argc) + p[argc & 7];
	free(p);
	return argc == 0;
}
