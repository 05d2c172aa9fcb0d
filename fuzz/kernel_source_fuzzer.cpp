// Owns: the fuzz target of what `etmem measure --execute` reads from a user's ExecuTorch tree and
// from its harness (measure/execute.h): bytes up to the first NUL are a functions.yaml, the rest
// a kernel source file (and, as well, a harness trace). PortableKernelNames on the first;
// KernelDeclaration of `fuzz_out` and of every kernel the yaml names on the second: nullopt, a
// one-line declaration of that function taking the context first and ending in ");", or one line
// naming the operator; ReadExecution on the second: every call's pool bytes cover each of its
// granted requests. A crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <string>

#include "etmem/measure/execute.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "kernel_source_fuzzer";

namespace {

void CheckDeclaration(const std::string& op, const std::string& function, const std::string& source) {
  using namespace etmem;
  const auto d = measure::KernelDeclaration(op, function, source, "kernels/portable/cpu/op_fuzz.cpp");
  if (!d) {
    fuzz::Require(d.error().message.find('\n') == std::string::npos, "error of two lines");
    fuzz::Require(d.error().message.starts_with("operator "), "error not naming the operator");
    return;
  }
  if (!d->has_value()) return;
  const std::string& decl = **d;
  fuzz::Require(decl.find('\n') == std::string::npos, "declaration of two lines: " + decl);
  fuzz::Require(decl.ends_with(");"), "declaration not ending in ');': " + decl);
  fuzz::Require(decl.find(" " + function + "(EtmemContext&") != std::string::npos,
                "declaration not of the function with the context first: " + decl);
}

bool Identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string yaml = nul == std::string::npos ? "" : input.substr(0, nul);
  const std::string source = nul == std::string::npos ? input : input.substr(nul + 1);
  CheckDeclaration("aten::fuzz.out", "fuzz_out", source);
  size_t n = 0;
  for (const auto& [op, kernel] : measure::PortableKernelNames(yaml)) {
    if (++n > 4) break;
    const size_t last = kernel.rfind("::");
    const std::string function = last == std::string::npos ? kernel : kernel.substr(last + 2);
    if (Identifier(function)) CheckDeclaration("aten::" + op, function, source);
  }
  const measure::ExecutionTrace t = measure::ReadExecution(source);
  for (const measure::ExecutedCall& c : t.calls)
    for (const auto& a : c.temp)
      if (a.offset && *a.offset <= UINT64_MAX - a.size)
        fuzz::Require(c.pool_bytes >= *a.offset + a.size, "pool bytes below a granted request");
  return 0;
}
