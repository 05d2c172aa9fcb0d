/* Owns: a small Cortex-M program with known call chains for the stack bound's tests
 * (tests/stack_test.cpp): a chain top -> mid -> leaf, a tail call, a recursive function, alloca,
 * and kernels called through a table of {name, function} records shaped like a kernel
 * registry. Built at -O0, -Os and -O2 with -fstack-usage; the test derives each bound from the
 * .su files GCC writes. Run under QEMU (mps2-an386) by stack_qemu.c's start-up code. */
#include <stdint.h>

#define NI __attribute__((noinline))

NI int leaf(int x) {
  volatile int a[10];
  a[x & 7] = x;
  return a[3];
}

NI int mid(int x) {
  volatile char b[100];
  b[x & 63] = (char)leaf(x);
  return b[5] + leaf(x + 1);
}

NI int top(int x) {
  volatile int c[30];
  c[x & 15] = mid(x);
  return c[2] + leaf(x);
}

NI int tail(int x) { return mid(x * 3); }

NI int rec(int x) {
  volatile int z[4];
  z[0] = x;
  return x > 0 ? rec(x - 1) + z[0] : 0;
}

NI void fill(char* p, int n) {
  for (int i = 0; i < n; ++i) p[i] = (char)i;
}

NI int dyn(int n) {
  char* p = __builtin_alloca(n);
  fill(p, n);
  return leaf(p[n - 1]);
}

typedef int (*kernel_fn)(int);
NI int kernel_small(int x) {
  volatile int q[8];
  q[x & 7] = x;
  return q[1];
}
NI int kernel_big(int x) {
  volatile int q[64];
  q[x & 63] = x;
  return q[1] + leaf(x);
}
struct kernel_record {
  const char* name;
  kernel_fn fn;
};
const struct kernel_record kernel_table[] = {{"test::small", kernel_small}, {"test::big", kernel_big}};

NI int execute(int i, int x) {
  volatile int r[2];
  r[0] = kernel_table[i & 1].fn(x);
  return r[0] + 1;
}

int run_all(int x) { return top(x) + tail(x) + rec(3) + dyn(16) + execute(0, x) + execute(1, x); }
