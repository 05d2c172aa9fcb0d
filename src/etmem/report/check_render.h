// Owns: the declarations of `etmem check`'s renderings (analysis/check_report.h's CheckReport as
// text, check_text.cpp, and JSON, check_json.cpp). Not: building the value (api/check.cpp).
#pragma once

#include <string>

#include "etmem/analysis/check_report.h"

namespace etmem::report {

// What `etmem check` prints (without the error line).
std::string CheckText(const CheckReport& r);
// The same as one JSON object.
std::string CheckJson(const CheckReport& r);

}  // namespace etmem::report
