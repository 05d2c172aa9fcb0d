// Owns: the helpers the formula files share (formula.h) and the lookup of a rule's formula.
#include "etmem/kernels/formulas/formula.h"

#include <initializer_list>

namespace etmem::kernels::formulas {

Formula FormulaOf(TempRule rule) {
  for (auto table : {PortableFormulas(), CadenceFormulas(), CadenceHifiConvFormulas(),
                     CortexMFormulas()})
    for (const RuleFormula& f : table)
      if (f.rule == rule) return f.formula;
  return nullptr;
}

void HelperRequest(const RuleCall& r, CallTemp& c, uint64_t bytes, std::string check) {
  const uint32_t align = r.lib.temp_alignment ? r.lib.temp_alignment : r.target.pointer.align;
  c.failure_log = r.lib.temp_failure_log;
  c.requests.push_back({bytes, align, std::move(check)});
}

std::optional<std::vector<int64_t>> IntListArg(const pte::MethodView& m, int32_t arg) {
  const pte::ValueView& v = m.values[static_cast<size_t>(arg)];
  if (v.kind != pte::ValueKind::kIntList) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t item : m.ItemsOf(v)) {
    if (item < 0 || static_cast<size_t>(item) >= m.values.size()) return std::nullopt;
    const pte::ValueView& i = m.values[static_cast<size_t>(item)];
    if (i.kind != pte::ValueKind::kInt) return std::nullopt;
    out.push_back(i.int_value());
  }
  return out;
}

uint64_t AsSizeT(const abi::Abi& t, int64_t v) {
  const uint32_t bits = 8 * t.size_type.size;
  return bits >= 64 ? static_cast<uint64_t>(v)
                    : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

void GetsizeAssumed(const RuleCall& r, CallTemp& c) {
  c.assumed = r.lib.getsize_source.assumed;
  c.assumed_brief = r.lib.getsize_source.brief;
}

}  // namespace etmem::kernels::formulas
