// Owns: the C/C++ header form of a report (`etmem header`): per method, macros for the method
// pool, planned buffers, temp allocator load peak and pool alignment; a comment that states
// every assumption; optionally aligned static pool arrays; with a runner, the defines the
// runner's own source reads (its pool-size macros) and the -D flags that set them. The text is
// a pure function of the report and the options (no dates, no absolute paths), so builds are
// reproducible.
// Not: hashing or reading the program (callers pass the digest), writing files.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "etmem/base/result.h"
#include "etmem/report/budget.h"
#include "etmem/report/report.h"

namespace etmem::report {

struct CHeaderOptions {
  std::string etmem_version;     // "0.1.0"
  std::string program_sha256;    // lower-case hex digest of the program file
  std::optional<Margin> margin;  // added to every METHOD_POOL_BYTES
  bool define_pools = false;     // emit static arrays for the method pools and planned buffers
  std::string section;           // linker section of those arrays; empty: the default
};

// Fails when a method name gives no C identifier, two methods give the same one, or the
// section name cannot be written into an attribute.
Result<std::string> ToCHeader(const Report& report, const CHeaderOptions& options);

// "forward" -> "FORWARD", "encode-v2" -> "ENCODE_V2": the method's part of the macro names.
std::string MacroName(std::string_view method);

// Section names that can be quoted as they are: letters, digits and . _ $ , -
bool IsValidSectionName(std::string_view section);

}  // namespace etmem::report
