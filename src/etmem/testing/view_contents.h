// Owns: a method view's variable-length contents gathered in order (every tensor's sizes, every
// list's items, every call's arguments), for tests that compare two views of one program. The
// view itself reads them in place from the flatbuffer (pte/program_view.h).
#pragma once

#include <cstdint>
#include <vector>

#include "etmem/pte/program_view.h"

namespace etmem::testing {

inline std::vector<int32_t> AllSizes(const pte::MethodView& m) {
  std::vector<int32_t> out;
  for (const pte::TensorView& t : m.tensors)
    for (int32_t s : m.SizesOf(t)) out.push_back(s);
  return out;
}

inline std::vector<int64_t> AllListItems(const pte::MethodView& m) {
  std::vector<int64_t> out;
  for (const pte::ValueView& v : m.values)
    if (v.kind == pte::ValueKind::kIntList || v.kind == pte::ValueKind::kTensorList ||
        v.kind == pte::ValueKind::kOptionalTensorList)
      for (int64_t item : m.ItemsOf(v)) out.push_back(item);
  return out;
}

inline std::vector<int32_t> AllArgs(const pte::MethodView& m) {
  std::vector<int32_t> out;
  for (const pte::InstructionView& i : m.instructions)
    for (int32_t a : m.ArgsOf(i)) out.push_back(a);
  return out;
}

}  // namespace etmem::testing
