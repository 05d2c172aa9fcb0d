// Owns: what `etmem measure` knows about a user's ExecuTorch source tree and how it builds the
// harness against it: recognising the tree, reading the release it names (version.txt, or the
// git tag it is checked out at), generating the schema headers with flatc, compiling the
// runtime's sources (runtime/ and schema/, POSIX platform layer, no tests, no ATen variants)
// and the harness with the user's compiler, all inside a work directory (nothing is written
// into the tree), and running the harness. Not: what the harness replays or how its output is
// compared (tools/etmem/measure_command.cpp), the harness itself (harness/measure_harness.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::measure {

struct Tree {
  std::string root;                    // absolute
  std::optional<std::string> version;  // "1.4.1" (a suffix such as "a0" dropped)
  std::string version_source;          // "version.txt says 0.3.0a0", "git tag v1.4.1", ...
  std::string commit;                  // the git commit, when the tree is a git checkout
};

// Fails with one line when `src` is not an ExecuTorch source tree (it must hold the runtime's
// executor, memory allocator and program schema).
Result<Tree> InspectTree(const std::string& src);

// The release a version.txt line or a git tag names: "0.3.0a0" -> "0.3.0", "v1.4.1" -> "1.4.1",
// "1.5" -> "1.5.0"; nullopt unless the first line starts with two or three dot-separated numbers
// of at most three digits each (an optional leading "v").
std::optional<std::string> ReleaseInVersionText(std::string_view text);

// "1.4.1" -> 10401 (major*10000 + minor*100 + patch); nullopt as ReleaseInVersionText.
std::optional<int> VersionNumber(const std::string& version);

struct BuildOptions {
  std::string compiler;   // the C++ compiler (a name in PATH or a path)
  std::string work_dir;   // where everything is written (created if missing)
  int jobs = 2;           // compiles at once
  int version = 0;        // ETMEM_ET_VERSION for the harness (major*10000+minor*100+patch)
  // --execute (execute.h): more of the tree's sources (kernels), tree-relative; generated
  // sources compiled with the harness (absolute) and its defines; the harness's file name.
  std::vector<std::string> extra_sources;
  std::vector<std::string> harness_extra;
  std::vector<std::string> harness_defines;
  std::string harness_name = "measure_harness";
  // More of the tree's flatbuffer schemas (tree-relative .fbs), each generated with flatc into
  // the work directory beside its tree path (<executorch/DIR/NAME_generated.h>).
  std::vector<std::string> extra_schemas;
};

// --external-data FILE.ptd: the harness also builds the tree's own FlatTensorDataMap
// (extension/flat_tensor: the data map, its header reader and its schema) and loads the .ptd
// with it (ETMEM_PTD, the "ptd PATH" step). Fails with one line when the tree has none
// (ExecuTorch before 0.6). Only then are those sources built: older trees are not touched.
Status AddFlatTensorDataMap(const Tree& tree, BuildOptions& options);

struct Built {
  std::string harness;                 // the executable
  std::vector<std::string> sources;    // the runtime sources compiled, relative to the tree
  size_t reused = 0;                   // objects already up to date in the work directory
  std::string compiler_version;        // the compiler's first --version line
  std::string flags;                   // the compile flags, as used
};

// Builds the harness. Errors are one line: the tree "does not build with COMPILER", naming the
// first failing file and the compiler's first error; flatc or the compiler missing.
Result<Built> BuildHarness(const Tree& tree, const BuildOptions& options);

// The C++ source of the harness (shipped inside etmem).
const char* HarnessSource();

// Runs the harness on one method; returns its output (the device log). `steps` is the steps
// file's text (see the harness). Fails when the harness could not run or crashed (the message
// names the signal: the real runtime crashed on the program).
struct HarnessRun {
  std::string output;
  int status = 0;  // the harness's exit status (128 + signal when killed)
};
Result<HarnessRun> RunHarness(const Built& built, const std::string& work_dir,
                              const std::string& program, const std::string& method,
                              uint64_t pool_bytes, uint32_t pool_align, std::optional<uint64_t> temp_bytes,
                              const std::string& steps);

}  // namespace etmem::measure
