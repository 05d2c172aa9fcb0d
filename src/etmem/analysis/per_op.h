// Owns: the per-operator table of a method (`etmem analyze --per-op`): one row per instruction in
// execution order (chain 0's first) with its kind, operator (or delegate), the library that
// provides it under the chosen --kernels, the planned bytes live across it (per memory id when the
// method has several), its temp-allocator request while running (kernels/run_temp.h; unknown
// stays unknown), the constant bytes it reads, and a slot for its kernel's stack (filled only
// from a linked image; absent here); the totals and how each is formed; sorting by a column.
// Not: the live ranges themselves (plan/lifetimes.h), the temp rules (kernels/), printing
// (report/per_op_render.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"

namespace etmem::report {

// The columns --sort takes. kIndex is execution order (the default); the others sort largest
// first, ties in execution order.
enum class PerOpColumn { kIndex, kLive, kTemp, kConstant, kStack };
// "index", "live", "temp", "constant", "stack"; an unknown name is an error listing them.
Result<PerOpColumn> ParsePerOpColumn(std::string_view name);
const char* PerOpColumnName(PerOpColumn c);

struct PerOpBytes {
  uint32_t memory_id = 0;
  uint64_t bytes = 0;
  bool operator==(const PerOpBytes&) const = default;
};

struct PerOpRow {
  size_t index = 0;  // into MethodView::instructions (global: chain 0's first)
  uint32_t chain = 0, chain_instruction = 0;  // the runtime's chain_idx:instr_idx
  pte::InstructionKind kind = pte::InstructionKind::kNone;
  // A kernel call: "aten::convolution.out"; a delegate call: "delegate 0 (XnnpackBackend)";
  // a move, jump or free: empty.
  std::string op;
  // A kernel call: the kernel library that registers the operator first under --kernels
  // ("portable"; "" when none does: load_method fails with OperatorMissing); a delegate call:
  // its backend id; otherwise empty.
  std::string library;
  // Planned storage live across it (an alias group counted once): the sum, and per memory id
  // (only when the method plans more than one buffer).
  uint64_t live_bytes = 0;
  std::vector<PerOpBytes> live_by_memory_id;
  // What it takes from the temp pool while it runs (the pool reset before it; padding from a
  // pool base at the report's pool_align included). temp_unknown non-empty: a lower bound, and
  // why the rest is unknown.
  uint64_t temp_bytes = 0;
  std::string temp_unknown;
  // Constant tensors among its arguments (tensor lists' items included), each counted once per
  // instruction: their data bytes (numel x element size) and how many.
  uint64_t constant_bytes = 0;
  uint32_t constants = 0;
  // Its kernel's worst-case stack, from a linked image's call graph; never set by analyze.
  std::optional<uint64_t> stack_bytes;
};

struct PerOpTotals {
  // The most planned storage live across any one instruction, where (the first), and per memory
  // id (each id's own peak, which may sit at another instruction).
  uint64_t peak_live_bytes = 0;
  std::optional<size_t> peak_live_instruction;
  std::vector<PerOpBytes> peak_live_by_memory_id;
  // The planned buffers as the program stores them (what analyze reports): at least the peak
  // live sum under a sound plan; more by alignment gaps and fragmentation.
  uint64_t planned_bytes = 0;
  std::vector<PerOpBytes> planned_by_memory_id;
  // The temp pool while running: the largest row when the release resets the temp allocator
  // after each instruction, else the rows' sum (= analyze's run-time temp peak); a lower bound
  // when temp_unknown_rows > 0.
  uint64_t temp_peak_bytes = 0;
  bool temp_summed = false;  // the release does not reset: the sum
  size_t temp_unknown_rows = 0;
  // Constants: the column's sum (a constant read by several instructions counted each time),
  // the distinct constants the instructions read counted once (by constant data index, or .ptd
  // key), and every constant tensor of the method counted once (those no instruction names, e.g.
  // read only inside a delegate, included).
  uint64_t constant_column_bytes = 0;
  uint64_t constant_bytes = 0;
  uint32_t constants = 0;
  uint64_t method_constant_bytes = 0;
  uint32_t method_constants = 0;
  // The largest row's stack_bytes, once FillPerOpStack has set some; unset: not computed.
  std::optional<uint64_t> stack_bytes;
  std::string stack_source;  // where the rows' stack figures come from
};

struct PerOpTable {
  std::string method;
  std::vector<PerOpRow> rows;  // execution order unless sorted
  PerOpTotals totals;
  PerOpColumn sorted_by = PerOpColumn::kIndex;
  std::optional<std::string> refusal;  // the release refuses the method ("Error: reason"): no rows
  std::vector<std::string> notes;      // what the figures assume
};

// The table of one analysed method. `release` is the report's release (the libraries resolved
// there). O(n + t) in instructions and tensors: a sweep over live-range ends, no per-instruction
// scan of the tensors.
Result<PerOpTable> BuildPerOp(const Report& report, const MethodReport& method,
                              const runtime::RuntimeTraits& release);
// Every method of the report, in its order.
Result<std::vector<PerOpTable>> BuildPerOp(const Report& report);

// The stack column from a linked image (the stack stage): each row's kernel's worst-case stack as
// `stack_of` gives it (unset: not known for that row), the total the largest, and where they come
// from. Analyze never calls it: without an image the column stays empty.
template <typename StackOf>
void FillPerOpStack(PerOpTable& table, StackOf&& stack_of, std::string source) {
  table.totals.stack_bytes.reset();
  for (PerOpRow& r : table.rows) {
    r.stack_bytes = stack_of(r);
    if (r.stack_bytes && (!table.totals.stack_bytes || *r.stack_bytes > *table.totals.stack_bytes))
      table.totals.stack_bytes = r.stack_bytes;
  }
  table.totals.stack_source = std::move(source);
}

// Stable: ties keep their current order.
void SortPerOp(PerOpTable& table, PerOpColumn column);

// "kernel call", "delegate call", "jump", "move", "free" ("none" for an empty instruction).
const char* PerOpKindName(pte::InstructionKind kind);

}  // namespace etmem::report
