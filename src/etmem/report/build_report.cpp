// Owns: BuildReport, from a verified program and a runtime model to the report model.
#include "etmem/report/report.h"

#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

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

void RollUp(MethodReport& r) {
  for (size_t i = 0; i < r.sim.placements.size(); ++i) {
    const runtime::AllocationRequest& req = r.plan.requests[i];
    if (req.pool != runtime::PoolKind::kMethod) continue;
    const sim::Placement& p = r.sim.placements[i];
    CategoryTotal& c = r.by_category[static_cast<size_t>(runtime::SiteCategory(req.site))];
    c.bytes += p.consumed(req.size);
    c.padding += p.padding;
    c.allocations += 1;
  }
}

PoolCheck CheckPool(const MethodReport& r, uint64_t pool_bytes, const ReportOptions& options) {
  sim::SimResult s = sim::Simulate(r.plan.requests, {options.pool_align, pool_bytes},
                                   {options.pool_align, std::nullopt});
  PoolCheck check;
  check.pool_bytes = pool_bytes;
  check.fits = s.loads;
  if (!s.failures.empty()) {
    const sim::AllocationFailure& f = s.failures.front();
    check.failing_request = f.request;
    check.log = f.log;
    check.consequence = sim::ConsequenceText(f.consequence);
  }
  return check;
}

MethodReport AnalyzeMethod(const pte::ProgramView& program, const pte::MethodView& m,
                           const runtime::RuntimeModel& model, const ReportOptions& options) {
  MethodReport r;
  r.method = &m;
  r.counts = Count(m);
  r.plan = runtime::PlanMethodLoad(program, m, model, options.load);
  const sim::PoolConfig temp{options.pool_align, std::nullopt};
  r.sim = sim::Simulate(r.plan.requests, {options.pool_align, std::nullopt}, temp);
  r.method_bytes = sim::MinimumPool(r.plan.requests, options.pool_align, temp, r.sim);
  r.temp_load_peak_bytes = r.sim.temp_peak_bytes;
  r.exceeds_runtime_pool_limit = r.method_bytes > UINT32_MAX;
  RollUp(r);
  if (options.pool_bytes) r.pool_check = CheckPool(r, *options.pool_bytes, options);
  return r;
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

Result<Report> BuildReport(const pte::ProgramView& program, const runtime::RuntimeModel& model,
                           const ReportOptions& options) {
  Report report;
  report.program = &program;
  report.assumptions = {model.traits().version, model.abi().name, model.abi().description,
                        options.pool_align, options.load.temp_allocator,
                        options.temp_is_runner_default, options.load.external_data_map};
  report.flash = ComputeFlash(program);
  report.flash_load = ComputeFlashLoad(program, model.traits());
  // Program::load takes the inline constant_buffer path when there is no constant segment.
  if (model.traits().cmake_build_drops_inline_constants && program.constant_offsets == 0)
    report.notes.push_back(
        "this program has no constant segment; a runtime built with ExecuTorch's CMake defaults "
        "(ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0) refuses it in Program::load (InvalidProgram); "
        "the figures assume the source default (1) or a re-exported program");
  for (const pte::MethodView& m : program.methods) {
    if (!options.method.empty() && m.name != options.method) continue;
    report.methods.push_back(AnalyzeMethod(program, m, model, options));
  }
  if (report.methods.empty()) {
    std::string names;
    for (const auto& m : program.methods) names += (names.empty() ? "" : ", ") + std::string(m.name);
    return MakeError(ErrorCode::kInvalidArgument, program.path + ": no method named '" +
                                                      options.method + "' (methods: " + names + ")");
  }
  return report;
}

std::string Describe(const MethodReport& m, size_t request) {
  return runtime::DescribeRequest(m.plan.requests[request], *m.method);
}

}  // namespace etmem::report
