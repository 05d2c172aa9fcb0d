// Owns: what the header, diff and budget tests share: running the etmem binary, temporary
// files named after this process (ctest runs cases in parallel), and the test programs (the
// builder's scenarios, written to disk; the real programs in ../shared when present).
// Not: any assertion.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "etmem/testing/scenarios.h"

namespace etmem::test {

namespace fs = std::filesystem;

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A path in the temp directory unique to this process.
inline fs::path TempPath(const std::string& name) {
  return fs::temp_directory_path() / ("etmem_" + std::to_string(::getpid()) + "_" + name);
}

// Removes this process's temporary files when the test binary exits.
struct TempFilesRemover {
  ~TempFilesRemover() {
    const std::string prefix = "etmem_" + std::to_string(::getpid()) + "_";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec))
      if (e.path().filename().string().starts_with(prefix)) fs::remove_all(e.path(), ec);
  }
};
inline TempFilesRemover temp_files_remover;

// Runs a shell command; stdout and stderr are captured separately.
inline CliRun Shell(const std::string& command) {
  const fs::path err_file = TempPath("stderr");
  CliRun r;
  FILE* p = ::popen((command + " 2>" + err_file.string()).c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  fs::remove(err_file);
  return r;
}

inline CliRun Etmem(const std::string& args) {
  return Shell(std::string(ETMEM_BINARY) + " " + args);
}

inline std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline fs::path WriteTemp(const std::string& name, const std::string& bytes) {
  const fs::path p = TempPath(name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

// A builder scenario as a .pte file in the temp directory.
inline fs::path WriteScenario(const testing::ProgramBuilder& program, const std::string& name) {
  const fs::path p = TempPath(name + ".pte");
  const auto bytes = program.Build();
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return p;
}

inline fs::path MotivatingCnnFile() {
  return WriteScenario(testing::MotivatingCnn(), "motivating_cnn");
}
inline fs::path TwoMethodsFile() {
  return WriteScenario(testing::ProgramWithTwoMethods(), "two_methods");
}

inline fs::path RealModels() { return fs::path(ETMEM_SHARED_DIR) / "models/real"; }
inline bool HaveRealModels() { return fs::exists(RealModels()); }
inline fs::path RealModel(const std::string& stem) { return RealModels() / (stem + ".pte"); }

inline bool HaveTool(const std::string& tool) {
  return Shell("command -v " + tool + " >/dev/null").exit_code == 0;
}

}  // namespace etmem::test
