// Owns: api::Plan and api::PlanJson, the planned memory of a program made visible and checked
// (what `etmem plan` prints): each planned tensor's live range, whether any two share bytes while live, each
// buffer's size against the lower bound, a map of the buffers over the instructions, and
// advisories. Text, JSON, or a self-contained HTML page (report/html_report.h) that adds the
// method allocator by category. Not: the live ranges, checks and advisories (plan/).
#include <algorithm>
#include <iterator>
#include <optional>
#include <ostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/base/checked_math.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/check.h"
#include "etmem/plan/duplicate_constants.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/report/html_report.h"
#include "etmem/report/json_report.h"
#include "etmem/runtime/labels.h"
#include "etmem/runtime/sites.h"

namespace etmem::api {
namespace {


struct MethodPlan {
  const pte::MethodView* method = nullptr;
  plan::Lifetimes lifetimes;
  plan::Validation validation;
  std::vector<plan::BufferBounds> bounds;
  std::vector<plan::Advice> advice;
};

constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
char Letter(size_t tensor) { return kLetters[tensor % kLetters.size()]; }

std::string Notes(const plan::PlannedTensor& t) {
  std::string n;
  if (t.input) n += " input";
  if (t.output) n += " output";
  if (t.stateful) n += " state";
  if (!t.used) n += " never-used";
  return n;
}

void PrintRanges(std::ostream& out, const MethodPlan& p) {
  out << fmt::format("  {:>2} {:>6} {:>3} {:>10} {:>10} {:>6} {:>6}  notes\n", "", "value",
                           "mem", "offset", "bytes", "first", "last");
  for (size_t i = 0; i < p.lifetimes.tensors.size(); ++i) {
    const plan::PlannedTensor& t = p.lifetimes.tensors[i];
    out << fmt::format("  {:>2} {:>6} {:>3} {:>10} {:>10} {:>6} {:>6} {}\n", Letter(i),
                             t.value, t.memory_id, t.offset, t.bytes,
                             t.used ? std::to_string(t.first) : "-",
                             t.used ? std::to_string(t.last) : "-", Notes(t));
  }
}

void PrintValidation(std::ostream& out, const plan::Validation& v) {
  if (v.sound()) {
    out << "validation: sound\n";
    return;
  }
  out << fmt::format("validation: UNSOUND ({} overlaps, {} misplaced)\n", v.overlaps.size(),
                           v.misplaced.size());
  for (const plan::Overlap& o : v.overlaps)
    out << fmt::format("  overlap: values {} and {} share {} bytes of buffer {} while both "
                             "are live at instruction {}\n",
                             o.a, o.b, o.overlap_bytes, o.memory_id, o.instruction);
  for (const plan::Misplaced& m : v.misplaced) {
    if (m.buffer_size < 0)
      out << fmt::format("  misplaced: value {} names buffer {}, which does not exist\n",
                               m.value, m.memory_id);
    else
      out << fmt::format("  misplaced: value {} ({} bytes at offset {}) ends past buffer {} "
                               "({} bytes)\n",
                               m.value, m.bytes, m.offset, m.memory_id, m.buffer_size);
  }
}

void PrintBounds(std::ostream& out, const MethodPlan& p, uint64_t alignment) {
  out << fmt::format("bounds (tensors rounded up to {} bytes):\n", alignment);
  for (const plan::BufferBounds& b : p.bounds)
    out << fmt::format("  buffer {}: planned {} B, lower bound {} B (peak at instruction "
                             "{}), excess {} B ({:.1f}%)\n",
                             b.memory_id, b.planned, b.lower_bound, b.peak_instruction, b.excess(),
                             b.excess_percent());
}

// One row per instruction; a column covers `bucket` bytes and shows the live tensor covering
// most of it ('!' when live tensors cover more bytes than the bucket has: an overlap).
// `live`: the buffer's tensors live at the row's instruction, in tensor order (PrintMap).
std::string MapRow(const MethodPlan& p, const std::set<size_t>& live, uint64_t bucket,
                   uint32_t columns) {
  std::string row(columns, '.');
  std::vector<uint64_t> covered(columns, 0), best(columns, 0);
  for (size_t i : live) {
    const plan::PlannedTensor& t = p.lifetimes.tensors[i];
    const uint64_t end = t.offset + t.bytes;
    for (uint64_t c = t.offset / bucket; c < columns && c * bucket < end; ++c) {
      const uint64_t share = std::min(end, (c + 1) * bucket) - std::max(t.offset, c * bucket);
      covered[c] += share;
      if (share > best[c]) {
        best[c] = share;
        row[c] = Letter(i);
      }
    }
  }
  for (uint32_t c = 0; c < columns; ++c)
    if (covered[c] > bucket) row[c] = '!';
  return row;
}

void PrintMap(std::ostream& out, const MethodPlan& p, const plan::BufferBounds& b, uint64_t alignment,
              uint32_t columns) {
  const uint64_t span = std::max<uint64_t>(b.planned, 1);
  const uint64_t bucket = std::max<uint64_t>((span + columns - 1) / columns, 1);
  out << fmt::format("map of buffer {} ({} bytes per column, rows are instructions):\n",
                           b.memory_id, bucket);
  std::vector<uint64_t> live = plan::LiveBytes(p.lifetimes, b.memory_id, alignment);
  // A sweep: the tensors of the buffer with bytes, by first instruction; those live at row i
  // are kept in tensor order, so each row looks only at its own tensors.
  std::vector<size_t> by_first;
  for (size_t t = 0; t < p.lifetimes.tensors.size(); ++t) {
    const plan::PlannedTensor& x = p.lifetimes.tensors[t];
    if (x.memory_id == b.memory_id && x.used && x.bytes > 0) by_first.push_back(t);
  }
  std::stable_sort(by_first.begin(), by_first.end(), [&](size_t x, size_t y) {
    return p.lifetimes.tensors[x].first < p.lifetimes.tensors[y].first;
  });
  std::set<size_t> now;
  std::multimap<int64_t, size_t> ending;  // last instruction -> tensor
  size_t next = 0;
  for (int64_t i = 0; i < p.lifetimes.instructions; ++i) {
    while (next < by_first.size() && p.lifetimes.tensors[by_first[next]].first <= i) {
      const size_t t = by_first[next++];
      if (p.lifetimes.tensors[t].last < i) continue;
      now.insert(t);
      ending.emplace(p.lifetimes.tensors[t].last, t);
    }
    while (!ending.empty() && ending.begin()->first < i) {
      now.erase(ending.begin()->second);
      ending.erase(ending.begin());
    }
    out << fmt::format("  {:>5} |{}| {:>9} B{}\n", i,
                             MapRow(p, now, bucket, columns),
                             live[static_cast<size_t>(i)],
                             live[static_cast<size_t>(i)] == b.lower_bound && b.lower_bound > 0
                                 ? "  <- peak" : "");
  }
}

// Said after an advisory's planned saving when it is a bound (plan::Advice::cut_short).
std::string CutShort(const plan::Advice& a) {
  return a.cut_short ? " (at least: the method is too large to re-plan once per advisory, so "
                       "\"without it\" is the re-planned buffer with the tensor taken out, a "
                       "bound a re-plan could only lower)"
                     : "";
}

void PrintAdvice(std::ostream& out, const std::vector<plan::Advice>& advice) {
  if (advice.empty()) return;
  out << "advisories:\n";
  for (const plan::Advice& a : advice)
    out << fmt::format("  {}: value {} ({} bytes) written by {} at instruction {}; without "
                             "it the lower bound drops by {} B and the re-planned buffer {} goes "
                             "from {} B to {} B (saves {} B){}. {}\n",
                             plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                             a.bound_saving, a.memory_id, a.replanned, a.replanned_without,
                             a.planned_saving(), CutShort(a), a.change);
}

void PrintText(std::ostream& out, const MethodPlan& p, const PlanOptions& args) {
  out << fmt::format("method '{}': {} instructions, {} planned tensors\n", Printable(p.method->name),
                           p.lifetimes.instructions, p.lifetimes.tensors.size());
  PrintRanges(out, p);
  PrintValidation(out, p.validation);
  PrintBounds(out, p, args.alignment);
  for (const plan::BufferBounds& b : p.bounds) PrintMap(out, p, b, args.alignment, args.columns);
  PrintAdvice(out, p.advice);
}

// `etmem plan --format json` is events (a program scaled 1,000 times has 296,000 tensors: an
// nlohmann tree of them costs more than the planning): their text (report::JsonText, indent 1)
// is the bytes of nlohmann's dump(1, ' ', false, replace) of the same tree, keys in sorted
// order; their value is api::PlanJson. The small parts (validation, advisories, duplicate
// constants) are DOMs.
template <typename T>
void Number(JsonVisitor& v, T n) {
  if constexpr (std::is_signed_v<T>)
    v.Int(n);
  else
    v.Uint(n);
}

nlohmann::json ValidationJson(const plan::Validation& validation) {
  nlohmann::json v{{"sound", validation.sound()}, {"overlaps", nlohmann::json::array()},
                   {"misplaced", nlohmann::json::array()}};
  for (const plan::Overlap& o : validation.overlaps)
    v["overlaps"].push_back({{"values", {o.a, o.b}}, {"memory_id", o.memory_id},
                             {"instruction", o.instruction}, {"bytes", o.overlap_bytes}});
  for (const plan::Misplaced& m : validation.misplaced)
    v["misplaced"].push_back({{"value", m.value}, {"memory_id", m.memory_id}, {"offset", m.offset},
                              {"bytes", m.bytes}, {"buffer_size", m.buffer_size}});
  return v;
}

nlohmann::json AdviceJson(const std::vector<plan::Advice>& advice) {
  nlohmann::json out = nlohmann::json::array();
  for (const plan::Advice& a : advice) {
    out.push_back({{"kind", plan::AdviceKindName(a.kind)}, {"value", a.value},
                   {"instruction", a.instruction}, {"op", a.op}, {"bytes", a.bytes},
                   {"bound_saving", a.bound_saving}, {"memory_id", a.memory_id},
                   {"replanned", a.replanned}, {"replanned_without", a.replanned_without},
                   {"planned_saving", a.planned_saving()}, {"change", a.change}});
    if (a.cut_short) out.back()["cut_short"] = true;  // planned_saving: at least
  }
  return out;
}

void VisitTensor(JsonVisitor& v, const plan::PlannedTensor& t) {
  v.BeginObject(10);
  v.Key("bytes");
  Number(v, t.bytes);
  v.Key("first");
  t.used ? Number(v, t.first) : v.Null();
  v.Key("input");
  v.Bool(t.input);
  v.Key("last");
  t.used ? Number(v, t.last) : v.Null();
  v.Key("memory_id");
  Number(v, t.memory_id);
  v.Key("offset");
  Number(v, t.offset);
  v.Key("output");
  v.Bool(t.output);
  v.Key("state");
  v.Bool(t.stateful);
  v.Key("used");
  v.Bool(t.used);
  v.Key("value");
  Number(v, t.value);
  v.EndObject();
}

void VisitBuffer(JsonVisitor& v, const MethodPlan& p, const plan::BufferBounds& b,
                 uint64_t alignment) {
  v.BeginObject(7);
  v.Key("excess");
  Number(v, b.excess());
  v.Key("excess_percent");
  v.Double(b.excess_percent());
  v.Key("live_bytes");
  const std::vector<uint64_t> live = plan::LiveBytes(p.lifetimes, b.memory_id, alignment);
  v.BeginArray(live.size());
  for (uint64_t bytes : live) v.Uint(bytes);
  v.EndArray();
  v.Key("lower_bound");
  Number(v, b.lower_bound);
  v.Key("memory_id");
  Number(v, b.memory_id);
  v.Key("peak_instruction");
  Number(v, b.peak_instruction);
  v.Key("planned");
  Number(v, b.planned);
  v.EndObject();
}

void VisitMethod(JsonVisitor& v, const MethodPlan& p, uint64_t alignment) {
  v.BeginObject(6);
  v.Key("advisories");
  report::VisitDom(AdviceJson(p.advice), v);
  v.Key("buffers");
  v.BeginArray(p.bounds.size());
  for (const plan::BufferBounds& b : p.bounds) VisitBuffer(v, p, b, alignment);
  v.EndArray();
  v.Key("instructions");
  Number(v, p.lifetimes.instructions);
  v.Key("name");
  report::VisitString(std::string(p.method->name), false, v);
  v.Key("tensors");
  v.BeginArray(p.lifetimes.tensors.size());
  for (const plan::PlannedTensor& t : p.lifetimes.tensors) VisitTensor(v, t);
  v.EndArray();
  v.Key("validation");
  report::VisitDom(ValidationJson(p.validation), v);
  v.EndObject();
}

// The first few readers (JSON lists them all).
std::string UsesText(const pte::ProgramView& program, const plan::DuplicateConstants& g) {
  constexpr size_t kShown = 4;
  std::string out;
  for (size_t k = 0; k < g.uses.size(); ++k) {
    if (k == kShown) {
      out += fmt::format("; and {} more values (--format json lists them)", g.uses.size() - k);
      break;
    }
    const plan::ConstantUse& u = g.uses[k];
    std::string at;
    for (int64_t i : u.instructions) at += (at.empty() ? "" : ", ") + std::to_string(i);
    out += fmt::format("{}method '{}' value {} (data index {}, {})", out.empty() ? "" : "; ",
                       program.methods[u.method].name, u.value, u.data_index,
                       at.empty() ? "used by no instruction" : "instructions " + at);
  }
  return out;
}

std::string DuplicateLine(const pte::ProgramView& program, const plan::DuplicateConstants& g) {
  return fmt::format("duplicate-constants: {} identical copies of a {} B {} constant: {}. Keeping "
                     "one saves {} B of flash (the data of the other copies). {}. {}",
                     g.data_indices.size(), g.bytes, runtime::DtypeName(g.dtype),
                     UsesText(program, g), g.flash_saving(), plan::DuplicateConstantsRam(),
                     plan::DuplicateConstantsChange());
}

void PrintDuplicates(std::ostream& out, const pte::ProgramView& program,
                     const std::vector<plan::DuplicateConstants>& duplicates) {
  if (duplicates.empty()) return;
  out << "program advisories:\n";
  for (const plan::DuplicateConstants& g : duplicates)
    out << "  " << DuplicateLine(program, g) << "\n";
}

nlohmann::json DuplicatesJson(const pte::ProgramView& program,
                              const std::vector<plan::DuplicateConstants>& duplicates) {
  nlohmann::json out = nlohmann::json::array();
  for (const plan::DuplicateConstants& g : duplicates) {
    nlohmann::json uses = nlohmann::json::array();
    for (const plan::ConstantUse& u : g.uses)
      uses.push_back({{"method", std::string(program.methods[u.method].name)},
                      {"value", u.value}, {"data_index", u.data_index},
                      {"instructions", u.instructions}});
    out.push_back({{"kind", "duplicate-constants"}, {"dtype", runtime::DtypeName(g.dtype)},
                   {"bytes", g.bytes}, {"data_indices", g.data_indices}, {"uses", uses},
                   {"flash_saving", g.flash_saving()}, {"ram_saving_buffer_data_loader", 0},
                   {"ram", plan::DuplicateConstantsRam()},
                   {"change", plan::DuplicateConstantsChange()}});
  }
  return out;
}

std::string AdviceLine(const plan::Advice& a) {
  return fmt::format("{}: value {} ({} B) written by {} at instruction {}: without it the "
                     "re-planned buffer {} goes from {} B to {} B (saves {} B)",
                     plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                     a.memory_id, a.replanned, a.replanned_without, a.planned_saving()) +
         CutShort(a);
}

report::HtmlTensor HtmlTensorOf(const pte::MethodView& m, const plan::PlannedTensor& t) {
  report::HtmlTensor h{t.value, t.memory_id, t.offset, t.bytes, runtime::DtypeName(t.dtype),
                       {}, t.used, t.first, t.last, Notes(t)};
  if (const pte::TensorView* v = m.TensorAt(t.value)) {
    std::span<const int32_t> sizes = m.SizesOf(*v);
    h.shape.assign(sizes.begin(), sizes.end());
  }
  if (!h.notes.empty()) h.notes.erase(0, 1);  // Notes() starts with a space
  return h;
}

report::HtmlMethod HtmlMethodOf(const MethodPlan& p, const report::MethodReport* r,
                                uint64_t alignment) {
  report::HtmlMethod h;
  h.name = std::string(p.method->name);
  h.instructions = p.lifetimes.instructions;
  for (const plan::BufferBounds& b : p.bounds)
    h.buffers.push_back({b.memory_id, b.planned, b.lower_bound,
                         plan::LiveBytes(p.lifetimes, b.memory_id, alignment)});
  for (const plan::PlannedTensor& t : p.lifetimes.tensors)
    h.tensors.push_back(HtmlTensorOf(*p.method, t));
  h.notes.push_back(p.validation.sound() ? "validation: sound"
                                         : "validation: UNSOUND (see etmem plan's text output)");
  for (const plan::Advice& a : p.advice) h.notes.push_back(AdviceLine(a));
  if (r == nullptr) return h;
  if (r->plan.refusal) {  // no pool size as if it loaded
    h.refused = r->plan.refusal->error;
    h.notes.push_back("the runtime refuses this method (" + r->plan.refusal->error +
                      "): " + r->plan.refusal->reason);
    return h;
  }
  h.method_pool_bytes = r->method_bytes;
  h.method_pool_exact = r->plan.exact();
  for (size_t c = 0; c < r->by_category.size(); ++c)
    h.categories.push_back({runtime::CategoryName(static_cast<runtime::Category>(c)),
                            r->by_category[c].bytes, r->by_category[c].allocations});
  return h;
}

std::string AssumptionsLine(const report::Assumptions& a) {
  return "Method allocator assuming " + report::AssumptionSentence(a, report::PlanWording());
}

const report::MethodReport* FindReport(const report::Report& r, const pte::MethodView* m) {
  for (const report::MethodReport& mr : r.methods)
    if (mr.method == m) return &mr;
  return nullptr;
}

std::string Html(const std::vector<MethodPlan>& plans, const report::Report& r,
                 const PlanOptions& args, const std::string& program_name,
                 const std::vector<std::string>& program_notes) {
  report::HtmlPage page{program_name, AssumptionsLine(r.assumptions), {}, program_notes};
  for (const MethodPlan& p : plans)
    page.methods.push_back(HtmlMethodOf(p, FindReport(r, p.method), args.alignment));
  return report::RenderPlanHtml(page);
}

// What every format is written from: each method's plan (asked for) and the duplicate constants.
struct Planned {
  std::vector<plan::DuplicateConstants> duplicates;
  std::vector<MethodPlan> plans;
  bool sound() const {
    return std::all_of(plans.begin(), plans.end(),
                       [](const MethodPlan& p) { return p.validation.sound(); });
  }
};

void CheckPlanOptions(const pte::ProgramView& view, const PlanOptions& args) {
  if (args.alignment == 0 || args.alignment > 4096 || (args.alignment & (args.alignment - 1)) != 0)
    throw api::Error(ErrorKind::kInvalidArgument, "--alignment " + std::to_string(args.alignment) +
                                                      ": must be a power of two up to 4096");
  if (args.columns < 8 || args.columns > 512)
    throw api::Error(ErrorKind::kInvalidArgument,
                     "--columns " + std::to_string(args.columns) + ": not in [8 - 512]");
  if (!args.method.empty() && !view.FindMethod(args.method))
    throw api::Error(ErrorKind::kInvalidArgument,
                     view.path + ": no method named '" + Printable(args.method) + "'");
}

Planned PlanMethods(const pte::ProgramView& view, const PlanOptions& args) {
  CheckPlanOptions(view, args);
  Planned out;
  out.duplicates = plan::FindDuplicateConstants(view);
  for (const pte::MethodView& m : view.methods) {
    if (!args.method.empty() && m.name != args.method) continue;
    auto l = plan::ComputeLifetimes(m);
    if (!l) Throw(MakeError(l.error().code, view.path + ": " + l.error().message));
    MethodPlan p{&m, std::move(l).value(), {}, {}, {}};
    p.validation = plan::Validate(p.lifetimes);
    p.bounds = plan::ComputeBounds(p.lifetimes, args.alignment);
    p.advice = plan::Advise(m, p.lifetimes, args.alignment);
    out.plans.push_back(std::move(p));
  }
  return out;
}

report::Verdict PlanVerdict(bool sound) {
  return report::OutcomeVerdict(sound, "the planned memory's soundness",
                                "a method's memory plan is not sound (see the validation)");
}

// `etmem plan --format json`'s events: its members in sorted order (the schema and the verdict,
// docs/json.md, sort after "program").
void VisitPlan(JsonVisitor& v, const pte::ProgramView& view, const Planned& planned,
               uint64_t alignment) {
  const nlohmann::json verdict = report::VerdictMembers(PlanVerdict(planned.sound()));
  v.BeginObject(4 + verdict.size());
  v.Key("alignment");
  v.Uint(alignment);
  v.Key("duplicate_constants");
  report::VisitDom(DuplicatesJson(view, planned.duplicates), v);
  v.Key("methods");
  v.BeginArray(planned.plans.size());
  for (const MethodPlan& p : planned.plans) VisitMethod(v, p, alignment);
  v.EndArray();
  v.Key("program");
  report::VisitString(view.path, false, v);
  for (const auto& [key, value] : verdict.items()) {
    v.Key(key);
    report::VisitDom(value, v);
  }
  v.EndObject();
}

}  // namespace

JsonValue PlanJson(const Program& program, const PlanOptions& args) {
  auto planned = std::make_shared<const Planned>(PlanMethods(program.impl().view, args));
  if (args.board)
    throw api::Error(ErrorKind::kInvalidArgument, "--board: only with --format text or html");
  const uint64_t alignment = args.alignment;
  return MakeJsonValue([program, planned, alignment](JsonVisitor& v) {
    VisitPlan(v, program.impl().view, *planned, alignment);
  });
}

PlanResult Plan(const Program& program, const PlanOptions& args) {
  const pte::ProgramView& view = program.impl().view;
  CheckPlanOptions(view, args);
  std::optional<Report> rep;
  if (args.format == PlanFormat::kHtml) {
    Options model = args.model;
    model.method = args.method;
    rep = args.board ? Analyze(program, model, *args.board) : Analyze(program, model);
  }
  const Planned planned = PlanMethods(view, args);
  if (args.board && args.format == PlanFormat::kJson)
    throw api::Error(ErrorKind::kInvalidArgument, "--board: only with --format text or html");
  const std::vector<MethodPlan>& plans = planned.plans;
  const std::vector<plan::DuplicateConstants>& duplicates = planned.duplicates;
  std::ostringstream out;
  std::optional<std::string> json_output;  // the events' text, not through `out`
  if (args.format == PlanFormat::kHtml) {
    std::vector<std::string> notes;
    for (const plan::DuplicateConstants& g : duplicates) notes.push_back(DuplicateLine(view, g));
    out << Html(plans, Internal(*rep), args, view.path, notes);
  } else if (args.format == PlanFormat::kJson) {
    json_output = report::JsonText(
        [&](JsonVisitor& v) { VisitPlan(v, view, planned, args.alignment); }, 1);
  } else {
    for (const MethodPlan& p : plans) PrintText(out, p, args);
    PrintDuplicates(out, view, duplicates);
  }
  std::string output = json_output ? std::move(*json_output) : out.str();
  if (args.board) {
    // After the plan (the HTML page: before </body>), the placement region by region.
    Options model = args.model;
    model.method = args.method;
    const BoardFit fit = Fit(Analyze(program, model, *args.board), *args.board, args.method);
    if (args.format == PlanFormat::kHtml) {
      const size_t body = output.rfind("</body>");
      const std::string regions = FitRegionsHtml(fit.impl().fit);
      output = body == std::string::npos
                   ? output + regions
                   : output.substr(0, body) + regions + output.substr(body);
    } else {
      output += FitRegionsText(fit.impl().fit);
    }
  }
  return PlanResult{std::move(output), planned.sound()};
}

Verdict Judge(const PlanResult& plan) { return ToApi(PlanVerdict(plan.sound)); }

}  // namespace etmem::api
