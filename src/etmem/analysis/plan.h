// Owns: the planned memory of a program as a value (`etmem plan`): per method asked for, its
// planned tensors' live ranges, the plan's soundness, each buffer's bounds and aligned live bytes
// per instruction, and the advisories; the program's duplicate constants; the plan's verdict; the
// values of the HTML page (PlanPage: the plan beside the method allocator's breakdown) and the
// words the text and the page share (tensor notes, advisory and duplicate-constant lines).
// Not: the live ranges, checks and advisories themselves (plan/), printing them
// (report/plan_render.h, report/html_report.h), checking the options (api/plan_output.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "etmem/analysis/report.h"
#include "etmem/analysis/verdict.h"
#include "etmem/base/result.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/check.h"
#include "etmem/plan/duplicate_constants.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/pte/program_view.h"

namespace etmem::report {

struct MethodPlan {
  const pte::MethodView* method = nullptr;
  plan::Lifetimes lifetimes;
  plan::Validation validation;
  std::vector<plan::BufferBounds> bounds;
  std::vector<plan::Advice> advice;
  // Per entry of `bounds`: the buffer's aligned live bytes at each instruction (plan::LiveBytes).
  std::vector<std::vector<uint64_t>> live_bytes;
};

// What every format is written from: each method's plan (asked for) and the duplicate constants.
struct Planned {
  std::vector<plan::DuplicateConstants> duplicates;
  std::vector<MethodPlan> plans;
  bool sound() const {
    return std::all_of(plans.begin(), plans.end(),
                       [](const MethodPlan& p) { return p.validation.sound(); });
  }
};

// Every method of `view` (or only `method`, when not empty) planned with tensors rounded up to
// `alignment`; an error names the program.
Result<Planned> PlanMethods(const pte::ProgramView& view, const std::string& method,
                            uint64_t alignment);

// Not sound: does not fit (a method's memory plan is not sound); else fits.
Verdict PlanVerdict(bool sound);

// " input output state never-used" (each that applies, each after a space).
std::string PlannedTensorNotes(const plan::PlannedTensor& t);
// Said after an advisory's planned saving when it is a bound (plan::Advice::cut_short).
std::string CutShort(const plan::Advice& a);
// One advisory in a line (the page's notes).
std::string AdviceLine(const plan::Advice& a);
// One group of duplicate constants in a line: its copies, the first few readers, what keeping
// one saves.
std::string DuplicateLine(const pte::ProgramView& program, const plan::DuplicateConstants& g);

// The HTML page's values: plain numbers and words, drawn by report/html_report.cpp.
struct HtmlTensor {
  int32_t value = 0;
  uint32_t memory_id = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  std::string dtype;           // "float32"
  std::vector<int32_t> shape;
  bool used = false;           // false: never live, drawn in no timeline, listed instead
  int64_t first = 0;           // inclusive live range
  int64_t last = 0;
  std::string notes;           // "input", "output", "state", ...
};

struct HtmlBuffer {
  uint32_t memory_id = 0;
  int64_t planned = 0;         // the stored size
  uint64_t lower_bound = 0;
  std::vector<uint64_t> live_bytes;  // per instruction; the peaks are where it is largest
};

struct HtmlCategory {
  std::string name;
  uint64_t bytes = 0;
  uint32_t allocations = 0;
};

struct HtmlMethod {
  std::string name;
  int64_t instructions = 0;
  std::vector<HtmlBuffer> buffers;
  std::vector<HtmlTensor> tensors;
  uint64_t method_pool_bytes = 0;
  bool method_pool_exact = true;  // false: a lower bound (an unmodelled backend)
  // Non-empty: the release refuses to load the method (its error): no pool size is shown.
  std::string refused;
  std::vector<HtmlCategory> categories;
  std::vector<std::string> notes;  // advisories and verdicts, one line each
};

struct HtmlPage {
  std::string title;         // the program's path
  std::string assumptions;   // one line: release, target, pool alignment, temp allocator
  std::vector<HtmlMethod> methods;
  std::vector<std::string> notes;  // about the whole program (e.g. duplicate constants), once
};

// The page of `planned` beside `report`'s method allocator (the report of the same program).
HtmlPage PlanPage(const pte::ProgramView& view, const Planned& planned, const Report& report);

}  // namespace etmem::report
