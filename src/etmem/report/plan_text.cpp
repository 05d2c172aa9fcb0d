// Owns: PlanText, `etmem plan`'s text (see plan_render.h).
#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/report/plan_render.h"

namespace etmem::report {
namespace {

constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
char Letter(size_t tensor) { return kLetters[tensor % kLetters.size()]; }

void PrintRanges(std::ostream& out, const MethodPlan& p) {
  out << fmt::format("  {:>2} {:>6} {:>3} {:>10} {:>10} {:>6} {:>6}  notes\n", "", "value",
                           "mem", "offset", "bytes", "first", "last");
  for (size_t i = 0; i < p.lifetimes.tensors.size(); ++i) {
    const plan::PlannedTensor& t = p.lifetimes.tensors[i];
    out << fmt::format("  {:>2} {:>6} {:>3} {:>10} {:>10} {:>6} {:>6} {}\n", Letter(i),
                             t.value, t.memory_id, t.offset, t.bytes,
                             t.used ? std::to_string(t.first) : "-",
                             t.used ? std::to_string(t.last) : "-", PlannedTensorNotes(t));
  }
}

void PrintValidation(std::ostream& out, const plan::Validation& v) {
  if (v.sound()) {
    out << "validation: sound\n";
    return;
  }
  out << fmt::format("validation: UNSOUND ({} overlaps, {} misplaced)\n", v.overlaps.size(),
                           v.misplaced.size());
  for (const plan::Overlap& o : v.overlaps)
    out << fmt::format("  overlap: values {} and {} share {} bytes of buffer {} while both "
                             "are live at instruction {}\n",
                             o.a, o.b, o.overlap_bytes, o.memory_id, o.instruction);
  for (const plan::Misplaced& m : v.misplaced) {
    if (m.buffer_size < 0)
      out << fmt::format("  misplaced: value {} names buffer {}, which does not exist\n",
                               m.value, m.memory_id);
    else
      out << fmt::format("  misplaced: value {} ({} bytes at offset {}) ends past buffer {} "
                               "({} bytes)\n",
                               m.value, m.bytes, m.offset, m.memory_id, m.buffer_size);
  }
}

void PrintBounds(std::ostream& out, const MethodPlan& p, uint64_t alignment) {
  out << fmt::format("bounds (tensors rounded up to {} bytes):\n", alignment);
  for (const plan::BufferBounds& b : p.bounds)
    out << fmt::format("  buffer {}: planned {} B, lower bound {} B (peak at instruction "
                             "{}), excess {} B ({:.1f}%)\n",
                             b.memory_id, b.planned, b.lower_bound, b.peak_instruction, b.excess(),
                             b.excess_percent());
}

// One row per instruction; a column covers `bucket` bytes and shows the live tensor covering
// most of it ('!' when live tensors cover more bytes than the bucket has: an overlap).
// `live`: the buffer's tensors live at the row's instruction, in tensor order (PrintMap).
std::string MapRow(const MethodPlan& p, const std::set<size_t>& live, uint64_t bucket,
                   uint32_t columns) {
  std::string row(columns, '.');
  std::vector<uint64_t> covered(columns, 0), best(columns, 0);
  for (size_t i : live) {
    const plan::PlannedTensor& t = p.lifetimes.tensors[i];
    const uint64_t end = t.offset + t.bytes;
    for (uint64_t c = t.offset / bucket; c < columns && c * bucket < end; ++c) {
      const uint64_t share = std::min(end, (c + 1) * bucket) - std::max(t.offset, c * bucket);
      covered[c] += share;
      if (share > best[c]) {
        best[c] = share;
        row[c] = Letter(i);
      }
    }
  }
  for (uint32_t c = 0; c < columns; ++c)
    if (covered[c] > bucket) row[c] = '!';
  return row;
}

void PrintMap(std::ostream& out, const MethodPlan& p, const plan::BufferBounds& b,
              const std::vector<uint64_t>& live, uint32_t columns) {
  const uint64_t span = std::max<uint64_t>(b.planned, 1);
  const uint64_t bucket = std::max<uint64_t>((span + columns - 1) / columns, 1);
  out << fmt::format("map of buffer {} ({} bytes per column, rows are instructions):\n",
                           b.memory_id, bucket);
  // A sweep: the tensors of the buffer with bytes, by first instruction; those live at row i
  // are kept in tensor order, so each row looks only at its own tensors.
  std::vector<size_t> by_first;
  for (size_t t = 0; t < p.lifetimes.tensors.size(); ++t) {
    const plan::PlannedTensor& x = p.lifetimes.tensors[t];
    if (x.memory_id == b.memory_id && x.used && x.bytes > 0) by_first.push_back(t);
  }
  std::stable_sort(by_first.begin(), by_first.end(), [&](size_t x, size_t y) {
    return p.lifetimes.tensors[x].first < p.lifetimes.tensors[y].first;
  });
  std::set<size_t> now;
  std::multimap<int64_t, size_t> ending;  // last instruction -> tensor
  size_t next = 0;
  for (int64_t i = 0; i < p.lifetimes.instructions; ++i) {
    while (next < by_first.size() && p.lifetimes.tensors[by_first[next]].first <= i) {
      const size_t t = by_first[next++];
      if (p.lifetimes.tensors[t].last < i) continue;
      now.insert(t);
      ending.emplace(p.lifetimes.tensors[t].last, t);
    }
    while (!ending.empty() && ending.begin()->first < i) {
      now.erase(ending.begin()->second);
      ending.erase(ending.begin());
    }
    out << fmt::format("  {:>5} |{}| {:>9} B{}\n", i,
                             MapRow(p, now, bucket, columns),
                             live[static_cast<size_t>(i)],
                             live[static_cast<size_t>(i)] == b.lower_bound && b.lower_bound > 0
                                 ? "  <- peak" : "");
  }
}

void PrintAdvice(std::ostream& out, const std::vector<plan::Advice>& advice) {
  if (advice.empty()) return;
  out << "advisories:\n";
  for (const plan::Advice& a : advice)
    out << fmt::format("  {}: value {} ({} bytes) written by {} at instruction {}; without "
                             "it the lower bound drops by {} B and the re-planned buffer {} goes "
                             "from {} B to {} B (saves {} B){}. {}\n",
                             plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                             a.bound_saving, a.memory_id, a.replanned, a.replanned_without,
                             a.planned_saving(), CutShort(a), a.change);
}

void PrintText(std::ostream& out, const MethodPlan& p, uint64_t alignment, uint32_t columns) {
  out << fmt::format("method '{}': {} instructions, {} planned tensors\n", Printable(p.method->name),
                           p.lifetimes.instructions, p.lifetimes.tensors.size());
  PrintRanges(out, p);
  PrintValidation(out, p.validation);
  PrintBounds(out, p, alignment);
  for (size_t i = 0; i < p.bounds.size(); ++i)
    PrintMap(out, p, p.bounds[i], p.live_bytes[i], columns);
  PrintAdvice(out, p.advice);
}

void PrintDuplicates(std::ostream& out, const pte::ProgramView& program,
                     const std::vector<plan::DuplicateConstants>& duplicates) {
  if (duplicates.empty()) return;
  out << "program advisories:\n";
  for (const plan::DuplicateConstants& g : duplicates)
    out << "  " << DuplicateLine(program, g) << "\n";
}

}  // namespace

std::string PlanText(const pte::ProgramView& view, const Planned& planned, uint64_t alignment,
                     uint32_t columns) {
  std::ostringstream out;
  for (const MethodPlan& p : planned.plans) PrintText(out, p, alignment, columns);
  PrintDuplicates(out, view, planned.duplicates);
  return out.str();
}

}  // namespace etmem::report
