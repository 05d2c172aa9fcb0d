// Owns: JudgeFirmware and StackVerdict, the verdicts of a checked image (see firmware_verdict.h).
#include "etmem/analysis/firmware_verdict.h"

#include <fmt/format.h>

#include "etmem/base/printable.h"

namespace etmem::report {

// The judged method's stack against the stack the image declares (nullopt: nothing declared, or
// the stack left out): over it does not fit; an exact bound within it fits; else unknown.
std::optional<Verdict> StackVerdict(const FirmwareReport& r, const api::FirmwareRam& ram) {
  if (!r.stack || !r.stack->declared) return std::nullopt;
  const api::FirmwareDeclaredStack& d = *r.stack->declared;
  Verdict v;
  const std::string declared = fmt::format("stack {} B ({})", d.bytes, Printable(d.symbols, 300));
  v.judged.push_back(declared);
  v.where = fmt::format("ExecuTorch {}, {}, runner {}, method '{}'", r.runtime, r.target, r.runner,
                        Printable(ram.method));
  if (!ram.stack_bytes) {
    v.kind = VerdictKind::kUnknown;
    v.step = fmt::format("{}: no bound ({})", declared, Printable(ram.stack_source, 400));
  } else if (*ram.stack_bytes > d.bytes) {
    v.kind = VerdictKind::kDoesNotFit;
    v.step = fmt::format("{}: the worst-case stack takes {}{} B, {} B more", declared,
                         ram.stack_exact ? "" : "at least ", *ram.stack_bytes,
                         *ram.stack_bytes - d.bytes);
  } else if (!ram.stack_exact) {
    v.kind = VerdictKind::kUnknown;
    v.step = fmt::format("{} holds the {} B found, a lower bound: the stack section names what "
                         "etmem cannot follow",
                         declared, *ram.stack_bytes);
  }
  return v;
}

Verdict JudgeFirmware(const FirmwareReport& r) {
  Verdict v;
  for (const FirmwareMethod& m : r.methods) {
    const std::string where = fmt::format("ExecuTorch {}, {}, runner {}, method '{}'", r.runtime,
                                          r.target, r.runner, Printable(m.name));
    Verdict item;
    if (m.refusal) {
      item.kind = VerdictKind::kRefused;
      item.where = where;
      item.step = "refuses the method (" + *m.refusal + ")";
      v.Add(item);
      continue;
    }
    for (const FirmwarePool& p : m.pools) {
      Verdict judged;
      judged.judged.push_back(fmt::format("{} {} B", Printable(p.symbol), p.bytes));
      v.Add(judged);
      if (!p.fits) {
        item.kind = VerdictKind::kDoesNotFit;
        item.where = where;
        item.step = fmt::format("{} {} B, {} B needed{}", Printable(p.symbol), p.bytes, p.needed,
                                p.failing.empty() ? "" : ": " + p.failing);
        item.log = p.log;
        v.Add(item);
      } else if (!p.run_unknown.empty()) {
        item.kind = VerdictKind::kUnknown;
        item.where = where;
        item.step = fmt::format("{} {} B holds the known peaks; unknown: {}", Printable(p.symbol),
                                p.bytes, p.run_unknown);
        item.log.clear();
        v.Add(item);
      }
    }
  }
  for (const api::FirmwareRam& ram : r.ram)
    if (auto stack = StackVerdict(r, ram)) v.Add(*stack);
  return v;
}

}  // namespace etmem::report
