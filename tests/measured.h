// What the real ExecuTorch runtime did on etmem's own programs, as recorded in tests/measured/
// (each file says how it was measured). Shared by the tests that hold etmem to those records.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace etmem::test {

// tests/measured/`file`, parsed.
inline nlohmann::json ReadMeasured(const std::string& file) {
  std::ifstream in(std::filesystem::path(ETMEM_SOURCE_DIR) / "tests/measured" / file);
  return nlohmann::json::parse(in);
}

}  // namespace etmem::test
