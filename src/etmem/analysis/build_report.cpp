// Owns: BuildReport, from a verified program and a runtime model to the report model, and
// BuildReports, many (release, target) pairs over one program sharing what they provably share.
#include "etmem/analysis/report.h"
#include "etmem/base/printable.h"

#include <algorithm>
#include <array>
#include <functional>

#include "etmem/kernels/library.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

// An optional tensor list whose item names a value parsed after it: every release reads that
// EValue before parse_values constructs it, from the method pool's bytes (runtime/load_plan.cpp
// ListItemsAllowed). The figures take them as zero, as in every runner's pool: the item is None.
std::string OptionalItemParsedLaterNote(const pte::MethodView& m) {
  for (size_t v = 0; v < m.values.size(); ++v) {
    const pte::ValueView& value = m.values[v];
    if (value.kind != pte::ValueKind::kOptionalTensorList ||
        uint64_t{value.index} + value.count > m.words.size())
      continue;
    const pte::ListItems items = m.ItemsOf(value);
    for (size_t j = 0; j < items.size(); ++j) {
      const int64_t item = items[j];
      if (item < static_cast<int64_t>(v) || static_cast<uint64_t>(item) >= m.values.size())
        continue;
      return "method '" + Printable(m.name) + "': value " + std::to_string(v) +
             " (an optional tensor list) has item " + std::to_string(j) + " naming value " +
             std::to_string(item) + ", which is parsed after the list: the runtime reads that "
             "EValue before constructing it, from the method pool's bytes; the figures assume "
             "they are zero (a runner's static or zeroed pool: the item reads as None, and the "
             "method loads). A pool holding other bytes there gives undefined behaviour.";
    }
  }
  return "";
}


MethodCounts Count(const pte::MethodView& m) {
  MethodCounts c;
  c.values = m.values.size();
  c.tensors = m.tensors.size();
  c.instructions = m.instructions.size();
  for (const auto& i : m.instructions) {
    c.kernel_calls += i.kind == pte::InstructionKind::kKernelCall;
    c.delegate_calls += i.kind == pte::InstructionKind::kDelegateCall;
  }
  c.operators = m.operators.size();
  c.delegates = m.delegates.size();
  c.chains = m.chains.size();
  c.inputs = m.inputs.size();
  c.outputs = m.outputs.size();
  return c;
}

// One method's plan and simulation, with every allocation when they are kept. A report that
// keeps totals only leaves them here, and BuildReports reuses the buffers from pair to pair.
struct Workspace {
  runtime::LoadPlan plan;
  sim::SimResult sim;
  sim::SimResult pool_check;  // the simulation of a --pool of the asked size
};

// The `keep` largest method-pool allocations seen so far, in a heap of `keep` entries: the
// smallest kept on top, so that most allocations cost one comparison.
class LargestAllocations {
 public:
  explicit LargestAllocations(size_t keep) : keep_(keep), floor_(keep == 0 ? UINT64_MAX : 0) {}
  // Requests arrive in order, so one no larger than the smallest kept (which came earlier)
  // can never displace it: most are turned away by one comparison, before a record is made.
  void Offer(size_t index, const runtime::AllocationRequest& r, const sim::Placement& p) {
    if (r.size < floor_) return;
    if (heap_.size() == keep_) {
      std::pop_heap(heap_.begin(), heap_.end(), Larger);
      heap_.back() = {index, r, p};
    } else {
      heap_.push_back({index, r, p});
    }
    std::push_heap(heap_.begin(), heap_.end(), Larger);
    if (heap_.size() == keep_) floor_ = heap_.front().request.size + 1;
  }
  std::vector<AllocationRecord> TakeSorted() {
    std::sort_heap(heap_.begin(), heap_.end(), Larger);
    return std::move(heap_);
  }

 private:
  static bool Larger(const AllocationRecord& a, const AllocationRecord& b) {
    return a.request.size != b.request.size ? a.request.size > b.request.size : a.index < b.index;
  }
  size_t keep_;
  uint64_t floor_;  // the smallest size that can still enter
  std::vector<AllocationRecord> heap_;
};

// Takes a method's requests as the planner makes them: places each on unbounded pools (and on
// a --pool of the asked size), rolls the method pool up by category and keeps the largest.
// Every request and placement is held only when the report keeps its allocations.
class MethodSink final : public runtime::RequestSink {
 public:
  MethodSink(const ReportOptions& o, const pte::MethodView& m, Workspace& w, MethodReport& r)
      : keep_(o.keep_allocations),
        w_(w),
        r_(r),
        unbounded_({o.pool_align, std::nullopt}, {o.pool_align, std::nullopt}, w.sim),
        largest_(o.largest) {
    w.plan.requests.clear();
    w.sim.placements.clear();
    if (keep_) Reserve(runtime::EstimatedRequests(m));
    if (o.pool_bytes)
      bounded_.emplace(sim::PoolConfig{o.pool_align, *o.pool_bytes},
                       sim::PoolConfig{o.pool_align, std::nullopt}, w.pool_check);
  }

  void Take(std::span<const runtime::AllocationRequest> batch) override {
    bool tolerated = false;  // a local: a member or-ed per request is a chain through memory
    const bool more = keep_ || bounded_;
    unbounded_.PlaceBatch(batch, [&](size_t i, const runtime::AllocationRequest& req,
                                     const sim::Placement& p) __attribute__((always_inline)) {
      if (more) [[unlikely]]
        KeepAndCheck(req, p, i);
      if (req.pool != runtime::PoolKind::kMethod) return;
      tolerated |= req.size == 0 && req.on_failure == runtime::OnFailure::kErrorUnlessEmpty;
      CategoryTotal& c = by_site_[static_cast<size_t>(req.site)];  // rolled up in Finish
      c.bytes += p.consumed(req.size);
      c.padding += p.padding;
      c.allocations += 1;
      largest_.Offer(i, req, p);
    });
    tolerated_ |= tolerated;
  }

  // After the last request: the high-water marks, the largest allocations, the pool check.
  void Finish(const ReportOptions& o) {
    unbounded_.Finish();
    r_.largest = largest_.TakeSorted();
    for (size_t site = 0; site < by_site_.size(); ++site) {
      const CategoryTotal& s = by_site_[site];
      CategoryTotal& c = r_.by_category[static_cast<size_t>(
          runtime::SiteCategory(static_cast<runtime::Site>(site)))];
      c.bytes += s.bytes;
      c.padding += s.padding;
      c.allocations += s.allocations;
    }
    if (!bounded_) return;
    bounded_->Finish();
    PoolCheck check;
    check.pool_bytes = *o.pool_bytes;
    check.fits = w_.pool_check.loads;
    if (failing_) {
      const sim::AllocationFailure& f = w_.pool_check.failures.front();
      check.failing = failing_;
      check.log = f.log;
      check.consequence = sim::ConsequenceText(f.consequence);
    }
    r_.pool_check = std::move(check);
  }

  // A failed zero-size request that the runtime ignores: only then can a pool below the
  // high-water mark load (sim::MinimumPool).
  bool tolerates_a_failure() const { return tolerated_; }

 private:
  // Kept allocations: room for about all of them up front.
  void Reserve(size_t requests) {
    w_.plan.requests.reserve(requests);
    w_.sim.placements.reserve(requests);
  }

  // What only JSON, --allocations and --pool ask for: out of the per-request path.
  [[gnu::noinline]] void KeepAndCheck(const runtime::AllocationRequest& req,
                                      const sim::Placement& p, size_t i) {
    if (keep_) {
      w_.plan.requests.push_back(req);
      w_.sim.placements.push_back(p);
    }
    if (bounded_) CheckOnPool(req, i);
  }

  void CheckOnPool(const runtime::AllocationRequest& req, size_t i) {
    sim::Placement q;
    if (bounded_->Place(req, q) && q.failed && !failing_) failing_ = AllocationRecord{i, req, q};
  }

  bool keep_;
  Workspace& w_;
  MethodReport& r_;
  sim::LoadSimulator unbounded_;
  std::optional<sim::LoadSimulator> bounded_;
  std::optional<AllocationRecord> failing_;
  LargestAllocations largest_;
  std::array<CategoryTotal, static_cast<size_t>(runtime::Site::kCount)> by_site_{};
  bool tolerated_ = false;
};

// The smallest pool that loads. Only a tolerated failure makes it less than the high-water
// mark; finding how much less replays the requests, so a streamed plan is re-planned and kept.
uint64_t MinimumPool(const pte::ProgramView& program, const pte::MethodView& m,
                     const runtime::RuntimeModel& model, const ReportOptions& options,
                     const MethodSink& sink, Workspace& w) {
  if (!sink.tolerates_a_failure()) return w.sim.method_bytes;
  runtime::LoadPlan replay;
  const runtime::LoadPlan* plan = &w.plan;
  if (!options.keep_allocations) {
    runtime::PlanMethodLoad(program, m, model, options.load, replay);
    plan = &replay;
  }
  return sim::MinimumPool(plan->requests, options.pool_align,
                          {options.pool_align, std::nullopt}, w.sim);
}

// The report's copy of the workspace: all of it, or everything but the per-allocation vectors.
void Keep(Workspace& w, bool allocations, MethodReport& r) {
  if (allocations) {
    r.plan = std::move(w.plan);
    r.sim = std::move(w.sim);
    return;
  }
  r.plan.backend_types = w.plan.backend_types;
  r.plan.unknowns = w.plan.unknowns;
  r.plan.refusal = w.plan.refusal;
  r.plan.metadata = w.plan.metadata;
  r.sim.method_bytes = w.sim.method_bytes;
  r.sim.temp_peak_bytes = w.sim.temp_peak_bytes;
  r.sim.failures = w.sim.failures;
  r.sim.loads = w.sim.loads;
}

MethodReport AnalyzeMethod(const pte::ProgramView& program, const pte::MethodView& m,
                           const runtime::RuntimeModel& model, const ReportOptions& options,
                           Workspace& w, kernels::RunTemp run_temp) {
  MethodReport r;
  r.method = &m;
  r.counts = Count(m);
  MethodSink sink(options, m, w, r);
  runtime::StreamMethodLoad(program, m, model, options.load, w.plan, sink);
  sink.Finish(options);
  r.method_bytes = MinimumPool(program, m, model, options, sink, w);
  r.temp_load_peak_bytes = w.sim.temp_peak_bytes;
  r.run_temp = std::move(run_temp);
  r.exceeds_runtime_pool_limit = r.method_bytes > UINT32_MAX;
  Keep(w, options.keep_allocations, r);
  return r;
}

// Everything about a target that the load plan depends on. Every type's layout is computed
// from the layouts of the primitives alone (abi/layout.h), so targets that agree on those agree
// on every type; the width of size_t decides which lists wrap it.
struct TargetSignature {
  std::vector<abi::SizeAlign> primitives;
  uint32_t size_t_bytes = 0;
  bool operator==(const TargetSignature&) const = default;
};

TargetSignature SignatureOf(const abi::Abi& target) {
  TargetSignature s;
  for (int p = 0; p <= static_cast<int>(abi::Prim::kEmpty); ++p)
    s.primitives.push_back(abi::PrimLayout(static_cast<abi::Prim>(p), target));
  s.size_t_bytes = target.size_type.size;
  return s;
}

}  // namespace

FlashBreakdown ComputeFlash(const pte::ProgramView& p) {
  FlashBreakdown f;
  f.file_bytes = p.file_size;
  f.program_bytes = p.flatbuffer_bytes;
  f.inline_constant_bytes = p.inline_constant_bytes;
  f.segment_constant_bytes = p.constant_segment_bytes;
  uint64_t segment_total = 0;
  for (const auto& s : p.segments) segment_total += s.size;
  for (const auto& m : p.methods)
    for (const auto& d : m.delegates)
      (d.location == pte::BlobLocation::kInline ? f.inline_delegate_bytes
                                                : f.segment_delegate_bytes) += d.blob_bytes;
  f.metadata_bytes = f.program_bytes - std::min(f.program_bytes, f.inline_constant_bytes +
                                                                     f.inline_delegate_bytes);
  const uint64_t known = f.segment_constant_bytes + f.segment_delegate_bytes;
  f.other_segment_bytes = segment_total > known ? segment_total - known : 0;
  return f;
}

namespace {

// The runner's pools for one method: the runner's requests sized for the method, placed with
// load_method's requests in the runner's order.
Result<RunnerReport> AnalyzeRunner(const pte::ProgramView& program, const MethodReport& r,
                                   const runtime::RuntimeModel& model, const ReportOptions& options,
                                   const ReportOptions& effective,
                                   const std::shared_ptr<const runner::Profile>& profile) {
  RunnerReport out;
  out.profile = profile;
  ETMEM_TRY(out.plan, runner::PlanRunner(*profile, options.runner, program, *r.method, model));
  runtime::LoadPlan replanned;
  const runtime::LoadPlan* load = &r.plan;
  if (r.plan.requests.empty()) {  // the report streamed them: plan them again, kept
    runtime::PlanMethodLoad(program, *r.method, model, effective.load, replanned);
    load = &replanned;
  }
  out.result = sim::SimulateRunner(out.plan, load->requests, options.pool_bytes);
  if (out.result.check && out.result.check->failure && out.result.check->failure->load_request)
    out.failing_load_what = runtime::DescribeRequest(
        load->requests[*out.result.check->failure->load_request], *load, *r.method);
  return out;
}

std::string RunnerAssumption(const runner::Profile& p, const runner::RunnerSelection& s) {
  std::string options;
  for (const std::string& o : s.options) options += (options.empty() ? "" : "+") + o;
  std::string line = "runner " + p.name + " (" + p.file + ", ExecuTorch " + p.first_release +
                     "-" + p.last_release + "), " +
                     (options.empty() ? "no options" : "options " + options);
  if (s.pool_align)
    line += ", every pool's base aligned to " + std::to_string(*s.pool_align) + " B (--pool-align)";
  return line;
}

Result<Report> BuildReportWith(const pte::ProgramView& program, const runtime::RuntimeModel& model,
                               const ReportOptions& options, Workspace& work) {
  // With a runner, the runner decides the temp allocator (under --temp runner) and --pool checks
  // the runner's method pool instead of load_method's alone.
  std::shared_ptr<const runner::Profile> profile;
  ReportOptions effective = options;
  if (!options.runner.empty()) {
    ETMEM_TRY(const runner::Profile* chosen,
              runner::ProfileFor(options.runner, model.traits().version));
    for (const auto& candidate : options.runner.candidates)
      if (candidate.get() == chosen) profile = candidate;
    if (options.temp_is_runner_default)
      effective.load.temp_allocator = !chosen->LoadStep().temp_pool.empty();
    effective.pool_bytes.reset();
  }
  // A release whose operator metadata falls back when the temp pool is small needs its size:
  // --temp-pool, else the runner's temp pool, else the portable executor_runner's.
  std::optional<uint64_t> temp_pool;
  std::string temp_pool_source;
  if (model.traits().operator_metadata_temp_fallback_dims > 0 && effective.load.temp_allocator) {
    const runner::PoolSpec* runner_temp =
        profile && !profile->LoadStep().temp_pool.empty()
            ? profile->FindPool(profile->LoadStep().temp_pool)
            : nullptr;
    if (options.load.temp_pool_bytes) {
      temp_pool = options.load.temp_pool_bytes;
      temp_pool_source = "--temp-pool";
    } else if (runner_temp) {
      temp_pool = runner_temp->default_bytes;
      temp_pool_source = "the runner's " +
                         (runner_temp->macro.empty() ? runner_temp->variable
                                                     : runner_temp->macro + " default") +
                         "; --temp-pool BYTES to change";
    } else if (model.traits().portable_runner_temp_pool_bytes > 0) {
      temp_pool = model.traits().portable_runner_temp_pool_bytes;
      temp_pool_source = "the portable executor_runner's temp_allocator_pool; --temp-pool BYTES "
                         "to change";
    }
    effective.load.temp_pool_bytes = temp_pool;
  } else if (model.traits().operator_metadata_skips_empty_temp && effective.load.temp_allocator) {
    // 1.0.0 on: only an empty (0 B) temp pool changes where the operator metadata goes; the size
    // is --temp-pool, else the runner's temp pool (else one that is not empty is assumed).
    const runner::PoolSpec* runner_temp =
        profile && !profile->LoadStep().temp_pool.empty()
            ? profile->FindPool(profile->LoadStep().temp_pool)
            : nullptr;
    std::optional<uint64_t> size = options.load.temp_pool_bytes;
    std::string source = "--temp-pool";
    if (!size && runner_temp) {
      size = runner_temp->default_bytes;
      source = "the runner's " + (runner_temp->macro.empty() ? runner_temp->variable
                                                             : runner_temp->macro + " default");
    }
    effective.load.temp_pool_bytes = size;
    if (size == uint64_t{0}) {  // the report says so where it matters
      temp_pool = 0;
      temp_pool_source = source + "; an empty temp allocator: the operator metadata goes to the "
                                  "method allocator";
    }
  } else {
    effective.load.temp_pool_bytes.reset();  // no release but a fallback one reads it
  }
  Report report;
  report.program = &program;
  report.assumptions = {model.traits().version, model.abi().name, model.abi().description,
                        effective.pool_align, effective.load.temp_allocator,
                        effective.temp_is_runner_default, effective.load.external_data_map};
  report.assumptions.temp_pool_bytes = temp_pool;
  report.assumptions.temp_pool_source = temp_pool_source;
  if (profile) report.assumptions.runner = RunnerAssumption(*profile, options.runner);
  report.flash = ComputeFlash(program);
  report.flash_load = ComputeFlashLoad(program, model.traits());
  // Program::load takes the inline constant_buffer path when there is no constant segment.
  if (model.traits().cmake_build_drops_inline_constants && program.constant_offsets == 0)
    report.notes.push_back(
        "this program has no constant segment; a runtime built with ExecuTorch's CMake defaults "
        "(ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0) refuses it in Program::load (InvalidProgram); "
        "the figures assume the source default (1) or a re-exported program");
  // While running: --kernels, else the runner's (its profile's "kernels"), else the portable
  // kernels (custom namespaces select their own libraries); the temp pool to check is
  // --temp-pool, else the runner's.
  kernels::RunTempOptions run;
  run.kernels = options.kernels;
  if (run.kernels.empty() && profile) {
    for (const std::string& k : profile->kernels) {
      const std::vector<std::string>& known = kernels::KernelLibraryNames();
      if (std::find(known.begin(), known.end(), k) == known.end())
        return MakeError(ErrorCode::kInvalidArgument,
                         "runner profile " + Printable(profile->file) +
                             ": \"kernels\" names no kernel library '" + k +
                             "' (see --kernels for the known ones)");
    }
    run.kernels = profile->kernels;
  }
  if (run.kernels.empty()) run.kernels = {kernels::kDefaultKernelLibrary};
  run.pool_align = effective.pool_align;
  run.temp_allocator = effective.load.temp_allocator;
  const runner::PoolSpec* runner_temp =
      profile && !profile->LoadStep().temp_pool.empty()
          ? profile->FindPool(profile->LoadStep().temp_pool)
          : nullptr;
  if (options.load.temp_pool_bytes) {
    run.temp_pool_bytes = options.load.temp_pool_bytes;
    report.assumptions.run_temp_pool_source = "--temp-pool";
  } else if (runner_temp && effective.load.temp_allocator) {
    run.temp_pool_bytes = runner_temp->default_bytes;
    report.assumptions.run_temp_pool_source =
        "the runner's " + (runner_temp->macro.empty() ? runner_temp->variable
                                                      : runner_temp->macro + " default");
  }
  report.assumptions.kernels = run.kernels;
  report.assumptions.run_temp_pool_bytes = run.temp_pool_bytes;
  // A runner that loads the program's first method only (program.get_method_name(0)): with no
  // --method the other methods take no memory in its firmware and are not judged; a --method
  // naming another one is judged as asked, and said.
  std::string method = options.method;
  if (profile && profile->loads_first_method_only && !program.methods.empty()) {
    const std::string first(program.methods[0].name);
    const std::string why = "the " + profile->name +
                            " runner loads the program's first method only ('" + Printable(first) +
                            "', program.get_method_name(0) in " + profile->source_path + ")";
    if (method.empty()) {
      method = first;
      for (const pte::MethodView& m : program.methods)
        if (m.name != first) report.not_judged.push_back({Printable(m.name), why});
    } else if (method != first) {
      report.notes.push_back("--method " + Printable(method) + " is judged as asked, but " + why +
                             " and never this one");
    }
  }
  for (const pte::MethodView& m : program.methods) {
    if (!method.empty() && m.name != method) continue;
    // Runners reach a method by name, and Program::get_execution_plan returns the first plan of
    // that name (every release): a later plan of the same name is never loaded.
    if (const pte::MethodView* first = program.FindMethod(m.name); first != &m) {
      report.notes.push_back("method " + std::to_string(&m - program.methods.data()) + " is named '" +
                             Printable(m.name) + "' as method " +
                             std::to_string(first - program.methods.data()) +
                             " is; Program::get_execution_plan finds the first plan of a name, so "
                             "no runner loads it (not analysed)");
      continue;
    }
    if (std::string note = OptionalItemParsedLaterNote(m); !note.empty())
      report.notes.push_back(std::move(note));
    ETMEM_TRY(kernels::RunTemp run_temp,
              kernels::ComputeRunTemp(program, m, model.traits(), model.abi(), run));
    report.methods.push_back(AnalyzeMethod(program, m, model, effective, work, std::move(run_temp)));
    if (profile) {
      ETMEM_TRY(report.methods.back().runner,
                AnalyzeRunner(program, report.methods.back(), model, options, effective, profile));
      // A backend the runner's build does not register: Method::init's BackendDelegate::Init
      // fails the delegate (method.cpp, every release), so load_method fails.
      std::vector<std::string> seen;
      for (const pte::DelegateView& d : m.delegates) {
        const std::string id = Printable(d.backend);
        if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
        seen.push_back(id);
        auto in = [&](const std::vector<std::string>& v) {
          return std::find(v.begin(), v.end(), id) != v.end();
        };
        if (in(profile->backends)) continue;
        std::string registers;
        for (const std::string& b : profile->backends) registers += (registers.empty() ? "" : ", ") + b;
        const std::string fails = "load_method fails: \"Backend " + id +
                                  " is not registered.\" (NotFound, 0x20)";
        if (in(profile->backends_if_built))
          report.notes.push_back("runner " + profile->name + " registers " + id +
                                 " only when the ExecuTorch build made it (its build links it if "
                                 "the target exists); method " + Printable(m.name) +
                                 " delegates to it: built without it, " + fails);
        else {
          report.methods.back().unregistered_backends.push_back(
              "load_method fails: Backend " + id + " is not registered. (NotFound, 0x20): runner " +
              profile->name + " registers " + (registers.empty() ? "no backend" : registers));
          report.notes.push_back("WARNING: runner " + profile->name + " does not register " + id +
                                 " (it registers " + (registers.empty() ? "no backend" : registers) +
                                 "), and method " + Printable(m.name) + " delegates to it: " +
                                 fails);
        }
      }
    }
  }
  if (report.methods.empty()) {
    std::string names;
    for (const auto& m : program.methods) names += (names.empty() ? "" : ", ") + Printable(m.name);
    return MakeError(ErrorCode::kInvalidArgument, program.path + ": no method named '" +
                                                      Printable(options.method) + "' (methods: " +
                                                      names + ")");
  }
  return report;
}

}  // namespace

Result<Report> BuildReport(const pte::ProgramView& program, const runtime::RuntimeModel& model,
                           const ReportOptions& options) {
  Workspace work;
  return BuildReportWith(program, model, options, work);
}

namespace {

// For each pair, the first pair (itself, or an earlier one) with the same release, options and
// target signature: the pair whose report it shares.
std::vector<size_t> ReportSources(std::span<const PairRequest> pairs) {
  std::vector<TargetSignature> signatures;
  std::vector<size_t> source(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    signatures.push_back(SignatureOf(pairs[i].target));
    source[i] = i;
    for (size_t j = 0; j < i; ++j)
      if (source[j] == j && pairs[j].release == pairs[i].release &&
          pairs[j].options == pairs[i].options && signatures[j] == signatures[i]) {
        source[i] = j;
        break;
      }
  }
  return source;
}

}  // namespace

Result<std::vector<Report>> BuildReports(const pte::ProgramView& program,
                                         std::span<const PairRequest> pairs) {
  const std::vector<size_t> source = ReportSources(pairs);
  std::vector<size_t> own;  // the pairs whose reports are computed, not copied
  for (size_t i = 0; i < pairs.size(); ++i)
    if (source[i] == i) own.push_back(i);
  std::vector<std::optional<Result<Report>>> built(pairs.size());
  Workspace work;  // one for all pairs: each reuses the buffers of the one before
  for (size_t i : own) {
    const PairRequest& pair = pairs[i];
    runtime::RuntimeModel model(*pair.release, pair.target);
    built[i] = BuildReportWith(program, model, pair.options, work);
  }
  std::vector<Report> reports;
  reports.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (source[i] == i) {
      if (!built[i]->has_value()) return built[i]->error();
      reports.push_back(std::move(built[i]->value()));
      continue;
    }
    Report copy = reports[source[i]];
    copy.assumptions.target = pairs[i].target.name;
    copy.assumptions.target_detail = pairs[i].target.description;
    reports.push_back(std::move(copy));
  }
  return reports;
}

std::string Describe(const MethodReport& m, size_t request) {
  return Describe(m, m.plan.requests[request]);
}

std::string Describe(const MethodReport& m, const runtime::AllocationRequest& request) {
  return runtime::DescribeRequest(request, m.plan, *m.method);
}

}  // namespace etmem::report
