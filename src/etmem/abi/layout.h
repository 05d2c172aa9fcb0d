// Owns: the layout engine. A type is a list of fields; its size, alignment and field offsets on
// a given ABI are computed the way a C++ compiler does for standard-layout types: each field is
// placed at the next multiple of its alignment, the struct's alignment is the largest field
// alignment, and the size is padded to a multiple of it. Unions overlay their members.
// Not: which types ExecuTorch has (runtime/types.cpp), nor any target's numbers (abi.h).
//
//   TypeTable t;
//   t.Add(Struct("Handle", {{"count", Prim::kI32}, {"data", Prim::kPtr}, {"stamp", Prim::kI64}}));
//   t.Compute("Handle", cortex_m)  -> 16/8;   t.Compute("Handle", x86_64) -> 24/8
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "etmem/abi/abi.h"

namespace etmem::abi {

enum class Prim {
  kBool, kI8, kU8, kI16, kU16, kI32, kU32, kI64, kU64, kF32, kF64,
  kPtr,    // any data pointer, including vptr
  kFnPtr,  // function pointer
  kSize,   // size_t / ssize_t
  kEmpty,  // an empty class used as a data member: occupies one byte
};

// A field's type: a primitive or the name of another type in the same table.
using FieldType = std::variant<Prim, std::string>;

struct Field {
  std::string name;
  FieldType type;
  uint32_t count = 1;  // array length; 1 for a scalar member
};

struct TypeDef {
  enum class Kind { kStruct, kUnion };
  std::string name;
  Kind kind = Kind::kStruct;
  std::vector<Field> fields;
  // How a C++ compiler can spell the real type this models, for mirror tests (may be empty:
  // then the mirror is the field list itself).
  std::string cxx_spelling;
};

TypeDef Struct(std::string name, std::vector<Field> fields, std::string cxx_spelling = "");
TypeDef Union(std::string name, std::vector<Field> fields, std::string cxx_spelling = "");

struct FieldLayout {
  std::string name;
  uint32_t offset = 0;
  SizeAlign layout;
};

struct Layout {
  SizeAlign size_align;
  std::vector<FieldLayout> fields;
  uint32_t size() const { return size_align.size; }
  uint32_t align() const { return size_align.align; }
};

SizeAlign PrimLayout(Prim p, const Abi& abi);

// Sizes already computed on one ABI, by type name; the names are the table's own (so the memo
// lives no longer than its table).
using LayoutMemo = std::unordered_map<std::string_view, SizeAlign>;

class TypeTable {
 public:
  // Adds or replaces a type (a later release's edit replaces the earlier definition).
  void Add(TypeDef def);
  // A release that adds a member edits the earlier definition instead of restating it.
  void AppendField(const std::string& type, Field field);
  void PrependField(const std::string& type, Field field);
  bool Has(std::string_view name) const { return defs_.find(name) != defs_.end(); }
  const TypeDef& Get(std::string_view name) const;
  const std::map<std::string, std::shared_ptr<const TypeDef>, std::less<>>& all() const {
    return defs_;
  }

  // Size, alignment and field offsets on `abi`. Aborts on an unknown name or a cycle: type tables
  // are built by etmem itself, so either is a bug.
  Layout Compute(const std::string& name, const Abi& abi) const;
  // The same size and alignment without the field list: what the load model asks for, many
  // times per analysis. With a memo, each type (and each type it contains) is laid out once.
  SizeAlign SizeAlignOfType(std::string_view name, const Abi& abi,
                            LayoutMemo* memo = nullptr) const;
  SizeAlign SizeAlignOf(const FieldType& type, const Abi& abi, LayoutMemo* memo = nullptr) const;

 private:
  // Lays `def` out on `abi`; appends the fields' layouts to `fields` when it is not null.
  SizeAlign Place(const TypeDef& def, const Abi& abi, std::vector<FieldLayout>* fields,
                  LayoutMemo* memo) const;

  // Definitions are shared, never changed in place: each release copies its predecessor's
  // table, and copying pointers instead of every field list saved about 45 µs of every
  // `etmem analyze` process (bench/RESULTS.md).
  std::map<std::string, std::shared_ptr<const TypeDef>, std::less<>> defs_;
};

// Definitions of the C++ standard-library pieces ExecuTorch types contain, as GCC 12's libstdc++
// lays them out. Each returns the name it registered.
std::string AddStdOptional(TypeTable& t, const std::string& value_type);
std::string AddStdVariant(TypeTable& t, const std::vector<std::string>& alternatives);
std::string AddStdVector(TypeTable& t);
std::string AddStdString(TypeTable& t);
std::string AddStdSharedPtr(TypeTable& t);

}  // namespace etmem::abi
