// Owns: RunTempLine and RunTempDetail.
#include "etmem/analysis/run_temp_text.h"

#include <fmt/format.h>

#include "etmem/analysis/figures.h"

namespace etmem::report {

std::string RunTempLine(const MethodReport& m) { return m.run_temp.Describe(); }

std::vector<std::string> RunTempDetail(const Report& r, const MethodReport& m, size_t max_calls) {
  const kernels::RunTemp& t = m.run_temp;
  std::vector<std::string> out;
  size_t shown = 0;
  for (const kernels::CallTemp& c : t.calls) {
    if (shown++ == max_calls) {
      out.push_back(fmt::format("... {} more call(s)", t.calls.size() - max_calls));
      break;
    }
    if (!c.unknown.empty()) {
      out.push_back(fmt::format("instruction {} {}{}: unknown: {}", c.instruction, c.what,
                                c.library.empty() ? "" : " (" + c.library + ")", c.unknown));
      continue;
    }
    std::string requests;
    for (const kernels::TempRequest& q : c.requests)
      requests += fmt::format("{}{} B at {}", requests.empty() ? "" : ", ", q.bytes, q.alignment);
    for (const kernels::MallocRequest& q : c.mallocs)
      requests += fmt::format("{}malloc {} B{}", requests.empty() ? "" : ", ", q.bytes,
                              q.freed ? "" : " (never freed)");
    out.push_back(fmt::format("instruction {} {} ({}): {} = {}; takes {} B of the pool{}",
                              c.instruction, c.what, c.library, c.formula, requests, c.pool_bytes,
                              c.upper_bound ? " (upper bound: a dynamic shape)" : ""));
  }
  if (t.malloc_peak_call)
    out.push_back(t.DescribeMalloc() + " (the C library's own headers and rounding not counted; "
                  "whatever temp allocator the runner passes)");
  for (const kernels::DelegateUse& u : t.delegate_uses)
    out.push_back(fmt::format(
        "delegate backend {} ({} delegate(s), {} call(s){}): {}; outside every pool: {}", u.backend,
        u.delegates, u.calls, u.library.empty() ? "" : "; modelled by etmem's " + u.library,
        u.temp,
        u.outside.empty()
            ? std::string("nothing")
            : u.outside_bytes ? fmt::format("{} B of the C heap: {}", *u.outside_bytes, u.outside)
                              : u.outside + ": its size is not modelled (unknown); leave the heap "
                                            "room for it"));
  if (t.first_missing_call) out.push_back(t.DescribeMissing());
  for (const std::string& a : t.assumptions) out.push_back("assumed: " + a);
  for (const std::string& f : t.run_failures) out.push_back("FAILS while running: " + f);
  if (!t.reset_each_instruction && !t.calls.empty())
    out.push_back("this release does not reset the temp allocator between instructions: the "
                  "requests add up");
  if (t.platform_fallback) {
    out.push_back(fmt::format(
        "no temp allocator: load_method put a PlatformMemoryAllocator in the method pool, so these "
        "requests go to et_pal_allocate (the heap): {} B at most at once (each request plus a "
        "{}-pointer node and alignment slack; freed after each instruction){}",
        t.heap_peak_bytes, 2,
        t.heap_peak_bytes > 0 ? "; a firmware without a heap (et_pal_allocate returning NULL) "
                                "fails there"
                              : ""));
    if (t.no_heap_failing_call) {
      for (const std::string& line : t.no_heap_log)
        out.push_back("  without a heap, the runtime logs: " + line);
      if (!t.no_heap_then.empty()) out.push_back("  then " + t.no_heap_then);
    }
  }
  if (t.check) {
    const kernels::TempPoolCheck& c = *t.check;
    const std::string source = r.assumptions.run_temp_pool_source.empty()
                                   ? ""
                                   : " (" + r.assumptions.run_temp_pool_source + ")";
    if (t.no_temp_allocator) {
      if (!c.fits)
        out.push_back(fmt::format("no temp allocator: instruction {} fails",
                                  t.calls[*c.failing_call].instruction));
    } else {
      const bool load_fits = m.temp_load_peak_bytes <= c.pool_bytes;
      out.push_back(fmt::format("temp pool {} B{}: load {} ({} B peak); {}", c.pool_bytes, source,
                                load_fits ? "fits" : "DOES NOT FIT", m.temp_load_peak_bytes,
                                c.fits ? (t.known() ? "every instruction fits"
                                                    : "every instruction with known requests fits")
                                       : fmt::format("instruction {} DOES NOT FIT ({} B)",
                                                     t.calls[*c.failing_call].instruction,
                                                     t.calls[*c.failing_call].pool_bytes)));
    }
    for (const std::string& line : c.log) out.push_back("  the runtime logs: " + line);
    if (!c.then.empty()) out.push_back("  then " + c.then);
  }
  return out;
}

}  // namespace etmem::report
