// Owns: `etmem probe` as a structured value: a custom build's ABI and runtime type layouts
// measured with the user's own (cross) compiler from the object file it compiles (nothing
// runs), the --target file written from them, and each layout beside etmem's computed one.
// Not: the ELF format (elf/), how layouts are computed (abi/, runtime/), the text
// (report/probe_text.h).
//
//   auto run = measure::Probe({.executorch = "et", .cxx = "arm-none-eabi-g++", .output = "m55.json"});
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/runtime/release.h"

namespace etmem::measure {

struct ProbeOptions {
  std::string executorch;  // the ExecuTorch source tree (the directory named executorch)
  std::string cxx;
  std::string cxxflags;  // split by the shell, like CXXFLAGS in make
  std::string release;   // the release to compare with (empty: the newest modelled)
  std::string output;    // the target-description file to write
  std::string name;      // the target's name; empty: the output file's stem
  bool keep = false;     // keep the temporary directory (the probe source and its log)
};

// One runtime type measured.
struct ProbedType {
  std::string name;  // in etmem's type tables ("EValue")
  abi::SizeAlign measured;
  std::optional<abi::SizeAlign> computed;  // etmem's, on this target; empty: not in the model
  bool agrees() const { return computed && *computed == measured; }
};

struct ProbeRun {
  std::string output;   // the target file written
  abi::Abi abi;         // as --target reads it back
  std::string release;  // compared with
  std::vector<ProbedType> types;           // by name
  std::map<std::string, std::string> failed;  // type -> the compiler's error (not probed)
  std::optional<std::string> kept;            // the kept probe directory
};

// Fails with one line: not an ExecuTorch tree, an unknown release, the compiler failing on the
// primitives, a file that cannot be written.
Result<ProbeRun> Probe(const ProbeOptions& options);

}  // namespace etmem::measure
