/* Owns: a minimal firmware (C++, as the runners are) for `etmem firmware`'s tests (tests/firmware/firmware_test.cpp): it declares
 * one runner's pools exactly as that runner's source does (names, sections, alignment
 * attributes; sizes from -DMETHOD_POOL_BYTES / -DTEMP_POOL_BYTES) and embeds a program through
 * model_pte.h, which the test writes the way the runner's build does. It is linked, never run.
 * Each runner also gets one function whose name only that runner's image has (the "markers" of
 * its profile's "image", src/etmem/runner/profiles/): the Arm runner's RunnerContext, Zephyr's z_cstart,
 * ESP-IDF's app_main. -DWITH_KERNEL_NAMES adds functions named as ExecuTorch's kernels and
 * runtime are, for the component table.
 *   RUNNER_ARM_BAREMETAL  examples/arm/executor_runner/arm_executor_runner.cpp, v0.7.0-v1.4.1
 *   RUNNER_ZEPHYR_HELLO   zephyr/samples/hello-executorch/src/arm_executor_runner.cpp, v1.4.1
 *   RUNNER_ESPRESSIF      examples/espressif/executor_runner/esp_executor_runner.cpp, v1.4.1
 *   RUNNER_ARDUINO        examples/arduino/examples/AddModel/AddModel.ino, v1.4.1
 *   RUNNER_PICO2          examples/raspberry_pi/pico2/main.cpp, v1.3.0-v1.4.1 (a static in main)
 */
#include <stddef.h>
#include <stdint.h>

#include "model_pte.h"

#ifndef METHOD_POOL_BYTES
#define METHOD_POOL_BYTES 32768
#endif
#ifndef TEMP_POOL_BYTES
#define TEMP_POOL_BYTES 2048
#endif

#if defined(RUNNER_ARM_BAREMETAL)
/* -DPOOLS_IN_BSS: the pools without section attributes (where most firmware puts them: .bss);
 * -DNO_RUNNER_MARKER: without the function only the Arm runner's image has. */
#if defined(POOLS_IN_BSS)
#define METHOD_SECTION
#define TEMP_SECTION
#else
#define METHOD_SECTION __attribute__((section("input_data_sec")))
#define TEMP_SECTION __attribute__((section(".bss.tensor_arena")))
#endif
const size_t method_allocation_pool_size = METHOD_POOL_BYTES;
unsigned char METHOD_SECTION __attribute__((aligned(16))) method_allocation_pool[METHOD_POOL_BYTES];
const size_t temp_allocation_pool_size = TEMP_POOL_BYTES;
/* TEMP_POOL_BYTES 0: an array of no elements (a defined object of st_size 0, a 0 B pool). */
unsigned char TEMP_SECTION __attribute__((aligned(16))) temp_allocation_pool[TEMP_POOL_BYTES];
#define METHOD_POOL method_allocation_pool
#define TEMP_POOL temp_allocation_pool
#if !defined(NO_RUNNER_MARKER)
struct RunnerContext {
  int status;
};
__attribute__((noinline)) void log_mem_status(RunnerContext& ctx) { ctx.status = 0; }
#define MARKER() \
  RunnerContext ctx{1}; \
  log_mem_status(ctx)
#endif
#elif defined(RUNNER_ZEPHYR_HELLO)
const size_t method_allocation_pool_size = METHOD_POOL_BYTES;
unsigned char __attribute__((aligned(16))) method_allocation_pool[METHOD_POOL_BYTES];
const size_t temp_allocation_pool_size = TEMP_POOL_BYTES;
unsigned char __attribute__((section(".bss.tensor_arena"), aligned(16)))
temp_allocation_pool[TEMP_POOL_BYTES];
#define METHOD_POOL method_allocation_pool
#define TEMP_POOL temp_allocation_pool
extern "C" __attribute__((noinline)) void z_cstart(void) {}
#define MARKER() z_cstart()
#elif defined(RUNNER_ESPRESSIF)
static const size_t method_allocation_pool_size = METHOD_POOL_BYTES;
static uint8_t __attribute__((aligned(16))) method_allocation_pool[METHOD_POOL_BYTES];
static const size_t temp_allocation_pool_size = TEMP_POOL_BYTES;
static uint8_t __attribute__((aligned(16))) temp_allocation_pool[TEMP_POOL_BYTES];
#define METHOD_POOL method_allocation_pool
#define TEMP_POOL temp_allocation_pool
extern "C" __attribute__((noinline)) void app_main(void) {}
#define MARKER() app_main()
#elif defined(RUNNER_ARDUINO)
alignas(16) static uint8_t method_pool[METHOD_POOL_BYTES];
#define METHOD_POOL method_pool
#elif !defined(RUNNER_PICO2)
#error "define one RUNNER_..."
#endif
#ifndef MARKER
#define MARKER() (void)0
#endif

volatile const void* etmem_test_keep[5];

#if defined(WITH_IDENTIFIER_STRING)
/* The runtime's own identifier check (Program::load compares the file identifier with "ET12"):
 * a string literal in read-only data, no symbol of its own. */
__attribute__((noinline)) int is_program(const char* header) {
  const char* id = "ET12";
  for (int i = 0; i < 4; ++i)
    if (header[4 + i] != id[i]) return 0;
  return 1;
}
#endif

#if defined(WITH_KERNEL_NAMES)
// Functions named as ExecuTorch's portable kernels are (mangled the same way: the kernel context
// first), so that `etmem firmware`'s component table has an operator's entry point (softmax_out,
// the kernel of aten::_softmax.out, which the builder's CNN calls), a helper in its namespace
// and a runtime function taking a flatbuffer type.
namespace executorch {
namespace runtime {
struct KernelRuntimeContext {
  int failure;
};
}  // namespace runtime
}  // namespace executorch
namespace executorch_flatbuffer {
struct ExecutionPlan {
  int values;
};
}  // namespace executorch_flatbuffer
namespace torch {
namespace executor {
namespace native {
namespace utils {
__attribute__((noinline)) int scale(int x) { return 3 * x + etmem_test_keep[3] != nullptr; }
}  // namespace utils
__attribute__((noinline)) int softmax_out(executorch::runtime::KernelRuntimeContext& ctx, int x) {
  return utils::scale(x) + ctx.failure;
}
}  // namespace native
}  // namespace executor
}  // namespace torch
namespace executorch {
namespace runtime {
__attribute__((noinline)) int init(executorch_flatbuffer::ExecutionPlan* plan) {
  return plan->values + 1;
}
}  // namespace runtime
}  // namespace executorch
#endif

int main(void) {
#if defined(RUNNER_PICO2)
  static uint8_t method_allocator_pool[METHOD_POOL_BYTES];
#define METHOD_POOL method_allocator_pool
#endif
  MARKER();
#if defined(WITH_KERNEL_NAMES)
  executorch::runtime::KernelRuntimeContext kernel_ctx{0};
  executorch_flatbuffer::ExecutionPlan plan{1};
  etmem_test_keep[3] = reinterpret_cast<const void*>(
      static_cast<uintptr_t>(torch::executor::native::softmax_out(kernel_ctx, 2) +
                             executorch::runtime::init(&plan)));
#endif
#if defined(WITH_IDENTIFIER_STRING)
  etmem_test_keep[4] = reinterpret_cast<const void*>(
      static_cast<uintptr_t>(is_program(reinterpret_cast<const char*>(model_pte))));
#endif
  etmem_test_keep[0] = model_pte;
  etmem_test_keep[1] = METHOD_POOL;
#ifdef TEMP_POOL
  etmem_test_keep[2] = TEMP_POOL;
#endif
  return 0;
}

extern "C" void _start(void) {
  main();
  for (;;) {
  }
}
