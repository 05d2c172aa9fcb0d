// Owns: BuildPerOp and SortPerOp: the per-operator table's rows and totals from a method's report
// (its run-time temp calls), its live ranges (one sweep over range ends) and its arguments.
#include "etmem/analysis/per_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/analysis/figures.h"

namespace etmem::report {
namespace {

constexpr const char* kPerOpColumnNames[] = {"index", "live", "temp", "constant", "stack"};

// A constant tensor: data the program (or a .ptd) holds, not planned memory.
bool PerOpIsConstant(const pte::TensorView& t) {
  return !t.planned && (t.data_index > 0 || t.external);
}

// Its data bytes (numel x element size), saturating; 0 for a dtype no release knows.
uint64_t PerOpConstantBytes(const pte::MethodView& m, const pte::TensorView& t) {
  const std::optional<uint32_t> element = plan::ElementSize(t.dtype);
  if (!element) return 0;
  uint64_t bytes = *element;
  for (int32_t s : m.SizesOf(t)) {
    const std::optional<uint64_t> b = CheckedMul(bytes, static_cast<uint64_t>(std::max(s, 0)));
    bytes = b ? *b : UINT64_MAX;
  }
  return bytes;
}

// What identifies a constant's storage: its data index, or (in a .ptd) its key, so that two
// tensor values reading the same bytes count once.
std::string PerOpConstantKey(const pte::MethodView& m, const pte::TensorView& t) {
  if (t.data_index > 0) return "d" + std::to_string(t.data_index);
  return "k" + std::string(m.FqnOf(t));
}

// Visits the tensor values an instruction's arguments name (tensor lists' items included).
template <typename F>
void PerOpForEachArgTensor(const pte::MethodView& m, const pte::InstructionView& ins, F&& f) {
  if (ins.kind != pte::InstructionKind::kKernelCall &&
      ins.kind != pte::InstructionKind::kDelegateCall)
    return;
  for (int32_t a : m.ArgsOf(ins)) {
    if (a < 0 || static_cast<size_t>(a) >= m.values.size()) continue;
    const pte::ValueView& v = m.values[static_cast<size_t>(a)];
    if (v.kind == pte::ValueKind::kTensor) {
      f(m.tensors[v.index]);
    } else if (v.kind == pte::ValueKind::kTensorList ||
               v.kind == pte::ValueKind::kOptionalTensorList) {
      for (int64_t item : m.ItemsOf(v)) {
        if (item < 0 || static_cast<size_t>(item) >= m.values.size()) continue;
        const pte::ValueView& iv = m.values[static_cast<size_t>(item)];
        if (iv.kind == pte::ValueKind::kTensor) f(m.tensors[iv.index]);
      }
    }
  }
}

}  // namespace

const char* PerOpColumnName(PerOpColumn c) { return kPerOpColumnNames[static_cast<size_t>(c)]; }

Result<PerOpColumn> ParsePerOpColumn(std::string_view name) {
  for (size_t i = 0; i < std::size(kPerOpColumnNames); ++i)
    if (name == kPerOpColumnNames[i]) return static_cast<PerOpColumn>(i);
  return MakeError(ErrorCode::kInvalidArgument,
                   "--sort: no per-op column named '" + Printable(name) +
                       "' (known: index, live, temp, constant, stack)");
}

const char* PerOpKindName(pte::InstructionKind kind) {
  switch (kind) {
    case pte::InstructionKind::kKernelCall:
      return "kernel call";
    case pte::InstructionKind::kDelegateCall:
      return "delegate call";
    case pte::InstructionKind::kJumpFalse:
      return "jump";
    case pte::InstructionKind::kMove:
      return "move";
    case pte::InstructionKind::kFree:
      return "free";
    case pte::InstructionKind::kNone:
      break;
  }
  return "none";
}

Result<PerOpTable> BuildPerOp(const Report& report, const MethodReport& mr,
                              const runtime::RuntimeTraits& release) {
  const pte::MethodView& m = *mr.method;
  PerOpTable t;
  t.method = Printable(m.name);
  if (mr.plan.refusal) {
    t.refusal = mr.plan.refusal->error + ": " + mr.plan.refusal->reason;
    return t;
  }
  ETMEM_TRY(const std::vector<std::string> libraries,
            kernels::OperatorLibraries(m, release, report.assumptions.kernels));
  ETMEM_TRY(const plan::Lifetimes lifetimes, plan::ComputeLifetimes(m));
  const size_t n = m.instructions.size();

  // Live: +bytes at a storage's first instruction, -bytes after its last, bucketed by
  // instruction (a counting sort); one sweep in index order then gives every instruction's live
  // sum per memory id: O(n + tensors), never a scan of the tensors per instruction.
  std::vector<uint32_t> ids;  // the memory ids used, ascending
  const std::vector<plan::Storage> storages = plan::Storages(lifetimes);
  for (const plan::Storage& s : storages)
    if (s.used) ids.push_back(s.memory_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  struct Event {
    uint32_t id;  // into ids
    bool add;
    uint64_t bytes;
  };
  std::vector<uint32_t> bucket_begin(n + 2, 0);
  std::vector<Event> events;
  auto range = [&](const plan::Storage& s) -> std::optional<std::pair<size_t, size_t>> {
    if (!s.used || s.first < 0 || static_cast<size_t>(s.first) >= n) return std::nullopt;
    return std::pair{static_cast<size_t>(s.first),
                     std::min(static_cast<size_t>(std::max<int64_t>(s.last, s.first)), n - 1)};
  };
  for (const plan::Storage& s : storages)
    if (auto r = range(s)) {
      ++bucket_begin[r->first + 1];
      ++bucket_begin[r->second + 2];
    }
  for (size_t i = 1; i < bucket_begin.size(); ++i) bucket_begin[i] += bucket_begin[i - 1];
  events.resize(bucket_begin.back());
  {
    std::vector<uint32_t> fill(bucket_begin.begin(), bucket_begin.end() - 1);
    for (const plan::Storage& s : storages)
      if (auto r = range(s)) {
        const uint32_t id = static_cast<uint32_t>(
            std::lower_bound(ids.begin(), ids.end(), s.memory_id) - ids.begin());
        events[fill[r->first]++] = {id, true, s.bytes};
        events[fill[r->second + 1]++] = {id, false, s.bytes};
      }
  }
  // Running sums in 128 bits: a hostile file's sizes cannot wrap them; shown saturated.
  std::vector<unsigned __int128> running(ids.size(), 0);
  auto saturated = [](unsigned __int128 v) {
    return v > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(v);
  };

  // The run-time temp calls by instruction (the calls that ask, or may ask).
  std::vector<const kernels::CallTemp*> temp_of(n, nullptr);
  for (const kernels::CallTemp& c : mr.run_temp.calls)
    if (c.instruction < n) temp_of[c.instruction] = &c;

  std::unordered_set<std::string> seen_constants;
  std::vector<std::string> row_keys;
  PerOpTotals& tot = t.totals;
  tot.temp_summed = !mr.run_temp.reset_each_instruction;
  tot.peak_live_by_memory_id.reserve(ids.size());
  for (uint32_t id : ids) tot.peak_live_by_memory_id.push_back({id, 0});
  t.rows.reserve(n);
  for (uint32_t ci = 0; ci < m.chains.size(); ++ci) {
    const pte::ChainView& chain = m.chains[ci];
    for (uint32_t k = 0; k < chain.instructions_count; ++k) {
      const size_t i = chain.instructions_begin + k;
      if (i >= n) break;
      const pte::InstructionView& ins = m.instructions[i];
      PerOpRow r;
      r.index = i;
      r.chain = ci;
      r.chain_instruction = k;
      r.kind = ins.kind;
      if (ins.kind == pte::InstructionKind::kKernelCall) {
        if (const pte::OperatorView* op = m.OperatorOf(ins)) {
          r.op = Printable(op->overload.empty()
                               ? std::string(op->name)
                               : std::string(op->name) + "." + std::string(op->overload));
          r.library = libraries[static_cast<size_t>(ins.target)];
        } else {
          r.op = fmt::format("operator {} (not one of the method's)", ins.target);
        }
      } else if (ins.kind == pte::InstructionKind::kDelegateCall) {
        if (const pte::DelegateView* d = m.DelegateOf(ins)) {
          r.op = fmt::format("delegate {} ({})", ins.target, Printable(d->backend));
          r.library = Printable(d->backend);
        } else {
          r.op = fmt::format("delegate {} (not one of the method's)", ins.target);
        }
      }
      t.rows.push_back(std::move(r));
    }
  }
  // The sweep, in index order: each row's live sum, whatever order the chains list them in.
  // Per memory id per row only for up to kMaxBreakdownIds ids (the totals give every id's peak).
  constexpr size_t kMaxBreakdownIds = 16;
  {
    std::vector<size_t> row_at(n, SIZE_MAX);
    for (size_t r = 0; r < t.rows.size(); ++r) row_at[t.rows[r].index] = r;
    unsigned __int128 total = 0;
    for (size_t i = 0; i < n; ++i) {
      for (uint32_t e = bucket_begin[i]; e < bucket_begin[i + 1]; ++e) {
        const Event& ev = events[e];
        if (ev.add) {
          running[ev.id] += ev.bytes;
          total += ev.bytes;
        } else {
          running[ev.id] -= ev.bytes;
          total -= ev.bytes;
        }
      }
      // Each id's peak once the instruction's ends and starts are all applied (an add before a
      // remove of the same bucket is no instant of the method).
      for (uint32_t e = bucket_begin[i]; e < bucket_begin[i + 1]; ++e) {
        const uint32_t id = events[e].id;
        tot.peak_live_by_memory_id[id].bytes =
            std::max(tot.peak_live_by_memory_id[id].bytes, saturated(running[id]));
      }
      if (row_at[i] == SIZE_MAX) continue;
      PerOpRow& r = t.rows[row_at[i]];
      r.live_bytes = saturated(total);
      if (ids.size() > 1 && ids.size() <= kMaxBreakdownIds)
        for (size_t id = 0; id < ids.size(); ++id)
          r.live_by_memory_id.push_back({ids[id], saturated(running[id])});
      if (!tot.peak_live_instruction || r.live_bytes > tot.peak_live_bytes) {
        tot.peak_live_instruction = i;
        tot.peak_live_bytes = r.live_bytes;
      }
    }
  }
  if (ids.size() > kMaxBreakdownIds)
    t.notes.push_back(fmt::format(
        "live per memory id: {} memory ids are used; each row gives the sum only (the totals give "
        "each id's peak)",
        ids.size()));

  for (PerOpRow& r : t.rows) {
    const pte::InstructionView& ins = m.instructions[r.index];
    // Temp.
    if (const kernels::CallTemp* c = temp_of[r.index]) {
      r.temp_bytes = c->pool_bytes;
      r.temp_unknown = c->unknown;
    }
    if (!r.temp_unknown.empty()) ++tot.temp_unknown_rows;
    tot.temp_peak_bytes = tot.temp_summed ? SaturatingAdd(tot.temp_peak_bytes, r.temp_bytes)
                                          : std::max(tot.temp_peak_bytes, r.temp_bytes);
    // Constants: once per instruction, once per table.
    row_keys.clear();
    PerOpForEachArgTensor(m, ins, [&](const pte::TensorView& tv) {
      if (!PerOpIsConstant(tv)) return;
      std::string key = PerOpConstantKey(m, tv);
      if (std::find(row_keys.begin(), row_keys.end(), key) != row_keys.end()) return;
      const uint64_t bytes = PerOpConstantBytes(m, tv);
      r.constant_bytes = SaturatingAdd(r.constant_bytes, bytes);
      ++r.constants;
      if (seen_constants.insert(key).second) {
        tot.constant_bytes = SaturatingAdd(tot.constant_bytes, bytes);
        ++tot.constants;
      }
      row_keys.push_back(std::move(key));
    });
    tot.constant_column_bytes = SaturatingAdd(tot.constant_column_bytes, r.constant_bytes);
  }
  {
    std::unordered_set<std::string> all;
    for (const pte::TensorView& tv : m.tensors)
      if (PerOpIsConstant(tv) && all.insert(PerOpConstantKey(m, tv)).second) {
        tot.method_constant_bytes =
            SaturatingAdd(tot.method_constant_bytes, PerOpConstantBytes(m, tv));
        ++tot.method_constants;
      }
  }
  const std::vector<uint64_t> buffers = PlannedBuffers(mr);
  for (size_t b = 0; b < buffers.size(); ++b) {
    tot.planned_bytes = SaturatingAdd(tot.planned_bytes, buffers[b]);
    tot.planned_by_memory_id.push_back({static_cast<uint32_t>(b + 1), buffers[b]});
  }

  t.notes.push_back(
      "live: planned storage whose live range (first to last instruction naming it; inputs from "
      "the first instruction, outputs to the last, stretched over loops; an et_view alias group "
      "once) covers the instruction; the peak live sum is at most the planned buffers' size under "
      "a sound plan, the difference being alignment gaps and fragmentation");
  t.notes.push_back(fmt::format(
      "temp: what the instruction takes from the temp pool (padding from a base aligned to {} "
      "included), {}; the total is {}",
      report.assumptions.pool_align,
      mr.run_temp.reset_each_instruction ? "the pool reset after each instruction"
                                         : "nothing released between instructions at this release",
      mr.run_temp.reset_each_instruction ? "the largest row (the run-time temp peak)"
                                         : "the rows' sum (the run-time temp peak)"));
  t.notes.push_back(
      "constant: data bytes (numel x element size, storage padding not counted) of the constant "
      "tensors among the arguments, each once per instruction; the totals count a constant once");
  t.notes.push_back(
      "stack: the kernel's worst-case stack needs a linked image (etmem firmware); not computed "
      "here");
  return t;
}

Result<std::vector<PerOpTable>> BuildPerOp(const Report& report) {
  ETMEM_TRY(const runtime::RuntimeTraits* release,
            runtime::FindRelease(report.assumptions.runtime));
  std::vector<PerOpTable> out;
  for (const MethodReport& m : report.methods) {
    ETMEM_TRY(PerOpTable t, BuildPerOp(report, m, *release));
    out.push_back(std::move(t));
  }
  return out;
}

void SortPerOp(PerOpTable& table, PerOpColumn column) {
  table.sorted_by = column;
  auto key = [column](const PerOpRow& r) -> std::pair<int, uint64_t> {
    switch (column) {
      case PerOpColumn::kIndex:
        return {0, 0};
      case PerOpColumn::kLive:
        return {0, r.live_bytes};
      // Unknown first: it may be the largest.
      case PerOpColumn::kTemp:
        return {r.temp_unknown.empty() ? 0 : 1, r.temp_bytes};
      case PerOpColumn::kConstant:
        return {0, r.constant_bytes};
      case PerOpColumn::kStack:
        return {r.stack_bytes ? 1 : 0, r.stack_bytes.value_or(0)};
    }
    return {0, 0};
  };
  if (column == PerOpColumn::kIndex) {
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [](const PerOpRow& a, const PerOpRow& b) { return a.index < b.index; });
    return;
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [&](const PerOpRow& a, const PerOpRow& b) { return key(a) > key(b); });
}

}  // namespace etmem::report
