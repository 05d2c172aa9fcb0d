// Owns: the self-contained HTML page of `etmem plan --format html`: per method, an SVG timeline
// of each planned buffer (x = instruction, y = offset, one <rect class="tensor"> per planned
// tensor with a live range, its <title> naming value, dtype, shape, bytes and live range), the
// peaks marked, and a bar chart of the method allocator by category. Plain numbers in, one
// string out; no network, no external assets (inline CSS only).
// Not: computing any figure (plan/, build_report.cpp) or writing the file (the tool).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etmem::report {

struct HtmlTensor {
  int32_t value = 0;
  uint32_t memory_id = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  std::string dtype;           // "float32"
  std::vector<int32_t> shape;
  bool used = false;           // false: never live, drawn in no timeline, listed instead
  int64_t first = 0;           // inclusive live range
  int64_t last = 0;
  std::string notes;           // "input", "output", "state", ...
};

struct HtmlBuffer {
  uint32_t memory_id = 0;
  int64_t planned = 0;         // the stored size
  uint64_t lower_bound = 0;
  std::vector<uint64_t> live_bytes;  // per instruction; the peaks are where it is largest
};

struct HtmlCategory {
  std::string name;
  uint64_t bytes = 0;
  uint32_t allocations = 0;
};

struct HtmlMethod {
  std::string name;
  int64_t instructions = 0;
  std::vector<HtmlBuffer> buffers;
  std::vector<HtmlTensor> tensors;
  uint64_t method_pool_bytes = 0;
  bool method_pool_exact = true;  // false: a lower bound (an unmodelled backend)
  // Non-empty: the release refuses to load the method (its error): no pool size is shown.
  std::string refused;
  std::vector<HtmlCategory> categories;
  std::vector<std::string> notes;  // advisories and verdicts, one line each
};

struct HtmlPage {
  std::string title;         // the program's path
  std::string assumptions;   // one line: release, target, pool alignment, temp allocator
  std::vector<HtmlMethod> methods;
  std::vector<std::string> notes;  // about the whole program (e.g. duplicate constants), once
};

std::string RenderPlanHtml(const HtmlPage& page);

// `s` with &, <, >, " and ' replaced by entities.
std::string HtmlEscape(const std::string& s);

}  // namespace etmem::report
