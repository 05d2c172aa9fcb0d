// Owns: EmitMirrorHeader (see mirror.h): naming mirrors, writing their members and asserts, and
// rewriting a type's cxx_spelling onto the mirror element types for the real-type checks.
#include "etmem/abi/mirror.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

namespace etmem::abi {
namespace {

constexpr std::string_view kDefaultPrefix = "etmem_mirror_";

// Identifier-safe form of `raw`: '*' reads "ptr", any other run of non-alphanumerics becomes one
// '_' (so no "__", which C++ reserves), and no leading '_' or digit.
std::string Identifier(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
      continue;
    }
    if (c == '*') out += "_ptr";
    if (out.empty() || out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(0, "M");
  return out;
}

// `text` as the body of a C++ string literal.
std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n') ? ' ' : c;
  }
  return out;
}

std::string Pair(SizeAlign sa) { return std::to_string(sa.size) + "/" + std::to_string(sa.align); }

// Identifiers a checked spelling may use besides mirror names and std:: names.
bool IsBuiltinName(const std::string& token) {
  static const std::set<std::string> kNames = {
      "void",     "bool",      "char",      "signed",    "unsigned", "short",     "int",
      "long",     "float",     "double",    "wchar_t",   "char8_t",  "char16_t",  "char32_t",
      "const",    "volatile",  "int8_t",    "uint8_t",   "int16_t",  "uint16_t",  "int32_t",
      "uint32_t", "int64_t",   "uint64_t",  "intptr_t",  "uintptr_t", "intmax_t", "uintmax_t",
      "size_t",   "ptrdiff_t", "max_align_t"};
  return kNames.count(token) != 0;
}

// The header that declares a std:: name, "" for <cstddef>/<cstdint> names, nullptr if unknown.
const char* StdHeaderFor(const std::string& token) {
  static const std::map<std::string, const char*> kHeaders = {
      {"std::optional", "optional"},  {"std::variant", "variant"}, {"std::monostate", "variant"},
      {"std::string", "string"},      {"std::basic_string", "string"},
      {"std::vector", "vector"},      {"std::shared_ptr", "memory"},
      {"std::unique_ptr", "memory"},  {"std::weak_ptr", "memory"}};
  auto it = kHeaders.find(token);
  if (it != kHeaders.end()) return it->second;
  if (IsBuiltinName(token.substr(5))) return "";
  return nullptr;
}

// Identifier tokens of a type spelling, "::"-qualified names kept whole (numerals skipped).
std::vector<std::string> NameTokens(std::string_view s) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    if (!ident(s[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < s.size() && (ident(s[i]) || s.compare(i, 2, "::") == 0)) i += (s[i] == ':') ? 2 : 1;
    if (!std::isdigit(static_cast<unsigned char>(s[start])))
      out.emplace_back(s.substr(start, i - start));
  }
  return out;
}

// Index of the '>' closing the '<' at `open`, or npos.
size_t MatchingClose(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '(') ++depth;
    if (s[i] == '>' || s[i] == ')') --depth;
    if (depth == 0) return i;
  }
  return std::string_view::npos;
}

// Template arguments split at top-level commas, trimmed.
std::vector<std::string_view> SplitArgs(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && (s[i] == '<' || s[i] == '(')) ++depth;
    if (i < s.size() && (s[i] == '>' || s[i] == ')')) --depth;
    if (i < s.size() && (s[i] != ',' || depth != 0)) continue;
    std::string_view arg = s.substr(start, i - start);
    while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
    while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
    out.push_back(arg);
    start = i + 1;
  }
  return out;
}

class MirrorWriter {
 public:
  MirrorWriter(const TypeTable& table, const Abi& abi, std::string_view prefix)
      : table_(table), abi_(abi), prefix_(prefix.empty() ? kDefaultPrefix : prefix) {}

  std::string Run() {
    AssignIds();
    EmitPrelude();
    for (const auto& [name, def] : table_.all()) EmitType(name);
    EmitRealTypeChecks();
    return out_;
  }

 private:
  std::string NewId(std::string_view name) {
    std::string base = Identifier(prefix_ + std::string(name)), id = base;
    for (int n = 2; !used_.insert(id).second; ++n) id = base + "_" + std::to_string(n);
    return id;
  }

  void AssignIds() {
    fn_ptr_ = NewId("etmem_fn_ptr");
    empty_ = NewId("etmem_empty");
    for (const auto& [name, def] : table_.all()) ids_[name] = NewId(name);
  }

  void EmitPrelude() {
    out_ += "// Generated by etmem: layout mirrors of " + std::to_string(table_.all().size()) +
            " types for target '" + abi_.name + "' (" + abi_.description + ").\n"
            "// Each static_assert states etmem's computed layout; compile with the target's\n"
            "// compiler (-fsyntax-only) to check it. Define ETMEM_MIRROR_NO_STD to leave out the\n"
            "// checks against real standard-library types (they need the C++ headers).\n\n";
    out_ += "typedef void (*" + fn_ptr_ + ")();\n";
    out_ += "struct " + empty_ + " {};\n\n";
    EmitPrimitiveCheck("data pointer", "void*", abi_.pointer);
    EmitPrimitiveCheck("function pointer", fn_ptr_, abi_.pointer);
    EmitPrimitiveCheck("size_t", "__SIZE_TYPE__", abi_.size_type);
    EmitPrimitiveCheck("int64 member", "long long", abi_.int64);
    EmitPrimitiveCheck("double member", "double", abi_.float64);
    out_ += "\n";
  }

  // A one-member struct gives a primitive's alignment as a struct member, which is what the
  // target row records (alignof(long long) alone can differ, e.g. on i386).
  void EmitPrimitiveCheck(const std::string& what, const std::string& type, SizeAlign want) {
    std::string id = NewId("etmem_prim_" + what);
    out_ += "struct " + id + " { " + type + " v; };\n";
    EmitSizeAssert(id, want, "target '" + abi_.name + "' row: " + what + " is " + Pair(want));
  }

  void EmitSizeAssert(const std::string& type, SizeAlign want, const std::string& message) {
    out_ += "static_assert(sizeof(" + type + ") == " + std::to_string(want.size) + " && alignof(" +
            type + ") == " + std::to_string(want.align) + ", \"" + Escape(message) + "\");\n";
  }

  std::string MemberType(const FieldType& type) const {
    if (const auto* name = std::get_if<std::string>(&type)) return ids_.at(*name);
    switch (std::get<Prim>(type)) {
      case Prim::kBool: return "bool";
      case Prim::kI8: return "signed char";
      case Prim::kU8: return "unsigned char";
      case Prim::kI16: return "short";
      case Prim::kU16: return "unsigned short";
      case Prim::kI32: return "int";
      case Prim::kU32: return "unsigned int";
      case Prim::kI64: return "long long";
      case Prim::kU64: return "unsigned long long";
      case Prim::kF32: return "float";
      case Prim::kF64: return "double";
      case Prim::kPtr: return "void*";
      case Prim::kFnPtr: return fn_ptr_;
      case Prim::kSize: return "__SIZE_TYPE__";
      case Prim::kEmpty: return empty_;
    }
    return "void";
  }

  // Emits `name` after the types its fields name (depth first, so the output compiles in order).
  void EmitType(const std::string& name) {
    if (!emitted_.insert(name).second) return;
    const TypeDef& def = table_.Get(name);
    for (const Field& f : def.fields)
      if (const auto* dep = std::get_if<std::string>(&f.type)) EmitType(*dep);
    std::vector<std::string> members = MemberNames(def);
    EmitDefinition(def, members);
    EmitLayoutAsserts(def, members);
  }

  static std::vector<std::string> MemberNames(const TypeDef& def) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const Field& f : def.fields) {
      std::string id = Identifier(f.name) + "_";
      if (!seen.insert(id).second) id += std::to_string(names.size()) + "_";
      names.push_back(id);
    }
    return names;
  }

  void EmitDefinition(const TypeDef& def, const std::vector<std::string>& members) {
    out_ += "// " + def.name + "\n";
    out_ += (def.kind == TypeDef::Kind::kUnion ? "union " : "struct ") + ids_.at(def.name) + " {\n";
    for (size_t i = 0; i < def.fields.size(); ++i) {
      const Field& f = def.fields[i];
      out_ += "  " + MemberType(f.type) + " " + members[i];
      if (f.count != 1) out_ += "[" + std::to_string(f.count) + "]";
      out_ += ";\n";
    }
    out_ += "};\n";
  }

  void EmitLayoutAsserts(const TypeDef& def, const std::vector<std::string>& members) {
    const std::string& id = ids_.at(def.name);
    Layout layout = table_.Compute(def.name, abi_);
    EmitSizeAssert(id, layout.size_align,
                   def.name + " on " + abi_.name + ": etmem computes " + Pair(layout.size_align));
    for (size_t i = 0; i < def.fields.size(); ++i) {
      uint32_t offset = layout.fields[i].offset;
      out_ += "static_assert(__builtin_offsetof(" + id + ", " + members[i] + ") == " +
              std::to_string(offset) + ", \"" +
              Escape(def.name + "::" + def.fields[i].name + " on " + abi_.name +
                     ": etmem computes offset " + std::to_string(offset)) +
              "\");\n";
    }
    out_ += "\n";
  }

  // A spelling with every table name among its template arguments replaced by its mirror.
  std::string Rewrite(std::string_view s) const {
    std::string out;
    size_t i = 0;
    while (i < s.size()) {
      size_t close = s[i] == '<' ? MatchingClose(s, i) : std::string_view::npos;
      if (close == std::string_view::npos) {
        out += s[i++];
        continue;
      }
      std::vector<std::string_view> args = SplitArgs(s.substr(i + 1, close - i - 1));
      out += '<';
      for (size_t k = 0; k < args.size(); ++k) out += (k ? ", " : "") + RewriteArg(args[k]);
      out += '>';
      i = close + 1;
    }
    return out;
  }

  std::string RewriteArg(std::string_view arg) const {
    auto it = ids_.find(std::string(arg));
    return it != ids_.end() ? it->second : Rewrite(arg);
  }

  // Whether the rewritten spelling names only things this header can declare; collects headers.
  bool Checkable(const std::string& spelling, std::set<std::string>& headers) const {
    for (const std::string& token : NameTokens(spelling)) {
      if (IsBuiltinName(token) || used_.count(token)) continue;
      const char* header = token.rfind("std::", 0) == 0 ? StdHeaderFor(token) : nullptr;
      if (header == nullptr) return false;
      if (*header) headers.insert(header);
    }
    return true;
  }

  void EmitRealTypeChecks() {
    std::set<std::string> headers;
    std::string checks;
    for (const auto& [name, shared] : table_.all()) {
      const TypeDef& def = *shared;
      if (def.cxx_spelling.empty()) continue;
      std::string real = Rewrite(def.cxx_spelling);
      if (!Checkable(real, headers)) {
        checks += "// " + name + ": '" + Escape(def.cxx_spelling) + "' is not checked (this " +
                  "header cannot declare it)\n";
        continue;
      }
      SizeAlign want = table_.Compute(name, abi_).size_align;
      checks += "static_assert(sizeof(" + real + ") == " + std::to_string(want.size) +
                " && alignof(" + real + ") == " + std::to_string(want.align) + ", \"" +
                Escape(name + " on " + abi_.name + ": etmem computes " + Pair(want) +
                       ", the real " + def.cxx_spelling + " differs") +
                "\");\n";
    }
    out_ += "#ifndef ETMEM_MIRROR_NO_STD\n#include <cstddef>\n#include <cstdint>\n";
    for (const std::string& h : headers) out_ += "#include <" + h + ">\n";
    out_ += "\nstatic_assert(alignof(std::max_align_t) == " + std::to_string(abi_.max_align) +
            ", \"" + Escape("target '" + abi_.name + "' row: max_align is " +
                            std::to_string(abi_.max_align)) +
            "\");\n";
    out_ += checks + "#endif  // ETMEM_MIRROR_NO_STD\n";
  }

  const TypeTable& table_;
  const Abi& abi_;
  std::string prefix_;
  std::map<std::string, std::string> ids_;  // table name -> mirror identifier
  std::set<std::string> used_;              // every identifier declared
  std::set<std::string> emitted_;
  std::string fn_ptr_, empty_;
  std::string out_;
};

}  // namespace

std::string EmitMirrorHeader(const TypeTable& table, const Abi& abi, std::string_view prefix) {
  return MirrorWriter(table, abi, prefix).Run();
}

}  // namespace etmem::abi
