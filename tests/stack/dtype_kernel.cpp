/* Owns: a kernel shaped as ExecuTorch's portable kernels are (no ExecuTorch code), for the
 * dtype pruning of tests/firmware/stack_test.cpp: an op function in torch::executor::native switches on
 * its tensor's dtype and calls a function template instantiated per dtype (body<float>,
 * body<int32_t> and body<long long>, the int64 one the deepest), as ET_SWITCH_*_TYPES does; the
 * int64 case also calls Less<long long>::operator<, a name whose brackets etmem cannot read for
 * dtypes; before the switch it reads its Scalar argument through utils::extract_scalar<long long>
 * or <double>, as the switch on a Scalar's type does. Without STACK_QEMU: a record "aten::convolution.out" for it, linked beside
 * fake_runtime.cpp for `etmem firmware`. With -DSTACK_QEMU: run_dtype(dtype, x) for
 * qemu_main.c's runs, calling fake_runtime.cpp's Method::execute (built -DSTACK_DTYPES, whose
 * registry-shaped table holds this kernel). */
#include <stdint.h>

#define NI __attribute__((noinline))

volatile int g_dtype; /* the ScalarType code of the call's tensors: 6 float, 4 int64, 3 int32 */
volatile int g_scalar; /* the ScalarType of its Scalar argument (run_dtype: 4, an Int value) */

namespace torch {
namespace executor {
namespace native {

template <typename CTYPE>
struct Less {
  NI bool operator<(const Less& other) const;
  CTYPE v;
};
template <typename CTYPE>
bool Less<CTYPE>::operator<(const Less& other) const {
  volatile CTYPE scratch[40];
  scratch[(int)v & 31] = other.v;
  return scratch[3] < v;
}

/* The per-dtype body: its frame grows with the element (int64's is the deepest). */
template <typename CTYPE>
NI int body(int x) {
  volatile CTYPE buf[sizeof(CTYPE) == 8 ? 100 : sizeof(CTYPE) == 4 && (CTYPE)0.5 == 0 ? 60 : 24];
  buf[x & 15] = (CTYPE)x;
  return (int)buf[3];
}

namespace utils {
/* Reads a Scalar into its own type: instantiated per Scalar type (int64, double), as
 * ET_SWITCH_SCALAR_OBJ_TYPES's cases do. */
template <typename CTYPE>
NI CTYPE extract_scalar(int x) {
  volatile CTYPE held[4];
  held[x & 3] = (CTYPE)x;
  return held[1];
}
}  // namespace utils

NI int fake_convolution_out(int x) {
  switch (g_scalar) { /* the Scalar argument's type: 4 int64 (an Int value), 7 double */
    case 4:
      x += (int)utils::extract_scalar<long long>(x);
      break;
    case 7:
      x += (int)utils::extract_scalar<double>(x);
      break;
    default:
      break;
  }
  switch (g_dtype) {
    case 6:
      return body<float>(x) + 1;
    case 3:
      return body<int32_t>(x) + 1;
    case 4: {
      const Less<long long> a{x}, b{x + 1};
      return body<long long>(x) + (a < b);
    }
    default:
      return 0;
  }
}

}  // namespace native
}  // namespace executor
}  // namespace torch

#if defined(STACK_QEMU)
/* fake_runtime.cpp (-DSTACK_DTYPES) records this kernel as aten::convolution.out, at index 1. */
namespace executorch {
namespace runtime {
class Method {
 public:
  NI int execute();
  int instruction = 0;
};
}  // namespace runtime
}  // namespace executorch

volatile int g_instruction = 1;
/* One kernel call with tensors of `dtype`, as Method::execute makes it. */
extern "C" NI int run_dtype(int dtype, int x) {
  g_dtype = dtype;
  g_scalar = 4;
  executorch::runtime::Method m;
  m.instruction = g_instruction | 1 | (x & 0);
  return m.execute() + 1;
}
#else
namespace executorch {
namespace runtime {
/* As 0.7.0 and later lay out struct Kernel: {name_, kernel_key_ (a const char*), op_}. */
struct Kernel {
  const char* name;
  const char* key;
  int (*op)(int);
};
extern const Kernel dtype_kernels[] = {
    {"aten::convolution.out", nullptr, torch::executor::native::fake_convolution_out}};
}  // namespace runtime
}  // namespace executorch
#endif
