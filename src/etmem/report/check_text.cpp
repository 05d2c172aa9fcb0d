// Owns: CheckText, what `etmem check` prints, and the user's assumptions in words (see
// check_report.h).
#include <algorithm>
#include <sstream>

#include "etmem/base/printable.h"
#include "etmem/report/check_render.h"
#include "etmem/report/search_text.h"

namespace etmem::report {
namespace {

// The assumptions the user runs check with, in words.
std::string DescribeGiven(const check::Given& g, const check::SearchSpace& space) {
  const abi::Abi& t = space.targets.front();
  const std::string release = g.release ? g.release->version : std::string("(any)");
  const std::string target = g.target ? *g.target : std::string("any target");
  const std::string pool = g.pool ? ", a " + std::to_string(*g.pool) + " B pool" : std::string();
  if (g.runner) {  // a runner profile: its pool's declared alignment and its temp allocator
    return "ExecuTorch " + release + ", " + target + ", runner " + *g.runner +
           ", pool base aligned to " +
           (g.pool_align ? std::to_string(*g.pool_align) + " B"
                         : std::string("the alignment the runner declares")) +
           ", the runner's temp allocator" + pool;
  }
  if (!space.runners.empty()) {  // --runner all: any runner, each with its own defaults
    return "ExecuTorch " + release + ", " + target + ", any runner, pool base aligned to " +
           (g.pool_align ? std::to_string(*g.pool_align) + " B"
                         : std::string("the alignment each runner declares (the target's malloc "
                                       "alignment for the portable executor_runner)")) +
           ", each runner's temp allocator" + pool;
  }
  return "ExecuTorch " + release + ", " + target + ", pool base aligned to " +
         (g.pool_align || g.target ? std::to_string(g.pool_align.value_or(t.malloc_align)) + " B"
                                   : std::string("the target's malloc alignment")) +
         ", " +
         (g.temp == check::TempChoice::kRunner
              ? "the temp allocator of the release's executor_runner"
          : g.temp == check::TempChoice::kNull ? "no temp allocator"
                                               : "a temp allocator") +
         pool;
}

void PrintSearched(std::ostream& out, const CheckSearch::Attempt& a, const device::DeviceLog& log,
                   const std::string& indent) {
  out << indent << "etmem searched " << DescribeSpace(a.space, log) << ": "
      << a.found.configs_tried << " combinations\n";
}

void PrintSearch(std::ostream& out, const CheckReport& r, const std::string& indent) {
  const CheckSearch& s = *r.search;
  if (s.attempts.empty()) return;  // stopped before the search
  PrintSearched(out, s.attempts.front(), r.log, indent);
  if (s.attempts.front().found.nothing_predicted) {
    out << indent << "nothing in this log is predicted without a model of the runner's "
                     "own allocations: no combination can be told apart\n";
    return;
  }
  if (s.attempts.front().found.reproductions.empty() && s.pinned) {
    out << indent << "no combination under the assumptions you gave reproduces the log\n";
    if (s.attempts.size() > 1) PrintSearched(out, s.attempts.back(), r.log, indent);
  }
  if (!s.complete) return;
  const check::SearchResult& found = s.attempts.back().found;
  const check::SearchSpace& space = s.attempts.back().space;
  if (found.reproductions.empty()) {
    out << indent << "no modelled combination reproduces the log exactly\n";
    if (found.nearest) out << indent << "nearest: " << DescribeNearest(*found.nearest) << "\n";
    out << indent << "your assumptions: " << DescribeGiven(s.given, space) << "\n";
    return;
  }
  out << indent << "reproduced exactly by:\n";
  for (const std::string& line : GroupedLines(found)) out << indent << "  " << line << "\n";
  if (check::SeveralPools(found))
    out << indent
        << "the line alone fits several pool sizes (each request of that size "
           "with its padding can be the one that failed): give --pool to narrow it\n";
  const std::vector<std::string> releases = check::ReproducingReleases(found);
  if (releases.size() > 1) {
    std::string list;
    for (size_t i = 0; i < releases.size(); ++i)
      list += (i == 0 ? "" : i + 1 == releases.size() ? " and " : ", ") + releases[i];
    out << indent << releases.size() << " releases give this log (" << list
        << "): the log alone does not tell them apart\n";
  }
  out << indent << "your assumptions (" << DescribeGiven(s.given, space) << ") "
      << (s.matching.empty() ? "do not reproduce it" : "are among them");
  // Which pools, when the log does not say: every one (the user's firmware has one of them).
  std::vector<uint64_t> pools;
  for (size_t i : s.matching)
    if (!r.pool)
      pools.insert(pools.end(), found.reproductions[i].pools.begin(),
                   found.reproductions[i].pools.end());
  constexpr size_t kListed = 24;
  for (size_t i = 0; i < pools.size() && i < kListed; ++i)
    out << (i == 0 ? ", with a " : i + 1 == pools.size() ? " or " : ", ") << pools[i]
        << (i + 1 == pools.size() ? " B pool" : "");
  if (pools.size() > kListed) out << " B pool or " << pools.size() - kListed << " other sizes";
  out << "\n";
}

std::string Assuming(const CheckComparison& c) {
  if (c.config) return DescribeAssumptions(*c.config, c.pool);
  return AssumptionSentence(*c.assumptions, CheckWording(c.pool));
}

void PrintFigures(std::ostream& out, const CheckComparison& c) {
  std::string unpredicted;
  for (const CheckFigure& f : c.figures) {
    const std::string why = f.meaning.empty() ? "" : " (" + f.meaning + ")";
    if (f.matches())
      out << "  line " << f.line << ": " << f.label << " " << f.bytes
          << " B: as etmem predicts" << why << "\n";
    else if (c.runner_figures && f.differs())
      out << "  line " << f.line << ": " << f.label << " " << f.bytes
          << " B: DIFFERS, etmem predicts " << *f.predicted << " B" << why << "\n";
    else
      unpredicted +=
          (unpredicted.empty() ? "" : ", ") + f.name + " " + std::to_string(f.bytes) + " B";
  }
  if (unpredicted.empty()) return;
  if (c.runner_figures)
    out << "  not predicted (the firmware's own settings): " << unpredicted << "\n";
  else
    out << "  not compared (they count the runner's own allocations or pools, which etmem "
           "does not model without a runner profile): "
        << unpredicted << "\n";
}

void PrintMinimum(std::ostream& out, const CheckComparison& c) {
  if (c.minimum_pool_title)
    out << "  the exact minimum under these assumptions: " << *c.minimum_pool_title << " "
        << c.minimum << " B\n";
}

// A failure while the method ran, against the run-time temp model.
void PrintRunTime(std::ostream& out, const CheckReport& r) {
  const CheckRunTime& c = *r.run_time;
  const std::string log = Printable(r.log_path, kShownPathBytes);
  const std::string method = Printable(r.method);
  out << log << ":" << c.step_line << ": method '" << method << "' failed while running: "
      << Printable(c.step_text, 400) << "\n";
  out << "  assuming " << AssumptionSentence(c.assumptions, CheckWording(std::nullopt)) << "\n";
  if (c.pool) {
    out << "  matches etmem's prediction for a " << *c.pool << " B temp pool: " << c.failing_what
        << " asks for more than is left\n";
  } else if (c.candidate_pools.empty()) {
    out << "  no request etmem predicts while the method runs takes " << c.requested
        << " B with its padding: etmem's run-time model does not reproduce the log under these "
           "assumptions\n";
  } else {
    out << "  the temp pools that give the log's failure line (";
    for (size_t i = 0; i < c.candidate_pools.size(); ++i)
      out << (i ? ", " : "") << c.candidate_pools[i] << " B";
    out << ") do not give the log's other lines\n";
  }
  for (const std::string& line : c.predicted)
    out << "  etmem predicts: " << Printable(line, 400) << "\n";
  out << "  the temp pool must hold " << std::max(c.load_peak_bytes, c.run_peak_bytes)
      << (c.run_known ? "" : " or more") << " B: " << c.load_peak_bytes
      << " B during load_method, while running " << Printable(c.run_summary, 400) << "\n";
}

void PrintComparison(std::ostream& out, const CheckReport& r) {
  const CheckComparison& c = *r.comparison;
  const std::string log = Printable(r.log_path, kShownPathBytes);
  const std::string method = Printable(r.method);
  if (!c.difference) {
    out << log << ": matches etmem's prediction for method '" << method << "'";
    if (!r.log.calls.empty()) out << ", call for call (" << r.log.calls.size() << " calls)";
    if (r.log.totals && !c.config)
      out << ", totals " << r.log.totals->used_bytes << " B in " << r.log.totals->calls
          << " calls";
    out << "\n  assuming " << Assuming(c) << "\n";
    if (c.failure) {
      out << "  the failure is exactly the one etmem predicts for a " << c.pool.value_or(0)
          << " B pool: call #" << c.failure->call << ", " << c.failure->what << "\n";
      for (const std::string& line : c.failure->runner_lines)
        out << "  then the runner prints: " << line << "\n";
    }
    PrintFigures(out, c);
    PrintMinimum(out, c);
    return;
  }
  const device::Difference& d = *c.difference;
  out << log << (d.line ? ":" + std::to_string(d.line) : "")
      << ": differs from etmem's prediction for method '" << method << "'";
  if (d.call) out << " at call #" << *d.call;
  out << "\n  device: " << d.got << "\n  etmem:  " << d.predicted << "\n";
  if (c.differing_call)
    out << "  etmem says call #" << *d.call << " is: " << *c.differing_call << "\n";
  out << "  assuming " << Assuming(c) << "\n";
  if (c.device_pool_align && c.assumptions)
    out << "  note: the device's pool base is aligned to " << *c.device_pool_align
        << " B, etmem modelled " << c.assumptions->pool_align << " B: try --pool-align "
        << std::min<uint64_t>(*c.device_pool_align, 4096) << "\n";
  for (const runtime::UnknownPart& u : c.unknowns) {
    out << "  note: etmem's figures are a lower bound: ";
    if (u.delegate >= 0) out << "delegate " << u.delegate << " (" << Printable(u.backend) << "): ";
    out << u.why << "\n";
  }
  if (c.bookkeeping)
    out << "  note: " << c.bookkeeping->figure
        << " B is what the Arm runner's ArmMemoryAllocator (v0.5.0 to v1.3.x) counts in "
           "used_size() for exactly these calls: its bookkeeping skips padding and rounds odd "
           "sizes up, so the figure is not the bytes the load took ("
        << c.bookkeeping->taken << " B)\n";
  if (c.runner_figures) PrintFigures(out, c);
  PrintMinimum(out, c);
}

}  // namespace

std::string CheckText(const CheckReport& r) {
  std::ostringstream out;
  if (r.run_time) {
    PrintRunTime(out, r);
  } else if (r.comparison) {
    PrintComparison(out, r);
  } else {
    out << Printable(r.log_path, kShownPathBytes) << ": method '" << Printable(r.method) << "'"
        << (r.pool ? "" : ": the log does not give the pool size") << "\n";
  }
  if (r.search) PrintSearch(out, r, "  ");
  return out.str();
}

}  // namespace etmem::report
