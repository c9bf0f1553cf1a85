/* SPDX-License-Identifier: MIT */
/*
 * Built twice into one program (tests/cfi.cmake, TH_DUP_SIDE a and b): two
 * static functions named th_dup_dispatch, the ambiguity the binary reader must
 * refuse; side a also has a switch compiled to a jump table (th_switch).
 */
#include <stdio.h>

typedef void th_dup_cb(int);

#define TH_CAT2(a, b) a##b
#define TH_CAT(a, b) TH_CAT2(a, b)

/* volatile: the calls stay indirect. */
static th_dup_cb *volatile th_dup_target;

__attribute__((noinline, used)) static void th_dup_dispatch(int x)
{
	th_dup_target(x);
}

void TH_CAT(th_dup_enter_, TH_DUP_SIDE)(th_dup_cb *cb, int x);
void TH_CAT(th_dup_enter_, TH_DUP_SIDE)(th_dup_cb *cb, int x)
{
	th_dup_target = cb;
	th_dup_dispatch(x);
}

#if TH_DUP_MAIN
void th_dup_enter_a(th_dup_cb *cb, int x);
int th_switch(int k);

static void say(int x)
{
	printf("%d\n", x);
}

int main(int argc, char **argv)
{
	(void)argv;
	th_dup_enter_a(say, argc);
	TH_CAT(th_dup_enter_, TH_DUP_SIDE)(say, argc);
	return th_switch(argc);
}
#else
/* Dense cases with distinct calls: clang emits a jump table. */
int th_switch(int k);
__attribute__((noinline)) int th_switch(int k)
{
	switch (k) {
	case 0: puts("zero"); break;
	case 1: puts("one"); break;
	case 2: putchar('2'); break;
	case 3: fputs("three", stderr); break;
	case 4: perror("four"); break;
	case 5: puts("five!"); return 5;
	case 6: fflush(stdout); break;
	default: return -1;
	}
	return k;
}
#endif
