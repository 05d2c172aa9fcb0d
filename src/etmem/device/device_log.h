// Owns: the device log that include/etmem/recording_allocator.h writes on the firmware,
// ExecuTorch's own allocation-failure line, and what ExecuTorch's example runners print about
// their pools: parsing a log into records, and comparing those records with a prediction given
// as plain numbers. Not: making the prediction (that needs the model; `etmem check` and
// check/prediction.h convert it), printing.
//
// The format (docs/recording-allocator.md). Any text may precede "ETMEM" on a line (a logger's
// timestamp); lines holding neither a record nor the failure line are ignored.
//   ETMEM P <pool_bytes> <base_align>           the pool: its size and its base's alignment
//   ETMEM A <index> <size> <align> <offset>     allocate(size, align) returned base + offset
//   ETMEM A <index> <size> <align> FAIL         allocate(size, align) returned null
//   ETMEM T <used_bytes> <calls>                used bytes (high-water mark) and allocate() calls
//   ... Memory allocation failed: <n>B requested (adjusted for alignment), <m>B available
//
// Runner printouts (read from each runner's source at its tags; docs/check.md):
//   the Arm bare-metal runner's memory report (examples/arm/executor_runner/
//   arm_executor_runner.cpp, v0.5.0 on; the Zephyr hello-executorch sample prints the same):
//     method_allocator_used:     <used> / <size>  free: <free> ( used: <pct> % )
//     method_allocator_planned:  <n> bytes       (the runner's planned buffers)
//     method_allocator_loaded:   <n> bytes       (what load_method took, after them)
//     method_allocator_input:    <n> bytes       (the runner's input list / buffers)
//     method_allocator_executor: <n> bytes
//     temp_allocator:            <size>          (v1.0 on: the temp pool's size, not its use)
//   the Raspberry Pi Pico 2 example's probe after load_method (examples/raspberry_pi/pico2/
//   main.cpp, v1.3.0 on):
//     Method allocator: <used> / <size> bytes used
// Each figure of the Arm report is the runner's own used-size counter (v0.5.0-v1.3.x: a
// bookkeeping counter that is not the bump cursor, see BookkeepingUsed), so the figures are
// read as printed and only compared; a line that is malformed after its label is an error.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::device {

struct PoolRecord {
  uint64_t pool_bytes = 0;
  uint64_t base_align = 0;  // the largest power of two dividing the base address (capped)
  int line = 0;
};

struct CallRecord {
  uint64_t size = 0;
  uint64_t align = 0;
  std::optional<uint64_t> offset;  // empty: allocate() returned null
  int line = 0;
};

struct TotalsRecord {
  uint64_t used_bytes = 0;
  uint64_t calls = 0;
  int line = 0;
};

struct FailureLine {
  uint64_t requested = 0;  // padding + size
  uint64_t available = 0;
  int line = 0;
};

// Which runner printout a figure comes from.
enum class Printout : uint8_t { kArmMemoryReport, kPico2Usage };
const char* PrintoutName(Printout p);  // "the Arm runner's memory report", ...
// The format's name in a runner profile's printout ("arm_memory_report", "pi_pico_usage").
const char* PrintoutFormat(Printout p);

// One number a runner printed about its method pool. Names: "used", "pool" (the pool's size),
// "free", "planned", "loaded", "input", "executor" (the method pool), "temp_pool" (the temp
// pool's size).
struct RunnerFigure {
  Printout printout = Printout::kArmMemoryReport;
  std::string name;
  uint64_t bytes = 0;
  int line = 0;
  std::string label;  // as the runner prints it: "method_allocator_loaded"
};

struct DeviceLog {
  std::string path;
  std::optional<PoolRecord> pool;
  std::vector<CallRecord> calls;  // calls[i] is call i: indices are checked to be 0, 1, 2, ...
  std::optional<TotalsRecord> totals;
  std::vector<FailureLine> failures;  // the runtime's lines, in order
  std::vector<RunnerFigure> runner_figures;  // in line order; each (printout, name) once
  // Every other line after the first failure line (a runner's own failure lines are there),
  // as {line number, text}.
  std::vector<std::pair<int, std::string>> lines_after_failure;
  // A record that says which calls were made or that one failed (not only runner figures).
  bool has_load_records() const { return pool || !calls.empty() || totals || !failures.empty(); }
};

// Fails, naming "path:line", on a malformed record, a call index out of sequence (a lost line),
// a second load (a second P record), totals that disagree with the calls, a runner figure
// printed twice (a second run), or a log that holds no record at all.
Result<DeviceLog> ParseDeviceLog(std::string_view text, const std::string& path);
Result<DeviceLog> ReadDeviceLog(const std::string& path);

// What etmem predicts for the same load, as plain numbers.
struct PredictedCall {
  uint64_t size = 0;
  uint64_t align = 0;
  uint64_t offset = 0;
  bool failed = false;
};

struct PredictedFailure {
  uint64_t requested = 0;
  uint64_t available = 0;
  size_t call = 0;  // index into Prediction::calls
};

struct Prediction {
  std::vector<PredictedCall> calls;       // every method-allocator call until the load stops
  uint64_t used_bytes = 0;                // high-water mark
  std::vector<PredictedFailure> failures;  // failed calls, in order (pool of a known size only)
};

// The first way the log and the prediction differ.
struct Difference {
  int line = 0;                // log line, 0 when the log ends before the difference
  std::optional<size_t> call;  // the call it concerns, if any
  std::string got;             // what the device did, in words
  std::string predicted;       // what etmem predicts, in words
};

// Compares calls one by one (size, alignment, then offset or failure), then the totals, then
// the runtime's failure lines; nullopt when everything present in the log agrees.
std::optional<Difference> Compare(const DeviceLog& log, const Prediction& prediction);

// ---- Runner figures ----

// Predicted bytes by figure name (RunnerFigure::name); a figure missing here is not predicted.
using FigurePrediction = std::map<std::string, uint64_t>;

struct FigureCheck {
  const RunnerFigure* figure = nullptr;  // into the log
  std::optional<uint64_t> predicted;     // empty: not predicted
  bool matches() const { return predicted && *predicted == figure->bytes; }
  bool differs() const { return predicted && *predicted != figure->bytes; }
};

// Every runner figure of the log, in line order, with its prediction.
std::vector<FigureCheck> CompareRunnerFigures(const DeviceLog& log,
                                              const FigurePrediction& prediction);
// The first figure that differs from its prediction, if any.
std::optional<FigureCheck> FirstDifferingFigure(const DeviceLog& log,
                                                const FigurePrediction& prediction);

// The figures of the log's printouts that count exactly what load_method took from the method
// pool, predicted as `load_bytes` (the cursor's advance during load_method, padding included):
// the Arm report's "loaded" (used_size() after load_method minus before it; it includes the
// ETDump debug buffer when ET_DUMP_OUTPUTS is on), and the Pico 2 example's "used" (the probe's
// offset from the pool base: that example takes nothing else from its method pool). A figure
// that needs the runner's own allocations (planned buffers, input list) is not predicted here.
FigurePrediction LoadMethodFigures(const DeviceLog& log, uint64_t load_bytes);

// What the Arm runner's ArmMemoryAllocator (v0.5.0-v1.3.x, arm_memory_allocator.cpp at v1.0.0)
// counts in used_size() for these calls, starting from `used`: for each call that succeeds, a
// size that is a multiple of the alignment adds the size (padding before it is not counted);
// any other rounds the counter up to the next multiple of the alignment strictly above it, then
// adds the size. It is not the bump cursor: it under-reports padding and over-reports by a whole
// alignment for an odd size placed at an aligned cursor. (v1.4.0 on, used_size() is exact.)
uint64_t BookkeepingUsed(const std::vector<PredictedCall>& calls, uint64_t used = 0);

// "48 B align 4 at offset 4052", "48 B align 4: FAIL".
std::string DescribeCall(uint64_t size, uint64_t align, std::optional<uint64_t> offset);

}  // namespace etmem::device
