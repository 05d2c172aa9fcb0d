// Owns: ExecuTorch main at commit cff6f4dd32e630945b7188512c1f2b4f102b05ad (2026-08-22), a
// snapshot of the branch, not a release, as a delta on 1.4.1.
// Not: anything main changed that is not load-time allocation (listed below for the reader).
//
// From `git diff v1.4.1 cff6f4dd -- runtime/ schema/ backends/*/runtime` (read in the mirror):
// - runtime/executor/method.cpp, Method::resolve_operator (PR 20981, commit 47e536ded7, "Resolve
//   Operator fallback to method allocator if temp alloc fails"): the operator metadata (the
//   TensorMeta list and a dim-order array per tensor argument, R28/R29) still goes to the temp
//   allocator first, but now also falls back to the method allocator when the temp allocator's
//   size() is smaller than the instruction's worst case: n_args x sizeof(TensorMeta) plus
//   n_args x kTensorDimensionLimit (16, runtime/core/exec_aten/util/tensor_dimension_limit.h)
//   x sizeof(DimOrderType). size() is the allocator's capacity, not what is left, so the choice
//   is per instruction and depends only on the temp pool's size: the method pool then grows as
//   the temp pool shrinks. (The commit's title says "if temp alloc fails"; the code tests the
//   size before allocating, and a failed temp allocation is still MemoryAllocationFailed.)
// - backends/arm/runtime/EthosUBackend.cpp: ExecutionHandle (on the heap since 1.2, not from the
//   runtime allocator) now holds the VelaHandles read in init(); no method-allocator change.
//   The handles still point into the processed blob (the backend reads it in place). Reading
//   the payload in init() (VelaBinStream.cpp's vela_bin_read) refuses a block it does not know,
//   such as an old payload's scratch_data: load_method fails there (it failed in execute()
//   before).
// - backends/xnnpack/runtime/XNNCompiler.cpp (new node kinds), backends/vulkan (not modelled):
//   no change to what init() takes from the runtime allocator.
// - Not load-time allocation: copy_tensor_data refuses device memory (NotSupported, when inputs
//   are copied), profiler_init resets its state, tensor_parser_aten.cpp (ATen mode), build files.
// The schema (program.fbs, scalar_type.fbs) is unchanged since 1.4.1.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_main_20260822_cff6f4dd() {
  return {"main-20260822-cff6f4dd", "1.4.1", [](RuntimeTraits& t) {
            t.summary = "main, not a release (its version.txt already says 1.5.0): as 1.4.1; "
                        "operator metadata falls back to the "
                        "method allocator when the temp pool is smaller than its worst case";
            t.commit = "cff6f4dd32e630945b7188512c1f2b4f102b05ad";
            t.commit_date = "2026-08-22";
            t.operator_metadata_temp_fallback_dims = 16;  // kTensorDimensionLimit
            // examples/portable/executor_runner/executor_runner.cpp: temp_allocator_pool[1 MiB].
            t.portable_runner_temp_pool_bytes = 1024 * 1024;
            t.backends.at(t.ethosu_backend).init_reads_blocks = {
                "vela_bin_stream", "cmd_data", "weight_data", "scratch_size", "inputs", "outputs",
                "vela_end_stream"};
          }};
}

}  // namespace etmem::runtime
