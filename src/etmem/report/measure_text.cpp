// Owns: the text of `etmem measure` (see measure_text.h).
#include "etmem/report/measure_text.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/analysis/assumptions.h"

namespace etmem::report {
namespace {

// One call: "1056 8 @0", "48 4 FAIL".
std::string MeasureCell(uint64_t size, uint64_t align, std::optional<uint64_t> offset) {
  return std::to_string(size) + " " + std::to_string(align) +
         (offset ? " @" + std::to_string(*offset) : std::string(" FAIL"));
}

void PrintCallTable(std::ostream& out, const measure::MethodMeasurement& m) {
  const device::Prediction& p = m.expected.prediction;
  out << "  call  measured (size align @offset)   etmem\n";
  const size_t n = std::max(m.measured.size(), p.calls.size());
  for (size_t i = 0; i < n; ++i) {
    std::string left = "-", right = "-";
    if (i < m.measured.size())
      left = MeasureCell(m.measured[i].size, m.measured[i].align, m.measured[i].offset);
    if (i < p.calls.size()) {
      const device::PredictedCall& c = p.calls[i];
      right = MeasureCell(c.size, c.align,
                          c.failed ? std::nullopt : std::optional<uint64_t>(c.offset));
    }
    std::string row = std::to_string(i);
    row.resize(std::max<size_t>(row.size() + 1, 6), ' ');
    left.resize(std::max<size_t>(left.size() + 1, 32), ' ');
    out << (left.substr(0, left.find_last_not_of(' ') + 1) == right ? "  " : "* ") << row << left
        << right << "\n";
  }
}

// --execute: a row's requests as etmem predicts them ("80 8, 16 4"), or "-".
std::string Requests(const std::vector<kernels::TempRequest>& r) {
  std::string s;
  for (const auto& q : r) s += (s.empty() ? "" : ", ") + fmt::format("{} {}", q.bytes, q.alignment);
  return s.empty() ? "-" : s;
}

// The requests measured ("80 8 @0, 640 8 FAIL"), or "-".
std::string Measured(const measure::ExecutedCall& c) {
  std::string s;
  for (const auto& a : c.temp)
    s += (s.empty() ? "" : ", ") +
         fmt::format("{} {} {}", a.size, a.align, a.offset ? fmt::format("@{}", *a.offset) : "FAIL");
  return s.empty() ? "-" : s;
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s + " ";
}

// One row of the comparison: the instruction, the call, what it asked, what etmem predicts.
void PrintExecutionRow(std::ostream& out, const measure::ExecutionRow& row, bool heap_mode) {
  const measure::ExecutedCall& c = row.measured;
  if (!row.instruction) {
    out << "* " << "?            " << Pad(Printable(c.what), 30) << "an executed call beyond the method's calls\n";
    return;
  }
  const kernels::CallTemp* q = row.predicted ? &*row.predicted : nullptr;
  std::string left, right;
  if (heap_mode) {
    uint64_t sum = 0;
    for (const auto& h : c.heap) {
      left += (left.empty() ? "" : ", ") + fmt::format("{}{}", h.first, h.second ? "" : " NULL");
      sum += h.first;
    }
    if (left.empty()) left = "-";
    else left += fmt::format(" = {} B", sum);
    right = q && !q->requests.empty() ? fmt::format("{} B", q->heap_bytes) : "-";
    if (!q || !q->unknown.empty()) right = q ? "unknown: " + q->unknown : "-";
  } else {
    left = Measured(c);
    const bool got_all = std::all_of(c.temp.begin(), c.temp.end(), [](const auto& a) { return a.offset.has_value(); });
    if (!c.temp.empty() && got_all) left += fmt::format(" -> {} B", c.pool_bytes);
    right = q ? (q->unknown.empty() ? Requests(q->requests) + fmt::format(" -> {} B", q->pool_bytes)
                                    : "unknown: " + q->unknown)
              : "-";
  }
  out << (row.match ? "  " : "* ") << Pad(std::to_string(*row.instruction), 12)
      << Pad(Printable(c.what), 29) << Pad(left, heap_mode ? 32 : 35) << right
      << (row.match ? "  MATCH" : "  DIFFER") << "\n";
}

// "instruction N", or "none".
std::string InstructionOrNone(std::optional<size_t> instruction) {
  return instruction ? fmt::format("instruction {}", *instruction) : "none";
}

}  // namespace

std::string MeasureSetupText(const measure::MeasureSetup& s) {
  return "etmem measure: ExecuTorch tree " + s.tree + " (" + s.version_source +
         (s.commit.empty() ? "" : ", commit " + s.commit.substr(0, 12)) + ")\n" +
         "  compared with etmem's model of ExecuTorch " + s.release + " (" + s.why + ")\n";
}

std::string MeasureBuildText(const measure::MeasureBuild& b) {
  std::ostringstream out;
  out << "  built with " << b.compiler << " (" << b.compiler_version << "): " << b.sources
      << " runtime sources (" << b.reused << " reused), schema headers from flatc, harness in "
      << (b.work ? *b.work : std::string("a temporary directory")) << "\n"
      << "  harness: kernels that do nothing under every operator name"
      << (b.stubbed.empty() ? ""
                            : ", backends whose init allocates what --backend says "
                              "(default nothing):");
  for (const std::string& s : b.stubbed) out << " " << s;
  out << "; a " << b.pool_bytes << " B method pool whose base is aligned to " << b.pool_align
      << " B and not to twice that\n";
  return out.str();
}

std::string MeasureMethodText(const measure::MethodMeasurement& m, bool brief) {
  std::ostringstream out;
  out << "method '" << m.name << "': " << m.layout << "\n";
  if (!m.logged) {
    out << "  real runtime: " << m.measured_verdict << "\n  etmem:        " << m.etmem_verdict
        << (m.refusal_reason.empty() ? "" : " (" + m.refusal_reason + ")") << "\n"
        << (m.verdicts_agree ? "  verdicts agree\n" : "  verdicts differ\n");
    return out.str();
  }
  const device::Prediction& p = m.expected.prediction;
  out << "  real runtime: " << m.measured_verdict << ", " << m.measured.size() << " calls, "
      << m.measured_bytes << " B\n"
      << "  etmem:        " << m.etmem_verdict << ", " << p.calls.size() << " calls, "
      << p.used_bytes << " B\n";
  if (m.runtime_error_line) out << "  the runtime logged: " << *m.runtime_error_line << "\n";
  if (!brief) PrintCallTable(out, m);
  const std::string assuming = AssumptionSentence(m.assumptions, MeasureWording(m.pool));
  for (const runtime::UnknownPart& u : m.unknowns)
    out << "  note: etmem's figures are a lower bound: delegate " << u.delegate << " ("
        << Printable(u.backend) << "): " << u.why << "\n";
  if (m.matches()) {
    out << "  matches etmem's prediction call for call (" << m.measured.size()
        << " calls) under " << assuming << "\n";
    return out.str();
  }
  if (const auto& d = m.difference) {
    out << "  first divergence" << (d->call ? " at call #" + std::to_string(*d->call) : "")
        << ": real runtime " << d->got << "; etmem " << d->predicted << "\n";
    if (d->call && *d->call < m.expected.what.size() && !m.expected.what[*d->call].empty())
      out << "  etmem says call #" << *d->call << " is: " << m.expected.what[*d->call] << "\n";
  } else {
    out << "  the calls agree but the verdicts differ: real runtime " << m.measured_verdict
        << ", etmem " << m.etmem_verdict << "\n";
  }
  out << "  under " << assuming << "\n";
  return out.str();
}

std::string ExecutionComparisonText(const measure::ExecutionComparison& c) {
  if (!c.ran) return "  the method did not execute (the load above failed): nothing to compare\n";
  std::ostringstream out;
  out << "  real kernels: Method::execute " << c.measured_verdict << ", " << c.calls_executed
      << " call(s) executed of " << c.call_sites << "\n"
      << "  etmem:        " << c.etmem_verdict << "\n";
  if (!c.straight)
    out << "  note: the method has JumpFalseCall instructions: executed calls are matched to "
           "instructions in instruction order, which holds only when no jump is taken\n";
  out << (c.heap_mode ? "  instruction  call                          heap requests (et_pal_allocate)  etmem (bytes)\n"
                      : "  instruction  call                          temp (size align @offset) -> bytes  etmem (size align) -> bytes\n");
  size_t shown = 0;  // rows of the method's calls
  for (const measure::ExecutionRow& row : c.rows) {
    PrintExecutionRow(out, row, c.heap_mode);
    if (row.instruction) ++shown;
  }
  if (shown == 0)
    out << "  (no call asked for " << (c.heap_mode ? "heap" : "temp") << " memory; etmem predicts none)\n";
  if (const auto& p = c.peak) {
    if (c.heap_mode) {
      out << fmt::format("  heap peak: measured {} B, etmem {} B: {}\n", p->measured, p->etmem,
                         p->match ? "MATCH" : "DIFFER");
    } else {
      const std::string etmem_at = p->etmem_instruction ? fmt::format(" at instruction {}", *p->etmem_instruction) : "";
      const std::string real_at = p->measured_instruction ? fmt::format(" at instruction {}", *p->measured_instruction) : "";
      out << fmt::format("  run-time temp peak: measured {} B{}, etmem {} B{}: {}\n", p->measured,
                         real_at, p->etmem, etmem_at, p->match ? "MATCH" : "DIFFER");
    }
  }
  if (const auto& f = c.failure) {
    out << fmt::format("  fails at: measured {}, etmem {}: {}\n", InstructionOrNone(f->measured_instruction),
                       InstructionOrNone(f->etmem_instruction), f->same_instruction ? "MATCH" : "DIFFER");
    out << "  the runtime logged:\n";
    for (const std::string& l : f->logged) out << "    " << Printable(l, 400) << "\n";
    if (f->log_match) {
      out << "  etmem predicts the first " << f->predicted.size() << " line(s), line for line: MATCH"
          << (f->extra_args ? fmt::format(" (the {} 'arg N with type id T' lines after them, the "
                                          "runtime's list of the failed call's arguments, are not "
                                          "predicted)", f->extra_args)
                            : std::string())
          << "\n";
    } else {
      out << "  etmem predicts: DIFFER\n";
      for (const std::string& l : f->predicted) out << "    " << Printable(l, 400) << "\n";
    }
  }
  return out.str();
}

std::string MeasureExecutionText(const measure::ExecutionRun& run) {
  std::ostringstream out;
  std::string kernels_text;
  for (const measure::RealKernel& k : run.kernels)
    kernels_text += fmt::format("\n    {} -> {}", Printable(k.op),
                                k.prim ? "the prim ops (" + k.source + ")" : k.function + " (" + k.source + ")");
  out << "execution with the tree's real kernels (" << run.sources
      << " kernel sources compiled, registration generated in " << run.registration << "):"
      << kernels_text << "\n";
  if (run.temp_allocator)
    out << fmt::format("  a recording temp allocator of {} B whose base is aligned to 16 B and not "
                       "to 32 B, passed to load_method\n", run.temp_pool_bytes);
  else
    out << "  no temp allocator passed to load_method; et_pal_allocate recorded"
        << (run.no_heap ? " and returning NULL while the method executes (a firmware without a heap)" : "")
        << "\n";
  out << "  inputs: every tensor input set (set_input) to a copy filled with a fixed pattern; "
         "outputs without memory given a heap buffer; delegates are stubs that compute nothing\n";
  for (const measure::MethodExecution& m : run.methods) {
    out << "method '" << Printable(m.name) << "' executed: " << m.predicted << " (etmem)\n";
    for (const std::string& n : m.notes) out << "  " << Printable(n) << "\n";
    if (m.crash_signal) out << "  the harness crashed (signal " << *m.crash_signal << ")\n";
    out << ExecutionComparisonText(m.comparison)
        << (m.matches() ? "  run-time temp matches etmem's prediction call for call\n"
                        : "  run-time temp differs from etmem's prediction\n");
  }
  return out.str();
}

std::string MeasureLogsText(const std::string& work) {
  return "the measured logs are in " + work +
         " (measured-METHOD.log; etmem check reads them)\n";
}

std::string MeasureText(const measure::MeasureRun& run, bool brief) {
  std::string out = MeasureSetupText(run.setup);
  if (run.build) out += MeasureBuildText(*run.build);
  for (const measure::MethodMeasurement& m : run.methods) out += MeasureMethodText(m, brief);
  if (run.execution) out += MeasureExecutionText(*run.execution);
  if (run.kept_logs) out += MeasureLogsText(*run.kept_logs);
  return out;
}

}  // namespace etmem::report
