// `etmem probe`: measures a custom build's ABI and runtime type layouts with the user's own
// (cross) compiler, without running any target code, writes a target-description file for
// --target, and says where etmem's computed layouts disagree.
// Not: probing (api::Probe, include/etmem/etmem.h; src/etmem/measure/probe.h) or its text
// (report/probe_text.h).
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

int RunProbe(const api::ProbeOptions& args) {
  std::cout << api::Probe(args).output;
  return kExitOk;
}

}  // namespace

static Run DefineProbe(CLI::App* cmd) {
  auto args = std::make_shared<api::ProbeOptions>();
  cmd->add_option("--executorch", args->executorch,
                  "the ExecuTorch source tree (its headers are probed)")
      ->required();
  cmd->add_option("--cxx", args->cxx, "the (cross) C++ compiler of the build")->required();
  cmd->add_option("--cxxflags", args->cxxflags,
                  "the build's compiler flags, e.g. \"-mcpu=cortex-m55\"");
  cmd->add_option("--release,--runtime", args->release,
                  "the release to compare the layouts with (default: newest)");
  cmd->add_option("-o,--output", args->output, "the target-description file to write")->required();
  cmd->add_option("--name", args->name, "the target's name (default: the output file's stem)");
  cmd->add_flag("--keep-temp", args->keep, "keep the generated probe sources and compiler logs");
  auto format = std::make_shared<std::string>("text");
  cmd->add_option("--format", *format, "text or json")
      ->check(CLI::IsMember(api::FormatNames("probe")))
      ->capture_default_str();
  return [args, format]() {
    args->format = *format == "json" ? api::Format::kJson : api::Format::kText;
    return Guarded([&] { return RunProbe(*args); });
  };
}

const Verb kProbeVerb{"probe", "Measure a custom build's ABI with its own compiler and write a --target file", DefineProbe};

}  // namespace etmem::cli
