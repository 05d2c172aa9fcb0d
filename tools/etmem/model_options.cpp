// Owns: AddModelOptions, ToApiOptions and BuildSingleReport (see model_options.h).
#include "model_options.h"

#include <charconv>
#include <algorithm>
#include <iostream>
#include <optional>
#include <string_view>

#include "commands.h"
#include "etmem/base/byte_size.h"
#include "etmem/base/printable.h"
#include "etmem/abi/abi.h"
#include "etmem/runtime/release.h"

namespace etmem::cli {
namespace {

std::string CheckPowerOfTwoUpTo4096(std::string& s) {
  unsigned long v = 0;
  try {
    v = std::stoul(s);
  } catch (...) {
    return "not a number";
  }
  return (v >= 1 && v <= 4096 && (v & (v - 1)) == 0) ? "" : "must be a power of two up to 4096";
}

// `text` as a whole number (digits only; a count, not a size), nullopt on anything else or an
// overflow.
std::optional<uint64_t> WholeNumber(std::string_view text) {
  constexpr int base = 10;
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  if (text.empty() || text[0] == '+' || text[0] == '-') return std::nullopt;
  const auto [stop, ec] = std::from_chars(text.data(), end, v, base);
  if (ec != std::errc() || stop != end) return std::nullopt;
  return v;
}

CLI::Option* Strict(CLI::Option* option, uint64_t max, bool bytes) {
  const std::string name = option->get_name();
  return option->transform(CLI::Validator(
      [name, max, bytes](std::string& s) {
        const std::string what = bytes ? "not a size in bytes (a whole number, optionally "
                                         "followed by K, M or G, 1024-based; or 0x hex)"
                                       : "not a whole number";
        std::optional<uint64_t> v;
        if (!bytes) {
          v = WholeNumber(s);
        } else if (auto sized = ParseByteSize(s)) {  // the one grammar: K, M, G, 0x
          v = *sized;
        }
        if (!v) throw OneLineUsageError(name + " '" + Printable(s) + "': " + what);
        if (*v > max)
          throw OneLineUsageError(name + " '" + Printable(s) + "': too large (at most " +
                                  std::to_string(max) + ")");
        s = std::to_string(*v);
        return std::string();
      },
      ""));
}

}  // namespace

CLI::Validator PowerOfTwoUpTo4096() {
  return CLI::Validator(CheckPowerOfTwoUpTo4096, "POWER_OF_TWO");
}

CLI::Option* Bytes(CLI::Option* option, uint64_t max) { return Strict(option, max, true); }
CLI::Option* Count(CLI::Option* option, uint64_t max) { return Strict(option, max, false); }

std::vector<std::string> ParseArgs(int argc, char** argv) {
  std::vector<std::string> out;
  for (int i = argc - 1; i > 0; --i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--external-data" && std::string_view(argv[i + 1]).ends_with(".ptd")) {
      out.back() = "--external-data-file=" + out.back();
      out.push_back(a);
    } else if (a.starts_with("--external-data=")) {
      out.push_back("--external-data-file=" + a.substr(16));
      out.push_back("--external-data");
    } else {
      out.push_back(a);
    }
  }
  return out;
}

api::Options ToApiOptions(const ModelArgs& args) {
  api::Options o;
  o.runtime = args.runtime;
  o.target = args.target;
  o.pool_align = args.pool_align;
  o.temp = args.temp;
  o.temp_pool = args.temp_pool;
  o.external_data = args.external_data;
  o.external_data_file = args.external_data_file;
  o.backends = args.backends;
  o.runner = args.runner;
  o.kernels = args.kernels;
  return o;
}

void AddModelOptions(CLI::App* cmd, ModelArgs& args, bool all_allowed) {
  const std::string all = all_allowed ? ", or all" : "";
  cmd->add_option("--runtime", args.runtime,
                  "ExecuTorch release: 0.1 ... 1.4, 1.4.1, or main (a pinned snapshot)" + all +
                      " (default: " + runtime::ReleaseVersions().back() +
                      ", the newest; where a pool is judged, the other releases whose verdict "
                      "differs are named)");
  cmd->add_option("--target", args.target,
                  "cortex-m, riscv32, xtensa, aarch64, x86_64, a target file (.json)" + all)
      ->capture_default_str();
  Bytes(cmd->add_option("--pool-align", args.pool_align,
                        "the pool base is aligned to this many bytes, not to twice as many "
                        "(default: the target's malloc alignment)"),
        UINT32_MAX)
      ->check(PowerOfTwoUpTo4096());
  cmd->add_option("--temp", args.temp,
                  "temp allocator passed to load_method: null, nonnull, or runner (what the "
                  "release's executor_runner does)")
      ->check(CLI::IsMember({"null", "nonnull", "runner"}))
      ->capture_default_str();
  Bytes(cmd->add_option("--temp-pool", args.temp_pool,
                        "the temp allocator's size in bytes: checked against load_method and "
                        "every instruction while running, and where operator metadata falls back "
                        "to the method allocator: from 1.0.0 when it is 0 (an empty temp "
                        "allocator), on main also when it is too small; default: the runner's "
                        "temp pool, else the portable executor_runner's"));
  // A flag that may take the .ptd: "--external-data" alone, or "--external-data=FILE.ptd"
  // ("--external-data FILE.ptd" becomes that form in ParseArgs). A flag never takes the next
  // argument, so "--external-data PROGRAM.pte" keeps its meaning.
  cmd->add_flag_callback(
      "--external-data", [&args] { args.external_data = true; },
      "the runner passes a NamedDataMap (.ptd) to load_method; --external-data FILE.ptd: that "
      "file, checked as the release would");
  cmd->add_option("--external-data-file", args.external_data_file)->group("");
  cmd->add_option("--backend", args.backends,
                  "ID=BYTES[:ALIGN]: what a backend etmem does not model allocates from the "
                  "method allocator in init() (repeatable; BYTES 0 = nothing)");
  cmd->add_option("--runner", args.runner,
                  "the firmware's runner: a built-in profile (etmem list runners) or a runner "
                  "file (.json), options joined with '+', e.g. arm-baremetal+etdump; its own "
                  "allocations share the pools with load_method");
  cmd->add_option("--kernels", args.kernels,
                  "the kernel libraries for aten operators while the method runs, in order: "
                  "portable, optimized, quantized, cortex_m, cadence_hifi, cadence_fusion_g3 "
                  "or cadence_vision (default: portable); cadence::, cortex_m:: and "
                  "quantized_decomposed:: operators select their own")
      ->delimiter(',');
}

api::Report BuildSingleReport(const api::Program& program, const ModelArgs& args,
                              const std::string& method, const api::Board* board) {
  api::Options o = ToApiOptions(args);
  o.method = method;
  return board ? api::Analyze(program, o, *board) : api::Analyze(program, o);
}

int Guarded(const std::function<int()>& run) {
  try {
    return run();
  } catch (const api::Error& e) {
    return FailInvalid(e.what());
  }
}

int FailInvalid(const std::string& message) {
  std::cerr << "etmem: " << message << "\n";
  return kExitInvalid;
}

bool ReportRefusals(std::span<const api::Report> reports) {
  std::string first;
  size_t more = 0;
  std::vector<std::string> releases;  // the releases refusing, when they refuse alike
  std::string alike;                  // the first refusal's method, error and reason
  bool same = true;
  for (const api::Report& report : reports) {
    const report::Report& r = api::Internal(report);
    for (const auto& m : r.methods) {
      if (!m.plan.refusal) continue;
      const std::string key = r.program->path + '\0' + std::string(m.method->name) + '\0' +
                              m.plan.refusal->error + '\0' + m.plan.refusal->reason;
      if (first.empty()) {
        first = api::RefusalLine(r, m);
        alike = key;
      } else {
        ++more;
        same &= key == alike;
      }
      if (std::find(releases.begin(), releases.end(), r.assumptions.runtime) == releases.end())
        releases.push_back(r.assumptions.runtime);
    }
  }
  if (first.empty()) return false;
  if (more > 0 && same && releases.size() == 1) {
    std::cerr << "etmem: " << first << " (at every target asked)\n";
  } else if (more > 0 && same) {
    std::string list;
    for (const std::string& v : releases) list += (list.empty() ? "" : ", ") + v;
    std::cerr << "etmem: " << first << " (so do " << list.substr(list.find(", ") + 2) << ")\n";
  } else if (more > 0) {
    std::cerr << "etmem: " << first << " (and " << more << " more refusal(s))\n";
  } else {
    std::cerr << "etmem: " << first << "\n";
  }
  return true;
}

bool ReportRefusals(const api::Report& report) {
  return ReportRefusals(std::span<const api::Report>(&report, 1));
}

int ExitFor(const api::Verdict& verdict) { return api::ExitStatus(verdict); }

}  // namespace etmem::cli
