// `etmem summary PROGRAM.pte [model options]`: one screen for a person: per method the RAM
// (method pool + planned buffers + temp load peak) and the file's flash, what `etmem replan`
// and the advisories would save (each re-planned, never estimated), the biggest single cost, and
// the temp allocator while running (kernels/run_temp.h).
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "model_options.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/duplicate_constants.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/report/figures.h"
#include "etmem/report/run_temp_text.h"
#include "etmem/report/runner_rows.h"
#include "etmem/runtime/sites.h"

namespace etmem::cli {
namespace {

constexpr uint64_t kAlignment = 16;  // what `etmem replan` aligns offsets to by default

struct SummaryArgs {
  std::string program;
  std::string method;
  ModelArgs model;
};

// The planned-memory figures of one method: re-planned, and re-planned with every advisory.
struct PlanFigures {
  std::vector<plan::BufferReplan> buffers;  // stored and re-planned size of each buffer
  std::vector<plan::Advice> advice;
  std::vector<int64_t> advised_sizes;  // re-planned without every advised tensor, index 0 reserved
  int64_t replanned_total() const {
    int64_t t = 0;
    for (const plan::BufferReplan& b : buffers) t += b.after;
    return t;
  }
  int64_t advised_total() const {
    int64_t t = 0;
    for (size_t i = 1; i < advised_sizes.size(); ++i) t += advised_sizes[i];
    return t;
  }
};

Result<PlanFigures> ComputePlanFigures(const pte::ProgramView& p, const pte::MethodView& m) {
  ETMEM_TRY(plan::Lifetimes l, plan::ComputeLifetimes(m));
  PlanFigures f;
  f.buffers = plan::ReplanMethod(l, kAlignment).buffers;
  f.advice = plan::Advise(m, l, kAlignment);
  f.advised_sizes = plan::ReplannedSizesWithout(l, plan::AdvisedValues(f.advice), kAlignment);
  return f;
}

std::string BufferName(const report::MethodReport& m, uint32_t id) {
  return report::PlannedBuffers(m).size() == 1 ? "the planned buffer"
                                               : fmt::format("planned buffer {}", id);
}

// The largest of the method pool, each planned buffer and the temp load peak.
std::string BiggestCost(const report::MethodReport& m, const PlanFigures& f) {
  uint64_t best = m.method_bytes;
  size_t top = 0;
  for (size_t c = 1; c < m.by_category.size(); ++c)
    if (m.by_category[c].bytes > m.by_category[top].bytes) top = c;
  std::string text = fmt::format("the method allocator pool: {}{} B (largest part: {}, {} B)",
                                 m.plan.exact() ? "" : "at least ", m.method_bytes,
                                 runtime::CategoryName(static_cast<runtime::Category>(top)),
                                 m.by_category[top].bytes);
  for (const plan::BufferReplan& b : f.buffers) {
    if (b.before < 0 || static_cast<uint64_t>(b.before) <= best) continue;
    best = static_cast<uint64_t>(b.before);
    text = fmt::format("{}: {} B", BufferName(m, b.memory_id), b.before);
    if (b.after < b.before) text += fmt::format(", {} B after etmem replan", b.after);
  }
  if (m.temp_load_peak_bytes > best)
    text = fmt::format("the temp allocator's peak during load: {} B", m.temp_load_peak_bytes);
  if (m.run_temp.peak_bytes > std::max(best, m.temp_load_peak_bytes))
    text = fmt::format("the temp allocator's peak while running: {} B", m.run_temp.peak_bytes);
  return text;
}

void PrintSavings(const report::MethodReport& m, const PlanFigures& f, const std::string& path) {
  const auto planned = static_cast<int64_t>(report::PlannedBytes(m));
  const int64_t replan_saving = planned - f.replanned_total();
  const auto ram = static_cast<int64_t>(report::RamBytes(m));
  std::cout << "  what would save RAM:\n";
  if (replan_saving > 0)
    std::cout << fmt::format("    etmem replan {} -o SMALLER.pte: {} B (planned {} B -> {} B; "
                             "RAM {} B)\n",
                             path, replan_saving, planned, f.replanned_total(),
                             ram - replan_saving);
  else
    std::cout << "    etmem replan: nothing, the stored plan is as small as etmem's planners get\n";
  for (const plan::Advice& a : f.advice)
    std::cout << fmt::format("    {} (value {}, {} B, {} at instruction {}): saves {} B more "
                             "(re-planned buffer {}: {} B -> {} B without it)\n",
                             plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                             a.planned_saving(), a.memory_id, a.replanned, a.replanned_without);
  if (f.advice.size() > 1)
    std::cout << fmt::format("    all {} advisories together: save {} B more (planned {} B -> "
                             "{} B)\n",
                             f.advice.size(), f.replanned_total() - f.advised_total(),
                             f.replanned_total(), f.advised_total());
  if (f.advice.empty()) std::cout << "    no advisories (etmem plan lists them)\n";
}

void PrintMethod(const report::Report& r, const report::MethodReport& m, const PlanFigures& f,
                 const std::string& path) {
  const std::string at_least = m.plan.exact() ? "" : "at least ";
  std::cout << fmt::format("method '{}'\n", m.method->name);
  if (m.runner) {  // the runner's pools, under its own names
    std::string parts;
    for (const sim::RunnerPoolResult& p : m.runner->result.pools)
      parts += fmt::format("{}{} {} B{}", parts.empty() ? "" : " + ",
                           report::RunnerPoolName(m.runner->pool_spec(p.pool)),
                           report::RunnerPoolBytes(m, p),
                           !p.temp_role                                    ? ""
                           : m.run_temp.peak_bytes > p.minimum ? " (while running)"
                                                               : " (at load)");
    if (!report::RunnerHoldsPlannedBuffers(*m.runner))
      parts += fmt::format(" + planned buffers {} B", report::PlannedBytes(m));
    std::cout << fmt::format("  RAM {}{} B = {} (runner {})\n", at_least, report::RamBytes(m),
                             parts, m.runner->plan.profile->name);
  } else {
    const bool run_sets = m.run_temp.peak_bytes > m.temp_load_peak_bytes;
    std::cout << fmt::format("  RAM {}{} B = method pool {}{} B + planned buffers {} B + {} {} B\n",
                             at_least, report::RamBytes(m), at_least, m.method_bytes,
                             report::PlannedBytes(m),
                             run_sets ? "temp run-time peak" : "temp load peak",
                             report::TempPoolBytes(m));
  }
  for (const auto& u : m.plan.unknowns)
    std::cout << fmt::format("  unknown: delegate {} ({}): {}\n", u.delegate, u.backend, u.why);
  std::cout << "  temp allocator at run time: " << report::RunTempLine(m) << "\n";
  for (const std::string& line : report::RunTempDetail(r, m, 4))
    std::cout << "    " << line << "\n";
  std::cout << "  biggest single cost: " << BiggestCost(m, f) << "\n";
  PrintSavings(m, f, path);
}

void PrintFlash(const report::FlashBreakdown& f) {
  std::cout << fmt::format("flash {} B (the file: {} B program metadata, {} B constants, {} B "
                           "delegate blobs)\n",
                           f.file_bytes, f.metadata_bytes,
                           f.inline_constant_bytes + f.segment_constant_bytes,
                           f.inline_delegate_bytes + f.segment_delegate_bytes);
}

void PrintFlashSavings(const pte::ProgramView& program) {
  const std::vector<plan::DuplicateConstants> duplicates = plan::FindDuplicateConstants(program);
  if (duplicates.empty()) {
    std::cout << "  what would save flash: no duplicate constants\n";
    return;
  }
  uint64_t flash = 0;
  for (const plan::DuplicateConstants& g : duplicates) flash += g.flash_saving();
  std::cout << fmt::format("  what would save flash: duplicate-constants: {} B in {} group(s) of "
                           "identical constants, by storing each once at export time (etmem plan "
                           "lists them); {}\n",
                           flash, duplicates.size(), plan::DuplicateConstantsRam());
}

int RunSummary(const SummaryArgs& args) {
  const api::Program opened = api::Program::Open(args.program);
  const api::Report analysed = BuildSingleReport(opened, args.model, args.method);
  const pte::ProgramView* program = &api::Internal(opened);
  const report::Report* r = &api::Internal(analysed);
  if (ReportRefusals(*r)) return kExitInvalid;
  std::cout << fmt::format("{}: ExecuTorch {}, target {}, pool base aligned to {} B, {} temp "
                           "allocator at load\n",
                           args.program, r->assumptions.runtime, r->assumptions.target,
                           r->assumptions.pool_align, r->assumptions.temp_allocator ? "a" : "no");
  PrintFlash(r->flash);
  const report::FlashLoad& load = r->flash_load;
  std::cout << fmt::format("  {}: {} B stay in flash, read in place; {} B copied to RAM at load "
                           "({} B written into the planned buffers); {} B backend-dependent: "
                           "unknown\n",
                           report::kBufferDataLoaderAssumption,
                           load.bytes(report::FlashUse::kReadInPlace),
                           load.bytes(report::FlashUse::kCopiedToRam), load.ram_bytes(),
                           load.bytes(report::FlashUse::kBackendDependent));
  PrintFlashSavings(*program);
  for (const report::MethodReport& m : r->methods) {
    auto f = ComputePlanFigures(*program, *m.method);
    if (!f) return FailInvalid(args.program + ": " + f.error().message);
    PrintMethod(*r, m, *f, args.program);
  }
  return kExitOk;
}

}  // namespace

static Run DefineSummary(CLI::App* cmd) {
  auto args = std::make_shared<SummaryArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--method", args->method, "only this method");
  AddModelOptions(cmd, args->model);
  return [args]() { return Guarded([&] { return RunSummary(*args); }); };
}

const Verb kSummaryVerb{"summary", "One screen: total RAM and flash, what re-planning and the advisories would "
    "save, and the biggest single cost", DefineSummary};

}  // namespace etmem::cli
