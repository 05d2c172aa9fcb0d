// Owns: the result of `etmem check` as a structured value (CheckReport: the prediction compared
// with the device log's records and where they differ, the pool the verdict is for, the
// assumption search's combinations). Header only: built by api/check.cpp, rendered by
// report/check_render.h (text, JSON; in etmem_search_report, not in the web page's build).
// Not: the comparison or the search (device/, check/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/device/device_log.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/runtime/load_plan.h"

namespace etmem::report {

// One figure of a runner's printout in the log beside etmem's.
struct CheckFigure {
  int line = 0;
  std::string label;                  // as check names it
  std::string name;                   // the figure's name ("pool", "method_allocator_used")
  uint64_t bytes = 0;                 // as printed
  std::optional<uint64_t> predicted;  // empty: etmem does not predict it
  std::string meaning;                // what etmem's figure counts, in words ("": not said)
  bool matches() const { return predicted && *predicted == bytes; }
  bool differs() const { return predicted && *predicted != bytes; }
};

// The log against the prediction under one set of assumptions.
struct CheckComparison {
  std::optional<device::Difference> difference;  // empty: the log matches
  // Without a runner: the report's assumptions; with one: the configuration.
  std::optional<Assumptions> assumptions;
  std::optional<check::ModelConfig> config;
  std::optional<uint64_t> pool;  // the pool the prediction is for (empty: unbounded)
  std::optional<std::string> differing_call;  // what the differing call is, when known
  // The failure etmem predicts at that pool, when the log shows one and they agree.
  struct Failure {
    size_t call = 0;
    std::string what;
    std::vector<std::string> runner_lines;  // what the runner prints after it
  };
  std::optional<Failure> failure;
  // The device's pool base alignment, when it differs from the one modelled.
  std::optional<uint64_t> device_pool_align;
  std::vector<runtime::UnknownPart> unknowns;  // etmem's figures are then a lower bound
  // The Arm runner's used_size() figure that equals its bookkeeping for these calls, and the
  // bytes the load took.
  struct Bookkeeping {
    uint64_t figure = 0, taken = 0;
  };
  std::optional<Bookkeeping> bookkeeping;
  std::vector<CheckFigure> figures;  // the runner printout's figures (empty: none compared)
  bool runner_figures = false;  // figures predicted from a runner profile (else load_method's)
  // With a runner profile: the method pool's title and its exact minimum.
  std::optional<std::string> minimum_pool_title;
  uint64_t minimum = 0;
};

// The assumption search: under the user's pins, then (when that finds nothing) without them.
struct CheckSearch {
  struct Attempt {
    check::SearchSpace space;
    check::SearchResult found;
  };
  std::vector<Attempt> attempts;
  bool pinned = false;  // the user pinned an assumption (a second attempt widens them)
  check::Given given;   // the user's assumptions
  std::vector<size_t> matching;  // the last attempt's reproductions under `given`
  bool complete = false;         // false: stopped by an error (CheckReport::error)
};

// A log whose failure came while the method ran: ExecuTorch's failure line, then Method::step's
// line for the kernel or delegate call. Checked against the run-time temp model under the
// user's assumptions at the temp pool sizes that give the log's failure line.
struct CheckRunTime {
  Assumptions assumptions;
  int step_line = 0;            // the log's line number of Method::step's line
  std::string step_text;        // that line, from "KernelCall failed" / "CALL_DELEGATE execute failed"
  uint64_t requested = 0, available = 0;  // the failure line's figures
  // The temp pool sizes that give that failure line (kernels::TempPoolsLoggingFailure).
  std::vector<uint64_t> candidate_pools;
  std::optional<uint64_t> pool;           // the one whose predicted lines are the log's
  std::vector<std::string> predicted;     // the lines etmem predicts at `pool` (or the first)
  std::string failing_what;               // "instruction 1 (aten::topk.values, portable)"
  uint64_t load_peak_bytes = 0, run_peak_bytes = 0;  // what the temp pool must hold
  std::string run_summary;                // RunTempLine
  bool run_known = true;                  // false: some call's requests are unknown
};

struct CheckReport {
  std::string log_path;
  std::string method;
  device::DeviceLog log;
  std::optional<uint64_t> pool;  // --pool, else the log's; empty: not known
  std::optional<CheckRunTime> run_time;       // the failure came while the method ran
  std::optional<CheckComparison> comparison;  // empty: no one prediction (search alone)
  std::optional<CheckSearch> search;
  bool reproduced = false;
  std::string error;  // non-empty: the check stopped with this line
};

}  // namespace etmem::report
