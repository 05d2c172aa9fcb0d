// `etmem check`: compares a device log (written on the firmware by
// include/etmem/recording_allocator.h, or holding ExecuTorch's "Memory allocation failed" line)
// with etmem's prediction for the same model options: same calls and bytes, or the first
// difference. Exit 0 match, 1 mismatch, 2 invalid input. Not: the log format (device/).
#include <iostream>
#include <memory>

#include "commands.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/read_program.h"
#include "etmem/sim/simulate.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct CheckArgs {
  std::string program;
  std::string log;
  ModelArgs model;
  std::string method;
  std::optional<uint64_t> pool;
};

// The prediction, and which plan request each predicted call is (for its description).
struct Predicted {
  device::Prediction prediction;
  std::vector<size_t> request_of_call;
};

Predicted Predict(const report::MethodReport& m, uint32_t pool_align,
                  std::optional<uint64_t> pool) {
  const auto& requests = m.plan.requests;
  const sim::SimResult s =
      sim::Simulate(requests, {pool_align, pool}, {pool_align, std::nullopt});
  Predicted out;
  std::vector<size_t> call_of_request(requests.size(), 0);
  for (size_t i = 0; i < s.placements.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    call_of_request[i] = out.prediction.calls.size();
    out.request_of_call.push_back(i);
    const sim::Placement& p = s.placements[i];
    out.prediction.calls.push_back({requests[i].size, requests[i].align, p.offset, p.failed});
  }
  for (const sim::AllocationFailure& f : s.failures)
    if (requests[f.request].pool == runtime::PoolKind::kMethod)
      out.prediction.failures.push_back({f.requested, f.available, call_of_request[f.request]});
  out.prediction.used_bytes = s.method_bytes;
  return out;
}

std::string Assuming(const report::Assumptions& a, std::optional<uint64_t> pool) {
  std::string s = "ExecuTorch " + a.runtime + ", target " + a.target + ", pool base aligned to " +
                  std::to_string(a.pool_align) + " B, " +
                  (a.temp_allocator ? "a temp allocator" : "no temp allocator");
  return s + (pool ? ", a " + std::to_string(*pool) + " B pool" : ", an unbounded pool");
}

bool LogShowsAFailure(const device::DeviceLog& log) {
  if (!log.failures.empty()) return true;
  for (const auto& c : log.calls)
    if (!c.offset) return true;
  return false;
}

Result<const report::MethodReport*> PickMethod(const report::Report& r, const std::string& path) {
  if (r.methods.size() == 1) return &r.methods.front();
  return MakeError(ErrorCode::kInvalidArgument,
                   path + ": the program has " + std::to_string(r.methods.size()) +
                       " methods; name the one the device loaded with --method");
}

void PrintMatch(const CheckArgs& args, const device::DeviceLog& log, const report::Report& r,
                const report::MethodReport& m, const Predicted& p, std::optional<uint64_t> pool) {
  std::cout << args.log << ": matches etmem's prediction for method '" << m.method->name << "'";
  if (!log.calls.empty()) std::cout << ", call for call (" << log.calls.size() << " calls)";
  if (log.totals)
    std::cout << ", totals " << log.totals->used_bytes << " B in " << log.totals->calls
              << " calls";
  std::cout << "\n  assuming " << Assuming(r.assumptions, pool) << "\n";
  if (LogShowsAFailure(log) && !p.prediction.failures.empty()) {
    const device::PredictedFailure& f = p.prediction.failures.front();
    std::cout << "  the failure is exactly the one etmem predicts for a " << pool.value_or(0)
              << " B pool: call #" << f.call << ", "
              << report::Describe(m, p.request_of_call[f.call]) << "\n";
  }
}

void PrintDifference(const CheckArgs& args, const device::DeviceLog& log,
                     const report::Report& r, const report::MethodReport& m, const Predicted& p,
                     const device::Difference& d, std::optional<uint64_t> pool) {
  std::cout << args.log << (d.line ? ":" + std::to_string(d.line) : "")
            << ": differs from etmem's prediction for method '" << m.method->name << "'";
  if (d.call) std::cout << " at call #" << *d.call;
  std::cout << "\n  device: " << d.got << "\n  etmem:  " << d.predicted << "\n";
  if (d.call && *d.call < p.request_of_call.size())
    std::cout << "  etmem says call #" << *d.call << " is: "
              << report::Describe(m, p.request_of_call[*d.call]) << "\n";
  std::cout << "  assuming " << Assuming(r.assumptions, pool) << "\n";
  if (log.pool && log.pool->base_align != r.assumptions.pool_align)
    std::cout << "  note: the device's pool base is aligned to " << log.pool->base_align
              << " B, etmem modelled " << r.assumptions.pool_align << " B: try --pool-align "
              << std::min<uint64_t>(log.pool->base_align, 4096) << "\n";
  for (const auto& u : m.plan.unknowns)
    std::cout << "  note: etmem's figures are a lower bound: delegate " << u.delegate << " ("
              << u.backend << "): " << u.why << "\n";
}

int RunCheck(const CheckArgs& args) {
  if (!args.model.runner.empty())
    return FailInvalid("--runner " + args.model.runner + ": etmem check does not yet compare a "
                       "runner's own printout (use etmem analyze --runner for its pools)");
  const api::Program program = api::Program::Open(args.program);
  auto log = device::ReadDeviceLog(args.log);
  if (!log) return FailInvalid(log.error().message);
  const api::Report analysed = BuildSingleReport(program, args.model, args.method);
  const report::Report* report = &api::Internal(analysed);
  auto method = PickMethod(*report, args.program);
  if (!method) return FailInvalid(method.error().message);
  std::optional<uint64_t> pool = args.pool;
  if (!pool && log->pool) pool = log->pool->pool_bytes;
  if (!pool && LogShowsAFailure(*log))
    return FailInvalid(args.log + ": the log shows a failed allocation; give the pool size with "
                                  "--pool (or log the ETMEM P record)");
  const Predicted p = Predict(**method, report->assumptions.pool_align, pool);
  if (auto d = device::Compare(*log, p.prediction)) {
    PrintDifference(args, *log, *report, **method, p, *d, pool);
    return kExitDoesNotFit;  // 1: the log and the prediction differ
  }
  PrintMatch(args, *log, *report, **method, p, pool);
  return kExitOk;
}

}  // namespace

static Run DefineCheck(CLI::App* cmd) {
  auto args = std::make_shared<CheckArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("log", args->log, "the device log")->required();
  AddModelOptions(cmd, args->model);
  cmd->add_option("--method", args->method,
                  "the method the device loaded (default: the program's only method)");
  cmd->add_option("--pool", args->pool,
                  "the device's method pool in bytes (default: the log's ETMEM P record)");
  return [args]() { return Guarded([&] { return RunCheck(*args); }); };
}

const Verb kCheckVerb{"check", "Compare a device log (recording_allocator.h, or the runtime's allocation "
    "failure line) with etmem's prediction", DefineCheck};

}  // namespace etmem::cli
