/* Owns: the start-up code that runs tests/stack/chains.c (or, with -DSTACK_DTYPES,
 * tests/stack/dtype_kernel.cpp's kernel call with float32, int32 and int64 tensors) under QEMU
 * (machine mps2-an386, a Cortex-M4) for tests/stack_test.cpp: a vector table, then for each
 * entry function it paints the stack below the current sp, calls the entry, finds the deepest
 * word written and prints "<name> <bytes>" through Arm semihosting (SYS_WRITE0), then exits
 * (SYS_EXIT). */
#include <stdint.h>

#if defined(STACK_DTYPES)
int run_dtype(int, int);
#else
int top(int);
int tail(int);
int execute(int, int);
int mid(int);
#endif

extern uint32_t __stack_limit[];
extern uint32_t __stack_top[];

static int semihost(int op, const void* arg) {
  register int r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static void print(const char* s) { semihost(0x04, s); }

static void print_number(uint32_t v) {
  char buf[12];
  int i = 11;
  buf[i] = 0;
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v && i > 0);
  print(&buf[i]);
}

#define PAINT 0xC5C5C5C5u

/* Paints [__stack_limit, sp), calls fn(a, b), returns how far below sp the call wrote. No
 * variable of this function lives in memory below sp while it paints (-O2: registers). */
__attribute__((noinline)) static uint32_t measure(int (*volatile fn)(int, int), int a, int b) {
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (uint32_t* p = __stack_limit; p < sp; ++p) *(volatile uint32_t*)p = PAINT;
  fn(a, b);
  uint32_t* p = __stack_limit;
  while (p < sp && *(volatile uint32_t*)p == PAINT) ++p;
  return (uint32_t)((uintptr_t)sp - (uintptr_t)p);
}

#if !defined(STACK_DTYPES)
static int call_top(int a, int b) { (void)b; return top(a); }
static int call_tail(int a, int b) { (void)b; return tail(a); }
static int call_execute(int a, int b) { return execute(a, b); }
#endif

static void report(const char* name, int (*fn)(int, int), int a, int b) {
  print(name);
  print(" ");
  print_number(measure(fn, a, b));
  print("\n");
}

void reset_handler(void) {
#if defined(STACK_DTYPES)
  report("float32", run_dtype, 6, 5);
  report("int32", run_dtype, 3, 5);
  report("int64", run_dtype, 4, 5);
#else
  report("top", call_top, 5, 0);
  report("tail", call_tail, 5, 0);
  report("execute_small", call_execute, 0, 5);
  report("execute_big", call_execute, 1, 5);
#endif
  static const uint32_t exit_block[2] = {0x20026, 0};  /* ADP_Stopped_ApplicationExit */
  semihost(0x18, exit_block);
  for (;;) {
  }
}

__attribute__((section(".vectors"), used)) static const void* const vectors[2] = {
    __stack_top, (const void*)reset_handler};
