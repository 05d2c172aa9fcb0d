// Owns: PlanMethods, PlanVerdict, PlanPage and the plan's shared words (see plan.h).
#include "etmem/analysis/plan.h"

#include <span>

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {

Result<Planned> PlanMethods(const pte::ProgramView& view, const std::string& method,
                            uint64_t alignment) {
  Planned out;
  out.duplicates = plan::FindDuplicateConstants(view);
  for (const pte::MethodView& m : view.methods) {
    if (!method.empty() && m.name != method) continue;
    auto l = plan::ComputeLifetimes(m);
    if (!l) return MakeError(l.error().code, view.path + ": " + l.error().message);
    MethodPlan p{&m, std::move(l).value(), {}, {}, {}, {}};
    p.validation = plan::Validate(p.lifetimes);
    p.bounds = plan::ComputeBounds(p.lifetimes, alignment);
    p.advice = plan::Advise(m, p.lifetimes, alignment);
    for (const plan::BufferBounds& b : p.bounds)
      p.live_bytes.push_back(plan::LiveBytes(p.lifetimes, b.memory_id, alignment));
    out.plans.push_back(std::move(p));
  }
  return out;
}

Verdict PlanVerdict(bool sound) {
  return OutcomeVerdict(sound, "the planned memory's soundness",
                        "a method's memory plan is not sound (see the validation)");
}

std::string PlannedTensorNotes(const plan::PlannedTensor& t) {
  std::string n;
  if (t.input) n += " input";
  if (t.output) n += " output";
  if (t.stateful) n += " state";
  if (!t.used) n += " never-used";
  return n;
}

std::string CutShort(const plan::Advice& a) {
  return a.cut_short ? " (at least: the method is too large to re-plan once per advisory, so "
                       "\"without it\" is the re-planned buffer with the tensor taken out, a "
                       "bound a re-plan could only lower)"
                     : "";
}

std::string AdviceLine(const plan::Advice& a) {
  return fmt::format("{}: value {} ({} B) written by {} at instruction {}: without it the "
                     "re-planned buffer {} goes from {} B to {} B (saves {} B)",
                     plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                     a.memory_id, a.replanned, a.replanned_without, a.planned_saving()) +
         CutShort(a);
}

namespace {

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

HtmlTensor HtmlTensorOf(const pte::MethodView& m, const plan::PlannedTensor& t) {
  HtmlTensor h{t.value, t.memory_id, t.offset, t.bytes, runtime::DtypeName(t.dtype),
               {}, t.used, t.first, t.last, PlannedTensorNotes(t)};
  if (const pte::TensorView* v = m.TensorAt(t.value)) {
    std::span<const int32_t> sizes = m.SizesOf(*v);
    h.shape.assign(sizes.begin(), sizes.end());
  }
  if (!h.notes.empty()) h.notes.erase(0, 1);  // PlannedTensorNotes() starts with a space
  return h;
}

HtmlMethod HtmlMethodOf(const MethodPlan& p, const MethodReport* r) {
  HtmlMethod h;
  h.name = std::string(p.method->name);
  h.instructions = p.lifetimes.instructions;
  for (size_t i = 0; i < p.bounds.size(); ++i) {
    const plan::BufferBounds& b = p.bounds[i];
    h.buffers.push_back({b.memory_id, b.planned, b.lower_bound, p.live_bytes[i]});
  }
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

const MethodReport* FindReport(const Report& r, const pte::MethodView* m) {
  for (const MethodReport& mr : r.methods)
    if (mr.method == m) return &mr;
  return nullptr;
}

}  // namespace

std::string DuplicateLine(const pte::ProgramView& program, const plan::DuplicateConstants& g) {
  return fmt::format("duplicate-constants: {} identical copies of a {} B {} constant: {}. Keeping "
                     "one saves {} B of flash (the data of the other copies). {}. {}",
                     g.data_indices.size(), g.bytes, runtime::DtypeName(g.dtype),
                     UsesText(program, g), g.flash_saving(), plan::DuplicateConstantsRam(),
                     plan::DuplicateConstantsChange());
}

HtmlPage PlanPage(const pte::ProgramView& view, const Planned& planned, const Report& report) {
  std::vector<std::string> notes;
  for (const plan::DuplicateConstants& g : planned.duplicates)
    notes.push_back(DuplicateLine(view, g));
  HtmlPage page{view.path,
                "Method allocator assuming " +
                    AssumptionSentence(report.assumptions, PlanWording()),
                {},
                std::move(notes)};
  for (const MethodPlan& p : planned.plans)
    page.methods.push_back(HtmlMethodOf(p, FindReport(report, p.method)));
  return page;
}

}  // namespace etmem::report
