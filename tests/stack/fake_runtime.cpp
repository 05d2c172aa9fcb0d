/* Owns: functions named as ExecuTorch's entries are (executorch::runtime::Program::load,
 * Program::load_method, Method::execute; no ExecuTorch code) for `etmem firmware`'s stack
 * section in tests/firmware/stack_test.cpp: load_method calls a parser chain, execute calls kernels
 * through a table of {operator name, function} records shaped like the kernel registry. Linked
 * beside tests/firmware/runner_pools.cpp, never run; with -DSTACK_DTYPES the convolution's
 * record is tests/stack/dtype_kernel.cpp's kernel, run under QEMU. */
#include <stdint.h>

#define NI __attribute__((noinline))

#if defined(STACK_DTYPES)
namespace torch {
namespace executor {
namespace native {
int fake_convolution_out(int x);
}
}  // namespace executor
}  // namespace torch
#define CONVOLUTION_KERNEL torch::executor::native::fake_convolution_out
#else
#define CONVOLUTION_KERNEL op_conv
#endif

namespace executorch {
namespace runtime {

class DataLoader;

NI int parse_tensor(int x) {
  volatile int scratch[24];
  scratch[x & 15] = x;
  return scratch[3];
}
NI int init_method(int x) {
  volatile int values[40];
  values[x & 31] = parse_tensor(x);
  return values[1] + parse_tensor(x + 1);
}

class Program {
 public:
  NI static int load(DataLoader* loader, int verification);
  NI int load_method(const char* name) const;
  int state = 0;
};

int Program::load(DataLoader* loader, int verification) {
  volatile char header[64];
  header[verification & 63] = static_cast<char>(reinterpret_cast<uintptr_t>(loader));
  return header[7];
}

int Program::load_method(const char* name) const {
  volatile int meta[8];
  meta[0] = name[0];
  return init_method(meta[0] + state) + meta[1];  // not a tail call: load_method's frame stays
}

typedef int (*OpFunction)(int);
NI int op_add(int x) {  // deeper than op_conv, but the test's program calls no add
  volatile int q[200];
  q[x & 127] = x;
  return q[1];
}
NI int op_conv(int x) {
  volatile int q[100];
  q[x & 63] = x;
  return q[1] + parse_tensor(x);
}
/* As 0.7.0 and later lay out struct Kernel: {name_, kernel_key_ (a const char*), op_}. */
struct Kernel {
  const char* name;
  const char* key;
  OpFunction op;
};
extern const Kernel registered_kernels[] = {{"aten::add.out", nullptr, op_add},
                                            {"aten::convolution.out", nullptr, CONVOLUTION_KERNEL}};

class Method {
 public:
  NI int execute();
  int instruction = 0;
};

int Method::execute() {
  volatile int frame[6];
  frame[0] = registered_kernels[instruction & 1].op(instruction);
  return frame[0] + 1;
}

}  // namespace runtime
}  // namespace executorch

/* Keeps every entry in the image (the runner's main does not call these). */
extern "C" NI int etmem_test_run(executorch::runtime::DataLoader* loader) {
  executorch::runtime::Program p;
  executorch::runtime::Method m;
  return executorch::runtime::Program::load(loader, 1) + p.load_method("forward") + m.execute();
}
