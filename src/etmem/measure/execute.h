// Owns: `etmem measure --execute`: running one method once on the user's ExecuTorch tree with
// the tree's REAL kernels (the portable kernels of kernels/portable, the prim ops of
// kernels/prim_ops), its inputs filled, and a recording temp allocator (or, with no temp
// allocator at a release that falls back to PlatformMemoryAllocator, a recording et_pal_allocate),
// then holding the run-time temp trace to etmem's prediction (kernels/run_temp.h) call for call:
// which kernel sources to compile, the boxing wrappers generated in the work directory (kernel
// registration that ExecuTorch generates with torchgen, which a source tree does not hold), the
// harness run, reading its trace, and the comparison as a structured value (ExecutionRun).
// Not: building the runtime (build.h), the load-time comparison (the measure verb), the model
// of run-time temp (kernels/run_temp.h), the text (report/measure_text.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/measure/build.h"
#include "etmem/pte/program_view.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"

namespace etmem::measure {

// One operator's real kernel, as found in the tree.
struct RealKernel {
  std::string op;          // "aten::topk.values"
  std::string function;    // "::torch::executor::native::topk_values" ("" for a prim op)
  std::string source;      // the defining file, relative to the tree
  std::string declaration; // the C++ declaration generated for it
  bool prim = false;       // registered by kernels/prim_ops (self-registering)
};

struct KernelSet {
  std::vector<RealKernel> kernels;
  std::vector<std::string> sources;  // every .cpp to compile besides runtime/, tree-relative
  std::string registration;          // the generated C++ (boxing wrappers, etmem_real_kernels)
};

// The real kernels of `ops` ("aten::topk.values", "executorch_prim::et_view.default", ...) in the
// tree: the prim ops from kernels/prim_ops/register_prim_ops.cpp, every other aten operator from
// kernels/portable/functions.yaml (its kernel_name) and the definition of that function in
// kernels/portable/cpu/, with the kernels/ sources their includes need. Fails with one line naming
// the operator: not in the tree's portable kernels, its definition not found, or an argument or
// return type the generated wrapper does not support (naming the type).
Result<KernelSet> FindRealKernels(const Tree& tree, const std::vector<std::string>& ops);

// The parts of FindRealKernels that read the tree's text (also the fuzz target's entry points):
// functions.yaml's operator -> kernel_name entries ("topk.values" ->
// "torch::executor::topk_values"), and the declaration generated for `function`
// (unqualified, in torch::executor::native) from a source's text: nullopt when the text does not
// define it, else the declaration or one line naming `op` and the type not supported.
std::map<std::string, std::string> PortableKernelNames(const std::string& yaml);
Result<std::optional<std::string>> KernelDeclaration(const std::string& op,
                                                     const std::string& function,
                                                     const std::string& source_text,
                                                     const std::string& source_path);

// What the harness printed while the method executed.
struct ExecutedCall {
  std::string what;   // "aten::topk.values", "delegate ID"
  struct Alloc {
    uint64_t size = 0, align = 0;
    std::optional<uint64_t> offset;  // nullopt: the allocator returned NULL
  };
  std::vector<Alloc> temp;
  std::vector<std::pair<uint64_t, bool>> heap;  // et_pal_allocate(size), whether it gave memory
  uint64_t pool_bytes = 0;  // the highest end offset of its temp allocations
};
struct ExecutionTrace {
  bool ran = false;                      // the harness reached Method::execute
  std::optional<int> error;              // Method::execute's Error
  std::vector<ExecutedCall> calls;       // in execution order
  std::vector<std::string> error_lines;  // the runtime's E lines while executing (message only)
  std::vector<std::string> notes;        // inputs filled, outputs given, allocations outside calls
  size_t resets = 0;
};
ExecutionTrace ReadExecution(const std::string& harness_output);

// One executed call beside etmem's prediction for its instruction (a row of the comparison).
struct ExecutionRow {
  std::optional<size_t> instruction;  // nullopt: a call executed beyond the method's calls
  ExecutedCall measured;
  std::optional<kernels::CallTemp> predicted;  // nullopt: etmem predicts nothing there
  bool match = false;
};

// A peak held to etmem's: the heap's (no temp allocator) or the run-time temp pool's, with the
// instruction that sets it (the temp pool's only).
struct ExecutionPeak {
  uint64_t measured = 0, etmem = 0;
  std::optional<size_t> measured_instruction, etmem_instruction;
  bool match = false;
};

// The instruction that fails (measured and predicted) and the lines the runtime logged beside
// the lines etmem predicts: etmem predicts the lines up to Method's "KernelCall failed"; the
// runtime then lists the call's arguments ("arg N with type id T"), shown, not compared.
struct ExecutionFailure {
  std::optional<size_t> measured_instruction, etmem_instruction;
  bool same_instruction = false;
  std::vector<std::string> logged;     // the runtime's lines
  std::vector<std::string> predicted;  // etmem's
  size_t extra_args = 0;               // 'arg N' lines after etmem's (when log_match)
  bool log_match = false;              // etmem's lines first, then only 'arg N' lines
};

// The trace of one method beside etmem's prediction for the same temp allocator (or heap,
// `heap_mode`): the verdicts, per call that asks (or that etmem says asks) the requests, the pool
// bytes (or the heap bytes) and whether they match, the peak and the failure.
struct ExecutionComparison {
  bool ran = false;  // false: the method did not execute (the load failed), nothing compared
  std::string measured_verdict;  // Method::execute's Error ("Ok", ...) or "crashed"
  std::string etmem_verdict;     // "Ok" or "MemoryAllocationFailed"
  size_t calls_executed = 0, call_sites = 0;
  bool straight = true;     // no JumpFalseCall: calls match instructions in order
  bool heap_mode = false;   // no temp allocator: the kernels ask et_pal_allocate
  std::vector<ExecutionRow> rows;  // those that ask or are predicted to, or differ
  std::optional<ExecutionPeak> peak;  // heap: unless no_heap; temp: when nothing fails
  std::optional<ExecutionFailure> failure;  // when either fails
  bool match = false;  // everything matches
};

// Holds the trace of `method` to etmem's prediction for the same temp allocator (or heap,
// `predicted.platform_fallback`; `no_heap`: et_pal_allocate returned NULL).
ExecutionComparison CompareExecution(const pte::MethodView& method, const ExecutionTrace& trace,
                                     const kernels::RunTemp& predicted, bool no_heap);

// One method executed: etmem's prediction in one line, the harness's notes and the comparison.
struct MethodExecution {
  std::string name;
  std::string predicted;            // kernels::RunTemp::Describe()
  std::vector<std::string> notes;   // inputs filled, outputs given, allocations outside calls
  std::optional<int> crash_signal;  // the harness crashed
  ExecutionComparison comparison;
  bool matches() const { return comparison.match; }
};

// `etmem measure --execute`: the real kernels found, how they were built and the temp allocator
// (or heap) the methods ran with, and each method executed.
struct ExecutionRun {
  std::vector<RealKernel> kernels;
  size_t sources = 0;             // kernel sources compiled
  std::string registration;       // the generated registration's path
  bool temp_allocator = true;
  uint64_t temp_pool_bytes = 0;   // with a temp allocator
  bool no_heap = false;           // et_pal_allocate returned NULL while executing
  std::vector<MethodExecution> methods;
  int exit_code() const {
    for (const MethodExecution& m : methods)
      if (!m.matches()) return 1;
    return 0;
  }
};

struct ExecuteOptions {
  Tree tree;
  BuildOptions build;                  // compiler, work directory, jobs, version
  std::string program_path;            // absolute
  const pte::ProgramView* program = nullptr;
  std::vector<std::string> methods;
  const runtime::RuntimeTraits* release = nullptr;
  const abi::Abi* target = nullptr;
  std::vector<std::string> kernels;    // --kernels (only portable executes here)
  bool temp_allocator = true;
  uint64_t temp_pool_bytes = 1 << 20;  // with a temp allocator
  bool temp_pool_given = false;        // --temp-pool: the model checks the pool
  bool no_heap = false;                // et_pal_allocate returns NULL while executing
  uint64_t method_pool_bytes = 64ull << 20;
  uint32_t pool_align = 16;
  std::string backend_steps;           // "backend ID BYTES ALIGN" lines (the stubs)
};

// Builds the execute harness (the runtime's objects are shared with the load harness in the
// same work directory) and runs every method once beside etmem's prediction. `run` is set once
// the harness is built and holds every method executed so far, also when a later one fails: an
// error (one line) for a tree whose kernels cannot be found or built, or a method that cannot run.
Status MeasureExecution(const ExecuteOptions& options, std::optional<ExecutionRun>& run);

// The same for the measure verb: the release, target, kernels, temp allocator and temp pool of
// `analysed` (its report of the first method: a temp allocator when its assumptions say so, of
// the run-time temp pool's size, else the load's, else 1 MiB).
Status MeasureExecution(const Tree& tree, const BuildOptions& build,
                        const std::string& program_path, const pte::ProgramView& program,
                        const std::vector<std::string>& methods, const report::Report& analysed,
                        bool no_heap, uint64_t method_pool_bytes, const std::string& backend_steps,
                        std::optional<ExecutionRun>& run);

}  // namespace etmem::measure
