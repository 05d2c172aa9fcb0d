// Owns: finding the real kernels in the user's tree, generating their registration, running the
// execute harness and comparing its run-time temp trace with kernels::ComputeRunTemp as a
// structured value (execute.h). Not: its text (report/measure_text.h).
#include "etmem/measure/execute.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/measure/harness_output.h"
#include "etmem/measure/process.h"

namespace etmem::measure {
namespace fs = std::filesystem;

namespace {

// `text` with comments and preprocessor lines blanked (positions kept).
std::string Uncommented(std::string text) {
  bool line_start = true;  // only blanks since the line began
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // a string literal: skipped whole
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      line_start = false;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') text[i++] = ' ';
      line_start = true;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? text.size() : end + 2;
      for (; i < stop; ++i)
        if (text[i] != '\n') text[i] = ' ';
      --i;
    } else if (c == '#' && line_start) {  // a preprocessor line (continuations included)
      while (i < text.size() && text[i] != '\n') {
        const bool continued = text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n';
        text[i++] = ' ';
        if (continued) ++i;
      }
      line_start = true;
    } else if (c == '\n') {
      line_start = true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      line_start = false;
    }
  }
  return text;
}

std::string Trim(std::string s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Splits a parameter list at top-level commas.
std::vector<std::string> SplitParams(const std::string& list) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : list) {
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!Trim(cur).empty()) out.push_back(Trim(cur));
  return out;
}

// A parameter's type without its name, default value and unused-markers.
std::string ParamType(std::string p) {
  const size_t eq = p.find('=');
  if (eq != std::string::npos) p = p.substr(0, eq);
  for (const char* marker : {"__ET_UNUSED", "ET_UNUSED", "[[maybe_unused]]"})
    for (size_t at; (at = p.find(marker)) != std::string::npos;) p.erase(at, std::strlen(marker));
  p = Trim(p);
  size_t end = p.size();
  size_t begin = end;
  while (begin > 0 && IdentChar(p[begin - 1])) --begin;
  std::string before = Trim(p.substr(0, begin));
  std::string bare = before;
  for (size_t at; (at = bare.find("const")) != std::string::npos;) bare.erase(at, 5);
  bare = Trim(bare);
  if (begin < end && !bare.empty() && !bare.ends_with("::") && !bare.ends_with("<") &&
      !bare.ends_with(","))
    return before;  // the last identifier is the name
  return p;
}

// The identifiers and punctuation of a type, in order ("const exec_aten::Tensor&" ->
// const, exec_aten, ::, Tensor, &). No std::regex: its recursion grows with the input.
std::vector<std::string> TypeTokens(std::string_view t) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.size();) {
    if (IdentChar(t[i])) {
      size_t e = i;
      while (e < t.size() && IdentChar(t[e])) ++e;
      out.emplace_back(t.substr(i, e - i));
      i = e;
    } else if (t.compare(i, 2, "::") == 0) {
      out.emplace_back("::");
      i += 2;
    } else if (std::isspace(static_cast<unsigned char>(t[i]))) {
      ++i;
    } else {
      out.emplace_back(1, t[i++]);
    }
  }
  return out;
}

// The type with qualifiers and namespaces dropped ("const exec_aten::Tensor&" -> "Tensor").
std::string BareType(std::string_view t, bool& is_const, bool& is_ref) {
  is_const = is_ref = false;
  const std::vector<std::string> tokens = TypeTokens(t);
  std::string s;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& k = tokens[i];
    if (k == "const") { is_const = true; continue; }
    if (k == "volatile") continue;
    if (k == "&") { is_ref = true; continue; }
    if (k == "::") continue;
    if (i + 1 < tokens.size() && tokens[i + 1] == "::") continue;  // a namespace
    s += k;
  }
  return s;
}

// Runs of blanks as one space.
std::string OneSpaced(std::string_view t) {
  std::string s;
  for (char c : t) {
    const bool blank = std::isspace(static_cast<unsigned char>(c));
    if (blank && (s.empty() || s.back() == ' ')) continue;
    s += blank ? ' ' : c;
  }
  return Trim(s);
}

// The spelling the generated declaration uses for a bare type; nullopt when unsupported.
std::optional<std::string> CanonicalType(const std::string& bare) {
  static const std::map<std::string, std::string> kPlain = {
      {"Tensor", "exec_aten::Tensor"},
      {"int64_t", "int64_t"},
      {"bool", "bool"},
      {"double", "double"},
      {"Scalar", "exec_aten::Scalar"},
      {"ScalarType", "exec_aten::ScalarType"},
      {"MemoryFormat", "exec_aten::MemoryFormat"},
      {"IntArrayRef", "exec_aten::ArrayRef<int64_t>"},
      {"ArrayRef<int64_t>", "exec_aten::ArrayRef<int64_t>"},
      {"ArrayRef<double>", "exec_aten::ArrayRef<double>"},
      {"ArrayRef<bool>", "exec_aten::ArrayRef<bool>"},
      {"TensorList", "exec_aten::ArrayRef<exec_aten::Tensor>"},
      {"ArrayRef<Tensor>", "exec_aten::ArrayRef<exec_aten::Tensor>"},
      {"ArrayRef<optional<Tensor>>", "exec_aten::ArrayRef<exec_aten::optional<exec_aten::Tensor>>"},
      {"OptionalIntArrayRef", "exec_aten::optional<exec_aten::ArrayRef<int64_t>>"},
      {"OptionalArrayRef<int64_t>", "exec_aten::optional<exec_aten::ArrayRef<int64_t>>"},
  };
  if (auto it = kPlain.find(bare); it != kPlain.end()) return it->second;
  if (bare.starts_with("optional<") && bare.ends_with(">")) {
    const std::string inner = bare.substr(9, bare.size() - 10);
    if (inner.starts_with("optional")) return std::nullopt;
    if (auto c = CanonicalType(inner)) return "exec_aten::optional<" + *c + ">";
  }
  return std::nullopt;
}

struct Definition {
  std::string return_type, params;
};

// The definition `name(...) {` in `code` (comments blanked), with the text before it back to
// the previous declaration as its return type.
std::optional<Definition> FindDefinition(const std::string& code, const std::string& name) {
  for (size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
    if (at > 0 && (IdentChar(code[at - 1]) || code[at - 1] == ':' || code[at - 1] == '.' ||
                   code[at - 1] == '>'))
      continue;
    size_t open = at + name.size();
    while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
    if (open >= code.size() || code[open] != '(') continue;
    int depth = 0;
    size_t close = open;
    for (; close < code.size(); ++close) {
      if (code[close] == '(') ++depth;
      if (code[close] == ')' && --depth == 0) break;
    }
    size_t next = close + 1;
    while (next < code.size() && std::isspace(static_cast<unsigned char>(code[next]))) ++next;
    if (next >= code.size() || code[next] != '{') continue;
    size_t begin = at;
    while (begin > 0 && code[begin - 1] != ';' && code[begin - 1] != '}' && code[begin - 1] != '{')
      --begin;
    Definition d;
    d.return_type = Trim(code.substr(begin, at - begin));
    d.params = code.substr(open + 1, close - open - 1);
    return d;
  }
  return std::nullopt;
}

// The operator -> kernel_name entries of a functions.yaml (line-based: "- op: NAME" then
// "kernel_name: X" in its block).
std::map<std::string, std::string> KernelNames(const std::string& yaml) {
  std::map<std::string, std::string> out;
  std::istringstream in(yaml);
  std::string op;
  for (std::string line; std::getline(in, line);) {
    const std::string t = Trim(line);
    if (t.starts_with("- op:")) {
      op = Trim(t.substr(5));
    } else if (t.starts_with("- func:")) {
      op.clear();
    } else if (t.starts_with("kernel_name:") && !op.empty() && !out.count(op)) {
      out[op] = Trim(t.substr(12));
    }
  }
  return out;
}

// kernels/ (and extension/) sources a file's includes need, found by the headers' names: X.h's
// sibling X.cpp, else the sibling .cpp files that include X.h (pattern.h's patterns).
void AddIncludedSources(const fs::path& root, const std::string& rel, std::set<std::string>& seen,
                        std::vector<std::string>& sources) {
  const std::string text = ReadText((root / rel).string());
  std::vector<std::string> headers;  // #include <executorch/kernels/...> or "kernels/..." lines
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::string l = Trim(line);
    if (!l.starts_with("#")) continue;
    l = Trim(l.substr(1));
    if (!l.starts_with("include")) continue;
    l = Trim(l.substr(7));
    if (l.size() < 2 || (l[0] != '<' && l[0] != '"')) continue;
    const size_t end = l.find(l[0] == '<' ? '>' : '"', 1);
    if (end == std::string::npos) continue;
    std::string h = l.substr(1, end - 1);
    if (h.starts_with("executorch/")) h = h.substr(11);
    if ((h.starts_with("kernels/") || h.starts_with("extension/")) && h.find("..") == std::string::npos)
      headers.push_back(h);
  }
  for (const std::string& header : headers) {
    if (!seen.insert(header).second) continue;
    std::error_code ec;
    if (!fs::is_regular_file(root / header, ec)) continue;
    AddIncludedSources(root, header, seen, sources);
    const fs::path h(header);
    if (h.extension() != ".h") continue;
    std::vector<std::string> found;
    const fs::path sibling = h.parent_path() / (h.stem().string() + ".cpp");
    if (fs::is_regular_file(root / sibling, ec)) {
      found.push_back(sibling.string());
    } else {
      for (const auto& e : fs::directory_iterator(root / h.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".cpp" || name.starts_with("op_")) continue;
        if (ReadText(e.path().string()).find(h.filename().string()) != std::string::npos)
          found.push_back((h.parent_path() / name).string());
      }
      std::sort(found.begin(), found.end());
    }
    for (const std::string& f : found)
      if (seen.insert(f).second) {
        sources.push_back(f);
        AddIncludedSources(root, f, seen, sources);
      }
  }
}

// The declaration of `function` (qualified: `qualified`) from its definition, every type spelled
// as the generated file spells it; an unsupported type fails with one line naming `op`.
Result<std::string> Declaration(const std::string& op, const std::string& function,
                                const std::string& qualified, const std::string& source,
                                const Definition& def) {
  // The declaration, every type spelled as the generated file spells it.
  const std::vector<std::string> params = SplitParams(def.params);
  if (params.empty())
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("operator {}: kernel {} in {} does not take the kernel context "
                                 "first (it takes no parameters)",
                                 Printable(op), Printable(qualified), Printable(source)));
  std::string decl_params;
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string type = ParamType(params[i]);
    bool is_const = false, is_ref = false;
    const std::string bare = BareType(type, is_const, is_ref);
    std::string spelled;
    if (i == 0) {
      if (bare != "KernelRuntimeContext" && bare != "RuntimeContext")
        return MakeError(ErrorCode::kInvalidArgument,
                         fmt::format("operator {}: kernel {} in {} does not take the kernel "
                                     "context first (its first parameter is '{}')",
                                     Printable(op), Printable(qualified), Printable(source),
                                     Printable(type)));
      spelled = "EtmemContext&";
    } else {
      const std::optional<std::string> canon = CanonicalType(bare);
      if (!canon)
        return MakeError(ErrorCode::kInvalidArgument,
                         fmt::format("operator {}: argument type '{}' of kernel {} ({}) is not "
                                     "supported by etmem measure --execute",
                                     Printable(op), Printable(Trim(type)), Printable(qualified),
                                     Printable(source)));
      spelled = (is_const ? "const " : "") + *canon + (is_ref ? "&" : "");
    }
    decl_params += (i ? ", " : "") + spelled;
  }
  // The return type: void, T&, or std::tuple<T&, ...>.
  std::string ret = OneSpaced(def.return_type);
  for (const char* word : {"inline ", "static ", "ET_NODISCARD "})
    if (ret.starts_with(word)) ret = ret.substr(std::strlen(word));
  std::string ret_spelled;
  bool ret_const = false, ret_ref = false;
  const std::string ret_bare = BareType(ret, ret_const, ret_ref);
  if (ret_bare == "void") {
    ret_spelled = "void";
  } else if (ret_bare.starts_with("tuple<") && ret_bare.ends_with(">")) {
    const std::vector<std::string> parts = SplitParams(ret.substr(ret.find('<') + 1, ret.rfind('>') - ret.find('<') - 1));
    ret_spelled = "std::tuple<";
    for (size_t i = 0; i < parts.size(); ++i) {
      bool c = false, r = false;
      const auto canon = CanonicalType(BareType(parts[i], c, r));
      if (!canon) { ret_spelled.clear(); break; }
      ret_spelled += (i ? ", " : "") + std::string(c ? "const " : "") + *canon + (r ? "&" : "");
    }
    if (!ret_spelled.empty()) ret_spelled += ">";
  } else if (auto canon = CanonicalType(ret_bare)) {
    ret_spelled = (ret_const ? "const " : "") + *canon + (ret_ref ? "&" : "");
  }
  if (ret_spelled.empty())
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("operator {}: return type '{}' of kernel {} ({}) is not "
                                 "supported by etmem measure --execute",
                                 Printable(op), Printable(Trim(def.return_type)),
                                 Printable(qualified), source));
  return ret_spelled + " " + function + "(" + decl_params + ");";
}

// The generated file's fixed part: boxing that reads each argument from the instruction's
// EValues in the kernel's parameter order (EValue::to<T>, as ExecuTorch's generated wrappers do),
// for the release's OpFunction (EValue** or Span<EValue*>), and prints the call for the trace.
constexpr const char* kGlueHead = R"(// Generated by etmem measure --execute: registration of the tree's real kernels (what
// ExecuTorch's codegen generates; the tree does not hold it). Not part of ExecuTorch.
#include <cstdio>
#include <tuple>
#include <type_traits>
#include <utility>

#include <executorch/runtime/kernel/kernel_includes.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace {
template <class F>
struct EtmemOpFunction;
template <class R, class C, class S>
struct EtmemOpFunction<R (*)(C&, S)> {
  using Context = C;
  using Stack = S;
};
using EtmemContext = EtmemOpFunction<::torch::executor::OpFunction>::Context;
using EtmemStack = EtmemOpFunction<::torch::executor::OpFunction>::Stack;
}  // namespace
)";

constexpr const char* kGlueCall = R"(
namespace {
template <class P>
decltype(auto) EtmemArg(::torch::executor::EValue* v) {
  return v->template to<std::remove_cv_t<std::remove_reference_t<P>>>();
}
template <class R, class C, class... P, size_t... I>
void EtmemCallI(R (*fn)(C&, P...), EtmemContext& ctx, EtmemStack stack,
                std::index_sequence<I...>) {
  fn(ctx, EtmemArg<P>(stack[I])...);
}
template <class R, class C, class... P>
void EtmemCall(R (*fn)(C&, P...), EtmemContext& ctx, EtmemStack stack) {
  EtmemCallI(fn, ctx, stack, std::index_sequence_for<P...>{});
}
}  // namespace
)";

}  // namespace

Result<std::optional<std::string>> KernelDeclaration(const std::string& op,
                                                     const std::string& function,
                                                     const std::string& source_text,
                                                     const std::string& source_path) {
  const std::optional<Definition> def = FindDefinition(Uncommented(source_text), function);
  if (!def) return std::optional<std::string>();
  ETMEM_TRY(std::string d, Declaration(op, function, "::torch::executor::native::" + function,
                                       source_path, *def));
  return std::optional<std::string>(std::move(d));
}

std::map<std::string, std::string> PortableKernelNames(const std::string& yaml) {
  return KernelNames(yaml);
}

Result<KernelSet> FindRealKernels(const Tree& tree, const std::vector<std::string>& ops) {
  const fs::path root(tree.root);
  KernelSet set;
  std::set<std::string> seen;
  const std::string prim_source = "kernels/prim_ops/register_prim_ops.cpp";
  const std::string prim_text = ReadText((root / prim_source).string());
  const std::string yaml = ReadText((root / "kernels/portable/functions.yaml").string());
  const std::map<std::string, std::string> names = KernelNames(yaml);
  std::map<std::string, std::string> code_of;  // op file -> uncommented text
  std::vector<std::string> op_files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / "kernels/portable/cpu", ec))
    if (e.path().extension() == ".cpp" && e.path().filename().string().starts_with("op_"))
      op_files.push_back(fs::relative(e.path(), root).string());
  std::sort(op_files.begin(), op_files.end());
  bool prims = false;
  std::string declarations, wrappers, table;
  for (const std::string& op : ops) {
    RealKernel k;
    k.op = op;
    if (!prim_text.empty() && prim_text.find("\"" + op + "\"") != std::string::npos) {
      k.prim = true;
      k.source = prim_source;
      prims = true;
      set.kernels.push_back(k);
      continue;
    }
    const size_t colons = op.find("::");
    const std::string ns = colons == std::string::npos ? "" : op.substr(0, colons);
    if (ns != "aten")
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("operator {}: etmem measure --execute runs the portable kernels "
                                   "and the prim ops of the tree, and neither registers it",
                                   Printable(op)));
    const std::string key = op.substr(colons + 2);
    auto name = names.find(key);
    if (yaml.empty() || name == names.end())
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("operator {}: not in the tree's kernels/portable/functions.yaml "
                                   "(etmem measure --execute runs the portable kernels)",
                                   Printable(op)));
    // kernel_name torch::executor::topk_values is ::torch::executor::native::topk_values.
    std::string qualified = name->second;
    const size_t last = qualified.rfind("::");
    const std::string function = last == std::string::npos ? qualified : qualified.substr(last + 2);
    std::string space = last == std::string::npos ? "" : qualified.substr(0, last);
    if (!space.ends_with("native")) space += "::native";
    k.function = "::" + space + "::" + function;
    // The defining file: op_<base>.cpp first, then every op file.
    std::string base = key.substr(0, key.find('.'));
    while (base.starts_with("_")) base = base.substr(1);
    std::vector<std::string> order = op_files;
    std::stable_partition(order.begin(), order.end(), [&](const std::string& f) {
      return fs::path(f).filename() == "op_" + base + ".cpp";
    });
    std::optional<Definition> def;
    for (const std::string& f : order) {
      auto [it, fresh] = code_of.try_emplace(f);
      if (fresh) it->second = Uncommented(ReadText((root / f).string()));
      if (it->second.find(function) == std::string::npos) continue;
      def = FindDefinition(it->second, function);
      if (def) {
        k.source = f;
        break;
      }
    }
    if (!def)
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("operator {}: its kernel {} (functions.yaml) is not defined in "
                                   "the tree's kernels/portable/cpu/op_*.cpp",
                                   Printable(op), Printable(k.function)));
    ETMEM_TRY(k.declaration, Declaration(op, function, k.function, k.source, *def));
    const std::string inner = space.starts_with("::") ? space.substr(2) : space;
    std::string open, close;
    for (size_t b = 0, e; b < inner.size(); b = e + 2) {
      e = inner.find("::", b);
      if (e == std::string::npos) e = inner.size();
      open += "namespace " + inner.substr(b, e - b) + " { ";
      close += "} ";
    }
    declarations += open + k.declaration + " " + close + "\n";
    const size_t index = set.kernels.size();
    wrappers += fmt::format(
        "void etmem_kernel_{}(EtmemContext& ctx, EtmemStack stack) {{\n"
        "  std::printf(\"measure: call kernel {}\\n\");\n"
        "  EtmemCall(&{}, ctx, stack);\n}}\n",
        index, op, k.function);
    table += fmt::format("      ::torch::executor::Kernel(\"{}\", &etmem_kernel_{}),\n", op, index);
    if (seen.insert(k.source).second) {
      set.sources.push_back(k.source);
      AddIncludedSources(root, k.source, seen, set.sources);
    }
    set.kernels.push_back(k);
  }
  if (prims) {
    for (const auto& e : fs::directory_iterator(root / "kernels/prim_ops", ec)) {
      const std::string rel = fs::relative(e.path(), root).string();
      if (e.path().extension() == ".cpp" && seen.insert(rel).second) {
        set.sources.push_back(rel);
        AddIncludedSources(root, rel, seen, set.sources);
      }
    }
  }
  set.registration = std::string(kGlueHead) + "\n" + declarations + kGlueCall +
                     "\nnamespace {\n" + wrappers + "}  // namespace\n\n"
                     "const ::torch::executor::Kernel* etmem_real_kernels(size_t* count) {\n"
                     "  static ::torch::executor::Kernel kernels[] = {\n" + table +
                     "      ::torch::executor::Kernel(nullptr, nullptr)};\n"
                     "  *count = sizeof(kernels) / sizeof(kernels[0]) - 1;\n"
                     "  return kernels;\n}\n";
  return set;
}

ExecutionTrace ReadExecution(const std::string& output) {
  ExecutionTrace t;
  std::istringstream in(output);
  bool executing = false;
  ExecutedCall* current = nullptr;
  ExecutedCall outside;  // allocations outside any call
  outside.what = "outside a kernel or delegate call";
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("measure: input ") || line.starts_with("measure: output ")) {
      t.notes.push_back(line.substr(9));
      continue;
    }
    if (line == "measure: execute_begin") {
      executing = t.ran = true;
      continue;
    }
    if (!executing) continue;
    std::istringstream s(line);
    std::string tag, key;
    s >> tag >> key;
    if (tag == "measure:" && key == "call") {
      std::string kind, name;
      s >> kind >> name;
      t.calls.push_back({});
      t.calls.back().what = kind == "delegate" ? "delegate " + name : name;
      current = &t.calls.back();
    } else if (tag == "measure:" && key == "temp_alloc") {
      ExecutedCall::Alloc a;
      std::string where;
      s >> a.size >> a.align >> where;
      if (where != "FAIL") a.offset = std::strtoull(where.c_str(), nullptr, 10);
      ExecutedCall& c = current ? *current : outside;
      c.temp.push_back(a);
      if (a.offset)  // saturating: the numbers are the harness's, but read as text
        c.pool_bytes = std::max(c.pool_bytes, *a.offset > UINT64_MAX - a.size ? UINT64_MAX : *a.offset + a.size);
    } else if (tag == "measure:" && key == "temp_reset") {
      ++t.resets;
      current = nullptr;
    } else if (tag == "measure:" && key == "heap") {
      uint64_t size = 0;
      std::string ok;
      s >> size >> ok;
      (current ? *current : outside).heap.push_back({size, ok == "ok"});
    } else if (tag == "measure:" && key == "execute") {
      int e = 0;
      s >> e;
      t.error = e;
      executing = false;
    } else if (line.starts_with("E executorch:")) {
      const size_t bracket = line.find("] ");
      t.error_lines.push_back(bracket == std::string::npos ? line : line.substr(bracket + 2));
    }
  }
  if (!outside.temp.empty() || !outside.heap.empty())
    t.notes.push_back(fmt::format("{} temp and {} heap request(s) outside any call",
                                  outside.temp.size(), outside.heap.size()));
  return t;
}

namespace {

struct CallSite {
  size_t instruction = 0;
  std::string what;
};

// The method's kernel and delegate calls in instruction order; `straight` false when a
// JumpFalseCall may change the executed order.
std::vector<CallSite> CallSites(const pte::MethodView& m, bool& straight) {
  std::vector<CallSite> out;
  straight = true;
  for (const pte::ChainView& chain : m.chains)
    for (uint32_t k = 0; k < chain.instructions_count; ++k) {
      const size_t i = chain.instructions_begin + k;
      if (i >= m.instructions.size()) break;
      const pte::InstructionView& ins = m.instructions[i];
      if (ins.kind == pte::InstructionKind::kJumpFalse) straight = false;
      if (ins.kind == pte::InstructionKind::kKernelCall) {
        const pte::OperatorView* op = m.OperatorOf(ins);
        out.push_back({i, op ? std::string(op->name) + (op->overload.empty() ? "" : ".") +
                                   std::string(op->overload)
                             : "operator " + std::to_string(ins.target)});
      } else if (ins.kind == pte::InstructionKind::kDelegateCall) {
        const pte::DelegateView* d = m.DelegateOf(ins);
        out.push_back({i, "delegate " + (d ? std::string(d->backend) : std::to_string(ins.target))});
      }
    }
  return out;
}

}  // namespace

ExecutionComparison CompareExecution(const pte::MethodView& m, const ExecutionTrace& t,
                                     const kernels::RunTemp& p, bool no_heap) {
  ExecutionComparison x;
  if (!t.ran) return x;  // the load failed: nothing to compare
  x.ran = true;
  bool match = true;
  const std::vector<CallSite> sites = CallSites(m, x.straight);
  x.heap_mode = p.platform_fallback;
  x.measured_verdict = t.error ? (*t.error == 0 ? "Ok" : ErrorName(*t.error)) : std::string("crashed");
  // etmem's verdict: the first call that does not fit fails the method (0x21).
  std::optional<size_t> predicted_fail;
  if (p.check && !p.check->fits && p.check->failing_call) predicted_fail = *p.check->failing_call;
  if (x.heap_mode && no_heap && p.no_heap_failing_call) predicted_fail = *p.no_heap_failing_call;
  x.etmem_verdict = predicted_fail ? "MemoryAllocationFailed" : "Ok";
  x.calls_executed = t.calls.size();
  x.call_sites = sites.size();
  if (x.measured_verdict != x.etmem_verdict) match = false;
  // Per executed call, by instruction.
  std::map<size_t, const kernels::CallTemp*> predicted;
  for (const kernels::CallTemp& c : p.calls) predicted[c.instruction] = &c;
  std::optional<size_t> measured_peak_instruction;
  uint64_t measured_peak = 0, measured_heap_peak = 0;
  std::optional<size_t> measured_fail;
  for (size_t n = 0; n < std::max(t.calls.size(), sites.size()); ++n) {
    const ExecutedCall* c = n < t.calls.size() ? &t.calls[n] : nullptr;
    const CallSite* site = n < sites.size() ? &sites[n] : nullptr;
    if (!site) {
      x.rows.push_back({std::nullopt, *c, std::nullopt, false});
      match = false;
      continue;
    }
    auto it = predicted.find(site->instruction);
    const kernels::CallTemp* q = it == predicted.end() ? nullptr : it->second;
    if (!c) {
      // Not executed: the method stopped before it (a failure) or it is a skipped branch.
      continue;
    }
    bool row_match = c->what == site->what || (c->what.starts_with("delegate") && site->what.starts_with("delegate"));
    bool asks = false, predicts = false;  // a row that does neither (and matches) is not shown
    if (x.heap_mode) {
      uint64_t sum = 0;
      for (const auto& h : c->heap) sum += h.first;
      const uint64_t want = q ? q->heap_bytes : 0;
      row_match = row_match && (q ? q->unknown.empty() && sum == want : c->heap.empty());
      if (!c->heap.empty() && c->heap.back().second) measured_heap_peak = std::max(measured_heap_peak, sum);
      if (!c->heap.empty() && !c->heap.back().second && !measured_fail) measured_fail = site->instruction;
      asks = !c->heap.empty();
      predicts = q && (!q->unknown.empty() || !q->requests.empty());
    } else {
      bool same = q ? q->unknown.empty() && q->requests.size() == c->temp.size() : c->temp.empty();
      for (size_t i = 0; same && i < c->temp.size(); ++i)
        same = c->temp[i].size == q->requests[i].bytes && c->temp[i].align == q->requests[i].alignment;
      const bool failed = std::any_of(c->temp.begin(), c->temp.end(), [](const auto& a) { return !a.offset; });
      if (failed && !measured_fail) measured_fail = site->instruction;
      // Pool bytes compare for calls that fit (a failed call's bytes are those it got).
      if (same && q && !failed) same = c->pool_bytes == q->pool_bytes;
      row_match = row_match && same;
      if (!failed && c->pool_bytes > measured_peak) {
        measured_peak = c->pool_bytes;
        measured_peak_instruction = site->instruction;
      }
      asks = !c->temp.empty();
      predicts = q != nullptr;
    }
    if (!row_match) match = false;
    if (!asks && !predicts && row_match) continue;  // asks nothing, predicted nothing
    x.rows.push_back({site->instruction, *c, q ? std::optional<kernels::CallTemp>(*q) : std::nullopt,
                      row_match});
  }
  // Predicted calls that ask but were not executed (the method failed before them) are fine only
  // when the method failed; a prediction for a call the runtime reached and did not ask is a
  // row that differs.
  if (x.heap_mode) {
    if (!no_heap) {
      ExecutionPeak& peak = x.peak.emplace();
      peak.measured = measured_heap_peak;
      peak.etmem = p.heap_peak_bytes;
      peak.match = measured_heap_peak == p.heap_peak_bytes;
      match = match && peak.match;
    }
  } else if (!predicted_fail && !measured_fail) {
    ExecutionPeak& peak = x.peak.emplace();
    peak.measured = measured_peak;
    peak.measured_instruction = measured_peak_instruction;
    peak.etmem = p.peak_bytes;
    if (p.peak_call) peak.etmem_instruction = p.calls[*p.peak_call].instruction;
    peak.match = measured_peak == p.peak_bytes &&
                 (!p.peak_call || measured_peak_instruction == peak.etmem_instruction);
    match = match && peak.match;
  }
  // A failure: the instruction and the lines logged.
  const std::vector<std::string>* predicted_log = nullptr;
  if (p.check && !p.check->fits) predicted_log = &p.check->log;
  if (x.heap_mode && no_heap && p.no_heap_failing_call) predicted_log = &p.no_heap_log;
  if (predicted_fail || measured_fail) {
    ExecutionFailure& f = x.failure.emplace();
    f.measured_instruction = measured_fail;
    if (predicted_fail) f.etmem_instruction = p.calls[*predicted_fail].instruction;
    f.same_instruction = f.etmem_instruction == measured_fail;
    match = match && f.same_instruction;
    f.logged = t.error_lines;
    if (predicted_log) f.predicted = *predicted_log;
    // etmem predicts the lines up to Method's "KernelCall failed"; the runtime then lists the
    // call's arguments ("arg N with type id T"), which etmem does not give: shown, not compared.
    const bool same_log = f.predicted.size() <= f.logged.size() &&
                          std::equal(f.predicted.begin(), f.predicted.end(), f.logged.begin());
    for (size_t i = f.predicted.size(); same_log && i < f.logged.size(); ++i)
      if (f.logged[i].starts_with("arg ")) ++f.extra_args;
    f.log_match = same_log && f.predicted.size() + f.extra_args == f.logged.size();
    match = match && f.log_match;
  }
  x.match = match;
  return x;
}

Status MeasureExecution(const ExecuteOptions& o, std::optional<ExecutionRun>& result) {
  // The operators of every method, once.
  std::vector<std::string> ops;
  for (const pte::MethodView& m : o.program->methods)
    for (const pte::OperatorView& op : m.operators)
      ops.push_back(std::string(op.name) + (op.overload.empty() ? "" : ".") + std::string(op.overload));
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  for (const std::string& k : o.kernels)
    if (k != "portable")
      return MakeError(ErrorCode::kInvalidArgument,
                       "--kernels " + Printable(k) + ": etmem measure --execute runs only the "
                       "tree's portable kernels (and its prim ops)");
  ETMEM_TRY(KernelSet set, FindRealKernels(o.tree, ops));
  const fs::path work(o.build.work_dir);
  const fs::path generated = work / "etmem_real_kernels.cpp";
  if (ReadText(generated.string()) != set.registration)
    std::ofstream(generated, std::ios::binary) << set.registration;
  BuildOptions b = o.build;
  b.extra_sources = set.sources;
  b.harness_extra = {generated.string()};
  b.harness_defines = {"-DETMEM_EXECUTE=1"};
  b.harness_name = "measure_execute";
  ETMEM_TRY(Built built, BuildHarness(o.tree, b));

  ExecutionRun& run = result.emplace();
  run.kernels = std::move(set.kernels);
  run.sources = set.sources.size();
  run.registration = generated.string();
  run.temp_allocator = o.temp_allocator;
  run.temp_pool_bytes = o.temp_pool_bytes;
  run.no_heap = o.no_heap;
  for (const std::string& name : o.methods) {
    const pte::MethodView* m = nullptr;
    for (const pte::MethodView& candidate : o.program->methods)
      if (candidate.name == name) m = &candidate;
    if (!m) return MakeError(ErrorCode::kInvalidArgument, "--method " + Printable(name) + ": no such method");
    std::string steps;  // the stub backends (kernel lines are the no-op kernels: not these)
    std::istringstream lines(o.backend_steps);
    for (std::string line; std::getline(lines, line);)
      if (line.starts_with("backend ")) steps += line + "\n";
    steps += "planned heap\nload\nexecute\n";
    if (o.no_heap) steps += "heap none\n";
    ETMEM_TRY(HarnessRun harness,
              RunHarness(built, o.build.work_dir, o.program_path, name, o.method_pool_bytes,
                         o.pool_align, o.temp_allocator ? std::optional<uint64_t>(o.temp_pool_bytes)
                                                        : std::nullopt,
                         steps));
    {
      std::ofstream log(work / ("executed-" + name + ".log"));
      log << harness.output;
    }
    kernels::RunTempOptions ro;
    ro.kernels = {"portable"};
    ro.pool_align = 16;
    ro.temp_allocator = o.temp_allocator;
    if (o.temp_allocator) ro.temp_pool_bytes = o.temp_pool_bytes;
    ETMEM_TRY(kernels::RunTemp predicted, kernels::ComputeRunTemp(*o.program, *m, *o.release, *o.target, ro));
    ExecutionTrace trace = ReadExecution(harness.output);
    MethodExecution e;
    e.name = name;
    e.predicted = predicted.Describe();
    if (harness.status != 0 && harness.status >= 128) e.crash_signal = harness.status - 128;
    e.comparison = CompareExecution(*m, trace, predicted, o.no_heap);
    e.notes = std::move(trace.notes);
    run.methods.push_back(std::move(e));
  }
  return Ok{};
}

Status MeasureExecution(const Tree& tree, const BuildOptions& build,
                        const std::string& program_path, const pte::ProgramView& program,
                        const std::vector<std::string>& methods, const report::Report& analysed,
                        bool no_heap, uint64_t method_pool_bytes, const std::string& backend_steps,
                        std::optional<ExecutionRun>& run) {
  ETMEM_TRY(const runtime::RuntimeTraits* release, runtime::FindRelease(analysed.assumptions.runtime));
  ETMEM_TRY(abi::Abi target, abi::FindBuiltinTarget(analysed.assumptions.target));
  ExecuteOptions x{tree, build, program_path, &program, methods, release, &target};
  x.kernels = analysed.assumptions.kernels;
  x.temp_allocator = analysed.assumptions.temp_allocator;
  x.temp_pool_bytes = analysed.assumptions.run_temp_pool_bytes.value_or(
      analysed.assumptions.temp_pool_bytes.value_or(1 << 20));
  x.no_heap = no_heap;
  x.method_pool_bytes = method_pool_bytes;
  x.backend_steps = backend_steps;
  return MeasureExecution(x, run);
}

}  // namespace etmem::measure
