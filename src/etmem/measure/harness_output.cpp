// Owns: ReadFacts, ErrorName, Verdict and VerdictsAgree (see harness_output.h).
#include "etmem/measure/harness_output.h"

#include <csignal>
#include <map>
#include <sstream>

namespace etmem::measure {

// ExecuTorch's Error values (runtime/core/error.h, the same numbers at every tag).
std::string ErrorName(int code) {
  static const std::map<int, const char*> names = {
      {0x00, "Ok"},          {0x01, "Internal"},           {0x02, "InvalidState"},
      {0x03, "EndOfMethod"}, {0x10, "NotSupported"},        {0x11, "NotImplemented"},
      {0x12, "InvalidArgument"}, {0x13, "InvalidType"},    {0x14, "OperatorMissing"},
      {0x15, "RegistrationExceedingMaxKernels"}, {0x16, "RegistrationAlreadyRegistered"},
      {0x20, "NotFound"},    {0x21, "MemoryAllocationFailed"}, {0x22, "AccessFailed"},
      {0x23, "InvalidProgram"}, {0x24, "InvalidExternalData"}, {0x25, "OutOfResources"},
      {0x30, "DelegateInvalidCompatibility"}, {0x31, "DelegateMemoryAllocationFailed"},
      {0x32, "DelegateInvalidHandle"}};
  auto it = names.find(code);
  return it != names.end() ? it->second : "error " + std::to_string(code);
}

HarnessFacts ReadFacts(const std::string& output) {
  HarnessFacts f;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("measure: ")) continue;
    std::istringstream s(line.substr(9));
    std::string key;
    s >> key;
    int code = 0;
    if (key == "program_load" && s >> code) f.program_load = code;
    if (key == "method_meta" && s >> code) f.method_meta = code;
    if (key == "load_method" && s >> code) f.load_method = code;
    if (key == "data_map_load" && s >> code) f.data_map_load = code;
    if (key == "runner_failed") s >> f.runner_failed;
    if (key == "harness_error") std::getline(s, f.harness_error);
    if (key == "planned")
      for (uint64_t n = 0; s >> n;) f.planned.push_back(n);
  }
  return f;
}

std::string Verdict(const HarnessFacts& f, int status) {
  if (status >= 128) return "crashed (signal " + std::to_string(status - 128) + ")";
  if (f.harness_error.size()) return "harness error:" + f.harness_error;
  if (f.program_load && *f.program_load != 0) return "Program::load " + ErrorName(*f.program_load);
  if (f.method_meta) return "method_meta " + ErrorName(*f.method_meta);
  if (!f.runner_failed.empty()) return "the runner's own allocation failed";
  // The runner's data map refused the .ptd before load_method: etmem names that refusal as the
  // method's (nothing allocated).
  if (f.data_map_load && *f.data_map_load != 0) return ErrorName(*f.data_map_load);
  if (f.load_method) return ErrorName(*f.load_method);
  return "load_method not reached";
}

bool VerdictsAgree(const std::string& measured, const std::string& predicted, int status) {
  const int signal = status >= 128 ? status - 128 : 0;
  return measured == predicted || (signal != 0 && predicted.find("crash") != std::string::npos) ||
         ((signal == SIGABRT || signal == SIGILL) && predicted.starts_with("abort"));
}

}  // namespace etmem::measure
