// `etmem analyze`: the method-allocator requirement of a program for one or all (release,
// target) pairs. The program is read and verified once; each pair only re-plans and simulates.
#include <iostream>
#include <memory>

#include "commands.h"
#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/report/text_report.h"
#include "etmem/runtime/release.h"

namespace etmem::cli {
namespace {

struct AnalyzeArgs {
  std::string program;
  std::string runtime = runtime::AllReleases().back().version;  // the newest modelled
  std::string target = "cortex-m";
  std::optional<uint32_t> pool_align;
  std::string temp = "runner";
  std::optional<uint64_t> pool;
  std::string method;
  std::string format = "text";
  bool external_data = false;
  bool allocations = false;
};

Result<std::vector<const runtime::RuntimeTraits*>> SelectReleases(const std::string& v) {
  std::vector<const runtime::RuntimeTraits*> out;
  if (v == "all") {
    for (const auto& r : runtime::AllReleases()) out.push_back(&r);
    return out;
  }
  ETMEM_TRY(const runtime::RuntimeTraits* r, runtime::FindRelease(v));
  out.push_back(r);
  return out;
}

Result<std::vector<abi::Abi>> SelectTargets(const std::string& v) {
  if (v == "all") return abi::BuiltinTargets();
  ETMEM_TRY(abi::Abi a, abi::ResolveTarget(v));
  return std::vector<abi::Abi>{a};
}

Result<report::Report> AnalyzeOne(const pte::ProgramView& program, const runtime::RuntimeTraits& release,
                                   const abi::Abi& target, const AnalyzeArgs& args) {
  runtime::RuntimeModel model(release, target);
  report::ReportOptions o;
  o.temp_is_runner_default = args.temp == "runner";
  o.load.temp_allocator = o.temp_is_runner_default ? release.runner_passes_temp : args.temp == "nonnull";
  o.load.external_data_map = args.external_data;
  o.pool_align = args.pool_align.value_or(target.malloc_align);
  o.pool_bytes = args.pool;
  o.method = args.method;
  return report::BuildReport(program, model, o);
}

int Fail(const std::string& message) {
  std::cerr << "etmem: " << message << "\n";
  return kExitInvalid;
}

bool AnyRefused(const report::Report& r) {
  for (const auto& m : r.methods)
    if (m.plan.refusal) return true;
  return false;
}

bool AnyDoesNotFit(const report::Report& r) {
  for (const auto& m : r.methods)
    if (m.pool_check && !m.pool_check->fits) return true;
  return false;
}

void Print(const std::vector<report::Report>& reports, bool single, const AnalyzeArgs& args) {
  if (args.format == "json") {
    if (single) {
      std::cout << report::ToJson(reports.front()).dump(1) << "\n";
    } else {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& r : reports) all.push_back(report::ToJson(r));
      std::cout << all.dump(1) << "\n";
    }
  } else if (single) {
    std::cout << report::ToText(reports.front(), {.all_allocations = args.allocations});
  } else {
    std::cout << report::ToTextMatrix(reports);
  }
}

int RunAnalyze(const AnalyzeArgs& args) {
  auto program = pte::ReadProgram(args.program);
  if (!program) return Fail(program.error().message);
  auto releases = SelectReleases(args.runtime);
  if (!releases) return Fail(releases.error().message);
  auto targets = SelectTargets(args.target);
  if (!targets) return Fail(targets.error().message);
  if (args.pool && *args.pool > UINT32_MAX)
    return Fail("--pool " + std::to_string(*args.pool) +
                " is larger than any MemoryAllocator can be (its size is a uint32_t)");
  std::vector<report::Report> reports;
  for (const auto* release : *releases)
    for (const auto& target : *targets) {
      auto r = AnalyzeOne(*program, *release, target, args);
      if (!r) return Fail(r.error().message);
      reports.push_back(std::move(r).value());
    }
  const bool single = reports.size() == 1;
  Print(reports, single, args);
  for (const auto& r : reports)
    if (AnyRefused(r)) {
      for (const auto& m : r.methods)
        if (m.plan.refusal)
          std::cerr << "etmem: " << args.program << ": ExecuTorch " << r.assumptions.runtime
                    << " refuses method '" << m.method->name << "' (" << m.plan.refusal->error
                    << "): " << m.plan.refusal->reason << "\n";
      return kExitInvalid;
    }
  for (const auto& r : reports)
    if (AnyDoesNotFit(r)) return kExitDoesNotFit;
  return kExitOk;
}

}  // namespace

Command AddAnalyzeCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyze", "How many bytes the method allocator needs, and where they go");
  auto args = std::make_shared<AnalyzeArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--runtime", args->runtime, "ExecuTorch release: 0.3 ... 1.4, 1.4.1, or all")
      ->capture_default_str();
  cmd->add_option("--target", args->target,
                  "cortex-m, riscv32, xtensa, aarch64, x86_64, a target file (.json), or all")
      ->capture_default_str();
  cmd->add_option("--pool-align", args->pool_align,
                  "the pool base is aligned to this many bytes, not to twice as many "
                  "(default: the target's malloc alignment)")
      ->check(CLI::Validator([](std::string& s) {
        unsigned long v = 0;
        try { v = std::stoul(s); } catch (...) { return std::string("not a number"); }
        return (v >= 1 && v <= 4096 && (v & (v - 1)) == 0) ? std::string() : std::string("must be a power of two up to 4096");
      }, "POWER_OF_TWO"));
  cmd->add_option("--temp", args->temp,
                  "temp allocator passed to load_method: null, nonnull, or runner (what the "
                  "release's executor_runner does: null up to 0.5, non-null from 0.6)")
      ->check(CLI::IsMember({"null", "nonnull", "runner"}))
      ->capture_default_str();
  cmd->add_option("--pool", args->pool, "check whether a method-allocator pool of this many bytes loads");
  cmd->add_option("--method", args->method, "analyze only this method");
  cmd->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_flag("--external-data", args->external_data,
                "the runner passes a NamedDataMap (.ptd) to load_method");
  cmd->add_flag("--allocations", args->allocations, "text: list every allocation in order");
  return {cmd, [args]() { return RunAnalyze(*args); }};
}

}  // namespace etmem::cli
