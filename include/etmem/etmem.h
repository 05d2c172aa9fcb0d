// Owns: etmem's public C++ API, the one header a program includes to embed etmem (link
// etmem::etmem from find_package(etmem)). It answers what `etmem analyze` answers: how many bytes
// an ExecuTorch program (.pte) needs from each pool for a release, target and runner, and where
// they go, computed offline; and what header, plan, replan, diff, check, fit (a board's regions),
// list and firmware (a linked image's pools) answer. Not: any type of the libraries etmem is
// built on (flatbuffers, CLI11, fmt, nlohmann-json); JSON comes out as text, or as a walk over
// its value (JsonValue).
//
// Conventions
// - Errors are exceptions: every function below throws etmem::api::Error (a std::runtime_error)
//   whose what() is the one line the command line prints after "etmem: ", e.g.
//   "model.pte: not an ExecuTorch program (file identifier is not "ET..")". A pool that is too
//   small is not an error: it is part of the report (MethodSummary::pool_check). Running out of
//   memory throws std::bad_alloc.
// - Plain single-threaded code: it starts no threads and never spins. Any thread may call it,
//   and several threads may call it at once: the only process-wide state is the table of
//   modelled releases and each release's kernel libraries, built on first use under a lock and
//   read-only afterwards. A Program and a Report may be shared between threads (all their
//   member functions are const).
// - Output is byte for byte what the command line prints for the same options.
//
//   #include <etmem/etmem.h>
//   etmem::api::Options o;
//   o.runtime = "0.3";
//   o.pool = 4096;
//   etmem::api::Report r = etmem::api::Analyze("model.pte", o);
//   std::cout << r.methods()[0].method_pool_bytes;  // 4266 for the motivating CNN
//   std::string json = r.Render(etmem::api::Format::kJson);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace etmem::report {
struct CheckReport;  // the structured result of Check (not installed)
}  // namespace etmem::report
namespace etmem::measure {
struct MeasureRun;  // the structured result of Measure (not installed)
struct ProbeRun;    // the structured result of Probe (not installed)
}  // namespace etmem::measure

namespace etmem::api {

// What went wrong, for callers that branch on it (the message says it for people).
enum class ErrorKind {
  kIo,               // a file could not be opened, read or written
  kInvalidProgram,   // the bytes are not a well-formed ExecuTorch program
  kUnsupported,      // well-formed, but the modelled runtime would refuse it
  kInvalidArgument,  // a bad option value, target file, method name, ...
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

// `etmem analyze --budget`: what a firmware build may spend (ParseBudget, ReadBudgetFile below).
struct Budget {
  std::optional<uint64_t> ram;    // per method: method pool + planned buffers + temp load peak
  std::optional<uint64_t> flash;  // the program file
};

// The options of `etmem analyze` (and of header, summary, diff), with the same meanings and
// defaults. Every figure a report prints states the assumptions these choose.
struct Options {
  // --runtime: the ExecuTorch release the firmware is built with, "0.3" ... or a full version
  // "1.4.1", or "main" (the newest modelled snapshot of main, e.g. "main-20260822-cff6f4dd");
  // empty: the newest modelled release, the default; then, where a pool (or a budget) is judged,
  // every published release is judged too and the report says where the verdict would differ
  // (Report::default_release). "all" (every published release) only in AnalyzeAll.
  std::string runtime;
  // --target: a built-in ABI (cortex-m, riscv32, xtensa, aarch64, x86_64) or the path of a
  // target file (.json). "all" only in AnalyzeAll.
  std::string target = "cortex-m";
  // --pool-align: the pool's base is aligned to this (a power of two up to 4096) and not to
  // twice this; unset: the target's malloc alignment.
  std::optional<uint32_t> pool_align;
  // --temp: "null", "nonnull", or "runner" (what the release's executor_runner does).
  std::string temp = "runner";
  // --temp-pool: the temp allocator's size in bytes, at a release whose operator metadata
  // falls back to the method allocator when the temp pool is too small (main); unset: the
  // runner's temp pool, else the portable executor_runner's (the report says which).
  std::optional<uint64_t> temp_pool;
  // --kernels: the kernel libraries that implement the aten operators while the method runs, in
  // order ("portable", "optimized", "quantized", "cortex_m", "cadence_hifi", ...); empty: portable.
  // Operators of a custom namespace (cadence::, cortex_m::, quantized_decomposed::) select their
  // own library. Unknown names are an Error listing the known ones.
  std::vector<std::string> kernels;
  // --pool: check whether a method-allocator pool of this many bytes loads.
  std::optional<uint64_t> pool;
  // --method: only this method; empty: every method.
  std::string method;
  // --external-data: the runner passes a NamedDataMap (.ptd) to load_method.
  bool external_data = false;
  // --external-data FILE.ptd: that .ptd is the map (implies external_data). It is checked as
  // the release's data map and load_method would check it: a .ptd that does not match the
  // program, or is in a format the release does not read, makes the method a refusal with the
  // release's error code and log line. Either a path, or the file's bytes (then the path only
  // names it in messages). A file that is no .ptd at all is an Error naming it.
  std::string external_data_file;
  std::vector<std::byte> external_data_bytes;
  // --backend, one entry each: "ID=BYTES" or "ID=BYTES:ALIGN", what a backend etmem does not
  // model allocates from the method allocator in init().
  std::vector<std::string> backends;
  // --runner: the firmware's runner, a built-in profile by name ("arm-baremetal", see Runners())
  // or a runner profile file (.json), options joined with '+' ("arm-baremetal+etdump"); empty:
  // the portable executor_runner of the release (method pool of its own, planned buffers apart).
  std::string runner;
  // Keep every allocation (Format::kJson and RenderOptions::all_allocations print them).
  // false: totals and the largest allocations only, much faster on large programs; rendering
  // such a report as JSON is an Error.
  bool keep_allocations = true;
  // --budget: judged with the pools (the report's verdict); unset: no budget.
  std::optional<Budget> budget;
};

// The one schema of Options (issue 40): per option its member, the command line's flag, its
// help and default, composed from the registries where they list something (releases,
// targets, runner profiles, kernel libraries), and the parser that sets the member. The
// command line registers its options from it, the page reads its options with it, and the
// Python module's keyword arguments are held to it by a test: no client types a list of
// releases or kernel libraries, or binds an option by hand.
struct OptionSpec {
  enum class Kind {
    kText,       // one word or path
    kChoice,     // one of `choices`
    kBytes,      // a size in bytes (ByteSize's grammar)
    kAlignment,  // a size in bytes, a power of two up to 4096
    kFlag,       // on when given; `value` may name a file (external_data: "FILE.ptd")
    kList,       // any number of values: the flag repeated, or split at `delimiter`
  };
  std::string field;  // Options' member, Python's keyword, the page's JSON key: "temp_pool"
  std::string flag;   // "--temp-pool"
  Kind kind = Kind::kText;
  std::string help;           // what it means, without its default
  std::string default_help;   // "(default: ...)"; empty: none said
  std::string default_value;  // Options' default as text ("cortex-m"; "" unset or empty)
  std::vector<std::string> choices;  // kChoice
  char delimiter = 0;                // kList: values split at it (0: the flag repeated)
  bool all_allowed = false;          // "all" is a value (AnalyzeAll, check's search)
  bool model = true;  // one of the options every modelling verb shares (pool and method: per verb)
  uint64_t max = UINT64_MAX;  // kBytes, kAlignment: the largest value
  // Sets the member from the values given (a kList appends each; the rest take the last; a
  // kFlag sets it, and a non-empty value names its file). Bad values are an Error
  // (kInvalidArgument) naming the flag.
  std::function<void(Options&, const std::vector<std::string>& values)> set;
};
// Every option, in the command line's order.
const std::vector<OptionSpec>& OptionSchema();

// A program read and verified once, for any number of analyses. Cheap to copy (shared).
class Program {
 public:
  // Reads the file at `path` (mapped, not copied).
  static Program Open(const std::string& path);
  // Reads a program held in memory (e.g. an export script's buffer). The bytes are copied:
  // the caller's buffer may go away. `name` stands for the path in messages and reports.
  static Program FromBytes(std::span<const std::byte> bytes, const std::string& name = "<memory>");
  static Program FromBytes(const void* data, size_t size, const std::string& name = "<memory>");

  const std::string& name() const;      // the path, or the name given with the bytes
  uint64_t size_bytes() const;          // of the file
  std::vector<std::string> method_names() const;

  struct Impl;  // etmem's own; opaque here
  const Impl& impl() const { return *impl_; }
  explicit Program(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

// A board (`--board`): its named memory regions and what the rest of the firmware reserves in
// each, from etmem's built-in descriptions (Boards(), `etmem list boards`) or a board file.
// Cheap to copy (shared; Reserve makes a new one).
struct BoardReservation {
  std::string name;  // "stack", "heap", "application data", ... ("application (--reserve)")
  uint64_t bytes = 0;
};
struct BoardRegion {
  std::string name;                // e.g. "SRAM1"
  std::optional<uint64_t> origin;  // its first address, when the board file gives it
  uint64_t size_bytes = 0;
  uint32_t base_align = 8;         // what the region's base is aligned to
  std::string section;             // linker section for what etmem places there ("" = none)
  std::vector<BoardReservation> reserved;
  uint64_t free_bytes = 0;         // size minus every reservation (0 when they exceed it)
  std::string comment;             // where the figures come from
};
class Board {
 public:
  // A built-in board's name ("stm32h743", see Boards()) or the path of a board file
  // (.json). An unknown name is an Error (kInvalidArgument) listing the known ones.
  static Board Open(const std::string& name_or_path);
  // A board file's text held in memory; `name` stands for the file in messages.
  static Board FromJson(std::string_view json, const std::string& name = "<memory>");
  // `--reserve REGION=BYTES` ("SRAM1=24K", "SRAM1=0x6000"): a copy in which the rest of the
  // firmware also takes BYTES of REGION (a reservation "application (--reserve)").
  Board Reserve(const std::string& spec) const;
  // The same as a region's name and its bytes (a size already read, e.g. by ByteSize): Python's
  // {"SRAM1": "24K"}. An unknown region or reservations over the region's size are an Error.
  Board Reserve(const std::string& region, uint64_t bytes) const;

  const std::string& name() const;  // what --board takes
  const std::string& description() const;
  const std::string& file() const;  // where it was read from ("built-in (...)" for etmem's own)
  std::vector<std::string> sources() const;  // the datasheets / manuals the figures come from
  std::vector<BoardRegion> regions() const;
  // The core that runs the model ("Cortex-M4F") and its M-profile extension ("none", "dsp",
  // "mve"); both "" when the board file does not say.
  std::string core() const;
  std::string core_m_extension() const;

  struct Impl;  // etmem's own; opaque here
  const Impl& impl() const { return *impl_; }
  explicit Board(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};
// `etmem list boards`: every built-in board, in name order.
std::vector<Board> Boards();

enum class Format { kText, kJson, kCsv, kMarkdown };

struct RenderOptions {
  bool all_allocations = false;  // kText: list every allocation (--allocations)
};

// A pool-size check (Options::pool) of one method.
struct PoolCheck {
  uint64_t pool_bytes = 0;
  bool fits = true;
  std::string log;          // when it does not fit: the line the runtime logs
  std::string consequence;  // and what the runtime does next
};

// One pool a runner declares (Options::runner), under the runner's own names.
struct RunnerPool {
  std::string macro;     // the define that sizes it, e.g. "ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE"
                         // (empty: the runner sizes it with a literal)
  std::string variable;  // the runner's array, e.g. "method_allocation_pool"
  uint64_t minimum_bytes = 0;  // the smallest size with every step through and nothing written
                               // past its end (a temp pool: its peak during load_method)
  uint64_t gets_through_bytes = 0;  // the smallest size at which every allocation succeeds
  bool method_allocator = false;    // the pool load_method's method allocator uses
};

// One method's figures, as the text report's first lines give them.
struct MethodSummary {
  std::string name;
  // The minimum method-allocator pool: with a runner, the runner's method pool (its own
  // allocations and load_method's together); without, load_method's alone.
  uint64_t method_pool_bytes = 0;
  bool exact = true;                  // false: a lower bound (a part etmem does not model)
  uint64_t planned_bytes = 0;         // the planned (activation) buffers, summed
  uint64_t temp_load_peak_bytes = 0;  // the temp allocator's peak during load_method
  // The temp allocator while the method runs: the peak over instructions (reset after each), a
  // lower bound unless temp_run_exact; the temp pool to declare is the larger of the two peaks.
  uint64_t temp_run_peak_bytes = 0;
  bool temp_run_exact = true;
  uint64_t temp_pool_bytes = 0;
  std::string temp_run;  // one line: the figure, the instruction that sets it, the libraries
  size_t allocations = 0;             // method-allocator allocations during load_method
  std::optional<PoolCheck> pool_check;
  std::optional<std::string> refusal;  // the runtime refuses the method: "Error: reason"
  std::vector<RunnerPool> runner_pools;  // with a runner: every pool it declares, in its order
};

// What the figures assume: enough to reproduce them.
struct Assumptions {
  std::string runtime;  // "1.4.1"
  std::string target;   // "cortex-m"
  uint32_t pool_align = 0;
  bool temp_allocator = false;
  bool external_data = false;
  std::string runner;   // empty: the portable executor_runner; else the runner and its options
};

// The version of every verb's JSON shape: its top-level "schema" member (docs/json.md).
inline constexpr int kJsonSchema = 1;

// The verdict: one value, computed once (src/etmem/analysis/verdict.h) over everything judged
// (the method pool; the temp pool at load and at every instruction while running; a runner's
// pools and refusals; a budget; a board's regions; a firmware image's pools), from which every
// verb's exit status, JSON "verdict" and text come (ExitStatus).
enum class VerdictKind { kFits, kUnknown, kDoesNotFit, kRefused };
struct Verdict {
  VerdictKind kind = VerdictKind::kFits;
  std::string where;             // not fits: "ExecuTorch 1.4.1, cortex-m, method 'forward'"
  std::string step;              // not fits: the failing (or unknown) step, in words
  std::vector<std::string> log;  // not fits: the runtime's line (then the kernel's, runner's)
  std::vector<std::string> judged;  // what was judged, one phrase each
  std::string name() const;  // "fits", "unknown", "does_not_fit", "refused" (the JSON's words)
  std::string line() const;  // "does not fit: ExecuTorch 1.4.1, cortex-m, method 'forward': ..."
};
// 0 fits (everything judged fits and every release asked loads the program); 1 does not fit or
// refused; 2 unknown (etmem could not judge). The command line's exit status, for every verb.
int ExitStatus(const Verdict& verdict);

// Where the release was the default (Options::runtime empty) and something is judged: the verdict
// at every other published release, the releases whose verdict differs in ranges.
struct ReleaseRange {
  std::string first, last;  // "0.2.0", "0.7.0" (the same for one release)
  VerdictKind kind = VerdictKind::kFits;
  // The method pool they need, smallest and largest over the range (unset: refused, or the
  // methods of a release need different sizes).
  std::optional<uint64_t> min_method_pool_bytes, max_method_pool_bytes;
  std::string error, reason;  // refused: the runtime's error and why
};
struct DefaultRelease {
  std::string runtime;  // the default, "1.4.1"
  VerdictKind kind = VerdictKind::kFits;
  std::vector<ReleaseRange> others;  // where the verdict differs, in release order
  // "FITS at 1.4.1, the default; REFUSED at 0.1.0 (InvalidArgument); DOES NOT FIT at
  // 0.2.0–0.7.0 (4266–4298 B needed): pass --runtime"
  std::string line;
};

// The report of one (release, target) pair: what `etmem analyze` prints. Cheap to copy.
class Report {
 public:
  const std::string& program_name() const;
  uint64_t file_bytes() const;
  Assumptions assumptions() const;
  std::vector<MethodSummary> methods() const;
  std::vector<std::string> notes() const;  // conditions under which the figures would not apply
  Verdict verdict() const;  // everything this pair judges (Judge of this report alone)
  std::optional<DefaultRelease> default_release() const;
  // `etmem analyze --format F` for this pair (with a final newline).
  std::string Render(Format format, const RenderOptions& options = {}) const;

  struct Impl;  // etmem's own; opaque here
  const Impl& impl() const { return *impl_; }
  explicit Report(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

// One (release, target) pair; "all" in runtime or target is an Error (use AnalyzeAll).
Report Analyze(const Program& program, const Options& options = {});
Report Analyze(const std::string& path, const Options& options = {});
Report Analyze(std::span<const std::byte> bytes, const Options& options = {});
// On `board` (`--board` of fit, header and plan): where the target does not say which M-profile
// extension CMSIS-NN is built for, the board's core does (Board::core_m_extension); a target that
// says otherwise is an Error naming both.
Report Analyze(const Program& program, const Options& options, const Board& board);
// Every pair the options name ("all" allowed in runtime and target), releases outer, targets
// inner: `etmem analyze --runtime all --target all`.
std::vector<Report> AnalyzeAll(const Program& program, const Options& options = {});
// The verdict over every report (the worst wins: refused, then does not fit, then unknown).
Verdict Judge(std::span<const Report> reports);
// What `etmem analyze` prints for these reports: one report as Report::Render; several as a
// table (kText), one JSON object {"schema", "verdict", "results": [each report's object]}, or
// one CSV / Markdown table.
std::string Render(std::span<const Report> reports, Format format,
                   const RenderOptions& options = {});

// Render(kJson)'s content as a value instead of text, for callers that build their own objects
// from it (the Python module builds its dicts and lists so) without formatting and parsing
// JSON (every verb whose JSON Python returns has one: ToJsonValue, SummaryJson, PerOpJson,
// PlanJson): the same members in the same order, strings as the text holds them (valid UTF-8: any
// invalid byte replaced by U+FFFD). Walked depth first by Visit, any number of times.
class JsonVisitor {
 public:
  virtual ~JsonVisitor() = default;
  virtual void Null() = 0;
  virtual void Bool(bool value) = 0;
  virtual void Int(int64_t value) = 0;
  virtual void Uint(uint64_t value) = 0;
  virtual void Double(double value) = 0;
  virtual void String(std::string_view value) = 0;
  virtual void BeginArray(size_t size) = 0;  // then `size` values, then EndArray
  virtual void EndArray() = 0;
  virtual void BeginObject(size_t size) = 0;  // then `size` times Key and its value, then EndObject
  virtual void Key(std::string_view key) = 0;
  virtual void EndObject() = 0;
};
class JsonValue {
 public:
  void Visit(JsonVisitor& visitor) const;

  struct Impl;  // etmem's own; opaque here
  const Impl& impl() const { return *impl_; }
  explicit JsonValue(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};
// One report: its object; several: one object whose "results" are theirs (what
// Render(reports, kJson) prints).
// As there, a report made without keep_allocations is an Error.
JsonValue ToJsonValue(std::span<const Report> reports);

// `etmem analyze --per-op`: per method, one row per instruction in execution order (chain 0's
// first): what it is, the library that provides it, the planned bytes live across it, its temp
// request while running, the constant bytes it reads, and its kernel's stack (only from a linked
// image: never set by Analyze). src/etmem/analysis/per_op.h says how each figure is formed.
struct PerOpBytes {
  uint32_t memory_id = 0;
  uint64_t bytes = 0;
};
struct PerOpRow {
  size_t index = 0;                           // into the method's instructions
  uint32_t chain = 0, chain_instruction = 0;  // the runtime's chain_idx:instr_idx
  std::string kind;      // "kernel call", "delegate call", "jump", "move", "free"
  std::string op;        // "aten::convolution.out", "delegate 0 (XnnpackBackend)", "" otherwise
  std::string library;   // the kernel library (Options::kernels) or backend id; "" none
  uint64_t live_planned_bytes = 0;  // planned storage live across it (alias groups once)
  std::vector<PerOpBytes> live_planned_by_memory_id;  // when the method plans several buffers
  uint64_t temp_bytes = 0;    // from the temp pool while it runs (reset before it)
  std::string temp_unknown;   // non-empty: temp_bytes is a lower bound; why
  uint64_t constant_bytes = 0;  // constant tensors among its arguments, each once
  uint32_t constants = 0;
  std::optional<uint64_t> stack_bytes;  // its kernel's worst-case stack (needs an image)
};
struct PerOpTotals {
  uint64_t peak_live_planned_bytes = 0;  // the largest row's live sum
  std::optional<size_t> peak_live_instruction;
  std::vector<PerOpBytes> peak_live_planned_by_memory_id;  // each id's own peak
  uint64_t planned_bytes = 0;  // the plan's buffers (MethodSummary::planned_bytes): >= the peak
  std::vector<PerOpBytes> planned_by_memory_id;
  uint64_t temp_peak_bytes = 0;  // largest row (or the rows' sum, temp_summed) = temp_run_peak
  bool temp_summed = false;
  size_t temp_unknown_rows = 0;
  uint64_t constant_column_bytes = 0;  // the column's sum (a shared constant per reader)
  uint64_t constant_bytes = 0;         // the constants read, each once
  uint32_t constants = 0;
  uint64_t method_constant_bytes = 0;  // every constant tensor of the method, each once
  uint32_t method_constants = 0;
  std::optional<uint64_t> stack_bytes;  // the largest row's stack (needs an image)
};
struct PerOpMethod {
  std::string name;
  std::string sorted_by;               // "index" (execution order), "live", "temp", ...
  std::optional<std::string> refusal;  // the release refuses the method: no rows
  std::vector<PerOpRow> rows;
  PerOpTotals totals;
  std::vector<std::string> notes;  // how the figures are formed
};
// `sort`: "index" (execution order), or "live", "temp", "constant", "stack": that column,
// largest first (ties in execution order; an unknown temp first). Anything else is an Error
// (kInvalidArgument) listing them.
std::vector<PerOpMethod> PerOp(const Report& report, const std::string& sort = "index");
// What `etmem analyze --per-op --format F [--sort C]` prints (every Format).
std::string RenderPerOp(const Report& report, Format format, const std::string& sort = "index");
// RenderPerOp(kJson)'s content as a value.
JsonValue PerOpJson(const Report& report, const std::string& sort = "index");

// `etmem summary`: one screen for a person (with a final newline): per method the RAM, what
// re-planning and the advisories would save, the biggest single cost and the temp allocator at
// run time; the file's flash and what de-duplicating constants would save. kJson: the same
// values as one object (report/summary_report.h lists its members); CSV and Markdown are an
// Error. A refused method is an Error.
std::string Summary(const Report& report, Format format = Format::kText);
// Summary(kJson)'s content as a value.
JsonValue SummaryJson(const Report& report);

// `etmem header`: the C99/C++ header with the pool sizes, alignments, planned buffers and the
// assumptions, for a firmware build.
struct HeaderOptions {
  std::string margin;         // --margin: bytes ("512", "4K") or a percentage ("10%"); empty: none
  bool define_pools = false;  // --define-pools: also define the aligned pool arrays
  std::string section;        // --section: linker section of those arrays (needs define_pools)
  // --board: also where each pool goes on this board (region, section, alignment), as Fit
  // places the report's first method (Options::method). A placement that has to split a planned
  // buffer is an Error: fit, write FittedProgram() and make the header of that program.
  std::optional<Board> board;
};
// The header options checked before anything is analysed: --section without --define-pools,
// or a margin that is no size or percentage, is an Error (kInvalidArgument).
void CheckHeaderOptions(const HeaderOptions& header);
std::string Header(const Program& program, const Options& options = {},
                   const HeaderOptions& header = {});
// The same for a report already made (a method the runtime refuses is an Error, kUnsupported).
std::string Header(const Report& report, const HeaderOptions& header = {});
// `etmem header --board B --linker-script FILE`: the GNU ld fragment for the regions the header's
// placement uses (the same placement as Header's, the method pool with the margin).
std::string HeaderLinkerScript(const Report& report, const HeaderOptions& header);

// `etmem diff OLD NEW`: how two reports of the same pair differ (kText, kJson or kMarkdown).
std::string Diff(const Report& old_report, const Report& new_report, Format format = Format::kText);

// `etmem replan`: the program with every method's planned memory re-planned (only planned
// offsets and planned_buffer_sizes change), read back and checked sound before it is returned.
struct ReplannedBuffer {
  std::string method;
  uint32_t memory_id = 0;
  int64_t before = 0, after = 0;  // planned_buffer_sizes[memory_id]
  std::string planner;            // "original" when the stored plan was kept
  // A tensor at 4 GiB or more: only a target whose size_t has 64 bits can use this plan.
  bool offsets_need_64_bits = false;
};
struct Replanned {
  std::vector<std::byte> program;  // the new program's bytes
  std::vector<ReplannedBuffer> buffers;
  // Set by Replan: a digest of `program` as Replan read it back sound, so that WriteReplanned,
  // finding the same bytes in the file it wrote, need not read the program again (bytes changed
  // since, or made elsewhere, are read back and checked in full).
  uint64_t checked_digest = 0;
};
Replanned Replan(const Program& program, uint64_t alignment = 16);
// What WriteReplanned wrote.
struct ReplannedFile {
  std::string path;
  uint64_t bytes = 0;  // the file's size
  std::vector<ReplannedBuffer> buffers;
  int64_t saved() const {  // bytes of planned memory, over every buffer
    int64_t s = 0;
    for (const ReplannedBuffer& b : buffers) s += b.before - b.after;
    return s;
  }
};
// Writes `replanned.program` to `path`, reads the file back and checks every method's plan is
// sound. Throws (kIo, kInvalidProgram) with one line.
ReplannedFile WriteReplanned(const Replanned& replanned, const std::string& path);
// What `etmem replan --format F` prints (kText: one line per buffer, then the saving; kJson;
// other formats are an Error), with a final newline.
std::string Render(const ReplannedFile& written, Format format);

// `etmem plan`: the planned memory's live ranges, soundness, bounds and advisories.
enum class PlanFormat { kText, kJson, kHtml };
struct PlanOptions {
  std::string method;      // empty: every method
  uint64_t alignment = 16;
  uint32_t columns = 64;   // width of the text map
  PlanFormat format = PlanFormat::kText;
  Options model;           // kHtml: the method allocator's breakdown uses these
  // --board: after the plan, the placement on this board region by region (kText or kHtml; with
  // kJson an Error), of `method` (empty: the first) under `model`.
  std::optional<Board> board;
};
struct PlanResult {
  std::string output;  // what `etmem plan --format F` prints
  bool sound = true;   // every method's plan is sound (the command exits 1 when not)
};
PlanResult Plan(const Program& program, const PlanOptions& options = {});
// Plan's kJson output as a value (options.format is not read; a board is an Error, as there).
JsonValue PlanJson(const Program& program, const PlanOptions& options = {});
// Not sound: does not fit (the step names the method), else fits.
Verdict Judge(const PlanResult& plan);

// `etmem analyze --budget` / `--budget-file`: what a firmware build may spend, checked against
// reports (Budget: above, with Options). Sizes are bytes or "64K", "1M", "1G" (1024-based).
// "ram=64K,flash=256K" (--budget); an Error (kInvalidArgument) names the spec and the problem.
Budget ParseBudget(const std::string& spec);
// A budget file: "ram = 64K" / "flash = 256K" lines, '#' comments (--budget-file); kIo when it
// cannot be read, kInvalidArgument "FILE:LINE: problem" when a line is wrong.
Budget ReadBudgetFile(const std::string& path);
// One checked item: a ram item per (report, method), one flash item for the program.
struct BudgetItem {
  std::string item;       // "ram" or "flash"
  std::string scope;      // "method 'forward' (ExecuTorch 1.4.1, cortex-m)" or "program PATH"
  std::string breakdown;  // how `used` is made up
  uint64_t used = 0;
  uint64_t limit = 0;
  bool lower_bound = false;  // an unknown delegate allocates more than `used`
  bool over = false;         // used > limit
  std::string message;       // when over: the line `etmem analyze` prints after "etmem: "
};
// Items for what the budget sets, in the command line's order (ram items, then flash). A method
// the report's release refuses throws Error (kUnsupported) with the command line's line.
std::vector<BudgetItem> CheckBudget(std::span<const Report> reports, const Budget& budget);

// `etmem fit`: one method's pools (method allocator, temp allocator, each planned buffer; with a
// runner, the runner's pools as it declares them) placed in a board's regions, splitting a
// planned buffer over several regions when it fits none whole.
struct FitPlacement {
  std::string piece;   // as the text names it: "method allocator pool", "planned buffer 1", ...
                       // or "..., part 2 (memory id 3)" for a part of a split buffer
  std::string region;  // the board region it goes to
  uint64_t offset = 0;   // from the region's base
  uint64_t padding = 0;  // worst-case bytes skipped before it
  uint64_t bytes = 0;
  uint32_t align = 8;
  uint32_t memory_id = 0;  // a planned buffer's id in the fitted program (0: a pool)
  std::string symbol;      // the array `etmem header --board` names for it
};
struct FitRegion {
  std::string name;
  uint64_t free_bytes = 0;  // before placement (size minus reservations)
  uint64_t used_bytes = 0;  // taken by the placement, padding included (may exceed free_bytes)
};
class BoardFit {
 public:
  const std::string& method() const;
  const Board& board() const;
  bool fits() const;
  uint64_t short_bytes() const;  // 0 when it fits: bytes over, summed over the regions
  // A proof that no placement exists: at least this many bytes short (0: not ruled out), why.
  uint64_t lower_bound_short_bytes() const;
  std::string lower_bound_reason() const;
  std::vector<FitPlacement> placement() const;  // in the text's order
  std::vector<FitRegion> regions() const;       // one per board region, in the board's order
  std::vector<std::string> notes() const;       // assumptions and what is not modelled
  bool splits() const;  // a planned buffer is split: the fitted program differs
  // What `etmem fit` prints (before its "wrote" line).
  std::string Render() const;
  // What `etmem fit --format F` prints: kText is Render() and, with `written` (the file -o
  // wrote, see Write), its "wrote" line; kJson one object: the analysis's assumptions, the
  // regions, the placement, the verdict with its lower bound, the notes and the file written.
  // Other formats are an Error.
  struct Written {
    std::string path;
    uint64_t bytes = 0;
  };
  std::string Render(Format format, const std::optional<Written>& written = std::nullopt) const;
  // `etmem fit -o`: writes FittedProgram() to `path`. Throws (kIo) with one line.
  Written Write(const std::string& path) const;
  // `etmem header --board --linker-script`: a GNU ld fragment for the regions used.
  std::string LinkerScript() const;
  // `etmem fit -o`: the program with its planned buffers split as placed (the program itself when
  // nothing is split), read back and checked sound, its method pool unchanged.
  std::vector<std::byte> FittedProgram() const;

  struct Impl;  // etmem's own; opaque here
  const Impl& impl() const { return *impl_; }
  explicit BoardFit(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};
// Fits `method` (empty: the report's first) of `report` on `board`. A method the release
// refuses is an Error (kUnsupported) with the command line's line.
BoardFit Fit(const Report& report, const Board& board, const std::string& method = "");
// The placement's verdict (fits, or does not fit with the bytes short) with the analysis's own
// (a pool or budget it judges).
Verdict Judge(const BoardFit& fit);
// Render(Format::kJson, written)'s content as a value (the Python module's dict): the same
// members in the same order.
JsonValue FitJson(const BoardFit& fit,
                  const std::optional<BoardFit::Written>& written = std::nullopt);

// `etmem check PROGRAM LOG`: a device log (include/etmem/recording_allocator.h's records,
// ExecuTorch's "Memory allocation failed" line, or a runner's memory report) compared with the
// prediction for the options; when they differ or the pool is not known, every combination of
// the assumptions not pinned that reproduces the log.
struct CheckOptions {
  // runtime and target may be "all", runner "all" (every runner profile); an empty runtime is
  // not pinned (the newest modelled release is predicted, the search tries every one); method:
  // the method the device loaded (empty: the program's only one).
  Options model;
  bool temp_given = false;       // model.temp pins the temp allocator (--temp given)
  std::optional<uint64_t> pool;  // --pool: the device's method pool (else the log's, if any)
  Format format = Format::kText;  // of `output`: kText or kJson (others are refused)
};
struct CheckResult {
  std::string output;        // what `etmem check` prints, in CheckOptions::format
  bool reproduced = false;   // the given assumptions reproduce the log (exit 0; else 1)
  std::string error;         // non-empty: the check stopped after `output` with this line (exit 2)
  // The structured result `output` is rendered from (src/etmem/analysis/check_report.h): for the
  // library's own renderers and tests; opaque to users of this header.
  std::shared_ptr<const report::CheckReport> value;
};
// Errors before anything is printed (a program, log or option that cannot be used) throw. (Not
// in the web page's WebAssembly build, which checks no device log.)
CheckResult Check(const Program& program, const std::string& log_path,
                  const CheckOptions& options = {});
// Reproduced: fits; not: does not fit; stopped with an error: unknown.
Verdict Judge(const CheckResult& result);

// `etmem measure PROGRAM --executorch TREE`: builds etmem's harness against the user's
// ExecuTorch source tree with their compiler, loads each method on that real runtime with a
// recording method allocator (as the portable executor_runner does, or as model.runner's
// profile does: its own requests replayed around load_method), and compares every call with
// etmem's prediction for the release the tree names (or the closest modelled one). Not in the
// web page's build.
struct MeasureOptions {
  std::string executorch;  // the tree (nothing is written into it)
  std::string cxx;         // the host C++ compiler (empty: c++, else g++)
  std::string work;        // kept build and logs (empty: a temporary directory, removed)
  int jobs = 2;            // compiles at once
  std::string method;      // empty: every method
  std::optional<uint64_t> pool;  // the method pool (empty: 64 MiB, the prediction unbounded)
  bool brief = false;            // the text without the call-by-call table
  // --execute: also run each method once with the tree's real portable kernels (and prim ops)
  // and compare the run-time temp trace with etmem's (src/etmem/measure/execute.h); no_heap:
  // with no temp allocator, et_pal_allocate returns NULL while the method executes.
  bool execute = false;
  bool no_heap = false;
  // kText: printed part by part as it is known; kJson: one object once the run is over
  // (report/measure_json.h; docs/measure.md lists its members). Others are an Error.
  Format format = Format::kText;
  // runtime: empty = the tree's release (or the closest modelled one); target: empty = the
  // host's; pool_align: unset = 16.
  Options model;
};
struct MeasureResult {
  int exit_code = 0;  // 0 every method matches etmem's prediction, 1 one does not
  // The structured result (src/etmem/measure/measure.h), rendered by report/measure_text.h.
  std::shared_ptr<const measure::MeasureRun> value;
};
// Prints the text through `print` part by part as it is known (the build takes minutes).
// Invalid input, a tree that is not ExecuTorch or does not build throw (after what was printed).
MeasureResult Measure(const std::string& program_path, const MeasureOptions& options,
                      const std::function<void(const std::string&)>& print);
// Every method matches the prediction: fits; else does not fit.
Verdict Judge(const MeasureResult& result);

// `etmem probe`: a custom build's ABI and runtime type layouts measured with its own (cross)
// compiler (the sizes of objects in the object file it compiles; nothing runs), written as a
// --target file, each layout compared with etmem's. Not in the web page's build.
struct ProbeOptions {
  std::string executorch;  // the ExecuTorch source tree (its headers are probed)
  std::string cxx;         // the (cross) C++ compiler of the build
  std::string cxxflags;    // the build's flags (split by the shell)
  std::string release;     // compared with (empty: the newest modelled release)
  std::string output;      // the target-description file to write
  std::string name;        // the target's name (empty: the output file's stem)
  bool keep = false;       // keep the probe sources and compiler logs
  Format format = Format::kText;  // what ProbeResult::output is: kText or kJson
};
struct ProbeResult {
  std::string output;  // what `etmem probe` prints (text or JSON, ProbeOptions::format)
  // The structured result (src/etmem/measure/probe.h), rendered by report/probe_text.h.
  std::shared_ptr<const measure::ProbeRun> value;
};
// Throws (kInvalidArgument, kIo) with one line: not an ExecuTorch tree, the compiler failing on
// the probe, a file that cannot be written.
ProbeResult Probe(const ProbeOptions& options);

// `etmem firmware APP.elf`: a linked firmware image (ELF32/ELF64 executable) checked against
// what its ExecuTorch program needs: the target from the ELF header, every program embedded in
// an allocated section (or one the firmware reads at run time), the runner whose pool symbols
// the image has, each pool's exact size, address and alignment (facts of the image, not
// assumptions), a verdict per pool and method, and flash and RAM by component.
struct FirmwareOptions {
  // runtime: required (an image never shows its release beyond doubt; the error says so);
  // target: "" = from the ELF header; runner: "" = the profile whose pool symbols the image
  // has (options may follow '+'); method: "" = every method; kernels: the libraries that
  // implement the operators while the method runs (the temp pool's run-time peak). pool,
  // pool_align and temp_pool are ignored: the image gives the pools.
  Options model = [] {
    Options o;
    o.target.clear();
    return o;
  }();
  // A .pte the firmware reads at run time (file system, semihosting) instead of embedding one.
  std::string program_path;
  std::optional<Board> board;  // --board: each pool's and program's region, totals per region
  bool components = true;      // the flash and RAM table
  bool stack = true;           // the worst-case stack (FirmwareStack)
  // --stack-usage DIR: GCC's -fstack-usage (.su) and -fcallgraph-info=su (.ci) files of the
  // image's build; their frame sizes replace the disassembly's ("" = none).
  std::string stack_usage;
};

// An ExecuTorch program found in the image (or named on the command line).
struct FirmwareProgram {
  std::string name;      // "model_pte" (the symbol) or "network_model_sec+0x40"; a path if given
  std::string section;   // the allocated section holding it ("" when from the command line)
  uint64_t address = 0;  // where it lives when the firmware runs
  uint64_t bytes = 0;
  bool from_file = false;  // named on the command line (read from a file system / semihosting)
  // "read in place" (its bytes are used where they are linked), "copied to RAM at boot"
  // (initialised data: a load image in flash copied to `address` by the start-up code).
  std::string placement;
  uint64_t ram_bytes = 0;      // RAM it costs (copied: its size; read in place from flash: 0)
  std::optional<uint64_t> load_address;  // copied: where its load image is
  std::string region;          // the board region of `address` (with --board), else ""
  std::string file_identifier;  // "ET12"
  std::vector<std::string> methods;
};

// One pool the runner declares, as the image has it, and its verdict for one method.
struct FirmwarePool {
  std::string id;       // the profile's pool id ("method", "temp", ...)
  std::string symbol;   // the symbol found, e.g. "method_allocation_pool"
  std::string section;  // the section it is in
  std::string expected_section;  // the runner's own declaration's section ("" = the default)
  uint64_t address = 0;
  uint64_t bytes = 0;  // the symbol's size
  // The largest power of two dividing the address (capped at 2^30; `align_capped` says so):
  // the pool's base alignment, a fact of this image.
  uint64_t align = 0;
  bool align_capped = false;
  std::string role;  // the profile's words
  std::string region;  // the board region (with --board)
  // The verdict: needed = the smallest pool that works (the temp pool: the larger of its peak
  // during load_method and its peak while the method runs); fits when bytes >= needed.
  uint64_t needed = 0;
  bool fits = true;
  bool temp = false;           // load_method's temp allocator (and the kernels' while running)
  // The temp pool: its two peaks. run_peak is a lower bound when run_unknown is not empty.
  uint64_t load_peak = 0;      // during load_method
  uint64_t run_peak = 0;       // while the method runs (the runtime resets it per instruction)
  // Not empty: what etmem does not know of the run-time requests (the operator and why); a pool
  // that fits the known peaks is then "unknown", not "fits" (it does not fail the check).
  std::string run_unknown;
  std::string failing;         // does not fit: the allocation that fails, in words
  std::vector<std::string> log;  // the runtime's line, then the runner's (empty: not known)
  bool logs_nothing = false;     // nothing is logged (the runner writes past the pool silently)
  std::string consequence;     // what the firmware does next
  std::string note;            // anything the figure does not cover
};

struct FirmwareMethod {
  std::string program;  // FirmwareProgram::name
  std::string name;
  std::optional<std::string> refusal;  // the release refuses it: "Error: reason"
  std::vector<FirmwarePool> pools;     // in the runner's order
  bool exact = true;                   // false: a part etmem does not model (a lower bound)
};

// A method of an embedded program that was not judged, and why (the runner never loads it).
struct FirmwareMethodNotJudged {
  std::string program;  // FirmwareProgram::name
  std::string name;
  std::string why;      // e.g. "the arm-baremetal runner loads the program's first method only"
};

// One line of the flash and RAM table.
struct FirmwareComponent {
  std::string name;   // "ExecuTorch runtime core", "operator aten::add.out", "program model_pte" ...
  uint64_t flash_bytes = 0;  // code, read-only data, and the load images of initialised data
  uint64_t ram_bytes = 0;    // initialised data, zero-initialised data and the pools
  uint64_t symbols = 0;      // how many symbols (or section remainders) it holds
  bool unused_operator = false;  // an operator's kernel the program does not call
};
struct FirmwareRegionTotal {
  std::string name;  // a board region, or "segment N (R-X)" from the image
  uint64_t origin = 0, size = 0, used = 0;
  bool known_size = false;  // a board region's size (segments: used only)
};
struct FirmwareComponents {
  std::vector<FirmwareComponent> rows;  // in the order of the table
  uint64_t flash_total = 0, ram_total = 0;  // summed rows (= the sections' sizes)
  uint64_t section_flash_bytes = 0, section_ram_bytes = 0;  // from the section headers
  std::vector<FirmwareRegionTotal> regions;
  std::vector<std::string> unused_operators;  // linked, not called: "name (N B)"
  uint64_t unused_operator_bytes = 0;
  std::string method;  // how symbols were attributed, in one line
};

// One line of the RAM the ExecuTorch part of the firmware takes (FirmwareRam), with its source.
struct FirmwareRamLine {
  // "pool method (method_allocation_pool)", "planned buffers", "program model_pte in RAM",
  // "runtime .data/.bss", "kernels .data/.bss", "backends .data/.bss", "stack",
  // "heap: kernels' malloc", "heap: backend XnnpackBackend", ...
  std::string what;
  std::optional<uint64_t> bytes;  // unset: not known (`unknown` says why); not a zero
  std::string source;             // where the figure comes from (a symbol, the component table, ...)
  std::string unknown;            // bytes unset: why ("not computed: ...")
  // Counted in another line (planned buffers the runner takes from its method pool): shown, not
  // added to the total.
  bool inside = false;
  std::string region;  // with --board: the board region it lies in ("" = not placed)
};
// One judged method's RAM total for the ExecuTorch part of the image: the runner's pools as the
// image sizes them, the planned buffers (when outside them), the program when it lies in RAM, the
// runtime's, kernels' and backends' .data/.bss (the component table), the worst-case stack, and
// the heap the kernels and backends take.
struct FirmwareRam {
  std::string program;  // FirmwareProgram::name
  std::string method;
  std::vector<FirmwareRamLine> lines;  // in the text's order, the stack's included
  // The worst-case stack of load and execute, from the image's call graph (the stack stage);
  // unset: not computed, and the stack line says so (the total is then a lower bound).
  std::optional<uint64_t> stack_bytes;
  bool stack_exact = true;  // false: stack_bytes is a lower bound (the total is then one too)
  std::string stack_source;
  uint64_t known_bytes = 0;  // the lines with bytes, summed (`inside` lines not)
  bool complete = false;     // no line unknown: known_bytes is the total; else a lower bound
  // With --board: known_bytes by region (lines without a region under "(not placed)").
  struct Region {
    std::string name;
    uint64_t bytes = 0;
    std::optional<uint64_t> free_bytes;  // the region's size minus the board's reservations
  };
  std::vector<Region> regions;
};
// The worst-case stack of the firmware's ExecuTorch entries, from the image's code: every
// function disassembled (frames from the prologue; GCC's .su/.ci sizes replace them when given,
// or, for code etmem does not read, give the graph alone), the call graph from the entry, the
// deepest path. Judged against the stack the image declares, when it declares one.
struct FirmwareStackStep {
  std::string function;      // demangled
  uint64_t frame = 0;        // its own frame (bytes)
  uint64_t depth = 0;        // the stack below the entry's when it is entered
  std::string via;           // "entry", "call", "tail" (the caller's frame is gone), "indirect (resolved)"
  std::string frame_source;  // "disassembly", ".su", ".ci"
};
struct FirmwareStackEntry {
  std::string entry;  // "load" (Program::load, Program::load_method), "execute" (Method::execute), "main"
  std::vector<std::string> functions;  // the image's functions it starts from (demangled)
  std::vector<std::string> methods;    // execute: the methods it stands for
  uint64_t bytes = 0;  // the deepest stack found: the bound when exact, else a lower bound
  bool exact = true;   // false: "at least": something below is reached
  std::vector<FirmwareStackStep> path;  // the call path that sets `bytes`
  std::vector<std::string> unresolved;  // indirect calls not resolved: "blx r3 at 0x... in f"
  std::vector<std::string> recursion;   // recursive functions (each call counted once)
  std::vector<std::string> dynamic;     // dynamic stack adjustments (alloca, VLA) with their sites
  std::vector<std::string> unread;      // functions reached whose code is not in the file
  // execute: the kernel calls resolved and the kernels they reach (operator -> function)
  std::vector<std::string> resolved;
  uint64_t functions_reached = 0;
  uint64_t resolved_sites = 0;
  // The bound without pruning by the program's dtypes (= `bytes` when nothing is pruned: load,
  // or no kernel's instantiation for another dtype is reached), the call edges pruned ("caller
  // -> callee: its template arguments show only int64; ..."), and the edges into a dtype's
  // instantiation kept, with why (a name that cannot be read, no dtype switch seen, ...).
  uint64_t unpruned_bytes = 0;
  std::vector<std::string> pruned;
  std::vector<std::string> kept;
};
// The stack the image's linker script declares (firmware/declared_stack.h lists the conventions).
struct FirmwareDeclaredStack {
  uint64_t bytes = 0;
  std::string symbols;   // "__StackTop - __StackLimit = 0x20080000 - 0x20078000"
  std::string meaning;   // the convention, in words
  std::vector<std::string> others;  // other declarations the image has: "32768 B (__STACK_SIZE = 0x8000)"
};
struct FirmwareStack {
  std::string architectures;  // the code etmem reads ("Arm (Thumb/Thumb-2 and A32)")
  std::string not_read;       // not empty: no bound, and why (another architecture, no symbols)
  std::string frames;         // where the frame sizes come from, in words
  std::vector<std::string> assumptions;
  std::vector<FirmwareStackEntry> entries;
  std::vector<std::string> missing;  // entries whose functions are not in the image
  // Set: each judged method's stack (FirmwareRam::stack_bytes) is judged against it: more than
  // declared (a bound or a lower bound) does not fit; an exact bound within it fits; a lower
  // bound within it, or no bound, is unknown. Unset: judged against nothing.
  std::optional<FirmwareDeclaredStack> declared;
};

struct FirmwareReport {
  std::string image;          // the ELF's path
  unsigned bits = 0;
  std::string machine;        // "ARM", "RISC-V", ...
  std::string abi_evidence;   // "EM_ARM ELF32, Tag_CPU_arch_profile 'M', Tag_CPU_name cortex-m4"
  std::string target;         // etmem's target the figures use
  std::string target_source;  // "the ELF header" or "--target"
  std::string runtime;        // the release modelled
  std::string runtime_source;  // "--runtime" (the image never shows it beyond doubt)
  std::string runner;          // the profile's name
  std::string runner_releases;  // the profile's release range
  std::string runner_source;    // "its pool symbols" or "--runner"
  std::vector<std::string> other_runners;  // whose symbols the image also has
  // Not empty: other runners fit the image's symbols as well as `runner` does; says which and
  // which symbol would decide.
  std::string runner_undecided;
  std::vector<std::string> runner_options;  // options the image's symbols turn on
  std::vector<FirmwareProgram> programs;
  std::vector<FirmwareMethod> methods;
  std::vector<FirmwareMethodNotJudged> not_judged;  // methods the runner does not load
  std::vector<std::string> notes;
  std::optional<FirmwareComponents> components;
  // Per judged method: the RAM total of the ExecuTorch part (needs the component table for the
  // .data/.bss lines; without it those lines are unknown).
  std::vector<FirmwareRam> ram;
  std::optional<FirmwareStack> stack;
  bool fits() const {
    for (const FirmwareMethod& m : methods) {
      if (m.refusal) return false;
      for (const FirmwarePool& p : m.pools)
        if (!p.fits) return false;
    }
    return true;
  }
};

// Checks the image at `path`, or held in `bytes` (`name` stands for its path). Errors: kIo /
// kInvalidArgument for a file that is no usable image or options that do not fit it (one line
// naming it), kInvalidProgram for an embedded program that does not verify. A pool too small is
// not an error: FirmwareReport::fits().
FirmwareReport CheckFirmware(const std::string& path, const FirmwareOptions& options);
FirmwareReport CheckFirmware(std::span<const std::byte> bytes, const std::string& name,
                             const FirmwareOptions& options);
// `etmem firmware --format F` (kText or kJson; other formats are an Error), with a final newline.
std::string Render(const FirmwareReport& report, Format format);
// Render(kJson)'s content as a value.
JsonValue ToJsonValue(const FirmwareReport& report);
// Every pool of every method the image's runner loads: a refusal is refused, a pool too small
// does not fit, a pool that holds the known peaks while some requests are unknown is unknown.
Verdict Judge(const FirmwareReport& report);

// The one line for every method of `reports` the release refuses, together (what the command
// line prints after "etmem: "): the first refusal, then "(at every target asked)", "(so do
// RELEASES)" or "(and N more refusal(s))"; empty when none refuses.
std::string RefusalsLine(std::span<const Report> reports);

// `etmem list runtimes|targets` (boards: Boards()).
struct ReleaseInfo {
  std::string version;  // "1.4.1", or a snapshot of main: "main-20260822-cff6f4dd"
  std::string summary;
  std::string commit;       // a snapshot's commit; empty for a release
  std::string commit_date;  // a snapshot's commit date, YYYY-MM-DD
};
struct TargetInfo {
  std::string name;  // "cortex-m"
  std::string description;
  uint32_t pointer_bytes = 0;
  uint32_t int64_align = 0;
  uint32_t default_pool_align = 0;
  // For the Cortex-M backend's CMSIS-NN scratch: the core's M-profile extension ("none", "dsp",
  // "mve") and whether CMSIS-NN is built by armclang; *_assumed says why when the target file
  // does not say (empty: it says).
  std::string m_extension, m_extension_assumed;
  bool armclang = false;
  std::string armclang_assumed;
};
// `etmem list runners`: one entry per built-in runner profile (a runner and a release range).
struct RunnerInfo {
  std::string name;           // what Options::runner takes, e.g. "arm-baremetal"
  std::string first_release, last_release;
  std::string source;         // the runner's file in ExecuTorch's tree
  struct Pool {
    std::string macro, variable, role, when;  // when: the option that adds it ("" = always)
    uint64_t default_bytes = 0;
    uint32_t base_align = 0;
  };
  std::vector<Pool> pools;
  std::vector<std::pair<std::string, std::string>> options;  // name, description
  // The delegate backends its build registers, and those it links only when the ExecuTorch
  // build made them.
  std::vector<std::string> backends, backends_if_built;
};
std::vector<ReleaseInfo> Releases();
std::vector<RunnerInfo> Runners();
std::vector<TargetInfo> Targets();
// `etmem list WHAT`: "runtimes", "targets", "runners", "boards", "kernels" (every kernel and
// delegate library, per release: the operators or backends it registers and what each takes
// while the method runs) or "formats" (OutputFormats, below) rendered as text (one line each, with details indented) or JSON (an
// array of objects with the fields above; boards with their regions); anything else, or
// CSV/Markdown, is an Error (kInvalidArgument).
std::string List(const std::string& what, Format format = Format::kText);

// The table of output formats (src/etmem/report/formats.h): per result a verb prints, each
// format it is rendered in and the file of report/ that renders it (`etmem list formats`).
struct OutputFormat {
  std::string result;    // "analyze", "analyze --per-op", "summary", "header --linker-script", ...
  std::string verb;      // "analyze"
  std::string format;    // "text", "json", "csv", "md", "html", "c", "ld"
  std::string renderer;  // "report/text_report.cpp"
};
std::vector<OutputFormat> OutputFormats();
// The formats of `verb`'s results in the table's order, each once: what its --format takes. An
// Error (kInvalidArgument) for a verb that renders nothing.
std::vector<std::string> FormatNames(const std::string& verb);

std::string Version();  // "0.1.0"
// Bytes from an input (a name, a path, an argument) made safe for one line of a message:
// control characters, backslashes and non-ASCII bytes become \xNN, and more than `max_shown`
// bytes are cut short with "...".
std::string PrintableText(std::string_view bytes, size_t max_shown = 80);


// The byte-size grammar every size of the command line takes ("4096", "4K", "1M", "0x1000"):
// the bytes, or an Error (kInvalidArgument) quoting `text`: "'4X' is not a byte size (...)".
uint64_t ByteSize(std::string_view text);

}  // namespace etmem::api
