// Owns: one kernel call as a temp rule's formula sees it (RuleCall), the helpers the formula files
// share, and each formula file's table of (rule, formula): the formulas themselves live one file
// per kernel library family beside this header, as the libraries' data lives in libraries/.
// Not: which library implements an operator (library.h, libraries/), the pools and the peak
// (run_temp.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/kernels/library.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/pte/program_view.h"
#include "etmem/runtime/release.h"

namespace etmem::kernels::formulas {

// One kernel call as a rule's formula sees it: the call's arguments, the rule, the library whose
// kernel runs (and whose temp helper asks), the release and the target.
struct RuleCall {
  std::string_view op;  // "cadence::quantized_matmul.out"
  const pte::MethodView& m;
  std::span<const int32_t> args;
  TempRule rule;
  const KernelLibrary& lib;
  const runtime::RuntimeTraits& release;
  const abi::Abi& target;
};

// A formula fills `c` (requests, formula text, or why it asks nothing or is unknown).
using Formula = void (*)(const RuleCall&, CallTemp&);
struct RuleFormula {
  TempRule rule;
  Formula formula;
};

// Each file's rules (kNone, kUnknownSize and kOtherLibrary have no formula).
std::span<const RuleFormula> PortableFormulas();       // portable.cpp
std::span<const RuleFormula> CadenceFormulas();        // cadence.cpp
std::span<const RuleFormula> CadenceHifiConvFormulas();  // cadence_hifi_conv.cpp
std::span<const RuleFormula> CortexMFormulas();        // cortex_m.cpp

// The formula of `rule`, or nullptr.
Formula FormulaOf(TempRule rule);

// A request through the library's temp helper (the Cadence kernels' allocate_temp_memory): the
// helper's alignment (else the allocator's default) and the line it logs when the request fails.
// `check`: the condition the kernel checks on the pointer (empty: it goes on with NULL).
void HelperRequest(const RuleCall& r, CallTemp& c, uint64_t bytes, std::string check);

// Argument `arg` as a list of ints (an IntList of Int values), else nullopt.
std::optional<std::vector<int64_t>> IntListArg(const pte::MethodView& m, int32_t arg);

// An int the kernel passes as size_t: converted, wrapping, to the target's size_t width.
uint64_t AsSizeT(const abi::Abi& t, int64_t v);

// A product the kernel computes in an int32_t: wrapped to 32 bits, as the device does.
inline int32_t I32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// The call's size came from a vendor getsize the library models from another source than the
// release pins (KernelLibrary::getsize_source): the call says so.
void GetsizeAssumed(const RuleCall& r, CallTemp& c);

}  // namespace etmem::kernels::formulas
