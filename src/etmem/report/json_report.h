// Owns: the JSON form of a report. Its shape is a contract (shared/tools/check-goldens and
// outside checks rely on it): see the core issue, "Command line and JSON".
#pragma once

#include <nlohmann/json.hpp>

#include "etmem/report/report.h"

namespace etmem::report {

nlohmann::json ToJson(const Report& report);

}  // namespace etmem::report
