// Owns: AddModelOptions and BuildSingleReport (see model_options.h).
#include "model_options.h"

#include <iostream>

#include "commands.h"
#include "etmem/base/printable.h"
#include "etmem/abi/abi.h"
#include "etmem/runtime/release.h"

namespace etmem::cli {
namespace {

std::string CheckPoolAlign(std::string& s) {
  unsigned long v = 0;
  try {
    v = std::stoul(s);
  } catch (...) {
    return "not a number";
  }
  return (v >= 1 && v <= 4096 && (v & (v - 1)) == 0) ? "" : "must be a power of two up to 4096";
}

Error NeedsOne(const char* option) {
  return MakeError(
      ErrorCode::kInvalidArgument,
      std::string(option) + " all: this verb needs one value (etmem analyze takes all)");
}

// "ID=BYTES[:ALIGN]": what backend ID's init() takes from the method allocator.
Result<std::pair<std::string, runtime::DeclaredBackendInit>> ParseBackend(const std::string& s) {
  auto bad = [&](const std::string& why) {
    return MakeError(ErrorCode::kInvalidArgument, "--backend " + s + ": " + why +
                                                      " (want ID=BYTES or ID=BYTES:ALIGN)");
  };
  const size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return bad("no backend id");
  runtime::DeclaredBackendInit d;
  const std::string value = s.substr(eq + 1);
  const size_t colon = value.find(':');
  try {
    size_t used = 0;
    d.bytes = std::stoull(value.substr(0, colon), &used);
    if (used != value.substr(0, colon).size()) return bad("BYTES is not a number");
    if (colon != std::string::npos) d.align = static_cast<uint32_t>(std::stoul(value.substr(colon + 1)));
  } catch (...) {
    return bad("not a number");
  }
  if (d.bytes > UINT32_MAX) return bad("BYTES above 4 GiB");
  if (d.align == 0 || d.align > 4096 || (d.align & (d.align - 1)) != 0)
    return bad("ALIGN must be a power of two up to 4096");
  return std::pair{s.substr(0, eq), d};
}

}  // namespace

Result<report::ReportOptions> MakeReportOptions(const ModelArgs& args,
                                                const runtime::RuntimeTraits& release,
                                                const abi::Abi& target) {
  report::ReportOptions o;
  o.temp_is_runner_default = args.temp == "runner";
  o.load.temp_allocator =
      o.temp_is_runner_default ? release.runner_passes_temp : args.temp == "nonnull";
  o.load.external_data_map = args.external_data;
  o.pool_align = args.pool_align.value_or(target.malloc_align);
  for (const std::string& b : args.backends) {
    ETMEM_TRY(auto declared, ParseBackend(b));
    o.load.declared_backends[declared.first] = declared.second;
  }
  if (!args.runner.empty()) {
    ETMEM_TRY(o.runner, runner::SelectRunner(args.runner));
    o.runner.pool_align = args.pool_align;
  }
  return o;
}

void AddModelOptions(CLI::App* cmd, ModelArgs& args, bool all_allowed) {
  const std::string all = all_allowed ? ", or all" : "";
  cmd->add_option("--runtime", args.runtime, "ExecuTorch release: 0.1 ... 1.4, 1.4.1" + all)
      ->capture_default_str();
  cmd->add_option("--target", args.target,
                  "cortex-m, riscv32, xtensa, aarch64, x86_64, a target file (.json)" + all)
      ->capture_default_str();
  cmd->add_option("--pool-align", args.pool_align,
                  "the pool base is aligned to this many bytes, not to twice as many "
                  "(default: the target's malloc alignment)")
      ->check(CLI::Validator(CheckPoolAlign, "POWER_OF_TWO"));
  cmd->add_option("--temp", args.temp,
                  "temp allocator passed to load_method: null, nonnull, or runner (what the "
                  "release's executor_runner does)")
      ->check(CLI::IsMember({"null", "nonnull", "runner"}))
      ->capture_default_str();
  cmd->add_flag("--external-data", args.external_data,
                "the runner passes a NamedDataMap (.ptd) to load_method");
  cmd->add_option("--backend", args.backends,
                  "ID=BYTES[:ALIGN]: what a backend etmem does not model allocates from the "
                  "method allocator in init() (repeatable; BYTES 0 = nothing)");
  cmd->add_option("--runner", args.runner,
                  "the firmware's runner: a built-in profile (etmem list runners) or a runner "
                  "file (.json), options joined with '+', e.g. arm-baremetal+etdump; its own "
                  "allocations share the pools with load_method");
}

Result<report::Report> BuildSingleReport(const pte::ProgramView& program, const ModelArgs& args,
                                         const std::string& method) {
  if (args.runtime == "all") return NeedsOne("--runtime");
  if (args.target == "all") return NeedsOne("--target");
  ETMEM_TRY(const runtime::RuntimeTraits* release, runtime::FindRelease(args.runtime));
  ETMEM_TRY(abi::Abi target, abi::ResolveTarget(args.target));
  runtime::RuntimeModel model(*release, target);
  ETMEM_TRY(report::ReportOptions o, MakeReportOptions(args, *release, target));
  o.method = method;
  return report::BuildReport(program, model, o);
}

int FailInvalid(const std::string& message) {
  std::cerr << "etmem: " << message << "\n";
  return kExitInvalid;
}

bool ReportRefusals(const report::Report& r) {
  bool any = false;
  for (const auto& m : r.methods) {
    if (!m.plan.refusal) continue;
    std::cerr << "etmem: " << r.program->path << ": ExecuTorch " << r.assumptions.runtime
              << " refuses method '" << Printable(m.method->name) << "' (" << m.plan.refusal->error
              << "): " << m.plan.refusal->reason << "\n";
    any = true;
  }
  return any;
}

}  // namespace etmem::cli
