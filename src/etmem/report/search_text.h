// Owns: the text of etmem check's assumption search (check/search.h): the
// assumptions of one configuration, what was searched, the nearest miss and the reproductions
// grouped into lines. Its own library (etmem_search_report): the search is not in the web
// page's build, the rest of report/ is. Not: the search.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"

namespace etmem::report {

// "ExecuTorch 0.3.0, cortex-m, pool base aligned to 4 B, no temp allocator, a 4096 B pool"
std::string DescribeAssumptions(const check::ModelConfig& c, std::optional<uint64_t> pool);
// The nearest miss, in words ("ExecuTorch ..., a 4096 B pool logs ...").
std::string DescribeNearest(const check::NearestConfig& n);
// What was searched, in words (one line, without a leading "searched: ").
std::string DescribeSpace(const check::SearchSpace& space, const device::DeviceLog& log);

// One line per group of reproductions, deterministic: a configuration's pools share a line
// (ascending; past `per_line_pools` the rest are counted), both temp allocators with the same
// pools and minimum share one, then alignments alike, then releases alike. Each ends
// "-> minimum N B under these assumptions".
std::vector<std::string> GroupedLines(const check::SearchResult& r, size_t per_line_pools = 12);

// "a, b or c"
std::string JoinOr(const std::vector<std::string>& items);

}  // namespace etmem::report
