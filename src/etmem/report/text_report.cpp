#include "etmem/report/text_report.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/analysis/figures.h"
#include "etmem/analysis/run_temp_text.h"
#include "etmem/analysis/runner_rows.h"

namespace etmem::report {
namespace {

// Where the operator metadata went, at a release where that depends on the temp pool's size.
std::string MetadataPlacementText(const Assumptions& a, const MethodReport& m) {
  const runtime::MetadataPlacement& p = m.plan.metadata;
  if (a.temp_pool_bytes == uint64_t{0} && p.temp_bytes_for_all == 0 && p.fell_back > 0)
    return fmt::format("Operator metadata of {} kernel call(s): all on the method allocator (the "
                       "temp pool is empty, 0 B, and this release passes an empty temp allocator "
                       "over for the method allocator)\n",
                       p.on_temp + p.on_method);
  if (!a.temp_pool_bytes || p.temp_bytes_for_all == 0) return "";
  std::string out = fmt::format(
      "Operator metadata of {} kernel call(s): {} on the temp allocator, {} on the method "
      "allocator", p.on_temp + p.on_method, p.on_temp, p.on_method);
  if (p.fell_back > 0)
    out += fmt::format(" (the temp pool, {} B, is below their worst case of n_args x "
                       "(TensorMeta + 16 dim-order bytes), so this release falls back)",
                       *a.temp_pool_bytes);
  return out + fmt::format("; a temp pool of at least {} B keeps all of it off the method "
                           "allocator\n", p.temp_bytes_for_all);
}

// With --runner: every pool the runner declares, under its own names, with the breakdown.
std::string UnknownLine(const runtime::UnknownPart& u) {
  if (u.delegate < 0) return fmt::format("  UNKNOWN: {}\n", u.why);
  return fmt::format("  UNKNOWN: delegate {} ({}): {}\n", u.delegate, Printable(u.backend), u.why);
}

void RunnerPools(std::string& out, const Report& r, const MethodReport& m) {
  const RunnerReport& rr = *m.runner;
  const runner::Profile& p = *rr.plan.profile;
  const std::string at_least = m.plan.exact() ? "" : "at least ";
  out += fmt::format("Runner {}: {} (ExecuTorch's {})\n", p.name, p.description, p.source_path);
  for (const sim::RunnerPoolResult& pool : rr.result.pools) {
    const runner::PoolSpec& spec = rr.pool_spec(pool.pool);
    if (pool.temp_role) {
      out += fmt::format("{}: {} B peak during load_method (operator metadata, reset after "
                         "each operator); while running: {}\n",
                         RunnerPoolTitle(spec), pool.minimum, RunTempLine(m));
      continue;
    }
    out += fmt::format("{}: {}{} bytes minimum\n", RunnerPoolTitle(spec), at_least,
                       pool.minimum);
    out += fmt::format("  {:>9} {:>9} {:>5} {:>4}  {}\n", "offset", "bytes", "align", "pad",
                       "what");
    for (const RunnerRow& row : RunnerRows(rr, pool))
      out += fmt::format("  {:>9} {:>9} {:>5} {:>4}  {}: {}\n", row.offset, row.bytes,
                         row.by == "load_method" ? std::string("-") : std::to_string(row.align),
                         row.padding, row.by, row.what);
    if (pool.pool == rr.result.method_pool && pool.minimum > pool.high_water)
      out += fmt::format("  from {} to {} B every allocation succeeds, but the runner writes up to "
                         "{} B past the pool's end\n",
                         pool.high_water, pool.minimum - 1, pool.minimum - pool.high_water);
  }
  for (const std::string& bug : rr.result.bugs) out += "  RUNNER BUG: " + bug + "\n";
  for (const std::string& no : rr.result.refusals) out += "  RUNNER REFUSES: " + no + "\n";
  if (!RunnerHoldsPlannedBuffers(rr)) {
    out += fmt::format("Planned buffers: {}, not from these pools (the runner allocates them "
                       "elsewhere)\n", PlannedBytesText(m));
  }
  const Assumptions& a = r.assumptions;
  out += "  assuming " + AssumptionSentence(a, RunnerReportWording(rr)) + "\n";
  for (const auto& u : m.plan.unknowns)
    out += UnknownLine(u);
  if (const std::string line = MetadataPlacementText(a, m); !line.empty()) out += "  " + line;
  out += "\n";
}

void Headline(std::string& out, const Report& r, const MethodReport& m) {
  out += fmt::format("{}: method '{}'\n", r.program->path, Printable(m.method->name));
  if (m.plan.refusal && m.plan.refusal->error == "unknown")  // a method etmem cannot read
    out += fmt::format("  ETMEM CANNOT JUDGE THIS METHOD: {}\n  (no figure below is the runtime's)\n",
                       m.plan.refusal->reason);
  else if (m.plan.refusal)
    out += fmt::format("  THE RUNTIME WOULD REFUSE THIS METHOD ({}): {}\n  (figures below count the "
                       "allocations made before the refusal)\n",
                       m.plan.refusal->error, m.plan.refusal->reason);
  if (m.plan.refusal && !m.plan.refusal->log.empty())
    out += fmt::format("  the runtime logs: \"{}\"\n", m.plan.refusal->log);
  if (m.runner) {
    RunnerPools(out, r, m);
    out += fmt::format("load_method alone, in a pool of its own: {}{} bytes minimum\n",
                       m.plan.exact() ? "" : "at least ", m.method_bytes);
    out += fmt::format("  assuming that pool's base aligned to {} B (not {})\n",
                       r.assumptions.pool_align, 2 * r.assumptions.pool_align);
    for (const auto& u : m.plan.unknowns)
      out += UnknownLine(u);
    return;
  }
  out += fmt::format("Method allocator pool: {}{} bytes minimum\n", m.plan.exact() ? "" : "at least ",
                     m.method_bytes);
  out += "  assuming " + AssumptionSentence(r.assumptions, ReportWording()) + "\n";
  for (const auto& u : m.plan.unknowns)
    out += UnknownLine(u);
  if (m.exceeds_runtime_pool_limit)
    out += "  This exceeds 4 GiB: MemoryAllocator sizes are 32-bit, so no pool can hold it.\n";
}

void Categories(std::string& out, const MethodReport& m) {
  uint64_t padding = 0;
  uint32_t count = 0;
  for (const auto& c : m.by_category) padding += c.padding, count += c.allocations;
  out += fmt::format("  {} allocations, {} B of alignment padding\n\n", count, padding);
  out += fmt::format("  {:<22}{:>10}{:>8}{:>9}\n", "by category", "bytes", "allocs", "padding");
  for (size_t c = 0; c < m.by_category.size(); ++c) {
    const CategoryTotal& t = m.by_category[c];
    if (t.allocations == 0) continue;
    out += fmt::format("  {:<22}{:>10}{:>8}{:>9}\n",
                       runtime::CategoryName(static_cast<runtime::Category>(c)), t.bytes,
                       t.allocations, t.padding);
  }
}

void Allocations(std::string& out, const MethodReport& m, const TextOptions& o) {
  auto row = [&](const AllocationRecord& a) {
    out += fmt::format("  {:>5} {:>8} {:>5} {:>8}  {}\n", a.index, a.request.size,
                       a.request.align, a.placement.offset, Describe(m, a.request));
  };
  const bool all = o.all_allocations && !m.plan.requests.empty();
  out += all ? "\n  every allocation, in order:\n"
             : "\n  largest allocations (all of them: --allocations):\n";
  out += fmt::format("  {:>5} {:>8} {:>5} {:>8}  {}\n", "#", "bytes", "align", "offset", "what");
  if (!all) {
    for (const AllocationRecord& a : m.largest) row(a);
    return;
  }
  for (size_t i = 0; i < m.sim.placements.size(); ++i)
    if (m.plan.requests[i].pool == runtime::PoolKind::kMethod)
      row({i, m.plan.requests[i], m.sim.placements[i]});
}

// The file split by what the runtime does with each part, then the parts themselves.
void FlashLoadText(std::string& out, const FlashLoad& f) {
  out += fmt::format("  {}: {} B stay in flash, read in place; {} B copied to RAM at load ({} B "
                     "written); {}; {} B never read\n",
                     kBufferDataLoaderAssumption, f.bytes(FlashUse::kReadInPlace),
                     f.bytes(FlashUse::kCopiedToRam), f.ram_bytes(), BackendDependentPhrase(f),
                     f.bytes(FlashUse::kNotRead));
  for (const FlashPart& p : f.parts)
    out += fmt::format("    {:<18} {:>9} B  {}{}: {}\n", FlashUseName(p.use), p.bytes, p.what,
                       p.use == FlashUse::kCopiedToRam ? fmt::format(" ({} B written)", p.ram_bytes)
                                                       : "",
                       p.why);
  for (const std::string& n : f.notes) out += "    note: " + n + "\n";
}

void OtherPools(std::string& out, const Report& r, const MethodReport& m) {
  if (m.temp_load_peak_bytes > 0)
    out += fmt::format("\nTemp allocator during load: {} B peak (operator metadata, reset after "
                       "each operator)\n", m.temp_load_peak_bytes);
  else
    out += "\nTemp allocator during load: 0 B\n";
  out += "Temp allocator while running: " + RunTempLine(m) + "\n";
  for (const std::string& line : RunTempDetail(r, m, 16)) out += "  " + line + "\n";
  out += MetadataPlacementText(r.assumptions, m);
  const auto& sizes = m.method->planned_buffer_sizes;
  std::string list;
  for (size_t i = 1; i < sizes.size(); ++i)
    list += fmt::format("{}buffer {}: {} B", i == 1 ? "" : ", ", i, sizes[i]);
  out += fmt::format("Planned buffers (activations): {}{}{}\n", PlannedBytesText(m),
                     list.empty() ? "" : " = ", list);
  const MethodCounts& c = m.counts;
  out += fmt::format("Method: {} values ({} tensors), {} instructions ({} kernel calls, {} delegate "
                     "calls) in {} chain(s), {} operators, {} delegates\n",
                     c.values, c.tensors, c.instructions, c.kernel_calls, c.delegate_calls, c.chains,
                     c.operators, c.delegates);
  const FlashBreakdown& f = r.flash;
  out += fmt::format("Flash: {} B file: {} B program metadata, {} B constants ({}), {} B delegate "
                     "blobs\n",
                     f.file_bytes, f.metadata_bytes, f.inline_constant_bytes + f.segment_constant_bytes,
                     f.segment_constant_bytes ? "in a segment" : "inline",
                     f.inline_delegate_bytes + f.segment_delegate_bytes);
  FlashLoadText(out, r.flash_load);
}

void RunnerPoolCheckText(std::string& out, const MethodReport& m) {
  const RunnerReport& rr = *m.runner;
  const sim::RunnerCheck& c = *rr.result.check;
  const runner::PoolSpec& spec = rr.pool_spec(rr.result.method_pool);
  if (!c.gets_through) {
    out += fmt::format("\nPool check: {} = {} DOES NOT LOAD\n", RunnerPoolName(spec), c.pool_bytes);
    const sim::RunnerFailure& f = *c.failure;
    out += "  fails: " + RunnerFailureWhat(rr, f) + "\n";
    for (const std::string& line : f.log) out += "  logged: " + line + "\n";
    out += "  then: " + f.consequence + "\n";
    return;
  }
  if (c.overwritten_bytes > 0) {
    const runner::RunnerRequest& q = rr.plan.requests[*c.overwriting_request];
    out += fmt::format("\nPool check: {} = {} gets through every allocation but DOES NOT FIT: the "
                       "runner writes {} B past the pool's end ({})\n",
                       RunnerPoolName(spec), c.pool_bytes, c.overwritten_bytes, q.what);
    if (!q.bug.empty()) out += "  RUNNER BUG: " + q.bug + "\n";
    return;
  }
  out += fmt::format("\nPool check: {} = {} LOADS\n", RunnerPoolName(spec), c.pool_bytes);
}

void PoolCheckText(std::string& out, const MethodReport& m) {
  if (m.runner && m.runner->result.check) return RunnerPoolCheckText(out, m);
  if (!m.pool_check) return;
  const PoolCheck& c = *m.pool_check;
  out += fmt::format("\nPool check: a {} B method allocator pool {}\n", c.pool_bytes,
                     c.fits ? "LOADS" : "DOES NOT LOAD");
  if (!c.failing) return;
  const AllocationRecord& f = *c.failing;
  out += fmt::format("  allocation #{} fails: {} ({} B, align {}, at offset {})\n", f.index,
                     Describe(m, f.request), f.request.size, f.request.align, f.placement.offset);
  out += "  the runtime logs: " + c.log + "\n";
  out += "  then: " + c.consequence + "\n";
}

}  // namespace

std::string ToText(const Report& r, const TextOptions& o) {
  std::string out;
  for (size_t i = 0; i < r.methods.size(); ++i) {
    const MethodReport& m = r.methods[i];
    if (i > 0) out += "\n";
    Headline(out, r, m);
    Categories(out, m);
    Allocations(out, m, o);
    OtherPools(out, r, m);
    PoolCheckText(out, m);
  }
  // The verdict rested on the default release: where another published release differs.
  if (r.default_release) out += "\nVerdict: " + r.default_release->Line() + "\n";
  for (const MethodNotJudged& m : r.not_judged)
    out += "\nNot judged: method " + m.name + ": " + m.why + "\n";
  for (const std::string& note : r.notes) out += "\nNOTE: " + note + "\n";
  return out;
}

// "  pool 4096 B: loads" / "DOES NOT LOAD" when --pool was given.
static std::string PoolColumn(const MethodReport& m) {
  if (m.runner && m.runner->result.check)
    return fmt::format("  pool {} B: {}", m.runner->result.check->pool_bytes,
                       m.runner->result.check->fits() ? "loads" : "DOES NOT LOAD");
  if (!m.pool_check) return "";
  return fmt::format("  pool {} B: {}", m.pool_check->pool_bytes,
                     m.pool_check->fits ? "loads" : "DOES NOT LOAD");
}

// "  ET_..._POOL_SIZE 21344 B" with --runner: the runner's method pool.
static std::string RunnerColumn(const MethodReport& m) {
  if (!m.runner) return "";
  const sim::RunnerPoolResult& pool = m.runner->result.method();
  return fmt::format("  {} {} B", RunnerPoolName(m.runner->pool_spec(pool.pool)), pool.minimum);
}

std::string ToTextMatrix(const std::vector<Report>& reports) {
  std::string out = fmt::format("{:<9}{:<10}{:<12}{:>7}{:>6}{:>16}{:>12}\n", "runtime", "target",
                                "method", "align", "temp", "method pool B", "temp load B");
  for (const Report& r : reports)
    for (const MethodReport& m : r.methods) {
      if (m.plan.refusal) {  // no figures: the refusal
        out += fmt::format("{:<9}{:<10}{:<12}{:>7}{:>6}{:>16}{:>12}  REFUSED ({}): {}\n",
                           r.assumptions.runtime, r.assumptions.target, m.method->name,
                           r.assumptions.pool_align, r.assumptions.temp_allocator ? "yes" : "no",
                           "-", "-", m.plan.refusal->error, m.plan.refusal->reason);
        continue;
      }
      out += fmt::format("{:<9}{:<10}{:<12}{:>7}{:>6}{:>16}{:>12}{}{}{}\n", r.assumptions.runtime,
                         r.assumptions.target, m.method->name, r.assumptions.pool_align,
                         r.assumptions.temp_allocator ? "yes" : "no",
                         (m.plan.exact() ? "" : ">=") + std::to_string(m.method_bytes),
                         m.temp_load_peak_bytes, "", PoolColumn(m), RunnerColumn(m));
    }
  return out;
}

}  // namespace etmem::report
