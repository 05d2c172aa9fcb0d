// Owns: the public API of include/etmem/etmem.h over the stages: reading a program, building
// reports for (release, target) pairs with the command line's options (analysis/), choosing the
// renderer of report/ for each format (report, C header, diff, replan). Not: the plan view
// (plan_output.cpp), any output text (report/), printing to a stream or exit code (tools/etmem).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "etmem/abi/abi.h"
#include "etmem/api/internal.h"
#include "etmem/base/byte_size.h"
#include "etmem/base/printable.h"
#include "etmem/base/sha256.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/check.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/budget.h"
#include "etmem/report/c_header.h"
#include "etmem/report/csv_report.h"
#include "etmem/report/diff_report.h"
#include "etmem/analysis/figures.h"
#include "etmem/report/json_report.h"
#include "etmem/report/markdown_report.h"
#include "etmem/report/replan_text.h"
#include "etmem/report/text_report.h"
#include "etmem/analysis/verdict.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/release.h"

namespace etmem::api {
namespace {

ErrorKind KindOf(ErrorCode code) {
  switch (code) {
    case ErrorCode::kIo: return ErrorKind::kIo;
    case ErrorCode::kInvalidProgram: return ErrorKind::kInvalidProgram;
    case ErrorCode::kUnsupported: return ErrorKind::kUnsupported;
    case ErrorCode::kInvalidArgument: return ErrorKind::kInvalidArgument;
  }
  return ErrorKind::kInvalidArgument;
}

[[noreturn]] void ThrowArgument(const std::string& message) {
  throw api::Error(ErrorKind::kInvalidArgument, message);
}

void CheckOptionValues(const Options& o) {
  if (o.temp != "null" && o.temp != "nonnull" && o.temp != "runner")
    ThrowArgument("--temp " + o.temp + ": want null, nonnull or runner");
  if (o.pool_align) {
    const uint32_t a = *o.pool_align;
    if (a == 0 || a > 4096 || (a & (a - 1)) != 0)
      ThrowArgument("--pool-align " + std::to_string(a) + ": must be a power of two up to 4096");
  }
  if (o.pool && *o.pool > UINT32_MAX)
    ThrowArgument("--pool " + std::to_string(*o.pool) +
                  " is larger than any MemoryAllocator can be (its size is a uint32_t)");
}

}  // namespace

// "ID=BYTES[:ALIGN]": what backend ID's init() takes from the method allocator. BYTES as
// --budget reads sizes (4096, 4K); ALIGN digits only. A sign, trailing text or an overflow is
// refused, naming the value.
Result<std::pair<std::string, runtime::DeclaredBackendInit>> ParseBackend(const std::string& s) {
  auto bad = [&](const std::string& why) {
    return MakeError(ErrorCode::kInvalidArgument, "--backend " + Printable(s) + ": " + why +
                                                      " (want ID=BYTES or ID=BYTES:ALIGN)");
  };
  const size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return bad("no backend id");
  runtime::DeclaredBackendInit d;
  const std::string_view value = std::string_view(s).substr(eq + 1);
  const size_t colon = value.find(':');
  auto bytes = ParseByteSize(value.substr(0, colon));
  if (!bytes) return bad("BYTES " + bytes.error().message);
  d.bytes = *bytes;
  if (colon != std::string::npos) {
    const std::string_view align = value.substr(colon + 1);
    uint64_t a = 0;
    const auto [end, ec] = std::from_chars(align.data(), align.data() + align.size(), a);
    if (align.empty() || ec != std::errc() || end != align.data() + align.size())
      return bad("ALIGN '" + Printable(align) + "' is not a whole number");
    d.align = a > 4096 ? 0 : static_cast<uint32_t>(a);  // 0: refused below
  }
  if (d.bytes > UINT32_MAX) return bad("BYTES above 4 GiB");
  if (d.align == 0 || d.align > 4096 || (d.align & (d.align - 1)) != 0)
    return bad("ALIGN must be a power of two up to 4096");
  return std::pair{s.substr(0, eq), d};
}

namespace {

const runtime::RuntimeTraits& OneRelease(const std::string& runtime) {
  if (runtime == "all")
    ThrowArgument("--runtime all: this verb needs one value (etmem analyze takes all)");
  return *Take(runtime::FindRelease(runtime.empty() ? runtime::ReleaseVersions().back() : runtime));
}

abi::Abi OneTarget(const std::string& target) {
  if (target == "all")
    ThrowArgument("--target all: this verb needs one value (etmem analyze takes all)");
  return Take(abi::ResolveTarget(target));
}

std::vector<const runtime::RuntimeTraits*> SelectReleases(const std::string& v) {
  std::vector<const runtime::RuntimeTraits*> out;
  if (v == "all") {
    for (const auto& r : runtime::AllReleases()) out.push_back(&r);
    return out;
  }
  out.push_back(Take(runtime::FindRelease(v.empty() ? runtime::ReleaseVersions().back() : v)));
  return out;
}

std::vector<abi::Abi> SelectTargets(const std::string& v) {
  if (v == "all") return abi::BuiltinTargets();
  return {Take(abi::ResolveTarget(v))};
}

// The verdict at every published release but `r`'s, where `r` rests on the default release and
// judges something: each release analysed with the same options (totals only).
std::optional<report::DefaultRelease> OtherReleases(const Program& program, const report::Report& r,
                                                    const Options& options,
                                                    const abi::Abi& target) {
  const report::Verdict verdict = report::Judge(r);
  if (verdict.judged.empty()) return std::nullopt;
  Options o = options;
  o.keep_allocations = false;
  std::vector<std::string> versions, errors;
  std::vector<std::optional<report::Report>> built;
  for (const runtime::RuntimeTraits& release : runtime::AllReleases()) {
    versions.push_back(release.version);
    errors.emplace_back();
    built.emplace_back();
    if (release.version == r.assumptions.runtime) {
      built.back() = r;  // the default itself: never differs
      continue;
    }
    Result<report::ReportOptions> ro = MakeReportOptions(o, release, target);
    if (!ro) {
      errors.back() = ro.error().message;
      continue;
    }
    runtime::RuntimeModel model(release, target);
    Result<report::Report> b = report::BuildReport(program.impl().view, model, *ro);
    if (!b) {
      errors.back() = b.error().message;
      continue;
    }
    b->budget = r.budget;
    built.back() = std::move(*b);
  }
  std::vector<const report::Report*> reports;
  for (const auto& b : built) reports.push_back(b ? &*b : nullptr);
  return report::CompareReleases(r.assumptions.runtime, verdict.kind, versions, reports, errors);
}

Report Wrap(const Program& program, report::Report r, const Options& options,
            const abi::Abi* target = nullptr) {
  if (options.budget) r.budget = report::Budget{options.budget->ram, options.budget->flash};
  if (target && options.runtime.empty())
    r.default_release = OtherReleases(program, r, options, *target);
  return Report(std::make_shared<const Report::Impl>(
      Report::Impl{program, std::move(r), options.keep_allocations, options}));
}

Program FromView(Result<pte::ProgramView> view) {
  auto impl = std::make_shared<Program::Impl>();
  impl->view = Take(std::move(view));
  return Program(std::move(impl));
}

std::vector<report::Report> Copies(std::span<const Report> reports) {
  std::vector<report::Report> out;
  out.reserve(reports.size());
  for (const Report& r : reports) out.push_back(Internal(r));
  return out;
}

}  // namespace

[[noreturn]] void Throw(const etmem::Error& error) {
  throw api::Error(KindOf(error.code), error.message);
}

Result<report::ReportOptions> MakeReportOptions(const Options& options,
                                                const runtime::RuntimeTraits& release,
                                                const abi::Abi& target) {
  report::ReportOptions o;
  o.temp_is_runner_default = options.temp == "runner";
  o.load.temp_allocator =
      o.temp_is_runner_default ? release.runner_passes_temp : options.temp == "nonnull";
  o.load.external_data_map = options.external_data;
  if (!options.external_data_bytes.empty()) {
    const std::string name =
        options.external_data_file.empty() ? "external data (bytes)" : options.external_data_file;
    ETMEM_TRY(o.load.ptd, pte::ReadPtdBytes({reinterpret_cast<const uint8_t*>(
                                                  options.external_data_bytes.data()),
                                              options.external_data_bytes.size()},
                                             name));
  } else if (!options.external_data_file.empty()) {
    ETMEM_TRY(o.load.ptd, pte::ReadPtd(options.external_data_file));
  }
  if (o.load.ptd) o.load.external_data_map = true;
  o.load.temp_pool_bytes = options.temp_pool;
  o.kernels = options.kernels;
  o.pool_align = options.pool_align.value_or(target.malloc_align);
  for (const std::string& b : options.backends) {
    ETMEM_TRY(auto declared, ParseBackend(b));
    o.load.declared_backends[declared.first] = declared.second;
  }
  if (!options.runner.empty()) {
    ETMEM_TRY(o.runner, runner::SelectRunner(options.runner));
    o.runner.pool_align = options.pool_align;
  }
  o.pool_bytes = options.pool;
  o.method = options.method;
  o.keep_allocations = options.keep_allocations;
  return o;
}

// --- Program ---

Program Program::Open(const std::string& path) { return FromView(pte::ReadProgram(path)); }

Program Program::FromBytes(std::span<const std::byte> bytes, const std::string& name) {
  return FromView(pte::ReadProgramBytes(
      {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, name));
}

Program Program::FromBytes(const void* data, size_t size, const std::string& name) {
  if (data == nullptr && size != 0) ThrowArgument(name + ": no bytes (a null pointer)");
  return FromBytes(std::span<const std::byte>(static_cast<const std::byte*>(data), size), name);
}

const std::string& Program::name() const { return impl_->view.path; }
uint64_t Program::size_bytes() const { return impl_->view.file_size; }
std::vector<std::string> Program::method_names() const {
  std::vector<std::string> out;
  for (const pte::MethodView& m : impl_->view.methods) out.emplace_back(m.name);
  return out;
}

// --- Report ---

const std::string& Report::program_name() const { return impl_->report.program->path; }
uint64_t Report::file_bytes() const { return impl_->report.flash.file_bytes; }

Assumptions Report::assumptions() const {
  const report::Assumptions& a = impl_->report.assumptions;
  return {a.runtime, a.target, a.pool_align, a.temp_allocator, a.external_data_map, a.runner};
}

std::vector<MethodSummary> Report::methods() const {
  std::vector<MethodSummary> out;
  for (const report::MethodReport& m : impl_->report.methods) {
    MethodSummary s;
    s.name = std::string(m.method->name);
    s.method_pool_bytes = m.method_bytes;
    s.exact = m.plan.exact();
    s.planned_bytes = report::PlannedBytes(m);
    s.temp_load_peak_bytes = m.temp_load_peak_bytes;
    s.temp_run_peak_bytes = m.run_temp.peak_bytes;
    s.temp_run_exact = m.run_temp.known();
    s.temp_pool_bytes = report::TempPoolBytes(m);
    s.temp_run = m.run_temp.Describe();
    for (const report::CategoryTotal& c : m.by_category) s.allocations += c.allocations;
    if (m.pool_check)
      s.pool_check = PoolCheck{m.pool_check->pool_bytes, m.pool_check->fits, m.pool_check->log,
                               m.pool_check->consequence};
    if (m.plan.refusal) s.refusal = m.plan.refusal->error + ": " + m.plan.refusal->reason;
    if (m.runner) {
      const sim::RunnerResult& r = m.runner->result;
      s.method_pool_bytes = r.method().minimum;
      for (const sim::RunnerPoolResult& p : r.pools) {
        const runner::PoolSpec& spec = m.runner->pool_spec(p.pool);
        s.runner_pools.push_back(
            {spec.macro, spec.variable, p.minimum, p.high_water, p.pool == r.method_pool});
      }
      if (r.check) {
        std::string log;
        const sim::RunnerFailure* f = r.check->failure ? &*r.check->failure : nullptr;
        if (f)
          for (const std::string& line : f->log) log += (log.empty() ? "" : "\n") + line;
        s.pool_check = PoolCheck{r.check->pool_bytes, r.check->fits(), log,
                                 f ? f->consequence : std::string()};
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> Report::notes() const { return impl_->report.notes; }

namespace {
VerdictKind ToApi(report::VerdictKind k) {
  switch (k) {
    case report::VerdictKind::kFits: return VerdictKind::kFits;
    case report::VerdictKind::kUnknown: return VerdictKind::kUnknown;
    case report::VerdictKind::kDoesNotFit: return VerdictKind::kDoesNotFit;
    case report::VerdictKind::kRefused: return VerdictKind::kRefused;
  }
  return VerdictKind::kUnknown;
}
report::VerdictKind FromApi(VerdictKind k) {
  switch (k) {
    case VerdictKind::kFits: return report::VerdictKind::kFits;
    case VerdictKind::kUnknown: return report::VerdictKind::kUnknown;
    case VerdictKind::kDoesNotFit: return report::VerdictKind::kDoesNotFit;
    case VerdictKind::kRefused: return report::VerdictKind::kRefused;
  }
  return report::VerdictKind::kUnknown;
}
}  // namespace

Verdict ToApi(const report::Verdict& v) {
  return {ToApi(v.kind), v.where, v.step, v.log, v.judged};
}
report::Verdict FromApi(const Verdict& v) {
  report::Verdict out;
  out.kind = FromApi(v.kind);
  out.where = v.where;
  out.step = v.step;
  out.log = v.log;
  out.judged = v.judged;
  return out;
}

std::string Verdict::name() const { return report::VerdictName(FromApi(kind)); }
std::string Verdict::line() const { return report::VerdictLine(FromApi(*this)); }
int ExitStatus(const Verdict& verdict) { return report::ExitStatus(FromApi(verdict.kind)); }

Verdict Report::verdict() const { return ToApi(report::Judge(impl_->report)); }

std::optional<DefaultRelease> Report::default_release() const {
  const std::optional<report::DefaultRelease>& d = impl_->report.default_release;
  if (!d) return std::nullopt;
  DefaultRelease out{d->runtime, ToApi(d->kind), {}, d->Line()};
  for (const report::ReleaseVerdicts& o : d->others)
    out.others.push_back({o.first, o.last, ToApi(o.kind), o.min_method_pool_bytes,
                          o.max_method_pool_bytes, o.error, o.reason});
  return out;
}

Verdict Judge(std::span<const Report> reports) {
  report::Verdict v;
  for (const Report& r : reports) v.Add(report::Judge(Internal(r)));
  return ToApi(v);
}

std::string Report::Render(Format format, const RenderOptions& options) const {
  return api::Render(std::span<const Report>(this, 1), format, options);
}

// --- Analyses ---

std::vector<Report> AnalyzeAll(const Program& program, const Options& options) {
  const std::vector<const runtime::RuntimeTraits*> releases = SelectReleases(options.runtime);
  const std::vector<abi::Abi> targets = SelectTargets(options.target);
  CheckOptionValues(options);
  std::vector<report::PairRequest> pairs;
  for (const auto* release : releases)
    for (const auto& target : targets)
      pairs.push_back({release, target, Take(MakeReportOptions(options, *release, target))});
  std::vector<report::Report> built = Take(report::BuildReports(program.impl().view, pairs));
  std::vector<Report> out;
  out.reserve(built.size());
  for (size_t i = 0; i < built.size(); ++i)
    out.push_back(Wrap(program, std::move(built[i]), options, &pairs[i].target));
  return out;
}

namespace {
Report AnalyzeOne(const Program& program, const Options& options,
                  const runtime::RuntimeTraits& release, const abi::Abi& target) {
  CheckOptionValues(options);
  runtime::RuntimeModel model(release, target);
  report::ReportOptions o = Take(MakeReportOptions(options, release, target));
  return Wrap(program, Take(report::BuildReport(program.impl().view, model, o)), options, &target);
}
}  // namespace

Report Analyze(const Program& program, const Options& options) {
  const runtime::RuntimeTraits& release = OneRelease(options.runtime);
  return AnalyzeOne(program, options, release, OneTarget(options.target));
}

Report Analyze(const Program& program, const Options& options, const Board& board) {
  const runtime::RuntimeTraits& release = OneRelease(options.runtime);
  return AnalyzeOne(program, options, release,
                    Take(board::TargetOnBoard(OneTarget(options.target), board.impl().board)));
}

Report Analyze(const std::string& path, const Options& options) {
  return Analyze(Program::Open(path), options);
}

Report Analyze(std::span<const std::byte> bytes, const Options& options) {
  return Analyze(Program::FromBytes(bytes), options);
}

std::string Render(std::span<const Report> reports, Format format, const RenderOptions& options) {
  const bool single = reports.size() == 1;
  switch (format) {
    case Format::kJson: {
      std::vector<const report::Report*> internal;
      for (const Report& r : reports) {
        if (!r.impl().kept_allocations)
          ThrowArgument("JSON lists every allocation: analyze with keep_allocations");
        internal.push_back(&Internal(r));
      }
      return report::ReportsJsonText(internal);
    }
    case Format::kCsv: return report::ToCsv(Copies(reports));
    case Format::kMarkdown: return report::ToMarkdown(Copies(reports));
    case Format::kText:
      if (single) {
        if (options.all_allocations && !reports.front().impl().kept_allocations)
          ThrowArgument("all_allocations lists every allocation: analyze with keep_allocations");
        return report::ToText(Internal(reports.front()), {.all_allocations = options.all_allocations});
      }
      return report::ToTextMatrix(Copies(reports));
  }
  ThrowArgument("unknown format");
}

// --- The JSON as a value ---

struct JsonValue::Impl {
  report::JsonEvents events;  // holds what it walks (reports, a DOM)
};

void JsonValue::Visit(JsonVisitor& visitor) const { impl_->events(visitor); }

JsonValue MakeJsonValue(report::JsonEvents events) {
  return JsonValue(std::make_shared<const JsonValue::Impl>(JsonValue::Impl{std::move(events)}));
}

JsonValue ToJsonValue(std::span<const Report> reports) {
  for (const Report& r : reports)
    if (!r.impl().kept_allocations)
      ThrowArgument("JSON lists every allocation: analyze with keep_allocations");
  auto kept = std::make_shared<const std::vector<Report>>(reports.begin(), reports.end());
  if (kept->size() == 1)
    return MakeJsonValue([kept](JsonVisitor& v) { report::VisitJson(Internal(kept->front()), v); });
  return MakeJsonValue([kept](JsonVisitor& v) {
    std::vector<const report::Report*> internal;
    for (const Report& r : *kept) internal.push_back(&Internal(r));
    report::VisitJsonResults(internal, v);
  });
}

// --- Header, diff, replan ---

std::string RefusalLine(const report::Report& r, const report::MethodReport& m) {
  if (m.plan.refusal->error == "unknown")  // a method etmem's reader cannot read
    return r.program->path + ": etmem cannot judge method '" + Printable(m.method->name) +
           "' at ExecuTorch " + r.assumptions.runtime + ": " + m.plan.refusal->reason;
  return r.program->path + ": ExecuTorch " + r.assumptions.runtime + " refuses method '" +
         Printable(m.method->name) + "' (" + m.plan.refusal->error + "): " + m.plan.refusal->reason;
}

std::string RefusalsLine(std::span<const Report> reports) {
  std::string first;
  size_t more = 0;
  std::vector<std::string> releases;  // the releases refusing, when they refuse alike
  std::string alike;                  // the first refusal's method, error and reason
  bool same = true;
  for (const Report& report : reports) {
    const report::Report& r = Internal(report);
    for (const auto& m : r.methods) {
      if (!m.plan.refusal) continue;
      const std::string key = r.program->path + '\0' + std::string(m.method->name) + '\0' +
                              m.plan.refusal->error + '\0' + m.plan.refusal->reason;
      if (first.empty()) {
        first = RefusalLine(r, m);
        alike = key;
      } else {
        ++more;
        same &= key == alike;
      }
      if (std::find(releases.begin(), releases.end(), r.assumptions.runtime) == releases.end())
        releases.push_back(r.assumptions.runtime);
    }
  }
  if (first.empty() || more == 0) return first;
  if (same && releases.size() == 1) return first + " (at every target asked)";
  if (same) {
    std::string list;
    for (const std::string& v : releases) list += (list.empty() ? "" : ", ") + v;
    return first + " (so do " + list.substr(list.find(", ") + 2) + ")";
  }
  return first + " (and " + std::to_string(more) + " more refusal(s))";
}

std::string PrintableText(std::string_view bytes, size_t max_shown) {
  return etmem::Printable(bytes, max_shown);
}

void CheckHeaderOptions(const HeaderOptions& header) {
  if (!header.section.empty() && !header.define_pools)
    ThrowArgument("--section places the pools --define-pools defines; add --define-pools");
  if (!header.margin.empty()) (void)Take(report::ParseMargin(header.margin));
}

std::string Header(const Report& report, const HeaderOptions& header) {
  CheckHeaderOptions(header);
  const report::Report& r = Internal(report);
  report::CHeaderOptions o;
  o.etmem_version = ETMEM_VERSION;
  o.program_sha256 = Sha256Hex(r.program->file->bytes());
  o.define_pools = header.define_pools;
  o.section = header.section;
  if (!header.margin.empty()) o.margin = Take(report::ParseMargin(header.margin));
  for (const report::MethodReport& m : r.methods)
    if (m.plan.refusal) throw api::Error(ErrorKind::kUnsupported, RefusalLine(r, m));
  // With a board: the placement of the header's own sizes (the method pool with its margin).
  if (header.board) {
    const bool runner =
        std::any_of(r.methods.begin(), r.methods.end(),
                    [](const report::MethodReport& m) { return m.runner.has_value(); });
    o.board = HeaderBoard(HeaderFit(report, header), runner);
  }
  return Take(report::ToCHeader(r, o));
}

std::string Header(const Program& program, const Options& options, const HeaderOptions& header) {
  CheckHeaderOptions(header);
  return Header(header.board ? Analyze(program, options, *header.board) : Analyze(program, options),
                header);
}

std::string Diff(const Report& old_report, const Report& new_report, Format format) {
  const report::ProgramDiff diff = report::DiffReports(Internal(old_report), Internal(new_report));
  switch (format) {
    case Format::kJson:
      return report::DiffJsonText(diff, FromApi(Judge(std::vector<Report>{old_report, new_report})));
    case Format::kMarkdown: return report::DiffToMarkdown(diff);
    case Format::kText: return report::DiffToText(diff);
    case Format::kCsv: break;
  }
  ThrowArgument("diff: csv is not a diff format (text, json or md)");
}

namespace {

// A digest of a program's bytes (not cryptographic: it tells WriteReplanned whether the bytes
// are those Replan checked, against accidents, not against a forger).
uint64_t ProgramDigest(std::span<const std::byte> bytes) {
  uint64_t a = 0xcbf29ce484222325ull ^ bytes.size(), b = 0x9e3779b97f4a7c15ull;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    a = (a ^ w) * 0x100000001b3ull;
    b = (b + w) * 0xff51afd7ed558ccdull;
    b ^= b >> 29;
  }
  for (; i < bytes.size(); ++i) a = (a ^ static_cast<uint8_t>(bytes[i])) * 0x100000001b3ull;
  const uint64_t d = a ^ (b * 0xc4ceb9fe1a85ec53ull);
  return d == 0 ? 1 : d;  // 0: not checked
}

// Every method of a re-planned program, read back as `name`, must have a sound plan (else it is
// a bug in etmem).
void CheckReplannedSound(const pte::ProgramView& back, const std::string& name) {
  for (const pte::MethodView& m : back.methods) {
    // Copied as they were (Replan): a method the reader cannot read, a plan without
    // non_const_buffer_sizes (no release loads it).
    if (!m.fault.empty() || !m.has_planned_buffer_sizes_vector) continue;
    const plan::Lifetimes l = Take(plan::ComputeLifetimes(m));
    const plan::Validation v = plan::Validate(l);
    if (v.sound()) continue;
    // What replan leaves as stored (it cannot be written otherwise): a tensor in a buffer the
    // method does not declare, or a buffer that would need more than an int64 size can say.
    std::string why = "a sound plan needs a buffer larger than a planned buffer size can say "
                      "(2^63 - 1 bytes)";
    for (const plan::Misplaced& p : v.misplaced)
      if (p.buffer_size < 0) {
        why = "value " + std::to_string(p.value) + " is planned in buffer " +
              std::to_string(p.memory_id) + ", which the method does not declare";
        break;
      }
    throw api::Error(ErrorKind::kInvalidProgram, name + ": method '" + Printable(m.name) +
                                                     "' cannot be re-planned: " + why);
  }
}

}  // namespace

Replanned Replan(const Program& program, uint64_t alignment) {
  if (alignment == 0 || alignment > 4096 || (alignment & (alignment - 1)) != 0)
    ThrowArgument("--alignment " + std::to_string(alignment) +
                  ": must be a power of two up to 4096");
  const pte::ProgramView& view = program.impl().view;
  std::vector<plan::PlanEdit> edits;
  Replanned out;
  for (size_t i = 0; i < view.methods.size(); ++i) {
    // A method etmem's reader cannot read (MethodView::fault) is copied as it is: its plan is
    // not known, so it is not re-planned (issue 39: the other methods still are).
    if (!view.methods[i].fault.empty()) continue;
    // Nor is a plan without Method.non_const_buffer_sizes, which no release loads (method_meta
    // refuses it from 0.2; 0.1 reads it through null): there is no buffer list to rewrite.
    if (!view.methods[i].has_planned_buffer_sizes_vector) continue;
    auto l = plan::ComputeLifetimes(view.methods[i]);
    if (!l)
      throw api::Error(KindOf(l.error().code), view.path + ": " + l.error().message);
    plan::MethodReplan r = plan::ReplanMethod(*l, alignment);
    plan::PlanEdit e{i, {}, r.offsets, r.planned_buffer_sizes};
    for (const plan::PlannedTensor& t : l->tensors) e.values.push_back(t.value);
    edits.push_back(std::move(e));
    for (const plan::BufferReplan& b : r.buffers)
      out.buffers.push_back({std::string(view.methods[i].name), b.memory_id, b.before, b.after,
                             b.planner, b.offsets_need_64_bits});
  }
  out.program = Take(plan::RewritePlanBytes(view, edits));
  // Read back: it must verify and every method's plan must be sound. Read in place
  // (`out.program` outlives the view).
  const std::string name = view.path + " (re-planned)";
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(out.program.data()),
                                       out.program.size());
  CheckReplannedSound(Take(pte::ReadProgramFile(pte::MappedFile::Borrowing(bytes), name)), name);
  out.checked_digest = ProgramDigest(out.program);
  return out;
}

ReplannedFile WriteReplanned(const Replanned& replanned, const std::string& path) {
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(replanned.program.data()),
            static_cast<std::streamsize>(replanned.program.size()));
    if (!f) throw api::Error(ErrorKind::kIo, path + ": cannot write the program");
  }
  // Read back from the file: the very bytes Replan read back sound, or else it must verify and
  // every method's plan must be sound.
  if (replanned.checked_digest != 0 &&
      ProgramDigest(replanned.program) == replanned.checked_digest) {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> chunk(1 << 20);
    size_t at = 0;
    bool same = true;
    while (same && f) {
      f.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      const auto got = static_cast<size_t>(f.gcount());
      same = got <= replanned.program.size() - at &&
             std::memcmp(chunk.data(), replanned.program.data() + at, got) == 0;
      at += got;
    }
    if (same && at == replanned.program.size())
      return {path, replanned.program.size(), replanned.buffers};
  }
  CheckReplannedSound(Take(pte::ReadProgram(path)), path);
  return {path, replanned.program.size(), replanned.buffers};
}

std::string Render(const ReplannedFile& written, Format format) {
  switch (format) {
    case Format::kText: return report::ReplanText(written);
    case Format::kJson: return report::ReplanJson(written);
    case Format::kCsv:
    case Format::kMarkdown: break;
  }
  ThrowArgument("etmem replan renders text or JSON, not CSV or Markdown");
}

// --- Budgets ---

Budget ParseBudget(const std::string& spec) {
  const report::Budget b = Take(report::ParseBudget(spec));
  return {b.ram, b.flash};
}

Budget ReadBudgetFile(const std::string& path) {
  const report::Budget b = Take(report::ReadBudgetFile(path));
  return {b.ram, b.flash};
}

std::vector<BudgetItem> CheckBudget(std::span<const Report> reports, const Budget& budget) {
  // A method the release refuses has no figure to hold to a budget (the command line exits 2
  // on it before any budget line).
  for (const Report& r : reports)
    for (const report::MethodReport& m : Internal(r).methods)
      if (m.plan.refusal) throw api::Error(ErrorKind::kUnsupported, RefusalLine(Internal(r), m));
  std::vector<BudgetItem> out;
  for (const report::BudgetCheck& c :
       report::CheckBudget(Copies(reports), report::Budget{budget.ram, budget.flash})) {
    out.push_back({c.item, c.scope, c.breakdown, c.used, c.limit, c.lower_bound, c.over(),
                   c.over() ? report::OverBudgetMessage(c) : std::string()});
  }
  return out;
}

// --- Lists ---

std::vector<ReleaseInfo> Releases() {
  std::vector<ReleaseInfo> out;
  for (const auto& r : runtime::AllReleases()) out.push_back({r.version, r.summary, {}, {}});
  for (const auto* s : runtime::AllSnapshots())
    out.push_back({s->version, s->summary, s->commit, s->commit_date});
  return out;
}

std::vector<RunnerInfo> Runners() {
  std::vector<RunnerInfo> out;
  for (const auto& p : runner::BuiltinProfiles()) {
    RunnerInfo info{p->name, p->first_release, p->last_release, p->source_path, {}, {}};
    for (const runner::PoolSpec& pool : p->pools)
      info.pools.push_back(
          {pool.macro, pool.variable, pool.role, pool.when, pool.default_bytes, pool.base_align});
    for (const auto& o : p->options) info.options.emplace_back(o.name, o.description);
    info.backends = p->backends;
    info.backends_if_built = p->backends_if_built;
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<TargetInfo> Targets() {
  std::vector<TargetInfo> out;
  for (const auto& t : abi::BuiltinTargets())
    out.push_back({t.name, t.description, t.pointer.size, t.int64.align, t.malloc_align,
                   abi::MExtensionName(t.m_extension), t.m_extension_assumed, t.armclang,
                   t.armclang_assumed});
  return out;
}

std::string Version() { return ETMEM_VERSION; }

uint64_t ByteSize(std::string_view text) { return Take(etmem::ParseByteSize(text)); }

}  // namespace etmem::api
