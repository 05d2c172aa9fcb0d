// Owns: the text of `etmem measure` (see measure_text.h).
#include "etmem/report/measure_text.h"

#include <algorithm>
#include <sstream>

#include "etmem/report/assumptions.h"

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
        << u.backend << "): " << u.why << "\n";
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

std::string MeasureLogsText(const std::string& work) {
  return "the measured logs are in " + work +
         " (measured-METHOD.log; etmem check reads them)\n";
}

std::string MeasureText(const measure::MeasureRun& run, bool brief) {
  std::string out = MeasureSetupText(run.setup);
  if (run.build) out += MeasureBuildText(*run.build);
  for (const measure::MethodMeasurement& m : run.methods) out += MeasureMethodText(m, brief);
  if (run.kept_logs) out += MeasureLogsText(*run.kept_logs);
  return out;
}

}  // namespace etmem::report
