// Owns: the device-log fuzz target (`etmem check PROGRAM DEVICE.log`). Text ->
// device::ParseDeviceLog; an accepted log is then compared with the prediction it describes
// itself (which must match), and with that prediction changed at one call, one extra call and
// the totals (each of which must be reported where it was changed); its runner figures likewise
// against their own values and one changed figure. A crash, a hang, a sanitizer
// report or an error message that is not one printable line naming the file is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "etmem/device/device_log.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "device_log_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;
using fuzz::OnePrintableLine;

constexpr const char* kName = "fuzz-device.log";

void RequireOneLine(const std::string& what, const std::string& s) {
  Require(OnePrintableLine(s), what + " is not one printable line: " + s);
}

// What the log itself says happened, as a prediction.
device::Prediction PredictionOf(const device::DeviceLog& log) {
  device::Prediction p;
  for (const device::CallRecord& c : log.calls)
    p.calls.push_back({c.size, c.align, c.offset.value_or(0), !c.offset.has_value()});
  if (log.totals) p.used_bytes = log.totals->used_bytes;
  for (const device::FailureLine& f : log.failures) p.failures.push_back({f.requested, f.available, 0});
  return p;
}

void CheckRecords(const device::DeviceLog& log) {
  Require(log.path == kName, "the log does not keep its path");
  Require(log.has_load_records() || !log.runner_figures.empty(),
          "accepted a log without a record");
  for (size_t i = 0; i < log.runner_figures.size(); ++i) {
    const device::RunnerFigure& f = log.runner_figures[i];
    Require(i == 0 || log.runner_figures[i - 1].line <= f.line, "runner figures out of line order");
    for (size_t j = 0; j < i; ++j)
      Require(log.runner_figures[j].printout != f.printout || log.runner_figures[j].name != f.name,
              "a runner figure accepted twice");
  }
  auto pow2 = [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  if (log.pool) Require(pow2(log.pool->base_align), "accepted a base alignment not a power of 2");
  int previous = 0;
  for (const device::CallRecord& c : log.calls) {
    Require(pow2(c.align), "accepted an alignment that is not a power of two");
    Require(c.line > previous, "call records out of line order");
    previous = c.line;
  }
  if (log.pool && !log.calls.empty()) Require(log.pool->line < log.calls.front().line, "P after A");
  if (log.totals && !log.calls.empty()) {
    Require(log.totals->calls == log.calls.size(), "totals disagree with the calls");
    Require(log.totals->line > log.calls.back().line, "T before an A record");
  }
}

void CheckDifference(const device::Difference& d) {
  RequireOneLine("a difference's 'device' text", d.got);
  RequireOneLine("a difference's 'etmem' text", d.predicted);
}

void CheckCompare(const device::DeviceLog& log) {
  const device::Prediction self = PredictionOf(log);
  // Totals without call records are compared with the prediction's call count, which the log
  // does not give here; every other log must match what it says itself.
  const bool totals_only = log.totals && log.calls.empty();
  if (!totals_only) {
    const auto d = device::Compare(log, self);
    Require(!d.has_value(), "a log differs from its own prediction: " +
                                (d ? d->got + " / " + d->predicted : std::string()));
  }
  if (!log.calls.empty()) {
    // One call changed: reported at that call, on its line.
    const size_t k = (log.calls.size() * 7 + log.failures.size()) % log.calls.size();
    device::Prediction changed = self;
    changed.calls[k].size ^= 1;
    const auto d = device::Compare(log, changed);
    Require(d && d->call == k && d->line == log.calls[k].line,
            "a changed call #" + std::to_string(k) + " is not reported there");
    CheckDifference(*d);
    // One call more than the log has: reported after the last call.
    device::Prediction longer = self;
    longer.calls.push_back({8, 8, 0, false});
    const auto e = device::Compare(log, longer);
    Require(e && e->call == log.calls.size(), "a missing last call is not reported");
    CheckDifference(*e);
  }
  if (log.totals && !totals_only) {
    device::Prediction more = self;
    more.used_bytes = self.used_bytes + 1;
    const auto d = device::Compare(log, more);
    Require(d && d->line == log.totals->line && !d->call, "changed totals are not reported");
    CheckDifference(*d);
  }
  if (!log.failures.empty() && !totals_only) {
    device::Prediction none = self;
    none.failures.clear();
    const auto d = device::Compare(log, none);
    Require(d && d->line == log.failures.front().line, "an unpredicted failure is not reported");
    CheckDifference(*d);
  }
  if (!log.runner_figures.empty()) {
    device::FigurePrediction self_figures;
    for (const device::RunnerFigure& f : log.runner_figures) self_figures[f.name] = f.bytes;
    // Names repeat across printouts (Arm "used", Pico "used"): only a log with one printout
    // must match its own figures.
    bool one_printout = true;
    for (const device::RunnerFigure& f : log.runner_figures)
      one_printout = one_printout && f.printout == log.runner_figures.front().printout;
    if (one_printout) {
      Require(!device::FirstDifferingFigure(log, self_figures), "figures differ from themselves");
      const device::RunnerFigure& last = log.runner_figures.back();
      device::FigurePrediction changed = self_figures;
      changed[last.name] = last.bytes ^ 1;
      const auto d = device::FirstDifferingFigure(log, changed);
      Require(d && d->figure->name == last.name, "a changed figure is not reported");
    }
    for (const auto& [name, bytes] : device::LoadMethodFigures(log, 7))
      Require(bytes == 7 && self_figures.count(name), "a load figure the log does not have");
  }
  for (const device::CallRecord& c : log.calls) RequireOneLine("DescribeCall",
                                                              device::DescribeCall(c.size, c.align, c.offset));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto log = device::ParseDeviceLog(text, kName);
  if (!log) {
    const std::string& m = log.error().message;
    Require(OnePrintableLine(m) && m.find(kName) != std::string::npos,
            "error message is not one printable line naming the file: " + m);
    return 0;
  }
  CheckRecords(*log);
  CheckCompare(*log);
  return 0;
}
