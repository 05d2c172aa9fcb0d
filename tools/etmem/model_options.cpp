// Owns: AddModelOptions, ToApiOptions and BuildSingleReport (see model_options.h).
#include "model_options.h"

#include <charconv>
#include <algorithm>
#include <iostream>
#include <optional>
#include <string_view>

#include "commands.h"

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
        } else {
          try {
            v = api::ByteSize(s);  // the one grammar: K, M, G, 0x
          } catch (const api::Error&) {
          }
        }
        if (!v) throw OneLineUsageError(name + " '" + api::PrintableText(s) + "': " + what);
        if (*v > max)
          throw OneLineUsageError(name + " '" + api::PrintableText(s) + "': too large (at most " +
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

api::Options ToApiOptions(const ModelArgs& args) { return args; }

void AddModelOptions(CLI::App* cmd, api::Options& options, const ModelOptionUse& use) {
  for (const api::OptionSpec& spec : api::OptionSchema()) {
    const bool wanted = use.only.empty()
                            ? spec.model
                            : std::find(use.only.begin(), use.only.end(), spec.field) != use.only.end();
    if (!wanted) continue;
    std::string help = spec.help + (use.all_allowed && spec.all_allowed ? ", or all" : "");
    std::string default_help = spec.default_help;
    for (const auto& [field, said] : use.defaults)
      if (field == spec.field) default_help = said;
    if (!default_help.empty()) help += " " + default_help;
    const api::OptionSpec* sp = &spec;  // the schema lives as long as the process
    api::Options* o = &options;
    using Kind = api::OptionSpec::Kind;
    if (spec.kind == Kind::kFlag) {
      // A flag that may take a file: "--external-data" alone, or "--external-data=FILE.ptd"
      // ("--external-data FILE.ptd" becomes that form in ParseArgs, as the hidden
      // --external-data-file). A flag never takes the next argument, so "--external-data
      // PROGRAM.pte" keeps its meaning.
      cmd->add_flag_callback(spec.flag, [sp, o] { sp->set(*o, {}); }, help);
      cmd->add_option_function<std::string>(
             spec.flag + "-file", [sp, o](const std::string& v) { sp->set(*o, {v}); })
          ->group("");
      continue;
    }
    if (spec.kind == Kind::kList) {
      CLI::Option* opt = cmd->add_option_function<std::vector<std::string>>(
          spec.flag, [sp, o](const std::vector<std::string>& v) { sp->set(*o, v); }, help);
      if (spec.delimiter) opt->delimiter(spec.delimiter);
      continue;
    }
    CLI::Option* opt = cmd->add_option_function<std::string>(
        spec.flag, [sp, o](const std::string& v) { sp->set(*o, {v}); }, help);
    if (spec.kind == Kind::kChoice) opt->check(CLI::IsMember(spec.choices));
    if (spec.kind == Kind::kBytes) Bytes(opt, spec.max);
    if (spec.kind == Kind::kAlignment) Bytes(opt, spec.max)->check(PowerOfTwoUpTo4096());
  }
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
  const std::string line = api::RefusalsLine(reports);
  if (line.empty()) return false;
  std::cerr << "etmem: " << line << "\n";
  return true;
}

bool ReportRefusals(const api::Report& report) {
  return ReportRefusals(std::span<const api::Report>(&report, 1));
}

int ExitFor(const api::Verdict& verdict) { return api::ExitStatus(verdict); }

}  // namespace etmem::cli
