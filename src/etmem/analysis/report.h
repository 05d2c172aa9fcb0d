// Owns: the one report model every output format prints from (bloaty's RollupOutput role):
// per method, the simulated method-allocator requirement with every allocation, the roll-up by
// category, the temp allocator's load peak, the planned buffers, the pool check, with a runner
// every pool the runner declares (RunnerReport), and the assumptions that make the numbers
// reproducible. Not: printing (one file per format).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/kernels/run_temp.h"
#include "etmem/pte/program_view.h"
#include "etmem/runner/profile.h"
#include "etmem/runner/runner_plan.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/sim/runner_sim.h"
#include "etmem/sim/simulate.h"

namespace etmem::report {

// Everything a reader needs to reproduce a figure.
struct Assumptions {
  std::string runtime;        // "1.4.1"
  std::string target;         // "cortex-m"
  std::string target_detail;  // the target row's description
  uint32_t pool_align = 8;    // pool base aligned to this, not to twice this
  bool temp_allocator = false;
  bool temp_is_runner_default = true;  // chosen by --temp runner
  bool external_data_map = false;
  // With --runner: the runner, its profile and the options turned on, in one line, e.g.
  // "runner arm-baremetal (built-in (arm-baremetal-1.1.json), ExecuTorch 1.1.0-1.4.1), no options".
  // Empty: the portable executor_runner's layout (pool_align above, planned buffers apart).
  std::string runner;
  // At a release whose operator metadata falls back to the method allocator when the temp pool
  // is too small (main), with a temp allocator: the temp pool's size assumed, and where it came
  // from ("--temp-pool", the runner's default, the portable executor_runner's). Unset elsewhere.
  std::optional<uint64_t> temp_pool_bytes;
  std::string temp_pool_source;
  // While the method runs: the kernel libraries asked for aten operators (--kernels, else the
  // runner's, else portable), and the temp pool checked against every instruction (--temp-pool,
  // else the runner's temp pool; unset: no check) with where its size came from.
  std::vector<std::string> kernels;
  std::optional<uint64_t> run_temp_pool_bytes;
  std::string run_temp_pool_source;
};

struct CategoryTotal {
  uint64_t bytes = 0;    // consumed: requested + padding
  uint64_t padding = 0;
  uint32_t allocations = 0;
};

// One allocation with all it takes to print it, whether or not the report kept the others.
struct AllocationRecord {
  size_t index = 0;  // its place in the load's sequence of requests
  runtime::AllocationRequest request;
  sim::Placement placement;
};

struct PoolCheck {
  uint64_t pool_bytes = 0;
  bool fits = true;
  std::optional<AllocationRecord> failing;  // the first allocation that fails
  std::string log;                        // the runtime's first failure line
  std::string consequence;                // what the runtime does next
};

struct MethodCounts {
  size_t values = 0, tensors = 0, instructions = 0, kernel_calls = 0, delegate_calls = 0,
         operators = 0, delegates = 0, chains = 0, inputs = 0, outputs = 0;
};

// With --runner: every pool the runner declares, what the runner and load_method take from each
// in the runner's order, each pool's exact minimum, and the check of a --pool of the runner's
// method pool. The figures `check` needs are one per pool (RunnerPoolResult::minimum and each
// entry), to compare against what a runner prints about its pools.
struct RunnerReport {
  std::shared_ptr<const runner::Profile> profile;  // keeps plan.profile alive
  runner::RunnerPlan plan;
  sim::RunnerResult result;
  // The --pool check failed inside load_method: what the failing request allocates.
  std::string failing_load_what;
  const runner::PoolSpec& pool_spec(size_t pool) const { return *plan.pools[pool].spec; }
};

struct MethodReport {
  const pte::MethodView* method = nullptr;
  runtime::LoadPlan plan;          // requests: empty unless ReportOptions::keep_allocations
  sim::SimResult sim;              // unbounded pool: placements (if kept) and high-water marks
  // The ReportOptions::largest largest method-pool allocations, largest first (earlier first
  // among equals).
  std::vector<AllocationRecord> largest;
  uint64_t method_bytes = 0;       // the minimum method pool
  uint64_t temp_load_peak_bytes = 0;
  // The temp allocator while the method runs: every call's requests, the peak over instructions
  // and the instruction that sets it, the heap of the no-temp-allocator fallback, the check of a
  // temp pool (kernels/run_temp.h).
  kernels::RunTemp run_temp;
  std::array<CategoryTotal, static_cast<size_t>(runtime::Category::kCount)> by_category{};
  std::optional<PoolCheck> pool_check;
  MethodCounts counts;
  bool exceeds_runtime_pool_limit = false;  // above 2^32-1: no MemoryAllocator can hold it
  // With --runner: the runner's pools (pool_check is then empty: --pool checks the runner's
  // method pool, runner->result.check).
  std::optional<RunnerReport> runner;
  // With --runner: what load_method logs for each backend the method delegates to that the
  // runner's build never registers ("Backend X is not registered.", NotFound): a refusal.
  std::vector<std::string> unregistered_backends;
  // Whether a --pool check failed (the runtime's alone, or the runner's method pool).
  bool pool_does_not_fit() const {
    if (runner && runner->result.check) return !runner->result.check->fits();
    return pool_check && !pool_check->fits;
  }
};

struct FlashBreakdown {
  uint64_t file_bytes = 0;
  uint64_t program_bytes = 0;           // flatbuffer region (+ header): Program::load keeps it
  uint64_t metadata_bytes = 0;          // program_bytes minus inline constants and blobs
  uint64_t inline_constant_bytes = 0;
  uint64_t segment_constant_bytes = 0;
  uint64_t inline_delegate_bytes = 0;
  uint64_t segment_delegate_bytes = 0;
  uint64_t other_segment_bytes = 0;
};

// What happens to each part of the file when the firmware hands the runtime its flash image
// through a BufferDataLoader: load() returns a pointer into the image (nothing is copied) and
// load_into() copies. The release decides which parts are loaded, and how.
enum class FlashUse { kReadInPlace, kCopiedToRam, kBackendDependent, kNotRead };
const char* FlashUseName(FlashUse u);  // "read-in-place", "copied-to-ram", ...

struct FlashPart {
  std::string what;        // "constant segment (segment 0)"
  uint64_t bytes = 0;      // bytes of the file
  FlashUse use = FlashUse::kReadInPlace;
  uint64_t ram_bytes = 0;  // kCopiedToRam: bytes the runtime writes into RAM from this part
  std::string why;         // what the runtime does with it, or where the copy goes
};

struct FlashLoad {
  std::vector<FlashPart> parts;  // every byte of the file in exactly one part
  std::vector<std::string> notes;  // data from outside the file (.ptd)
  uint64_t bytes(FlashUse u) const {
    uint64_t total = 0;
    for (const FlashPart& p : parts) total += p.use == u ? p.bytes : 0;
    return total;
  }
  uint64_t ram_bytes() const {
    uint64_t total = 0;
    for (const FlashPart& p : parts) total += p.ram_bytes;
    return total;
  }
};

// The assumption every FlashLoad figure rests on, as one sentence.
extern const char* const kBufferDataLoaderAssumption;
// The bytes whose use depends on a backend (or a data map): "N B backend-dependent: unknown",
// or "no backend-dependent bytes" when there are none (nothing is unknown then).
std::string BackendDependentPhrase(const FlashLoad& load);

// A memory budget for a firmware build (analysis/budget.h reads and checks it).
struct Budget {
  // Per method: method allocator pool + planned buffers + temp allocator load peak.
  std::optional<uint64_t> ram;
  // The program file: what the firmware stores in flash.
  std::optional<uint64_t> flash;
};

// In order of precedence when verdicts combine: a known failure outranks an unknown, which
// outranks fits; a refusal outranks a pool that does not fit.
enum class VerdictKind { kFits = 0, kUnknown = 1, kDoesNotFit = 2, kRefused = 3 };

// The verdict at each published release where a verdict rested on the default release: the
// releases whose verdict differs from the default's, consecutive releases with the same verdict
// and figure collapsed ("0.2.0-0.7.0").
struct ReleaseVerdicts {
  std::string first, last;  // the range, in release order
  VerdictKind kind = VerdictKind::kFits;
  // The method pool the releases need (the runner's method pool with a runner), the smallest and
  // the largest over the range; unset when refused, or when a method's figure differs from
  // another's within a release.
  std::optional<uint64_t> min_method_pool_bytes, max_method_pool_bytes;
  std::string error;   // refused: the runtime's error ("InvalidArgument")
  std::string reason;  // refused: what in the program triggers it (the range's first release's)
};
struct DefaultRelease {
  std::string runtime;  // the default's version, "1.4.1"
  VerdictKind kind = VerdictKind::kFits;
  std::vector<ReleaseVerdicts> others;  // the ranges whose verdict differs, in release order
  // "LOADS at 1.4.1, the default; DOES NOT LOAD at 0.2.0-0.7.0 (4266 B needed): pass --runtime",
  // or "the same verdict at every published release" when none differs.
  std::string Line() const;
};
// A method of the program that the figures leave out, and why (a runner that never loads it).
struct MethodNotJudged {
  std::string name;
  std::string why;
};
struct Report {
  const pte::ProgramView* program = nullptr;
  Assumptions assumptions;
  std::vector<MethodReport> methods;
  std::vector<MethodNotJudged> not_judged;  // methods the runner never loads: no verdict
  std::vector<std::string> notes;  // conditions under which the figures would not apply
  FlashBreakdown flash;
  FlashLoad flash_load;
  // Judged with the figures (analysis/verdict.h): the budget asked for, if any; where the release
  // was the default and a pool is judged, the verdict at every other published release.
  std::optional<Budget> budget;
  std::optional<DefaultRelease> default_release;
};

struct ReportOptions {
  runtime::LoadOptions load;
  bool temp_is_runner_default = true;
  uint32_t pool_align = 8;
  std::optional<uint64_t> pool_bytes;  // --pool
  std::string method;                  // empty: every method
  // false: keep the totals only (and the largest allocations). plan.requests and
  // sim.placements are then empty: the requests are streamed through the simulation as they
  // are planned, never held, which is all a summary needs, at a fraction of the time and memory.
  bool keep_allocations = true;
  size_t largest = 8;  // how many of the largest allocations MethodReport::largest holds
  // --runner: the runner whose own allocations share the pools with load_method (empty: none,
  // today's figures). With a runner, --temp runner means what the runner passes, and pool_bytes
  // checks the runner's method pool.
  runner::RunnerSelection runner;
  std::vector<std::string> kernels;  // --kernels: the libraries for aten operators, in order
  bool operator==(const ReportOptions&) const = default;
};

// Plans, simulates and rolls up every (selected) method. Fails only for a --method that the
// program does not have.
Result<Report> BuildReport(const pte::ProgramView& program, const runtime::RuntimeModel& model,
                           const ReportOptions& options);

// One (release, target) pair of a BuildReports call.
struct PairRequest {
  const runtime::RuntimeTraits* release = nullptr;
  abi::Abi target;
  ReportOptions options;
};

// Reports for many pairs of one program, in the order asked, the program read once. Targets
// whose primitives have the same layouts (hence every type, and size_t) make a release's load
// plan allocate the same sizes in the same order, so with the same options their reports are
// the same but for the target's name: such a pair is computed once and copied.
Result<std::vector<Report>> BuildReports(const pte::ProgramView& program,
                                         std::span<const PairRequest> pairs);

FlashBreakdown ComputeFlash(const pte::ProgramView& program);
FlashLoad ComputeFlashLoad(const pte::ProgramView& program, const runtime::RuntimeTraits& traits);

// Labels for allocation i of a method whose allocations were kept (built on demand).
std::string Describe(const MethodReport& m, size_t request);
// The same for one allocation of any report.
std::string Describe(const MethodReport& m, const runtime::AllocationRequest& request);

}  // namespace etmem::report
