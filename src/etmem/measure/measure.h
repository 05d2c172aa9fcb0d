// Owns: what `etmem measure` finds, as structured values (MeasureRun: the tree and the modelled
// release compared with it, the harness built, per method the measured calls beside etmem's
// prediction with the verdicts and the first divergence, and with --execute execute.h's
// ExecutionRun), and the stage's part of it: which modelled release a tree is compared with, the
// harness's kernel, backend and runner steps, the calls etmem predicts for that run (a runner's
// own requests placed around load_method by sim::TraceMethodPool, as check and the report place
// them) and the comparison of one method.
// Not: building and running the harness (build.h), the log format (device/), running the verb
// in order (api/measure.cpp), the text (report/measure_text.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/device/device_log.h"
#include "etmem/measure/build.h"
#include "etmem/measure/execute.h"
#include "etmem/pte/program_view.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"

namespace etmem::measure {

inline constexpr uint64_t kDefaultPool = 64ull << 20;  // unbounded for every program we know

// The host's ABI among etmem's targets ("" when none): the harness runs on this machine.
std::string HostTarget();

// The modelled release to compare a tree of `version` with: its own, else the newest modelled
// one before it (else the oldest), and why, in words.
struct ReleaseChoice {
  std::string release;
  std::string why;
};
ReleaseChoice ClosestRelease(const std::string& version);

// The harness's kernel and backend lines for the program ("kernel NAME", "backend ID BYTES
// ALIGN"): every operator gets a kernel that does nothing, every backend an init that allocates
// what `declared` (--backend) says, else nothing; `stubbed` lists those inits as ID=BYTES[:ALIGN].
struct HarnessStubs {
  std::string steps;
  std::vector<std::string> stubbed;
};
HarnessStubs StubKernelsAndBackends(
    const pte::ProgramView& program,
    const std::map<std::string, runtime::DeclaredBackendInit>& declared);

// The calls etmem predicts on the method pool for the harness run of one method, in order,
// what each is, and how the harness is told to run it.
struct Expected {
  device::Prediction prediction;
  std::vector<std::string> what;  // per call ("" when not said)
  std::string steps;              // the harness's steps after the kernels and backends
  uint32_t pool_align = 16;
  std::optional<uint64_t> temp_bytes;  // none: no temp allocator
  std::string layout;                  // the runner's layout, in words
};
Expected Expect(const report::Report& r, const report::MethodReport& m,
                std::optional<uint64_t> pool);

// ---- The structured result ----

struct MeasureSetup {
  std::string tree;            // the tree's root
  std::string version_source;  // how its release was told
  std::string commit;          // its git commit, if any
  std::string release;         // the modelled release compared with
  std::string why;             // why that one
};

struct MeasureBuild {
  std::string compiler, compiler_version;
  size_t sources = 0, reused = 0;
  std::optional<std::string> work;     // empty: a temporary directory
  std::vector<std::string> stubbed;    // backend inits, ID=BYTES[:ALIGN]
  uint64_t pool_bytes = kDefaultPool;  // the harness's method pool
  uint32_t pool_align = 16;            // its base alignment (and not twice that)
};

struct MethodMeasurement {
  std::string name;
  std::string layout;
  std::string measured_verdict;  // "Ok", "MemoryAllocationFailed", ...
  std::string etmem_verdict;
  std::string refusal_reason;    // etmem's, when it predicts a refusal
  bool verdicts_agree = false;
  bool logged = false;  // the harness logged records (else the method never reached the allocator)
  std::vector<device::CallRecord> measured;  // the calls as logged
  uint64_t measured_bytes = 0;               // the T record, or the calls' high-water mark
  Expected expected;
  std::optional<std::string> runtime_error_line;  // the runtime's first E line
  std::optional<device::Difference> difference;
  std::vector<runtime::UnknownPart> unknowns;  // etmem's figures are then a lower bound
  report::Assumptions assumptions;             // what the prediction assumed
  std::optional<uint64_t> pool;                // --pool (empty: the prediction is unbounded)
  std::string log_path;                        // the measured log (etmem check reads it)
  bool matches() const { return verdicts_agree && (!logged || !difference); }
};

// Runs the harness for one method (built, with `stubs` first) and compares what it logged with
// etmem's prediction in `r` (its only method). The log is written to `work`/measured-NAME.log.
Result<MethodMeasurement> MeasureMethod(const report::Report& r, const Built& built,
                                        const std::string& work, const std::string& program_path,
                                        const std::string& stubs, std::optional<uint64_t> pool);

struct MeasureRun {
  MeasureSetup setup;
  std::optional<MeasureBuild> build;
  std::vector<MethodMeasurement> methods;
  std::optional<ExecutionRun> execution;  // --execute
  std::optional<std::string> kept_logs;   // the work directory, when kept
  int exit_code() const {
    for (const MethodMeasurement& m : methods)
      if (!m.matches()) return 1;
    return execution ? execution->exit_code() : 0;
  }
};

}  // namespace etmem::measure
