// Owns: ParseDeviceLog / Compare (see device_log.h).
#include "etmem/device/device_log.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "etmem/base/printable.h"

namespace etmem::device {
namespace {

constexpr std::string_view kTag = "ETMEM";
constexpr std::string_view kFailure = "Memory allocation failed: ";

Error LineError(const std::string& path, int line, const std::string& what) {
  return MakeError(ErrorCode::kInvalidArgument,
                   Printable(path, kShownPathBytes) + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string_view> Tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::optional<uint64_t> Number(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where the record starts: "ETMEM" as a whole word followed by a blank; npos if none.
size_t FindTag(std::string_view line) {
  for (size_t at = line.find(kTag); at != std::string_view::npos; at = line.find(kTag, at + 1)) {
    const size_t end = at + kTag.size();
    const bool word_start = at == 0 || !IsWordChar(line[at - 1]);
    if (word_start && end < line.size() && (line[end] == ' ' || line[end] == '\t')) return at;
  }
  return std::string_view::npos;
}

// Where `word` starts in `line` as a whole word (not preceded by a letter, digit or '_').
size_t FindWord(std::string_view line, std::string_view word) {
  for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1))
    if (at == 0 || !IsWordChar(line[at - 1])) return at;
  return std::string_view::npos;
}

// The lines of the Arm runner's memory report etmem reads (arm_executor_runner.cpp, v0.5.0 to
// v1.4.1 and main: the same labels and spacing; only the printf length modifier changed).
enum class ArmShape { kUsedOf, kBytes, kNumber };
struct ArmLabel {
  std::string_view label;  // with its colon
  const char* figure;
  ArmShape shape;
  const char* want;
};
constexpr ArmLabel kArmLabels[] = {
    {"method_allocator_used:", "used", ArmShape::kUsedOf,
     "method_allocator_used: <used> / <size>  free: <free> ( used: <pct> % )"},
    {"method_allocator_planned:", "planned", ArmShape::kBytes,
     "method_allocator_planned: <n> bytes"},
    {"method_allocator_loaded:", "loaded", ArmShape::kBytes, "method_allocator_loaded: <n> bytes"},
    {"method_allocator_input:", "input", ArmShape::kBytes, "method_allocator_input: <n> bytes"},
    {"method_allocator_executor:", "executor", ArmShape::kBytes,
     "method_allocator_executor: <n> bytes"},
    {"temp_allocator:", "temp_pool", ArmShape::kNumber, "temp_allocator: <size>"},
};
// The Pico 2 example (v1.3.0 on): "   Method allocator: <used> / <size> bytes used".
constexpr std::string_view kPicoLabel = "Method allocator:";

// Builds a DeviceLog line by line, checking the order of records as they come.
class Parser {
 public:
  explicit Parser(const std::string& path) { log_.path = path; }

  Status Line(std::string_view text, int line) {
    if (const size_t at = text.find(kFailure); at != std::string_view::npos)
      return Failure(text.substr(at + kFailure.size()), line);
    const size_t at = FindTag(text);
    if (at == std::string_view::npos) return RunnerLine(text, line);
    const std::vector<std::string_view> t = Tokens(text.substr(at + kTag.size()));
    if (t.empty()) return Bad(line, "an ETMEM line without a record letter");
    if (t[0] == "P") return Pool(t, line);
    if (t[0] == "A") return Call(t, line);
    if (t[0] == "T") return Totals(t, line);
    return Bad(line, "unknown ETMEM record '" + Printable(t[0]) + "' (want P, A or T)");
  }

  Result<DeviceLog> Finish() {
    if (!log_.has_load_records() && log_.runner_figures.empty())
      return MakeError(ErrorCode::kInvalidArgument,
                       log_.path + ": no ETMEM record, no 'Memory allocation failed' line and no "
                                   "runner memory report");
    if (log_.totals && !log_.calls.empty() && log_.totals->calls != log_.calls.size())
      return Bad(log_.totals->line, "totals count " + std::to_string(log_.totals->calls) +
                                        " calls, the log records " +
                                        std::to_string(log_.calls.size()));
    return std::move(log_);
  }

 private:
  Error Bad(int line, const std::string& what) const { return LineError(log_.path, line, what); }

  // Parses tokens t[1..] as numbers; `n` of them exactly.
  Result<std::vector<uint64_t>> Numbers(const std::vector<std::string_view>& t, size_t n,
                                        int line, const char* shape) const {
    if (t.size() != n + 1) return Bad(line, std::string("want 'ETMEM ") + shape + "'");
    std::vector<uint64_t> out;
    for (size_t i = 1; i < t.size(); ++i) {
      auto v = Number(t[i]);
      if (!v) return Bad(line, "'" + Printable(t[i]) + "' is not a decimal number");
      out.push_back(*v);
    }
    return out;
  }

  Status Pool(const std::vector<std::string_view>& t, int line) {
    if (log_.pool)
      return Bad(line, "a second load begins here (a second P record, the first is on line " +
                           std::to_string(log_.pool->line) + "); check one load at a time");
    if (!log_.calls.empty() || log_.totals) return Bad(line, "the P record must come first");
    ETMEM_TRY(auto v, Numbers(t, 2, line, "P <pool_bytes> <base_align>"));
    if (v[1] == 0 || (v[1] & (v[1] - 1)) != 0)
      return Bad(line, "base alignment " + std::to_string(v[1]) + " is not a power of two");
    log_.pool = PoolRecord{v[0], v[1], line};
    return Ok{};
  }

  Status Call(std::vector<std::string_view> t, int line) {
    if (log_.totals) return Bad(line, "an A record after the T record");
    const bool failed = t.size() == 5 && t[4] == "FAIL";
    if (failed) t[4] = "0";
    ETMEM_TRY(auto v, Numbers(t, 4, line, "A <index> <size> <align> <offset>|FAIL"));
    if (v[0] != log_.calls.size())
      return Bad(line, "call index " + std::to_string(v[0]) + " where " +
                           std::to_string(log_.calls.size()) + " comes next (a line was lost?)");
    if (v[2] == 0 || (v[2] & (v[2] - 1)) != 0)
      return Bad(line, "alignment " + std::to_string(v[2]) + " is not a power of two");
    log_.calls.push_back({v[1], v[2], failed ? std::nullopt : std::optional<uint64_t>(v[3]), line});
    return Ok{};
  }

  Status Totals(const std::vector<std::string_view>& t, int line) {
    if (log_.totals) return Bad(line, "a second T record");
    ETMEM_TRY(auto v, Numbers(t, 2, line, "T <used_bytes> <calls>"));
    log_.totals = TotalsRecord{v[0], v[1], line};
    return Ok{};
  }

  // "<n>B requested (adjusted for alignment), <m>B available"
  Status Failure(std::string_view rest, int line) {
    const std::vector<std::string_view> t = Tokens(rest);
    auto number_b = [](std::string_view s) {
      return s.size() > 1 && s.back() == 'B' ? Number(s.substr(0, s.size() - 1)) : std::nullopt;
    };
    const bool shape = t.size() == 7 && t[1] == "requested" && t[2] == "(adjusted" &&
                       t[3] == "for" && t[4] == "alignment)," && t[6] == "available";
    const auto requested = shape ? number_b(t[0]) : std::nullopt;
    const auto available = shape ? number_b(t[5]) : std::nullopt;
    if (!requested || !available)
      return Bad(line, "unreadable failure line (want 'Memory allocation failed: <n>B requested "
                       "(adjusted for alignment), <m>B available')");
    log_.failures.push_back({*requested, *available, line});
    return Ok{};
  }

  // A line of a runner's printout, or any other line (ignored).
  Status RunnerLine(std::string_view text, int line) {
    for (const ArmLabel& l : kArmLabels) {
      const size_t at = FindWord(text, l.label);
      if (at != std::string_view::npos)
        return ArmFigures(l, text.substr(at + l.label.size()), line);
    }
    if (const size_t at = FindWord(text, kPicoLabel); at != std::string_view::npos) {
      // Other text may say "Method allocator:" too: only the probe's exact shape is a figure.
      const std::vector<std::string_view> t = Tokens(text.substr(at + kPicoLabel.size()));
      if (t.size() != 5 || t[1] != "/" || t[3] != "bytes" || t[4] != "used") return Ok{};
      const auto used = Number(t[0]), size = Number(t[2]);
      if (!used || !size) return Ok{};
      ETMEM_TRY(Ok a, Figure(Printout::kPico2Usage, "used", *used, line, "Method allocator"));
      ETMEM_TRY(Ok b, Figure(Printout::kPico2Usage, "pool", *size, line, "Method allocator"));
      (void)a, (void)b;
      return Ok{};
    }
    // After a failure: where a runner's own failure lines are (matched by `etmem check`).
    if (!log_.failures.empty()) log_.lines_after_failure.push_back({line, std::string(text)});
    return Ok{};
  }

  Status ArmFigures(const ArmLabel& l, std::string_view rest, int line) {
    const std::vector<std::string_view> t = Tokens(rest);
    auto bad = [&] {
      return Bad(line, "unreadable runner line (want '" + std::string(l.want) + "')");
    };
    const std::string label(l.label.substr(0, l.label.size() - 1));
    switch (l.shape) {
      case ArmShape::kNumber: {
        const auto n = t.size() == 1 ? Number(t[0]) : std::nullopt;
        if (!n) return bad();
        return Figure(Printout::kArmMemoryReport, l.figure, *n, line, label);
      }
      case ArmShape::kBytes: {
        const auto n = t.size() == 2 && t[1] == "bytes" ? Number(t[0]) : std::nullopt;
        if (!n) return bad();
        return Figure(Printout::kArmMemoryReport, l.figure, *n, line, label);
      }
      case ArmShape::kUsedOf: {
        const bool shape = t.size() == 10 && t[1] == "/" && t[3] == "free:" && t[5] == "(" &&
                           t[6] == "used:" && t[8] == "%" && t[9] == ")";
        const auto used = shape ? Number(t[0]) : std::nullopt;
        const auto size = shape ? Number(t[2]) : std::nullopt;
        const auto free = shape ? Number(t[4]) : std::nullopt;
        if (!used || !size || !free || !Number(t[7])) return bad();
        ETMEM_TRY(Ok a, Figure(Printout::kArmMemoryReport, "used", *used, line, label));
        ETMEM_TRY(Ok b, Figure(Printout::kArmMemoryReport, "pool", *size, line, label));
        ETMEM_TRY(Ok c, Figure(Printout::kArmMemoryReport, "free", *free, line, label));
        (void)a, (void)b, (void)c;
        return Ok{};
      }
    }
    return bad();
  }

  Status Figure(Printout p, const char* name, uint64_t bytes, int line, const std::string& label) {
    for (const RunnerFigure& f : log_.runner_figures)
      if (f.printout == p && f.name == name && f.line != line)
        return Bad(line, "a second '" + label + "' line (the first is on line " +
                             std::to_string(f.line) + "): check one run at a time");
    log_.runner_figures.push_back({p, name, bytes, line, label});
    return Ok{};
  }

  DeviceLog log_;
};

std::string DescribeFailure(uint64_t requested, uint64_t available) {
  return "'Memory allocation failed: " + std::to_string(requested) +
         "B requested (adjusted for alignment), " + std::to_string(available) + "B available'";
}

std::optional<Difference> CompareCalls(const DeviceLog& log, const Prediction& p) {
  for (size_t i = 0; i < log.calls.size() || i < p.calls.size(); ++i) {
    if (i >= p.calls.size()) {
      const CallRecord& c = log.calls[i];
      return Difference{c.line, i, DescribeCall(c.size, c.align, c.offset),
                        "no call #" + std::to_string(i) + " (the load makes " +
                            std::to_string(p.calls.size()) + " calls)"};
    }
    const PredictedCall& want = p.calls[i];
    const auto want_offset = want.failed ? std::nullopt : std::optional<uint64_t>(want.offset);
    const std::string predicted = DescribeCall(want.size, want.align, want_offset);
    if (i >= log.calls.size()) {
      const int line = log.totals ? log.totals->line : 0;
      return Difference{line, i, "the log ends after " + std::to_string(log.calls.size()) +
                                     " calls", predicted};
    }
    const CallRecord& got = log.calls[i];
    if (got.size != want.size || got.align != want.align || got.offset != want_offset)
      return Difference{got.line, i, DescribeCall(got.size, got.align, got.offset), predicted};
  }
  return std::nullopt;
}

std::optional<Difference> CompareTotals(const DeviceLog& log, const Prediction& p) {
  if (!log.totals) return std::nullopt;
  const TotalsRecord& t = log.totals.value();
  if (t.calls == p.calls.size() && t.used_bytes == p.used_bytes) return std::nullopt;
  auto words = [](uint64_t used, uint64_t calls) {
    return std::to_string(used) + " B used in " + std::to_string(calls) + " calls";
  };
  return Difference{t.line, std::nullopt, words(t.used_bytes, t.calls),
                    words(p.used_bytes, p.calls.size())};
}

std::optional<Difference> CompareFailures(const DeviceLog& log, const Prediction& p) {
  for (size_t i = 0; i < log.failures.size(); ++i) {
    const FailureLine& got = log.failures[i];
    if (i >= p.failures.size())
      return Difference{got.line, std::nullopt, DescribeFailure(got.requested, got.available),
                        p.failures.empty() ? "no failure: the load fits"
                                           : "no further failure"};
    const PredictedFailure& want = p.failures[i];
    if (got.requested != want.requested || got.available != want.available)
      return Difference{got.line, want.call, DescribeFailure(got.requested, got.available),
                        DescribeFailure(want.requested, want.available) + " at call #" +
                            std::to_string(want.call)};
  }
  return std::nullopt;
}

}  // namespace

Result<DeviceLog> ParseDeviceLog(std::string_view text, const std::string& path) {
  Parser parser(path);
  int line = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    ETMEM_TRY(Ok ok, parser.Line(l, ++line));
    (void)ok;
    start = end + 1;
  }
  return parser.Finish();
}

Result<DeviceLog> ReadDeviceLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kIo, Printable(path, kShownPathBytes) + ": cannot open the device log");
  std::ostringstream s;
  s << in.rdbuf();
  return ParseDeviceLog(s.str(), path);
}

std::optional<Difference> Compare(const DeviceLog& log, const Prediction& prediction) {
  if (!log.calls.empty())
    if (auto d = CompareCalls(log, prediction)) return d;
  if (auto d = CompareTotals(log, prediction)) return d;
  return CompareFailures(log, prediction);
}

const char* PrintoutFormat(Printout p) {
  switch (p) {
    case Printout::kArmMemoryReport: return "arm_memory_report";
    case Printout::kPico2Usage: return "pi_pico_usage";
  }
  return "?";
}

const char* PrintoutName(Printout p) {
  switch (p) {
    case Printout::kArmMemoryReport: return "the Arm runner's memory report";
    case Printout::kPico2Usage: return "the Pico 2 example's usage line";
  }
  return "?";
}

std::vector<FigureCheck> CompareRunnerFigures(const DeviceLog& log,
                                              const FigurePrediction& prediction) {
  std::vector<FigureCheck> out;
  for (const RunnerFigure& f : log.runner_figures) {
    const auto it = prediction.find(f.name);
    out.push_back({&f, it == prediction.end() ? std::nullopt : std::optional(it->second)});
  }
  return out;
}

std::optional<FigureCheck> FirstDifferingFigure(const DeviceLog& log,
                                                const FigurePrediction& prediction) {
  for (const FigureCheck& c : CompareRunnerFigures(log, prediction))
    if (c.differs()) return c;
  return std::nullopt;
}

FigurePrediction LoadMethodFigures(const DeviceLog& log, uint64_t load_bytes) {
  FigurePrediction out;
  for (const RunnerFigure& f : log.runner_figures) {
    // Arm: method_loaded_memsize = used_size() after load_method - before it (v1.4.1
    // arm_executor_runner.cpp, runner_init). Pico 2: the probe's offset after load_method, the
    // only user of that pool (v1.3.0 examples/raspberry_pi/pico2/main.cpp).
    const bool load_only = (f.printout == Printout::kArmMemoryReport && f.name == "loaded") ||
                           (f.printout == Printout::kPico2Usage && f.name == "used");
    if (load_only) out[f.name] = load_bytes;
  }
  return out;
}

uint64_t BookkeepingUsed(const std::vector<PredictedCall>& calls, uint64_t used) {
  for (const PredictedCall& c : calls) {
    if (c.failed || c.align == 0) continue;
    if ((c.size & (c.align - 1)) == 0)
      used += c.size;
    else
      used = (used | (c.align - 1)) + 1 + c.size;
  }
  return used;
}

std::string DescribeCall(uint64_t size, uint64_t align, std::optional<uint64_t> offset) {
  const std::string call = std::to_string(size) + " B align " + std::to_string(align);
  return offset ? call + " at offset " + std::to_string(*offset) : call + ": FAIL";
}

}  // namespace etmem::device
