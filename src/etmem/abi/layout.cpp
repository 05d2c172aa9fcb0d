// Owns: the field-list layout algorithm (see layout.h) and libstdc++'s standard-library shapes.
#include "etmem/abi/layout.h"

#include <algorithm>

#include "etmem/base/checked_math.h"

namespace etmem::abi {

TypeDef Struct(std::string name, std::vector<Field> fields, std::string cxx_spelling) {
  return TypeDef{std::move(name), TypeDef::Kind::kStruct, std::move(fields), std::move(cxx_spelling)};
}

TypeDef Union(std::string name, std::vector<Field> fields, std::string cxx_spelling) {
  return TypeDef{std::move(name), TypeDef::Kind::kUnion, std::move(fields), std::move(cxx_spelling)};
}

SizeAlign PrimLayout(Prim p, const Abi& abi) {
  switch (p) {
    case Prim::kBool:
    case Prim::kI8:
    case Prim::kU8:
    case Prim::kEmpty: return {1, 1};
    case Prim::kI16:
    case Prim::kU16: return {2, 2};
    case Prim::kI32:
    case Prim::kU32:
    case Prim::kF32: return {4, 4};
    case Prim::kI64:
    case Prim::kU64: return abi.int64;
    case Prim::kF64: return abi.float64;
    case Prim::kPtr:
    case Prim::kFnPtr: return abi.pointer;
    case Prim::kSize: return abi.size_type;
  }
  return {1, 1};
}

void TypeTable::Add(TypeDef def) {
  std::string name = def.name;
  defs_[name] = std::make_shared<const TypeDef>(std::move(def));
}

void TypeTable::AppendField(const std::string& type, Field field) {
  TypeDef def = Get(type);  // a copy: other tables may share the original
  def.fields.push_back(std::move(field));
  Add(std::move(def));
}

void TypeTable::PrependField(const std::string& type, Field field) {
  TypeDef def = Get(type);
  def.fields.insert(def.fields.begin(), std::move(field));
  Add(std::move(def));
}

const TypeDef& TypeTable::Get(std::string_view name) const {
  auto it = defs_.find(name);
  ETMEM_CHECK(it != defs_.end());
  return *it->second;
}

SizeAlign TypeTable::SizeAlignOf(const FieldType& type, const Abi& abi, LayoutMemo* memo) const {
  if (const Prim* p = std::get_if<Prim>(&type)) return PrimLayout(*p, abi);
  return SizeAlignOfType(std::get<std::string>(type), abi, memo);
}

SizeAlign TypeTable::SizeAlignOfType(std::string_view name, const Abi& abi,
                                     LayoutMemo* memo) const {
  if (memo)
    if (auto it = memo->find(name); it != memo->end()) return it->second;
  const TypeDef& def = Get(name);
  const SizeAlign out = Place(def, abi, nullptr, memo);
  if (memo) memo->emplace(def.name, out);  // the table's own name: lives as long as the table
  return out;
}

Layout TypeTable::Compute(const std::string& name, const Abi& abi) const {
  Layout out;
  out.size_align = Place(Get(name), abi, &out.fields, nullptr);
  return out;
}

SizeAlign TypeTable::Place(const TypeDef& def, const Abi& abi, std::vector<FieldLayout>* fields,
                           LayoutMemo* memo) const {
  uint32_t cursor = 0, align = 1, size = 0;
  for (const Field& f : def.fields) {
    SizeAlign one = SizeAlignOf(f.type, abi, memo);
    SizeAlign whole{one.size * f.count, one.align};
    uint32_t offset = def.kind == TypeDef::Kind::kUnion
                          ? 0
                          : static_cast<uint32_t>(AlignUp(cursor, one.align));
    if (fields) fields->push_back({f.name, offset, whole});
    cursor = offset + whole.size;
    size = std::max(size, cursor);
    align = std::max(align, one.align);
  }
  // An empty class still has size 1 (C++ [intro.object]).
  if (def.fields.empty()) size = 1;
  return {static_cast<uint32_t>(AlignUp(size, align)), align};
}

std::string AddStdOptional(TypeTable& t, const std::string& value_type) {
  // libstdc++ _Optional_payload: the value in a union, then the engaged flag.
  std::string name = "std::optional<" + value_type + ">";
  t.Add(Struct(name, {{"payload", value_type}, {"engaged", Prim::kBool}}, name));
  return name;
}

std::string AddStdVariant(TypeTable& t, const std::vector<std::string>& alternatives) {
  // libstdc++ _Variant_storage: a union of the alternatives, then an index as small as fits
  // (unsigned char for fewer than 255 alternatives).
  std::string list;
  std::vector<Field> members;
  for (const auto& a : alternatives) {
    list += (list.empty() ? "" : ", ") + a;
    members.push_back({"alt" + std::to_string(members.size()), a});
  }
  std::string name = "std::variant<" + list + ">";
  t.Add(Union(name + "::storage", members));
  t.Add(Struct(name, {{"storage", name + "::storage"}, {"index", Prim::kU8}}, name));
  return name;
}

std::string AddStdVector(TypeTable& t) {
  t.Add(Struct("std::vector", {{"begin", Prim::kPtr}, {"end", Prim::kPtr}, {"capacity_end", Prim::kPtr}},
               "std::vector<int>"));
  return "std::vector";
}

std::string AddStdString(TypeTable& t) {
  // libstdc++ SSO string: pointer, length, then 16 bytes of local buffer shared with capacity.
  t.Add(Union("std::string::local", {{"buffer", Prim::kI8, 16}, {"capacity", Prim::kSize}}));
  t.Add(Struct("std::string",
               {{"data", Prim::kPtr}, {"length", Prim::kSize}, {"local", "std::string::local"}},
               "std::string"));
  return "std::string";
}

std::string AddStdSharedPtr(TypeTable& t) {
  t.Add(Struct("std::shared_ptr", {{"object", Prim::kPtr}, {"control_block", Prim::kPtr}},
               "std::shared_ptr<int>"));
  return "std::shared_ptr";
}

}  // namespace etmem::abi
