// Owns: the JSON form of a report: its members as events (VisitJson), and their compact text
// (WriteJson, one more visitor of the same events). Not: the shape's documentation (README).
#include "etmem/report/json_report.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"
#include "etmem/analysis/figures.h"
#include "etmem/analysis/runner_rows.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {

using json = nlohmann::json;

json UnknownsJson(const MethodReport& m) {
  json out = json::array();
  for (const auto& u : m.plan.unknowns)
    out.push_back({{"delegate", u.delegate}, {"backend", u.backend}, {"why", u.why}});
  return out;
}

// The temp allocator during load and while running (kernels/run_temp.h).
json TempAllocatorJson(const MethodReport& m) {
  const kernels::RunTemp& t = m.run_temp;
  json calls = json::array();
  for (const kernels::CallTemp& c : t.calls) {
    json requests = json::array();
    for (const kernels::TempRequest& q : c.requests)
      requests.push_back({{"bytes", q.bytes}, {"alignment", q.alignment}});
    calls.push_back({{"instruction", c.instruction}, {"what", c.what}, {"library", c.library},
                     {"requests", requests}, {"pool_bytes", c.pool_bytes},
                     {"formula", c.formula}, {"upper_bound", c.upper_bound},
                     {"unknown", c.unknown.empty() ? json(nullptr) : json(c.unknown)}});
    if (!c.registered_by.empty() || (!c.delegate && !c.unknown.empty() && c.library.empty()))
      calls.back()["registered_by"] = c.registered_by;
    if (!c.missing_log.empty()) calls.back()["missing_operator_log"] = c.missing_log;
    if (!c.mallocs.empty()) {
      json mallocs = json::array();
      for (const kernels::MallocRequest& q : c.mallocs)
        mallocs.push_back({{"bytes", q.bytes}, {"freed", q.freed}});
      calls.back()["mallocs"] = mallocs;
    }
  }
  json run = {{"peak_bytes", t.peak_bytes},
              {"exact", t.known()},
              {"upper_bound", t.upper_bound},
              {"peak_instruction", t.peak_call ? json(t.calls[*t.peak_call].instruction)
                                               : json(nullptr)},
              {"reset_each_instruction", t.reset_each_instruction},
              {"kernels", t.libraries},
              {"unknown_calls", t.unknown_calls},
              {"calls", calls},
              {"summary", t.Describe()}};
  if (t.platform_fallback) run["heap_peak_bytes"] = t.heap_peak_bytes;
  if (t.malloc_peak_call)
    run["malloc"] = {{"peak_bytes", t.malloc_peak_bytes},
                     {"peak_instruction", t.calls[*t.malloc_peak_call].instruction},
                     {"leaked_per_run_bytes", t.malloc_leaked_bytes},
                     {"summary", t.DescribeMalloc()}};
  if (!t.delegate_uses.empty()) {
    json uses = json::array();
    for (const kernels::DelegateUse& u : t.delegate_uses)
      uses.push_back({{"backend", u.backend},
                      {"delegates", u.delegates},
                      {"calls", u.calls},
                      {"library", u.library.empty() ? json(nullptr) : json(u.library)},
                      {"temp", u.temp},
                      {"temp_modelled", u.temp_modelled},
                      {"outside_pools", u.outside.empty() ? json(nullptr) : json(u.outside)},
                      {"outside_pools_bytes", u.outside_bytes ? json(*u.outside_bytes)
                                                               : json(nullptr)},
                      {"outside_pools_unknown", u.outside_unknown}});
    run["delegates"] = uses;
  }
  if (t.first_missing_call)
    run["missing_operators"] = {{"calls", t.missing_operator_calls},
                                {"first_instruction", t.calls[*t.first_missing_call].instruction},
                                {"log", t.calls[*t.first_missing_call].missing_log},
                                {"error", "OperatorMissing"},
                                {"summary", t.DescribeMissing()}};
  if (!t.assumptions.empty()) run["assumptions"] = t.assumptions;
  if (!t.run_failures.empty()) run["run_failures"] = t.run_failures;
  if (t.check) {
    json log = t.check->log;
    run["check"] = {{"pool_bytes", t.check->pool_bytes},
                    {"load_fits", m.temp_load_peak_bytes <= t.check->pool_bytes},
                    {"fits", t.check->fits},
                    {"failing_instruction",
                     t.check->failing_call ? json(t.calls[*t.check->failing_call].instruction)
                                           : json(nullptr)},
                    {"log", log}};
    if (!t.check->then.empty()) run["check"]["then"] = t.check->then;
  }
  return {{"load_peak_bytes", m.temp_load_peak_bytes},
          {"pool_bytes", TempPoolBytes(m)},
          {"run", run}};
}

namespace {

using nlohmann::json;

// An allocation row's members, in the text's order: the one list of them, for the DOM of a
// failing allocation and for the rows VisitPool streams.
template <typename Member>
void AllocationMembers(const runtime::AllocationRequest& r, const sim::Placement& p,
                       const std::string& what, Member&& member) {
  member("size", r.size);
  member("align", uint64_t{r.align});
  member("offset", p.offset);
  member("consumed", p.consumed(r.size));
  member("site", std::string(runtime::SiteName(r.site)));
  member("category", std::string(runtime::CategoryName(runtime::SiteCategory(r.site))));
  member("what", what);
}

json Allocation(const MethodReport& m, const AllocationRecord& a) {
  json out = json::object();
  AllocationMembers(a.request, a.placement, Describe(m, a.request),
                    [&](const char* key, const auto& value) { out[key] = value; });
  return out;
}

json ByCategory(const MethodReport& m) {
  json out = json::object();
  for (size_t c = 0; c < m.by_category.size(); ++c) {
    const CategoryTotal& t = m.by_category[c];
    out[runtime::CategoryName(static_cast<runtime::Category>(c))] = {
        {"bytes", t.bytes}, {"padding", t.padding}, {"allocations", t.allocations}};
  }
  return out;
}

json PoolCheckJson(const MethodReport& m) {
  if (!m.pool_check) return nullptr;
  const PoolCheck& c = *m.pool_check;
  json out = {{"pool_bytes", c.pool_bytes}, {"fits", c.fits}};
  out["failing_allocation"] = c.failing ? Allocation(m, *c.failing) : json(nullptr);
  out["log"] = c.log.empty() ? json(nullptr) : json(c.log);
  out["consequence"] = c.consequence.empty() ? json(nullptr) : json(c.consequence);
  return out;
}

json RunnerFailureJson(const RunnerReport& r, const sim::RunnerFailure& f) {
  return {{"by", f.load_request ? "load_method" : "runner"},
          {"what", RunnerFailureWhat(r, f)},
          {"requested", f.requested},
          {"available", f.available},
          {"log", f.log},
          {"consequence", f.consequence}};
}

// With --runner: the runner's pools under its own names, each with its minimum and breakdown.
json RunnerJson(const MethodReport& m) {
  const RunnerReport& r = *m.runner;
  const runner::Profile& p = *r.plan.profile;
  json pools = json::array();
  for (const sim::RunnerPoolResult& pool : r.result.pools) {
    const runner::PoolSpec& spec = r.pool_spec(pool.pool);
    json entries = json::array();
    for (const RunnerRow& row : RunnerRows(r, pool))
      entries.push_back({{"by", row.by}, {"what", row.what}, {"offset", row.offset},
                         {"first", row.first}, {"end", row.end},
                         {"bytes", row.bytes}, {"padding", row.padding}, {"align", row.align},
                         {"written", row.written}, {"allocations", row.allocations}});
    pools.push_back({{"name", RunnerPoolName(spec)},
                     {"variable", spec.variable},
                     {"macro", spec.macro},
                     {"role", pool.temp_role                        ? "temp"
                              : pool.pool == r.result.method_pool ? "method"
                                                                  : "other"},
                     {"description", spec.role},
                     {"base_align", r.plan.pools[pool.pool].base_align},
                     {"default_bytes", spec.default_bytes},
                     {"minimum_bytes", pool.minimum},
                     {"bytes_with_run", RunnerPoolBytes(m, pool)},
                     {"gets_through_bytes", pool.high_water},
                     {"entries", entries}});
  }
  json check = nullptr;
  if (r.result.check) {
    const sim::RunnerCheck& c = *r.result.check;
    check = {{"pool", RunnerPoolName(r.pool_spec(r.result.method_pool))},
             {"pool_bytes", c.pool_bytes},
             {"fits", c.fits()},
             {"gets_through", c.gets_through},
             {"overwritten_bytes", c.overwritten_bytes},
             {"failure", c.failure ? RunnerFailureJson(r, *c.failure) : json(nullptr)}};
  }
  json out = {{"name", p.name},
              {"description", p.description},
              {"profile", p.file},
              {"source", {{"path", p.source_path}, {"tags", p.source_tags}}},
              {"releases", {{"first", p.first_release}, {"last", p.last_release}}},
              {"options", r.plan.options},
              {"planned_buffers_in_pools", RunnerHoldsPlannedBuffers(r)},
              {"pools", pools},
              {"bugs", r.result.bugs},
              {"pool_check", check}};
  // Only runners that declare refusals have the field (the others' output stays as it was).
  if (!p.refusals.empty()) out["refusals"] = r.result.refusals;
  return out;
}

json MethodSummary(const Report& r, const MethodReport& m) {
  const pte::MethodView& v = *m.method;
  json planned = json::array();
  for (size_t i = 1; i < v.planned_buffer_sizes.size(); ++i) planned.push_back(v.planned_buffer_sizes[i]);
  json out = {
      {"name", std::string(v.name)},
      {"exact", m.plan.exact()},
      {"method_allocator",
       {{"bytes", m.method_bytes},
        {"high_water_bytes", m.sim.method_bytes},
        {"lower_bound", !m.plan.exact()},
        {"by_category", ByCategory(m)}}},
      {"temp_allocator", TempAllocatorJson(m)},
      {"planned_buffers", planned},
      {"pool_check", PoolCheckJson(m)},
      {"unknown", UnknownsJson(m)},
      {"counts",
       {{"values", m.counts.values}, {"tensors", m.counts.tensors},
        {"instructions", m.counts.instructions}, {"kernel_calls", m.counts.kernel_calls},
        {"delegate_calls", m.counts.delegate_calls}, {"operators", m.counts.operators},
        {"delegates", m.counts.delegates}, {"chains", m.counts.chains},
        {"inputs", m.counts.inputs}, {"outputs", m.counts.outputs}}},
  };
  // At a release where it depends on the temp pool's size (main; from 1.0.0 an empty one):
  // where the metadata went.
  if (const runtime::MetadataPlacement& p = m.plan.metadata;
      p.temp_bytes_for_all > 0 || p.fell_back > 0)
    out["temp_allocator"]["operator_metadata"] = {{"kernel_calls_on_temp", p.on_temp},
                                                  {"kernel_calls_on_method", p.on_method},
                                                  {"fell_back_to_method", p.fell_back},
                                                  {"temp_bytes_for_all", p.temp_bytes_for_all}};
  if (m.plan.refusal) {
    out["load_refused"] = {{"error", m.plan.refusal->error}, {"reason", m.plan.refusal->reason}};
    // A method the release refuses needs no pool: no byte count says what loading it takes. The
    // allocations made before the refusal keep their rows (where the runtime stopped).
    json& pool = out["method_allocator"];
    pool["bytes_before_refusal"] = pool["bytes"];
    pool["bytes"] = nullptr;
    pool["high_water_bytes"] = nullptr;
  }
  if (m.plan.refusal && !m.plan.refusal->log.empty())
    out["load_refused"]["log"] = m.plan.refusal->log;
  if (m.runner) out["runner"] = RunnerJson(m);
  // The assumption sentence the text report states for this method (assumptions.h), for clients
  // that show it (the page) rather than rebuild it.
  out["assuming"] = AssumptionSentence(
      r.assumptions, m.runner ? RunnerReportWording(*m.runner) : ReportWording());
  return out;
}

json FlashLoadJson(const FlashLoad& f) {
  json parts = json::array();
  for (const FlashPart& p : f.parts)
    parts.push_back({{"what", p.what}, {"bytes", p.bytes}, {"use", FlashUseName(p.use)},
                     {"ram_bytes", p.ram_bytes}, {"why", p.why}});
  return {{"assumption", kBufferDataLoaderAssumption},
          {"read_in_place_bytes", f.bytes(FlashUse::kReadInPlace)},
          {"copied_to_ram_bytes", f.bytes(FlashUse::kCopiedToRam)},
          {"ram_bytes_written", f.ram_bytes()},
          {"backend_dependent_bytes", f.bytes(FlashUse::kBackendDependent)},
          {"not_read_bytes", f.bytes(FlashUse::kNotRead)},
          {"parts", parts},
          {"notes", f.notes}};
}

json Flash(const FlashBreakdown& f, const FlashLoad& load) {
  return {{"file_bytes", f.file_bytes},
          {"buffer_data_loader", FlashLoadJson(load)},
          {"program_bytes", f.program_bytes},
          {"metadata_bytes", f.metadata_bytes},
          {"inline_constant_bytes", f.inline_constant_bytes},
          {"segment_constant_bytes", f.segment_constant_bytes},
          {"inline_delegate_bytes", f.inline_delegate_bytes},
          {"segment_delegate_bytes", f.segment_delegate_bytes},
          {"other_segment_bytes", f.other_segment_bytes}};
}

json Header(const Report& r) {
  const Assumptions& a = r.assumptions;
  return {{"program", {{"path", r.program->path}, {"size_bytes", r.program->file_size}}},
          {"runtime", a.runtime},
          {"target", a.target},
          {"pool_align", a.pool_align},
          {"temp_allocator", a.temp_allocator ? "nonnull" : "null"},
          {"temp_allocator_source", a.temp_is_runner_default ? "runner default" : "explicit"},
          {"external_data_map", a.external_data_map},
          {"flash", Flash(r.flash, r.flash_load)},
          {"notes", r.notes}};
}

// The header, and the runner's assumption line when there is one (absent otherwise, so output
// without --runner is unchanged).
json HeaderWithRunner(const Report& r) {
  json out = Header(r);
  if (!r.assumptions.runner.empty()) out["runner"] = r.assumptions.runner;
  if (!r.not_judged.empty()) {
    out["methods_not_judged"] = json::array();
    for (const MethodNotJudged& m : r.not_judged)
      out["methods_not_judged"].push_back({{"name", m.name}, {"why", m.why}});
  }
  if (r.assumptions.temp_pool_bytes) {
    out["temp_pool_bytes"] = *r.assumptions.temp_pool_bytes;
    out["temp_pool_source"] = r.assumptions.temp_pool_source;
  }
  out["kernels"] = r.assumptions.kernels;
  if (r.assumptions.run_temp_pool_bytes) {
    out["run_temp_pool_bytes"] = *r.assumptions.run_temp_pool_bytes;
    out["run_temp_pool_source"] = r.assumptions.run_temp_pool_source;
  }
  return out;
}

}  // namespace

// `s` as the text holds it: unchanged when ASCII; else with the dump's replacements of invalid
// UTF-8 (names come from the file).
void VisitString(const std::string& s, bool key, api::JsonVisitor& v) {
  const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return (c & 0x80) == 0; });
  std::string replaced;
  if (!ascii)
    replaced = json::parse(json(s).dump(-1, ' ', false, json::error_handler_t::replace))
                   .get<std::string>();
  const std::string_view text = ascii ? std::string_view(s) : std::string_view(replaced);
  key ? v.Key(text) : v.String(text);
}

// A DOM's members in its own order (sorted for json, as inserted for ordered_json), which is
// its text's.
template <typename Json>
void VisitDom(const Json& j, api::JsonVisitor& v) {
  using Type = typename Json::value_t;
  switch (j.type()) {
    case Type::null:
    case Type::discarded:
    case Type::binary: v.Null(); return;  // binary: never in a result
    case Type::boolean: v.Bool(j.template get<bool>()); return;
    case Type::number_integer: v.Int(j.template get<int64_t>()); return;
    case Type::number_unsigned: v.Uint(j.template get<uint64_t>()); return;
    case Type::number_float: v.Double(j.template get<double>()); return;
    case Type::string:
      VisitString(j.template get_ref<const std::string&>(), false, v);
      return;
    case Type::array:
      v.BeginArray(j.size());
      for (const Json& e : j) VisitDom(e, v);
      v.EndArray();
      return;
    case Type::object:
      v.BeginObject(j.size());
      for (const auto& [key, e] : j.template get_ref<const typename Json::object_t&>()) {
        VisitString(key, true, v);
        VisitDom(e, v);
      }
      v.EndObject();
      return;
  }
}
template void VisitDom(const nlohmann::json&, api::JsonVisitor&);
template void VisitDom(const nlohmann::ordered_json&, api::JsonVisitor&);

namespace {

// The members of `object` (a DOM object) without its braces.
void VisitMembers(const json& object, api::JsonVisitor& v) {
  for (const auto& [key, e] : object.get_ref<const json::object_t&>()) {
    VisitString(key, true, v);
    VisitDom(e, v);
  }
}

// A pool's object: `pool_object`'s members, then "allocations": one row per request, as events,
// never held as a DOM (a program has thousands of them).
void VisitPool(const json& pool_object, const MethodReport& m, runtime::PoolKind pool,
               api::JsonVisitor& v) {
  size_t rows = 0;
  for (size_t i = 0; i < m.sim.placements.size(); ++i) rows += m.plan.requests[i].pool == pool;
  v.BeginObject(pool_object.size() + 1);
  VisitMembers(pool_object, v);
  v.Key("allocations");
  v.BeginArray(rows);
  for (size_t i = 0; i < m.sim.placements.size(); ++i) {
    const runtime::AllocationRequest& r = m.plan.requests[i];
    if (r.pool != pool) continue;
    v.BeginObject(7);
    AllocationMembers(r, m.sim.placements[i], Describe(m, i),
                      [&](const char* key, const auto& value) {
                        v.Key(key);
                        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>)
                          VisitString(value, false, v);
                        else
                          v.Uint(value);
                      });
    v.EndObject();
  }
  v.EndArray();
  v.EndObject();
}

}  // namespace

json SchemaMembers() { return {{"schema", kJsonSchema}}; }

json VerdictMembers(const Verdict& verdict) {
  json detail = {{"judged", verdict.judged}};
  if (verdict.kind != VerdictKind::kFits) {
    detail["where"] = verdict.where;
    detail["step"] = verdict.step;
    detail["log"] = verdict.log;
  }
  return {{"schema", kJsonSchema}, {"verdict", VerdictName(verdict.kind)},
          {"verdict_detail", detail}};
}

namespace {
// "default_release": the default's verdict and the ranges of releases where it differs.
json DefaultReleaseJson(const DefaultRelease& d) {
  json others = json::array();
  for (const ReleaseVerdicts& o : d.others) {
    json row = {{"first", o.first}, {"last", o.last}, {"verdict", VerdictName(o.kind)}};
    if (o.min_method_pool_bytes) {
      row["min_method_pool_bytes"] = *o.min_method_pool_bytes;
      row["max_method_pool_bytes"] = *o.max_method_pool_bytes;
    }
    if (!o.error.empty()) row["refusal"] = {{"error", o.error}, {"reason", o.reason}};
    others.push_back(row);
  }
  return {{"runtime", d.runtime},
          {"verdict", VerdictName(d.kind)},
          {"other_releases", others},
          {"line", d.Line()}};
}
}  // namespace

json ReportVerdictMembers(const Report& r) {
  json out = VerdictMembers(Judge(r));
  if (r.default_release) out["default_release"] = DefaultReleaseJson(*r.default_release);
  return out;
}

void VisitJson(const Report& r, api::JsonVisitor& v) {
  json header = HeaderWithRunner(r);
  header.update(ReportVerdictMembers(r));
  v.BeginObject(header.size() + 1);
  VisitMembers(header, v);
  v.Key("methods");
  v.BeginArray(r.methods.size());
  for (const MethodReport& m : r.methods) {
    json summary = MethodSummary(r, m);
    const json method_allocator = std::move(summary["method_allocator"]);
    const json temp_allocator = std::move(summary["temp_allocator"]);
    summary.erase("method_allocator");
    summary.erase("temp_allocator");
    v.BeginObject(summary.size() + 2);
    VisitMembers(summary, v);
    v.Key("method_allocator");
    VisitPool(method_allocator, m, runtime::PoolKind::kMethod, v);
    v.Key("temp_allocator");
    VisitPool(temp_allocator, m, runtime::PoolKind::kTemp, v);
    v.EndObject();
  }
  v.EndArray();
  v.EndObject();
}

namespace {

// JSON text from the events, byte for byte what nlohmann's dump(indent) writes (strings as it
// escapes them, ensure_ascii off; the events' strings are valid UTF-8 already): compact for
// indent -1, else each member and element on its own line; written to `out` in blocks: a large
// program has millions of allocation rows, never held at once.
class TextWriter final : public api::JsonVisitor {
 public:
  TextWriter(std::ostream& out, int indent) : out_(out), indent_(indent) {}
  ~TextWriter() override { out_ << buf_; }

  void Null() override { Scalar("null"); }
  void Bool(bool value) override { Scalar(value ? "true" : "false"); }
  void Int(int64_t value) override {
    Separate();
    fmt::format_to(std::back_inserter(buf_), "{}", value);
  }
  void Uint(uint64_t value) override {
    Separate();
    fmt::format_to(std::back_inserter(buf_), "{}", value);
  }
  void Double(double value) override { Scalar(json(value).dump()); }
  void String(std::string_view value) override {
    Separate();
    Quote(value);
  }
  void BeginArray(size_t) override { Open('['); }
  void EndArray() override { Close(']'); }
  void BeginObject(size_t) override { Open('{'); }
  void Key(std::string_view key) override {
    Separate();
    Quote(key);
    buf_ += indent_ < 0 ? ":" : ": ";
    after_key_ = true;
  }
  void EndObject() override { Close('}'); }

 private:
  // A comma before every value but the first of its array or object, and none after a key;
  // indented, a new line at its depth.
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) buf_ += ',';
      first_.back() = false;
      NewLine(first_.size());
    }
  }
  void NewLine(size_t depth) {
    if (indent_ < 0) return;
    buf_ += '\n';
    buf_.append(depth * static_cast<size_t>(indent_), ' ');
  }
  void Scalar(std::string_view text) {
    Separate();
    buf_ += text;
  }
  void Open(char c) {
    Separate();
    buf_ += c;
    first_.push_back(true);
  }
  void Close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) NewLine(first_.size());
    buf_ += c;
    if (buf_.size() > (1 << 16)) {
      out_ << buf_;
      buf_.clear();
    }
  }
  void Quote(std::string_view text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
      return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
    });
    if (plain) {
      buf_ += '"';
      buf_ += text;
      buf_ += '"';
    } else {
      buf_ += json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
    }
  }

  std::ostream& out_;
  int indent_;
  std::string buf_;
  std::vector<bool> first_;  // per open array or object: no value written yet
  bool after_key_ = false;
};

}  // namespace

nlohmann::json HeaderJson(const Report& r) { return HeaderWithRunner(r); }

void WriteJsonText(std::ostream& out, const JsonEvents& events, int indent) {
  TextWriter writer(out, indent);
  events(writer);
}

std::string JsonText(const JsonEvents& events, int indent) {
  std::ostringstream out;
  WriteJsonText(out, events, indent);
  out << "\n";
  return out.str();
}

void WriteJson(std::ostream& out, const Report& r) {
  TextWriter writer(out, -1);
  VisitJson(r, writer);
}

void VisitJsonResults(std::span<const Report* const> reports, api::JsonVisitor& v) {
  Verdict verdict;
  for (const Report* r : reports) verdict.Add(Judge(*r));
  const json top = VerdictMembers(verdict);
  v.BeginObject(top.size() + 1);
  for (const char* key : {"schema", "verdict", "verdict_detail"}) {
    v.Key(key);
    VisitDom(top.at(key), v);
  }
  v.Key("results");
  v.BeginArray(reports.size());
  for (const Report* r : reports) VisitJson(*r, v);
  v.EndArray();
  v.EndObject();
}

void WriteJsonResults(std::ostream& out, std::span<const Report* const> reports) {
  TextWriter writer(out, -1);
  VisitJsonResults(reports, writer);
}

json ToJson(const Report& r) {
  std::ostringstream text;
  WriteJson(text, r);
  return json::parse(text.str());
}

std::string ReportsJsonText(std::span<const Report* const> reports) {
  std::ostringstream out;
  if (reports.size() == 1)
    WriteJson(out, *reports.front());
  else
    WriteJsonResults(out, reports);
  out << "\n";
  return out.str();
}

}  // namespace etmem::report
