// Owns: the program fuzz target. Bytes -> ReadProgramBytes -> BuildReport for a few
// (release, target, options) triples -> ToText, ToJson. A crash, a hang, a sanitizer report, an
// error message that is not one printable line naming the file, or a text report quoting
// unprintable bytes is a finding (abort() makes libFuzzer keep it). For every program the reader
// accepts, the programs `etmem replan` and `etmem fit -o` would write (every method re-planned;
// the first method split onto a built-in board) must be re-read by etmem's reader, and every
// release in the cases that loads a method of the input must load it from the output too (but
// where replan notes that a buffer needs 64-bit offsets, not on a 32-bit target).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/board/board.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/report/text_report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "pte_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;

constexpr const char* kName = "fuzz.pte";

struct Case {
  runtime::RuntimeModel model;
  report::ReportOptions options;
};

Case MakeCase(const std::string& release, const std::string& target, bool temp, bool external) {
  const abi::Abi a = *abi::FindBuiltinTarget(target);
  report::ReportOptions o;
  o.load.temp_allocator = temp;
  o.load.external_data_map = external;
  o.pool_align = a.malloc_align;
  o.pool_bytes = 2048;
  return {runtime::RuntimeModel(**runtime::FindRelease(release), a), o};
}

// Oldest and newest release on a 32-bit target, plus the releases where the load sequence
// changes (temp allocator, external data) on 64-bit and other 32-bit targets.
const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      MakeCase("0.3", "cortex-m", false, false), MakeCase("0.6", "x86_64", true, false),
      MakeCase("1.0", "riscv32", true, true),    MakeCase("1.4.1", "cortex-m", true, true),
      MakeCase("1.4.1", "aarch64", false, false),
  };
  return cases;
}

void RequireOneLineNamingFile(const Error& e) {
  Require(fuzz::OnePrintableLine(e.message) && e.message.find(kName) != std::string::npos,
          "error message is not one printable line naming the file: " + e.message);
}

// Which methods each case's release loads (no pool bound: a split adds planned buffers, which
// the method pool pays for), one bit per (case, method).
std::vector<bool> Loads(const pte::ProgramView& p) {
  std::vector<bool> out;
  for (const Case& c : Cases()) {
    report::ReportOptions o = c.options;
    o.pool_bytes.reset();
    auto r = report::BuildReport(p, c.model, o);
    for (size_t m = 0; m < p.methods.size(); ++m)
      out.push_back(r.has_value() && m < r->methods.size() && !r->methods[m].plan.refusal);
  }
  return out;
}

// A rewritten program: read back by etmem, and loaded wherever the input loads, except that a
// method whose re-planned buffer replan notes as needing 64-bit offsets (an unsound stored plan
// no sound 32-bit plan replaces) may be refused on a target whose size_t has 32 bits.
void RequireRereadAndLoaded(const std::vector<uint8_t>& bytes, const std::vector<bool>& before,
                            const char* what, const std::vector<bool>& needs_64_bits = {}) {
  auto back = pte::ReadProgramBytes(bytes, "rewritten.pte");
  Require(back.has_value(), std::string(what) + " is refused by etmem's reader: " +
                                (back ? "" : back.error().message));
  const std::vector<bool> after = Loads(*back);
  Require(after.size() == before.size(), std::string(what) + " has other methods");
  const size_t methods = back->methods.size();
  for (size_t i = 0; i < before.size(); ++i) {
    const size_t method = i % methods;
    const bool excused = method < needs_64_bits.size() && needs_64_bits[method] &&
                         Cases()[i / methods].model.abi().size_type.size == 4;
    Require(!before[i] || after[i] || excused,
            std::string(what) + " is refused where the input loads (case " + std::to_string(i) +
                ")");
  }
}

// `etmem replan` and `etmem fit -o` on an accepted program.
void CheckRewrites(const pte::ProgramView& program) {
  std::vector<plan::PlanEdit> edits;
  std::vector<bool> needs_64_bits;
  // A method etmem's reader cannot read is not re-planned (api::Replan copies it as it is).
  bool faulted = false;
  for (size_t i = 0; i < program.methods.size(); ++i) {
    if (!program.methods[i].fault.empty()) {
      faulted = true;
      needs_64_bits.push_back(false);
      continue;
    }
    // A plan without non_const_buffer_sizes is copied as it is (no release loads it), as etmem
    // replan does (api.cpp Replan).
    if (!program.methods[i].has_planned_buffer_sizes_vector) {
      needs_64_bits.push_back(false);
      continue;
    }
    auto l = plan::ComputeLifetimes(program.methods[i]);
    if (!l) return;  // replan refuses such a program (its error is the reader's)
    plan::MethodReplan r = plan::ReplanMethod(*l, 16);
    needs_64_bits.push_back(std::any_of(r.buffers.begin(), r.buffers.end(), [](const auto& b) {
      return b.offsets_need_64_bits;
    }));
    plan::PlanEdit e{i, {}, r.offsets, r.planned_buffer_sizes, {}};
    for (const plan::PlannedTensor& t : l->tensors) e.values.push_back(t.value);
    edits.push_back(std::move(e));
  }
  const std::vector<bool> before = Loads(program);
  auto replanned = plan::RewritePlan(program, edits);
  // The one program etmem refuses to rewrite: segment bytes without an extended header (they
  // overlap the flatbuffer a rewrite replaces); the refusal is one line naming the file.
  if (plan::SegmentsOverlapProgram(program)) {
    Require(!replanned.has_value(), "replan wrote a program whose segments had no extended header");
    RequireOneLineNamingFile(replanned.error());
    return;
  }
  // A program no case loads may be refused (one line naming it); one that loads must be written,
  // unless a method of it is unreadable (its tables may hold what the schema does not define,
  // which the rewriter cannot copy).
  if (!replanned) {
    RequireOneLineNamingFile(replanned.error());
    Require(faulted || std::none_of(before.begin(), before.end(), [](bool b) { return b; }),
            "replan could not write a program that loads: " + replanned.error().message);
    return;
  }
  RequireRereadAndLoaded(*replanned, before, "the re-planned program", needs_64_bits);

  static const runtime::RuntimeModel fit_model(runtime::AllReleases().back(),
                                               *abi::FindBuiltinTarget("cortex-m"));
  auto report = report::BuildReport(program, fit_model, report::ReportOptions{});
  if (!report || report->methods.empty() || report->methods[0].plan.refusal) return;
  for (const auto& board : board::BuiltinBoards()) {
    auto fit = board::FitProgram(*report, *board);
    if (!fit || !fit->edit) continue;
    auto fitted = plan::RewritePlan(program, {*fit->edit});
    Require(fitted.has_value(), "fit -o could not write the program");
    RequireRereadAndLoaded(*fitted, before, "the fitted program");
    break;  // one split per input keeps the target fast
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto program = pte::ReadProgramBytes({data, size}, kName);
  if (!program) {
    RequireOneLineNamingFile(program.error());
    return 0;
  }
  for (const Case& c : Cases()) {
    auto report = report::BuildReport(*program, c.model, c.options);
    if (!report) {
      RequireOneLineNamingFile(report.error());
      continue;
    }
    for (const report::MethodReport& m : report->methods)
      if (m.plan.refusal)
        Require(fuzz::OnePrintableLine(m.plan.refusal->reason) &&
                    fuzz::OnePrintableLine(m.plan.refusal->log),
                "a refusal's text is not one printable line: " + m.plan.refusal->reason);
    {
      const std::string text = report::ToText(*report);
      Require(fuzz::PrintableLines(text),
              "the text report quotes unprintable text: " + fuzz::FirstUnprintableLine(text));
    }
    // Names come from the file and need not be UTF-8: replace, never throw (tests/corrupt/README).
    (void)report::ToJson(*report).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  CheckRewrites(*program);
  return 0;
}
