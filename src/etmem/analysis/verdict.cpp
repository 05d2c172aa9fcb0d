// Owns: Judge, combining verdicts, the exit status, and the comparison of the default release
// with every other published release (analysis/verdict.h).
#include "etmem/analysis/verdict.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/analysis/runner_rows.h"

namespace etmem::report {

const char* VerdictName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFits: return "fits";
    case VerdictKind::kUnknown: return "unknown";
    case VerdictKind::kDoesNotFit: return "does_not_fit";
    case VerdictKind::kRefused: return "refused";
  }
  return "unknown";
}

int ExitStatus(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFits: return 0;
    case VerdictKind::kDoesNotFit:
    case VerdictKind::kRefused: return 1;
    case VerdictKind::kUnknown: return 2;
  }
  return 2;
}

void Verdict::Add(const Verdict& other) {
  for (const std::string& j : other.judged)
    if (std::find(judged.begin(), judged.end(), j) == judged.end()) judged.push_back(j);
  if (other.kind <= kind) return;
  kind = other.kind;
  where = other.where;
  step = other.step;
  log = other.log;
}

namespace {

Verdict Item(VerdictKind kind, std::string where, std::string step,
             std::vector<std::string> log = {}) {
  Verdict v;
  v.kind = kind;
  v.where = std::move(where);
  v.step = std::move(step);
  v.log = std::move(log);
  return v;
}

Verdict Judged(std::string what) {
  Verdict v;
  v.judged.push_back(std::move(what));
  return v;
}

// The method allocator pool (--pool): load_method's alone, or the runner's method pool.
Verdict JudgeMethodPool(const MethodReport& m, const std::string& where) {
  if (m.runner && m.runner->result.check) {
    const RunnerReport& rr = *m.runner;
    const sim::RunnerCheck& c = *rr.result.check;
    const std::string pool = fmt::format(
        "{} = {} B", RunnerPoolName(rr.pool_spec(rr.result.method_pool)), c.pool_bytes);
    Verdict v = Judged(pool);
    if (!c.gets_through) {
      const sim::RunnerFailure& f = *c.failure;
      v.Add(Item(VerdictKind::kDoesNotFit, where,
                 pool + " does not load: " + RunnerFailureWhat(rr, f) + " fails", f.log));
    } else if (c.overwritten_bytes > 0) {
      v.Add(Item(VerdictKind::kDoesNotFit, where,
                 fmt::format("{}: the runner writes {} B past the pool's end ({})", pool,
                             c.overwritten_bytes,
                             rr.plan.requests[*c.overwriting_request].what)));
    } else if (!m.plan.exact()) {
      v.Add(Item(VerdictKind::kUnknown, where,
                 pool + " holds the known allocations; a delegate etmem does not model allocates "
                        "more (pass --backend ID=BYTES)"));
    }
    return v;
  }
  if (!m.pool_check) return {};
  const PoolCheck& c = *m.pool_check;
  const std::string pool = fmt::format("method allocator pool {} B", c.pool_bytes);
  Verdict v = Judged(pool);
  if (!c.fits) {
    std::string step = pool + " does not load";
    if (c.failing)
      step += fmt::format(": allocation #{} fails: {} ({} B, align {}, at offset {})",
                          c.failing->index, Describe(m, c.failing->request),
                          c.failing->request.size, c.failing->request.align,
                          c.failing->placement.offset);
    v.Add(Item(VerdictKind::kDoesNotFit, where, step,
               c.log.empty() ? std::vector<std::string>{} : std::vector<std::string>{c.log}));
  } else if (!m.plan.exact()) {
    v.Add(Item(VerdictKind::kUnknown, where,
               pool + " holds the known allocations; a delegate etmem does not model allocates "
                      "more (pass --backend ID=BYTES)"));
  }
  return v;
}

// The temp pool checked at load and at every instruction while running (--temp-pool, or the
// runner's temp pool).
Verdict JudgeTempPool(const Report& r, const MethodReport& m, const std::string& where) {
  const kernels::RunTemp& t = m.run_temp;
  if (!t.check) return {};
  const kernels::TempPoolCheck& c = *t.check;
  const std::string source = r.assumptions.run_temp_pool_source.empty()
                                 ? ""
                                 : " (" + r.assumptions.run_temp_pool_source + ")";
  const std::string pool = fmt::format("temp pool {} B{}", c.pool_bytes, source);
  Verdict v = Judged(t.no_temp_allocator ? "no temp allocator while running"
                                         : pool + " at load and while running");
  if (t.no_temp_allocator) {
    if (!c.fits)
      v.Add(Item(VerdictKind::kDoesNotFit, where,
                 fmt::format("no temp allocator: instruction {} ({}) fails",
                             t.calls[*c.failing_call].instruction, t.calls[*c.failing_call].what),
                 c.log));
    return v;
  }
  if (m.temp_load_peak_bytes > c.pool_bytes)
    v.Add(Item(VerdictKind::kDoesNotFit, where,
               fmt::format("{}: load_method needs {} B", pool, m.temp_load_peak_bytes)));
  if (!c.fits) {
    const kernels::CallTemp& call = t.calls[*c.failing_call];
    v.Add(Item(VerdictKind::kDoesNotFit, where,
               fmt::format("{}: instruction {} ({}) takes {} B", pool, call.instruction, call.what,
                           call.pool_bytes),
               c.log));
  } else if (!t.known()) {
    v.Add(Item(VerdictKind::kUnknown, where,
               fmt::format("{}: every instruction with known requests fits; {} call(s) ask for "
                           "an unknown amount",
                           pool, t.unknown_calls)));
  }
  return v;
}

std::string Where(const Report& r, const MethodReport* m) {
  std::string where = fmt::format("ExecuTorch {}, {}", r.assumptions.runtime, r.assumptions.target);
  if (m) where += ", method '" + Printable(m->method->name) + "'";
  return where;
}

}  // namespace

Verdict JudgeMethod(const Report& r, const MethodReport& m) {
  Verdict v;
  const std::string where = Where(r, &m);
  if (m.plan.refusal) {
    v.Add(Item(VerdictKind::kRefused, where,
               fmt::format("refuses the method ({}): {}", m.plan.refusal->error,
                           m.plan.refusal->reason),
               m.plan.refusal->log.empty() ? std::vector<std::string>{}
                                           : std::vector<std::string>{m.plan.refusal->log}));
    return v;
  }
  if (m.runner)
    for (const std::string& no : m.runner->result.refusals)
      v.Add(Item(VerdictKind::kRefused, where, "the runner refuses the program: " + no));
  for (const std::string& fails : m.unregistered_backends)
    v.Add(Item(VerdictKind::kRefused, where, fails));
  // Method::init resolves every operator before the method can run: an operator the chosen
  // kernel libraries lack (another library registers it) fails load_method (OperatorMissing).
  if (const auto& missing = m.run_temp.first_missing_call)
    v.Add(Item(VerdictKind::kRefused, where, m.run_temp.DescribeMissing(),
               {m.run_temp.calls[*missing].missing_log}));
  v.Add(JudgeMethodPool(m, where));
  v.Add(JudgeTempPool(r, m, where));
  return v;
}

Verdict Judge(const Report& r) {
  Verdict v;
  for (const MethodReport& m : r.methods) v.Add(JudgeMethod(r, m));
  if (r.budget) {
    // A refused method has no figures to hold against the budget (the refusal is the verdict).
    bool refused = false;
    for (const MethodReport& m : r.methods) refused |= m.plan.refusal.has_value();
    if (!refused) {
      for (const BudgetCheck& c : CheckBudget(std::span<const Report>(&r, 1), *r.budget)) {
        v.Add(Judged(c.item + " budget"));
        if (c.over())
          v.Add(Item(VerdictKind::kDoesNotFit, Where(r, nullptr), OverBudgetMessage(c)));
      }
    }
  }
  return v;
}

Verdict Judge(const std::vector<Report>& reports) {
  Verdict v;
  for (const Report& r : reports) v.Add(Judge(r));
  return v;
}

Verdict OutcomeVerdict(bool ok, const std::string& judged, const std::string& step,
                       const std::string& error) {
  Verdict v;
  v.judged.push_back(judged);
  if (!error.empty()) {
    v.kind = VerdictKind::kUnknown;
    v.step = error;
  } else if (!ok) {
    v.kind = VerdictKind::kDoesNotFit;
    v.step = step;
  }
  return v;
}

std::string VerdictLine(const Verdict& v) {
  if (v.kind == VerdictKind::kFits) return "fits";
  std::string words = v.kind == VerdictKind::kRefused      ? "refused"
                      : v.kind == VerdictKind::kDoesNotFit ? "does not fit"
                                                           : "unknown";
  return words + ": " + v.where + ": " + v.step;
}

namespace {

std::optional<uint64_t> MethodPoolOf(const Report& r) {
  std::optional<uint64_t> bytes;
  for (const MethodReport& m : r.methods) {
    if (m.plan.refusal) return std::nullopt;
    const uint64_t b = m.runner ? m.runner->result.method().minimum : m.method_bytes;
    if (bytes && *bytes != b) return std::nullopt;
    bytes = b;
  }
  return bytes;
}

// The first refusal: the error and the reason.
std::pair<std::string, std::string> RefusalOf(const Report& r) {
  for (const MethodReport& m : r.methods)
    if (m.plan.refusal) return {m.plan.refusal->error, m.plan.refusal->reason};
  for (const MethodReport& m : r.methods)
    if (m.runner && !m.runner->result.refusals.empty())
      return {"the runner refuses", m.runner->result.refusals.front()};
  return {};
}

const char* Words(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFits: return "FITS";
    case VerdictKind::kUnknown: return "UNKNOWN";
    case VerdictKind::kDoesNotFit: return "DOES NOT FIT";
    case VerdictKind::kRefused: return "REFUSED";
  }
  return "UNKNOWN";
}

}  // namespace

DefaultRelease CompareReleases(const std::string& default_runtime, VerdictKind default_kind,
                               const std::vector<std::string>& versions,
                               const std::vector<const Report*>& reports,
                               const std::vector<std::string>& errors) {
  (void)errors;  // why a release was left out: not shown (its options do not apply there)
  DefaultRelease out;
  out.runtime = default_runtime;
  out.kind = default_kind;
  for (size_t i = 0; i < versions.size(); ++i) {
    // A release the options do not apply to (a runner profile not modelled there) has no
    // verdict to differ: left out.
    if (!reports[i]) continue;
    ReleaseVerdicts row;
    row.first = row.last = versions[i];
    row.kind = Judge(*reports[i]).kind;
    if (row.kind == default_kind) continue;
    std::optional<uint64_t> bytes;
    if (row.kind == VerdictKind::kRefused)
      std::tie(row.error, row.reason) = RefusalOf(*reports[i]);
    else
      bytes = MethodPoolOf(*reports[i]);
    row.min_method_pool_bytes = row.max_method_pool_bytes = bytes;
    // Collapsed with the range before when it ends at the release before this one and has the
    // same verdict (a refusal: the same error).
    if (!out.others.empty() && i > 0 && out.others.back().last == versions[i - 1] &&
        out.others.back().kind == row.kind && out.others.back().error == row.error) {
      ReleaseVerdicts& range = out.others.back();
      range.last = versions[i];
      if (range.min_method_pool_bytes && bytes) {
        range.min_method_pool_bytes = std::min(*range.min_method_pool_bytes, *bytes);
        range.max_method_pool_bytes = std::max(*range.max_method_pool_bytes, *bytes);
      } else {
        range.min_method_pool_bytes.reset();
        range.max_method_pool_bytes.reset();
      }
      continue;
    }
    out.others.push_back(std::move(row));
  }
  return out;
}

std::string DefaultRelease::Line() const {
  std::string line = fmt::format("{} at {}, the default", Words(kind), runtime);
  if (others.empty()) return line + "; the same at every published release";
  for (const ReleaseVerdicts& o : others) {
    const std::string range = o.first == o.last ? o.first : o.first + "\u2013" + o.last;
    line += fmt::format("; {} at {}", Words(o.kind), range);
    if (o.kind == VerdictKind::kRefused) {
      if (!o.error.empty()) line += " (" + o.error + ")";
    } else if (o.min_method_pool_bytes && o.kind == VerdictKind::kDoesNotFit) {
      line += *o.min_method_pool_bytes == *o.max_method_pool_bytes
                  ? fmt::format(" ({} B needed)", *o.min_method_pool_bytes)
                  : fmt::format(" ({}\u2013{} B needed)", *o.min_method_pool_bytes,
                                *o.max_method_pool_bytes);
    }
  }
  return line + ": pass --runtime";
}

}  // namespace etmem::report
