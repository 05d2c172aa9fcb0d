// Owns: the device log that include/etmem/recording_allocator.h writes on the firmware, and
// ExecuTorch's own allocation-failure line: parsing a log into records, and comparing those
// records with a prediction given as plain numbers. Not: making the prediction (that needs the
// model; `etmem check` converts it), printing.
//
// The format (docs/recording-allocator.md). Any text may precede "ETMEM" on a line (a logger's
// timestamp); lines holding neither a record nor the failure line are ignored.
//   ETMEM P <pool_bytes> <base_align>           the pool: its size and its base's alignment
//   ETMEM A <index> <size> <align> <offset>     allocate(size, align) returned base + offset
//   ETMEM A <index> <size> <align> FAIL         allocate(size, align) returned null
//   ETMEM T <used_bytes> <calls>                used bytes (high-water mark) and allocate() calls
//   ... Memory allocation failed: <n>B requested (adjusted for alignment), <m>B available
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

struct DeviceLog {
  std::string path;
  std::optional<PoolRecord> pool;
  std::vector<CallRecord> calls;  // calls[i] is call i: indices are checked to be 0, 1, 2, ...
  std::optional<TotalsRecord> totals;
  std::vector<FailureLine> failures;  // the runtime's lines, in order
};

// Fails, naming "path:line", on a malformed record, a call index out of sequence (a lost line),
// a second load (a second P record), totals that disagree with the calls, or a log that holds
// no record at all.
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

// "48 B align 4 at offset 4052", "48 B align 4: FAIL".
std::string DescribeCall(uint64_t size, uint64_t align, std::optional<uint64_t> offset);

}  // namespace etmem::device
