// Owns: FindDuplicateConstants. One pass collects each stored constant (data index) with the
// first tensor that reads it; candidates with equal dtype, size and SHA-256 are then confirmed
// byte for byte, so a hash collision can never make a false finding.
#include "etmem/plan/duplicate_constants.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>

#include "etmem/base/sha256.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/scalar_type.h"

namespace etmem::plan {
namespace {

struct StoredConstant {
  uint32_t data_index = 0;
  int8_t dtype = 0;
  std::span<const uint8_t> data;
};

bool IsStoredConstant(const pte::TensorView& t) {
  return t.data_index > 0 && !t.planned && !t.external;
}

// Each data index once, with the bytes its first reader reads; indices whose data lies outside
// its storage are left out (the runtime rejects those programs).
std::vector<StoredConstant> CollectConstants(const pte::ProgramView& p,
                                             std::span<const uint8_t> file) {
  std::map<uint32_t, StoredConstant> by_index;
  for (const pte::MethodView& m : p.methods)
    for (const pte::TensorView& t : m.tensors) {
      if (!IsStoredConstant(t) || by_index.count(t.data_index) ||
          t.data_index >= p.constants.size())
        continue;
      const pte::ConstantBytes& where = p.constants[t.data_index];
      std::optional<uint64_t> bytes = pte::TensorDataBytes(m, t);
      if (!bytes || *bytes == 0 || *bytes > where.available ||
          where.file_offset + *bytes > file.size())
        continue;
      by_index[t.data_index] = {t.data_index, t.dtype, file.subspan(where.file_offset, *bytes)};
    }
  std::vector<StoredConstant> out;
  for (auto& [index, c] : by_index) out.push_back(c);
  return out;
}

bool SameBytes(const StoredConstant& a, const StoredConstant& b) {
  return a.dtype == b.dtype && a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size()) == 0;
}

// Candidates share dtype, size and hash; each becomes groups of byte-identical copies.
void SplitConfirmed(const std::vector<StoredConstant>& candidates,
                    std::vector<DuplicateConstants>& out) {
  std::vector<bool> taken(candidates.size(), false);
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (taken[i]) continue;
    DuplicateConstants g{candidates[i].dtype, candidates[i].data.size(),
                         {candidates[i].data_index}, {}};
    for (size_t j = i + 1; j < candidates.size(); ++j)
      if (!taken[j] && SameBytes(candidates[i], candidates[j])) {
        taken[j] = true;
        g.data_indices.push_back(candidates[j].data_index);
      }
    if (g.data_indices.size() > 1) out.push_back(std::move(g));
  }
}

// Fills every group's uses in one pass over each method's values and one over its
// instructions: each value reading a copy, in value order, with the instructions naming it
// (directly or as an item of a tensor-list argument), ascending and once each.
void AddUses(const pte::ProgramView& p, std::vector<DuplicateConstants>& groups) {
  std::unordered_map<uint32_t, size_t> group_of;  // data index -> group
  for (size_t g = 0; g < groups.size(); ++g)
    for (uint32_t index : groups[g].data_indices) group_of.emplace(index, g);
  if (group_of.empty()) return;
  for (size_t mi = 0; mi < p.methods.size(); ++mi) {
    const pte::MethodView& m = p.methods[mi];
    std::vector<std::pair<size_t, size_t>> use_of(m.values.size(), {SIZE_MAX, 0});  // (group, use)
    bool any = false;
    for (size_t v = 0; v < m.values.size(); ++v) {
      const pte::TensorView* t = m.TensorAt(static_cast<int64_t>(v));
      if (!t || !IsStoredConstant(*t)) continue;
      auto it = group_of.find(t->data_index);
      if (it == group_of.end()) continue;
      std::vector<ConstantUse>& uses = groups[it->second].uses;
      use_of[v] = {it->second, uses.size()};
      uses.push_back({mi, static_cast<int32_t>(v), t->data_index, {}});
      any = true;
    }
    if (!any) continue;
    auto note = [&](int64_t value, int64_t at) {
      if (value < 0 || static_cast<size_t>(value) >= use_of.size()) return;
      const auto [g, k] = use_of[static_cast<size_t>(value)];
      if (g == SIZE_MAX) return;
      std::vector<int64_t>& at_list = groups[g].uses[k].instructions;
      if (at_list.empty() || at_list.back() != at) at_list.push_back(at);
    };
    for (size_t i = 0; i < m.instructions.size(); ++i)
      for (int32_t arg : m.ArgsOf(m.instructions[i])) {
        const auto at = static_cast<int64_t>(i);
        note(arg, at);
        if (arg < 0 || static_cast<size_t>(arg) >= m.values.size()) continue;
        const pte::ValueView& v = m.values[static_cast<size_t>(arg)];
        if (v.kind == pte::ValueKind::kTensorList || v.kind == pte::ValueKind::kOptionalTensorList)
          for (int64_t item : m.ItemsOf(v)) note(item, at);
      }
  }
}

}  // namespace

std::vector<DuplicateConstants> FindDuplicateConstants(const pte::ProgramView& p) {
  if (!p.file) return {};
  std::vector<StoredConstant> constants = CollectConstants(p, p.file->bytes());
  using Key = std::tuple<int8_t, uint64_t, Sha256::Digest>;
  std::map<Key, std::vector<StoredConstant>> candidates;
  for (const StoredConstant& c : constants) {
    Sha256 h;
    h.Update(c.data);
    candidates[{c.dtype, c.data.size(), h.Finish()}].push_back(c);
  }
  std::vector<DuplicateConstants> out;
  for (const auto& [key, list] : candidates)
    if (list.size() > 1) SplitConfirmed(list, out);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.data_indices.front() < b.data_indices.front();
  });
  AddUses(p, out);
  return out;
}

std::string DuplicateConstantsChange() {
  return "keep one copy at export time: make the modules share one parameter or buffer (tie "
         "the weights, register the constant once) so the exporter stores it once";
}

std::string DuplicateConstantsRam() {
  return "RAM: none with a BufferDataLoader (constants are read in place from flash); a loader "
         "that copies the program into RAM saves the same bytes there";
}

}  // namespace etmem::plan
