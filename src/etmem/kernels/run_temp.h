// Owns: what the temp allocator gives out while a method runs: for every kernel call and
// delegate call, the requests its kernel (or backend) makes (bytes, alignment) for the chosen
// kernel libraries and release, the pool bytes each instruction takes (the runtime resets the
// temp allocator after every instruction), the peak and the instruction that sets it; a temp
// pool checked against every instruction, with the lines the runtime and the kernel log when one
// does not fit; and, with no temp allocator at a release that falls back to
// PlatformMemoryAllocator, the heap bytes asked of et_pal_allocate.
// Not: the load-time temp allocations (runtime/load_plan.h), which library implements what
// (library.h and libraries/), each rule's formula (formulas/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"
#include "etmem/runtime/release.h"

namespace etmem::kernels {

struct TempRequest {
  uint64_t bytes = 0;
  uint32_t alignment = 0;
  // The condition the kernel checks (ET_KERNEL_CHECK) when the request fails, e.g.
  // "temp_mem_allocated": the call then fails with MemoryAllocationFailed. Empty: the kernel does
  // not check and goes on with a null pointer.
  std::string check;
  // Non-empty: the kernel ET_CHECKs the pointer instead (ET_CHECK_MSG, or Result::get's
  // ET_CHECK): the Fatal line it logs when the request fails, after which the runtime aborts
  // (et_pal_abort).
  std::string abort;
  // The line the kernel itself logs when this request fails (after the runtime's), and whether it
  // then fails the call (context.fail) without a check line.
  std::string kernel_log;
  bool fails_call = false;
  // Unchecked (check and abort empty): what follows the kernel going on with NULL, when the code
  // it hands the pointer to says (an NNLib kernel that rejects a NULL scratch); empty: undefined.
  std::string unchecked_then;
};

// A buffer a kernel takes from the C library's malloc while running, not from the temp allocator
// (0.5.0's Cadence kernels): its bytes as passed to malloc (the C library's own headers and
// rounding not counted), and whether the kernel frees it before returning.
struct MallocRequest {
  uint64_t bytes = 0;
  bool freed = true;
};

// One call that asks for temp memory, or whose asking is unknown.
struct CallTemp {
  size_t instruction = 0;  // index into the method's instructions
  uint32_t chain = 0;      // the runtime's chain_idx:instr_idx for the same instruction
  uint32_t chain_instruction = 0;
  std::string what;        // "aten::topk.values" or "delegate 0 (EthosUBackend)"
  std::string library;     // the library that answered ("portable", "ethos_u")
  bool delegate = false;
  std::vector<TempRequest> requests;
  std::vector<MallocRequest> mallocs;  // what it takes from malloc (none with the temp allocator)
  uint64_t pool_bytes = 0;  // what it takes from a temp pool reset before it (padding included)
  uint64_t heap_bytes = 0;  // no temp allocator, PlatformMemoryAllocator: bytes from et_pal_allocate
  std::vector<std::string> failure_log;  // what the library's temp helper logs when one fails
  std::string formula;      // how the bytes follow from the call's arguments
  bool upper_bound = false; // a dynamic-shaped argument: the stored sizes are its upper bound
  std::string unknown;      // non-empty: the requests are unknown, and why
  // A kernel call whose operator none of the chosen libraries registers (nor the prim ops, nor a
  // library of its namespace): the modelled libraries that do register it at this release
  // (empty: none does), and, when one does, the line Method::init logs when it resolves the
  // operator with only the chosen libraries registered ("Missing operator: [3]
  // aten::convolution.out"): load_method then fails with OperatorMissing (0x14).
  std::vector<std::string> registered_by;
  std::string missing_log;
  std::string fails;        // non-empty: the call fails while running whatever the pool, and why
  // Non-empty: what the sizes assume that the release does not pin (a vendor getsize modelled from
  // another source), and the same in a few words; RunTemp::assumptions says it once.
  std::string assumed, assumed_brief;
};

// One backend the method delegates to: what of its memory etmem models while the method runs,
// and what it takes outside every ExecuTorch pool (kernels/library.h, OutsidePools).
struct DelegateUse {
  std::string backend;    // "XnnpackBackend"
  size_t delegates = 0;   // the method's delegates of it (one init() each)
  size_t calls = 0;       // its delegate calls
  std::string library;    // the library that models it ("ethos_u", "backends"); empty: none
  std::string temp;       // its temp allocator use while running, in words
  bool temp_modelled = false;
  std::string outside;    // what it takes outside every pool, in words ("" = nothing)
  std::string outside_brief;  // the same in a few words
  std::optional<uint64_t> outside_bytes;  // its delegates' heap bytes together, where computed
  bool outside_unknown = false;           // something is outside, of a size not modelled
};

struct TempPoolCheck {
  uint64_t pool_bytes = 0;
  bool fits = true;
  std::optional<size_t> failing_call;  // into RunTemp::calls: the first instruction that fails
  std::vector<std::string> log;        // what the runtime and the kernel log, in order
  // Non-empty when the failing kernel does not stop: what happens next (it goes on with a null
  // pointer), since no line says so.
  std::string then;
};

struct RunTemp {
  std::vector<std::string> libraries;  // the libraries asked for aten operators, in order
  std::vector<CallTemp> calls;         // calls that ask (or may ask) for temp memory, in order
  size_t kernel_calls = 0, delegate_calls = 0;
  bool reset_each_instruction = false;
  uint64_t peak_bytes = 0;             // the largest instruction (or the sum without resets)
  std::optional<size_t> peak_call;     // into calls
  size_t unknown_calls = 0;            // calls whose requests are unknown: peak is a lower bound
  bool upper_bound = false;            // some call's sizes are a dynamic shape's upper bound
  bool platform_fallback = false;      // no temp allocator: PlatformMemoryAllocator (heap)
  bool no_temp_allocator = false;      // no temp allocator and no fallback: requests fail
  uint64_t heap_peak_bytes = 0;        // platform_fallback: the most the heap holds at once
  // platform_fallback on a firmware without a heap (et_pal_allocate returns NULL): the first
  // call that asks fails, and these are the lines logged.
  std::optional<size_t> no_heap_failing_call;  // into calls
  std::vector<std::string> no_heap_log;
  std::string no_heap_then;  // as TempPoolCheck::then
  std::optional<TempPoolCheck> check;  // with a temp pool size
  // The kernels' own malloc (the C heap, whatever temp allocator is passed): the most one run of
  // the method holds at once (the buffers never freed included, as malloc gives them), the call
  // that sets it, and the bytes never freed: the heap grows by that much every run, until malloc
  // returns NULL, which no kernel checks.
  uint64_t malloc_peak_bytes = 0;
  std::optional<size_t> malloc_peak_call;  // into calls
  uint64_t malloc_leaked_bytes = 0;
  // What the figures assumed that the target or the release does not say (the core's extensions
  // for the Cortex-M backend's CMSIS-NN scratch; the source of the Cadence HiFi NNLib's getsize
  // where the release pins an unpublished one); empty when nothing was.
  std::vector<std::string> assumptions;
  std::string assumed_brief;  // the same in a few words, for the one-line Describe
  // Calls that fail while running whatever the temp pool ("instruction 2 delegate 0
  // (EthosUBackend): ..."): the method loads but does not run to the end.
  std::vector<std::string> run_failures;
  std::vector<DelegateUse> delegate_uses;  // one per backend the method delegates to
  // Kernel calls whose operator the chosen libraries lack but another modelled library
  // registers (CallTemp::missing_log): with only the chosen libraries, load_method fails at the
  // first (Method::init resolves every operator before the method can run).
  size_t missing_operator_calls = 0;
  std::optional<size_t> first_missing_call;  // into calls
  bool known() const { return unknown_calls == 0; }
  // One line: "0 B: none of these kernels ...", "96 B at instruction 3 (aten::topk.values, ...)".
  std::string Describe() const;
  // With delegates, in a few words: per backend, whether its temp use is modelled and what lies
  // outside every pool ("XnnpackBackend x1: temp use modelled; outside every pool: XNNPACK's own
  // heap (unknown)"); empty without. RunTempDetail says each in full.
  std::string DescribeDelegates() const;
  // With first_missing_call: "with only optimized registered, load_method fails: ..."; else
  // empty.
  std::string DescribeMissing() const;
  // With malloc_peak_call: "the kernels also malloc N B from the C heap at most at once, ...";
  // else empty.
  std::string DescribeMalloc() const;
};

// The temp pool sizes at which ExecuTorch's failure line would read "<requested>B requested
// (adjusted for alignment), <available>B available" for one of `t`'s requests while running: for
// each request whose padding plus size (at a pool base aligned to `pool_align`) is `requested`,
// what the instruction used before it plus `available`. Ascending, without repeats.
std::vector<uint64_t> TempPoolsLoggingFailure(const RunTemp& t, uint64_t requested,
                                              uint64_t available, uint32_t pool_align);

struct RunTempOptions {
  std::vector<std::string> kernels;       // --kernels; empty: portable
  uint32_t pool_align = 8;                // the temp pool's base alignment
  bool temp_allocator = true;             // the runner passes a temp allocator
  std::optional<uint64_t> temp_pool_bytes;  // check this pool against every instruction
};

// The library that provides each of the method's operators (by operator index) with the chosen
// libraries (--kernels; empty: portable): the first chosen library that registers it, then the
// prim ops, then (a custom namespace) the library serving that namespace, as ComputeRunTemp
// resolves them; "" when none of them does (load_method then fails with OperatorMissing).
Result<std::vector<std::string>> OperatorLibraries(const pte::MethodView& method,
                                                   const runtime::RuntimeTraits& release,
                                                   const std::vector<std::string>& kernels);

Result<RunTemp> ComputeRunTemp(const pte::ProgramView& program, const pte::MethodView& method,
                               const runtime::RuntimeTraits& release, const abi::Abi& target,
                               const RunTempOptions& options);

}  // namespace etmem::kernels
