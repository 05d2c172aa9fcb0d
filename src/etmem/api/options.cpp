// Owns: OptionSchema, the one schema of api::Options (field, flag, help, default, parser; see
// include/etmem/etmem.h), its help and defaults composed from the registries (releases,
// targets, runner profiles, kernel libraries). Not: how a client registers or reads the options
// (tools/etmem/model_options.cpp, web/etmem_wasm.cpp, python/).
#include <algorithm>
#include <set>

#include "etmem/abi/abi.h"
#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/base/version.h"
#include "etmem/kernels/library.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/release.h"

namespace etmem::api {
namespace {

using SpecKind = OptionSpec::Kind;

// "a, b or c" / "a, b, c" (joined by `last`).
std::string SchemaJoined(const std::vector<std::string>& items, const std::string& last) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
  return out;
}

[[noreturn]] void SchemaBad(const std::string& flag, const std::string& value, const std::string& why) {
  throw Error(ErrorKind::kInvalidArgument, flag + " '" + Printable(value) + "': " + why);
}

uint64_t SchemaSize(const OptionSpec& spec, const std::string& value) {
  uint64_t v = 0;
  try {
    v = ByteSize(value);
  } catch (const Error&) {
    SchemaBad(spec.flag, value,
        "not a size in bytes (a whole number, optionally followed by K, M or G, 1024-based; or "
        "0x hex)");
  }
  if (v > spec.max) SchemaBad(spec.flag, value, "too large (at most " + std::to_string(spec.max) + ")");
  if (spec.kind == SpecKind::kAlignment && (v == 0 || v > 4096 || (v & (v - 1)) != 0))
    SchemaBad(spec.flag, value, "must be a power of two up to 4096");
  return v;
}

const std::string& SchemaLast(const OptionSpec& spec, const std::vector<std::string>& values) {
  if (values.empty()) throw Error(ErrorKind::kInvalidArgument, spec.flag + " needs a value");
  return values.back();
}

// The releases: minor lines, full versions and the snapshot of main, from the registry.
std::string RuntimeHelp() {
  const std::vector<std::string>& versions = runtime::ReleaseVersions();
  std::vector<std::string> lines;
  for (const std::string& v : versions) {
    const etmem::Version parsed = *etmem::Version::Parse(v);
    const std::string line = std::to_string(parsed.major) + "." + std::to_string(parsed.minor);
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  std::string help = "ExecuTorch release: a minor line " + lines.front() + " ... " + lines.back() +
                     " (its newest patch release), a full version " + versions.front() + " ... " +
                     versions.back();
  const auto snapshots = runtime::AllSnapshots();
  if (!snapshots.empty())
    help += ", or main (the pinned snapshot " + snapshots.back()->version + ")";
  return help;
}

std::string TargetHelp() {
  std::vector<std::string> names;
  for (const abi::Abi& t : abi::BuiltinTargets()) names.push_back(t.name);
  names.push_back("a target file (.json)");
  return "the target: " + SchemaJoined(names, " or ");
}

std::string RunnerHelp() {
  std::vector<std::string> names;
  std::string example;
  for (const auto& p : runner::BuiltinProfiles()) {
    if (std::find(names.begin(), names.end(), p->name) == names.end()) names.push_back(p->name);
    if (example.empty() && !p->options.empty()) example = p->name + "+" + p->options.front().name;
  }
  return "the firmware's runner: a built-in profile (" + SchemaJoined(names, ", ") +
         "; etmem list runners) or a runner file (.json), options joined with '+'" +
         (example.empty() ? "" : ", e.g. " + example) +
         "; its own allocations share the pools with load_method";
}

std::string KernelsHelp() {
  std::vector<std::string> namespaces;
  const auto& newest = runtime::AllReleases().back();
  for (const kernels::KernelLibrary& l : kernels::AllLibrariesAt(newest))
    for (const std::string& ns : l.namespaces)
      if (std::find(namespaces.begin(), namespaces.end(), ns + "::") == namespaces.end())
        namespaces.push_back(ns + "::");
  std::string help = "the kernel libraries for aten operators while the method runs, in order: " +
                     SchemaJoined(kernels::KernelLibraryNames(), " or ");
  if (!namespaces.empty()) help += "; " + SchemaJoined(namespaces, " and ") + " operators select their own";
  return help;
}

std::vector<OptionSpec> BuildSchema() {
  std::vector<OptionSpec> out;
  auto add = [&](OptionSpec s) { out.push_back(std::move(s)); };
  const Options defaults;
  std::string newest;
  for (const std::string& v : runtime::ReleaseVersions()) newest = v;

  OptionSpec s;
  s = {};
  s.field = "runtime", s.flag = "--runtime", s.help = RuntimeHelp(), s.all_allowed = true;
  s.default_help = "(default: " + newest +
                   ", the newest; where a pool is judged, the other releases whose verdict "
                   "differs are named)";
  s.set = [](Options& o, const std::vector<std::string>& v) { o.runtime = v.empty() ? "" : v.back(); };
  add(s);

  s = {};
  s.field = "target", s.flag = "--target", s.help = TargetHelp(), s.all_allowed = true;
  s.default_value = defaults.target, s.default_help = "(default: " + defaults.target + ")";
  s.set = [spec = s](Options& o, const std::vector<std::string>& v) { o.target = SchemaLast(spec, v); };
  add(s);

  s = {};
  s.field = "pool_align", s.flag = "--pool-align", s.kind = SpecKind::kAlignment, s.max = UINT32_MAX;
  s.help = "the pool base is aligned to this many bytes, not to twice as many";
  s.default_help = "(default: the target's malloc alignment)";
  s.set = [spec = s](Options& o, const std::vector<std::string>& v) {
    o.pool_align = static_cast<uint32_t>(SchemaSize(spec, SchemaLast(spec, v)));
  };
  add(s);

  s = {};
  s.field = "temp", s.flag = "--temp", s.kind = SpecKind::kChoice;
  s.choices = {"null", "nonnull", "runner"};
  s.help = "temp allocator passed to load_method: null, nonnull, or runner (what the release's "
           "executor_runner does)";
  s.default_value = defaults.temp, s.default_help = "(default: " + defaults.temp + ")";
  s.set = [spec = s](Options& o, const std::vector<std::string>& v) {
    const std::string& t = SchemaLast(spec, v);
    if (std::find(spec.choices.begin(), spec.choices.end(), t) == spec.choices.end())
      SchemaBad(spec.flag, t, "not one of " + SchemaJoined(spec.choices, ", "));
    o.temp = t;
  };
  add(s);

  s = {};
  s.field = "temp_pool", s.flag = "--temp-pool", s.kind = SpecKind::kBytes;
  s.help = "the temp allocator's size in bytes: checked against load_method and every "
           "instruction while running, and where operator metadata falls back to the method "
           "allocator: from 1.0.0 when it is 0 (an empty temp allocator), on main also when it is "
           "too small";
  s.default_help = "(default: the runner's temp pool, else the portable executor_runner's)";
  s.set = [spec = s](Options& o, const std::vector<std::string>& v) {
    o.temp_pool = SchemaSize(spec, SchemaLast(spec, v));
  };
  add(s);

  s = {};
  s.field = "external_data", s.flag = "--external-data", s.kind = SpecKind::kFlag;
  s.help = "the runner passes a NamedDataMap (.ptd) to load_method; --external-data FILE.ptd: "
           "that file, checked as the release would";
  s.set = [](Options& o, const std::vector<std::string>& v) {
    o.external_data = true;
    if (!v.empty() && !v.back().empty()) o.external_data_file = v.back();
  };
  add(s);

  s = {};
  s.field = "backends", s.flag = "--backend", s.kind = SpecKind::kList;
  s.help = "ID=BYTES[:ALIGN]: what a backend etmem does not model allocates from the method "
           "allocator in init() (repeatable; BYTES 0 = nothing)";
  s.set = [](Options& o, const std::vector<std::string>& v) {
    o.backends.insert(o.backends.end(), v.begin(), v.end());
  };
  add(s);

  s = {};
  s.field = "runner", s.flag = "--runner", s.help = RunnerHelp();
  s.default_help = "(default: the release's portable executor_runner)";
  s.set = [](Options& o, const std::vector<std::string>& v) { o.runner = v.empty() ? "" : v.back(); };
  add(s);

  s = {};
  s.field = "kernels", s.flag = "--kernels", s.kind = SpecKind::kList, s.delimiter = ',';
  s.help = KernelsHelp();
  s.choices = kernels::KernelLibraryNames();
  s.default_help = std::string("(default: ") + kernels::kDefaultKernelLibrary + ")";
  s.set = [](Options& o, const std::vector<std::string>& v) {
    o.kernels.insert(o.kernels.end(), v.begin(), v.end());
  };
  add(s);

  s = {};
  s.field = "pool", s.flag = "--pool", s.kind = SpecKind::kBytes, s.model = false;
  s.help = "check whether a method-allocator pool of this many bytes loads";
  s.set = [spec = s](Options& o, const std::vector<std::string>& v) {
    o.pool = SchemaSize(spec, SchemaLast(spec, v));
  };
  add(s);

  s = {};
  s.field = "method", s.flag = "--method", s.model = false;
  s.help = "only this method";
  s.default_help = "(default: every method)";
  s.set = [](Options& o, const std::vector<std::string>& v) { o.method = v.empty() ? "" : v.back(); };
  add(s);
  return out;
}

}  // namespace

const std::vector<OptionSpec>& OptionSchema() {
  static const std::vector<OptionSpec> schema = BuildSchema();
  return schema;
}

}  // namespace etmem::api
