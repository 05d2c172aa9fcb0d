// Owns: pruning execute's bound by the program's dtypes (dtype_pruning.h).
#include "etmem/firmware/dtype_pruning.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "etmem/base/printable.h"
#include "etmem/runtime/labels.h"
#include "etmem/stack/instantiations.h"

namespace etmem::firmware {
namespace {

// ExecuTorch's ScalarType codes (runtime/core/portable_type/scalar_type.h).
enum : int8_t {
  kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kDouble = 7,
  kComplexHalf = 8, kComplexFloat = 9, kComplexDouble = 10, kBool = 11, kQInt8 = 12,
  kQUInt8 = 13, kQInt32 = 14, kBFloat16 = 15, kQUInt4x2 = 16, kQUInt2x4 = 17, kBits1x8 = 18,
  kBits2x4 = 19, kBits4x2 = 20, kBits8 = 21, kBits16 = 22, kFloat8_e5m2 = 23,
  kFloat8_e4m3fn = 24, kFloat8_e5m2fnuz = 25, kFloat8_e4m3fnuz = 26, kUInt16 = 27,
  kUInt32 = 28, kUInt64 = 29,
};

// ScalarTypeToCppType's fundamental types, as __cxa_demangle writes them (int32_t is `long` on
// arm-none-eabi and `int` elsewhere: both are 32 bits; `long` is resolved by the ELF's width).
const std::map<std::string, int8_t> kFundamental = {
    {"bool", kBool},       {"unsigned char", kByte},       {"signed char", kChar},
    {"short", kShort},     {"unsigned short", kUInt16},    {"int", kInt},
    {"unsigned int", kUInt32}, {"long long", kLong},       {"unsigned long long", kUInt64},
    {"float", kFloat},     {"double", kDouble},
};
// Its class types, by their last name (c10:: from 0.4 on, torch::executor:: before).
const std::map<std::string, int8_t> kClasses = {
    {"Half", kHalf},         {"BFloat16", kBFloat16},   {"qint8", kQInt8},
    {"quint8", kQUInt8},     {"qint32", kQInt32},       {"quint4x2", kQUInt4x2},
    {"quint2x4", kQUInt2x4}, {"bits1x8", kBits1x8},     {"bits2x4", kBits2x4},
    {"bits4x2", kBits4x2},   {"bits8", kBits8},         {"bits16", kBits16},
    {"Float8_e5m2", kFloat8_e5m2}, {"Float8_e4m3fn", kFloat8_e4m3fn},
    {"Float8_e5m2fnuz", kFloat8_e5m2fnuz}, {"Float8_e4m3fnuz", kFloat8_e4m3fnuz},
};
const std::map<std::string, int8_t> kComplex = {
    {"Half", kComplexHalf}, {"float", kComplexFloat}, {"double", kComplexDouble}};
// Fundamental types no ScalarType names, but a build could use for one: kept.
const std::set<std::string> kUnsureFundamental = {
    "char", "wchar_t", "char8_t", "char16_t", "char32_t", "long double", "__int128",
    "unsigned __int128", "__fp16", "_Float16", "__bf16", "std::byte"};
// The namespaces whose classes may be dtypes (a class there that is not mapped is kept).
constexpr const char* kDtypeNamespaces[] = {"c10::", "torch::executor::", "executorch::"};

// Where the kernel libraries' code lives: an instantiation there may be a case of a dtype switch
// (ET_SWITCH_*_TYPES). Anything else (the runtime's ArrayRef<int64_t>, c10::irange's iterators,
// std::) is never pruned: its template arguments are index and size types as often as dtypes.
constexpr const char* kKernelNamespaces[] = {"torch::executor::native::", "torch::executor::apply_",
                                             "cortex_m::native::", "impl::"};

// The templates that read a Scalar argument into its own C++ type (ET_SWITCH_SCALAR_OBJ_TYPES's
// cases up to 0.x, utils::extract_scalar / scalar_to after): their instantiations may run for
// the type of any Scalar argument, which is why CallDtypes::scalars counts for them. Matched as
// the last name of the template (its key's end).
constexpr const char* kScalarTemplates[] = {"extract_scalar", "scalar_to", "check_overflow_scalar_cast",
                                            "extract_scalar_tensor"};

bool ReadsAScalar(const std::string& key) {
  const size_t at = key.rfind("::");
  const std::string last = at == std::string::npos ? key : key.substr(at + 2);
  for (const char* t : kScalarTemplates)
    if (last == t) return true;
  return false;
}

std::string LastName(const std::string& type) {
  const size_t at = type.rfind("::");
  return at == std::string::npos ? type : type.substr(at + 2);
}

bool StartsWithAny(const std::string& s, size_t at) {
  for (const char* ns : kDtypeNamespaces)
    if (s.compare(at, std::char_traits<char>::length(ns), ns) == 0) return true;
  return false;
}

// Whether the demangled `name` is a function of the kernel libraries: its qualified name (after
// a return type, if any, at the top level) starts with one of kKernelNamespaces.
bool InKernelCode(const std::string& name) {
  for (const char* ns : kKernelNamespaces)
    for (size_t at = name.find(ns); at != std::string::npos; at = name.find(ns, at + 1)) {
      if (at != 0 && name[at - 1] != ' ') continue;
      int depth = 0;
      for (size_t k = 0; k < at; ++k)
        depth += name[k] == '<' || name[k] == '(' ? 1 : name[k] == '>' || name[k] == ')' ? -1 : 0;
      if (depth == 0) return true;
    }
  return false;
}

std::string Names(const std::vector<int8_t>& dtypes) {
  std::string out;
  for (int8_t d : dtypes) out += (out.empty() ? "" : ", ") + runtime::DtypeName(d);
  return out;
}

}  // namespace

ArgumentKind ClassifyArgument(const std::string& type_in, unsigned long_bits, std::vector<int8_t>& dtypes) {
  std::string type = type_in;
  if (type.find('(') != std::string::npos) return ArgumentKind::kNeutral;  // function types, casts
  // A pointer or reference to a dtype's type, or a const one, is that dtype's code.
  for (bool changed = true; changed;) {
    changed = false;
    for (const char* suffix : {"*", "&", " const", " volatile"})
      if (type.size() > std::char_traits<char>::length(suffix) && type.ends_with(suffix)) {
        type.erase(type.size() - std::char_traits<char>::length(suffix));
        changed = true;
      }
    if (type.starts_with("const ")) type.erase(0, 6), changed = true;
  }
  if (auto f = kFundamental.find(type); f != kFundamental.end()) {
    dtypes.push_back(f->second);
    return ArgumentKind::kDtype;
  }
  if (type == "long" || type == "unsigned long") {
    const bool is_unsigned = type[0] == 'u';
    dtypes.push_back(long_bits == 32 ? (is_unsigned ? kUInt32 : kInt) : (is_unsigned ? kUInt64 : kLong));
    return ArgumentKind::kDtype;
  }
  if (kUnsureFundamental.count(type)) return ArgumentKind::kUnsure;
  if (!StartsWithAny(type, 0)) return ArgumentKind::kNeutral;
  // c10::complex<T>
  if (const size_t lt = type.find('<'); lt != std::string::npos && type.back() == '>') {
    if (LastName(type.substr(0, lt)) != "complex") return ArgumentKind::kNeutral;  // ArrayRef<...>
    const auto c = kComplex.find(LastName(type.substr(lt + 1, type.size() - lt - 2)));
    if (c == kComplex.end()) return ArgumentKind::kUnsure;
    dtypes.push_back(c->second);
    return ArgumentKind::kDtype;
  }
  if (auto c = kClasses.find(LastName(type)); c != kClasses.end()) {
    dtypes.push_back(c->second);
    return ArgumentKind::kDtype;
  }
  // Another class of c10:: (a dtype etmem does not map?) is kept; the runtime's and the kernels'
  // own classes (Tensor, a lambda, an enum) are no dtype.
  return type.starts_with("c10::") && type.find("::", 5) == std::string::npos ? ArgumentKind::kUnsure
                                                                               : ArgumentKind::kNeutral;
}

std::vector<std::optional<CallDtypes>> OperatorDtypes(const pte::MethodView& m) {
  const size_t ops = m.operators.size();
  std::vector<std::set<int8_t>> compute(ops), scalars(ops);
  std::vector<bool> unknown(ops, !m.fault.empty()), called(ops, false), tensor(ops, false);
  auto add_tensor = [&](size_t op, int64_t value) {
    const pte::TensorView* t = m.TensorAt(value);
    if (t && t->dtype >= 0 && t->dtype <= kUInt64) compute[op].insert(t->dtype), tensor[op] = true;
    else unknown[op] = true;
  };
  for (const pte::InstructionView& ins : m.instructions) {
    if (ins.kind != pte::InstructionKind::kKernelCall || !m.OperatorOf(ins)) continue;
    const size_t op = size_t(ins.target);
    called[op] = true;
    for (int32_t a : m.ArgsOf(ins)) {
      if (!m.HasValue(a)) {
        unknown[op] = true;
        continue;
      }
      const pte::ValueView& v = m.values[size_t(a)];
      switch (v.kind) {
        case pte::ValueKind::kTensor: add_tensor(op, a); break;
        case pte::ValueKind::kTensorList:
        case pte::ValueKind::kOptionalTensorList:
          for (int64_t item : m.ItemsOf(v))
            if (item >= 0 && !(m.HasValue(item) && m.values[size_t(item)].kind == pte::ValueKind::kNull))
              add_tensor(op, item);
          break;
        case pte::ValueKind::kInt: scalars[op].insert(kLong); break;
        case pte::ValueKind::kDouble: scalars[op].insert(kDouble); break;
        case pte::ValueKind::kBool: scalars[op].insert(kBool); break;
        default: break;  // lists of ints, doubles, bools (sizes, dims, flags), None, String
      }
    }
  }
  std::vector<std::optional<CallDtypes>> out(ops);
  for (size_t op = 0; op < ops; ++op) {
    std::set<int8_t>& c = compute[op];
    const std::set<int8_t>& s = scalars[op];
    if (unknown[op] || !called[op] || !tensor[op]) continue;
    if (c.count(kHalf) || c.count(kBFloat16) || s.count(kDouble)) c.insert(kFloat);
    if (c.count(kComplexHalf)) c.insert(kComplexFloat);
    if (c.count(kBool) && s.count(kLong)) c.insert(kLong);
    out[op] = CallDtypes{std::vector<int8_t>(c.begin(), c.end()), std::vector<int8_t>(s.begin(), s.end())};
  }
  return out;
}

DtypePruning PruneByDtypes(const stack::CallGraph& g, const std::vector<size_t>& entries,
                           const stack::Resolution& resolution,
                           const std::vector<KernelDtypes>& kernels, unsigned long_bits) {
  DtypePruning out;
  const size_t n = g.functions.size();
  // The runtime's own code: what the entries reach without the kernel calls.
  const std::vector<bool> runtime_code = stack::Reached(g, entries, {});
  const std::vector<bool> reached = stack::Reached(g, entries, resolution);
  std::vector<std::set<int8_t>> allowed(n), allowed_scalars(n);
  std::vector<bool> below_kernel(n, false), unknown(n, false);
  for (const KernelDtypes& k : kernels) {
    const auto at = g.At(k.function);
    if (!at || !reached[*at]) continue;  // a kernel this entry never calls
    if (!k.dtypes)
      out.kept.push_back(fmt::format("everything below {} ({}): the dtypes of its calls are not known",
                                     Printable(g.functions[*at].demangled, 300), Printable(k.op, 200)));
    const std::vector<bool> reach = stack::Reached(g, {*at}, resolution);
    for (size_t f = 0; f < n; ++f) {
      if (!reach[f]) continue;
      below_kernel[f] = true;
      if (!k.dtypes) unknown[f] = true;
      else {
        allowed[f].insert(k.dtypes->compute.begin(), k.dtypes->compute.end());
        allowed_scalars[f].insert(k.dtypes->compute.begin(), k.dtypes->compute.end());
        allowed_scalars[f].insert(k.dtypes->scalars.begin(), k.dtypes->scalars.end());
      }
    }
  }
  std::set<std::string> kept_seen;
  auto keep = [&](std::string line) {
    if (kept_seen.insert(line).second) out.kept.push_back(std::move(line));
  };
  struct Candidate {
    size_t callee;
    std::string key;
    std::vector<int8_t> shown;
    bool unsure;
  };
  for (size_t f = 0; f < n; ++f) {
    if (!below_kernel[f] || runtime_code[f] || unknown[f]) continue;
    const std::string& caller = g.functions[f].demangled;
    std::set<size_t> callees;
    for (const stack::CallSite& s : g.functions[f].sites)
      if (s.kind != stack::SiteKind::kIndirect)
        if (auto to = g.At(s.target)) callees.insert(*to);
    std::vector<Candidate> candidates;
    for (size_t c : callees) {
      const std::string& name = g.functions[c].demangled;
      if (!InKernelCode(name)) continue;
      const stack::TemplateName t = stack::ReadTemplateName(name);
      if (!t.parsed) {
        keep(fmt::format("{} -> {}: kept, {}", Printable(caller, 300), Printable(name, 300), t.problem));
        continue;
      }
      Candidate cand{c, t.key, {}, false};
      for (const std::string& a : t.arguments)
        cand.unsure = ClassifyArgument(a, long_bits, cand.shown) == ArgumentKind::kUnsure || cand.unsure;
      std::sort(cand.shown.begin(), cand.shown.end());
      cand.shown.erase(std::unique(cand.shown.begin(), cand.shown.end()), cand.shown.end());
      if (!cand.shown.empty() || cand.unsure) candidates.push_back(std::move(cand));
    }
    for (const Candidate& cand : candidates) {
      const std::string& name = g.functions[cand.callee].demangled;
      const std::set<int8_t>& may = ReadsAScalar(cand.key) ? allowed_scalars[f] : allowed[f];
      const std::vector<int8_t> can(may.begin(), may.end());
      const bool runs = std::any_of(cand.shown.begin(), cand.shown.end(),
                                    [&](int8_t d) { return may.count(d) > 0; });
      if (runs) continue;
      if (cand.unsure) {
        keep(fmt::format("{} -> {}: kept, a template argument may be a dtype etmem does not map",
                         Printable(caller, 300), Printable(name, 300)));
        continue;
      }
      const bool in_switch = std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& o) {
        return o.callee != cand.callee && o.key == cand.key && o.shown != cand.shown;
      });
      if (!in_switch) {
        keep(fmt::format("{} -> {}: kept, it shows only {} but its caller calls no other dtype's "
                         "instantiation of the template (no dtype switch seen)",
                         Printable(caller, 300), Printable(name, 300), Names(cand.shown)));
        continue;
      }
      out.dropped.insert({f, cand.callee});
      out.pruned.push_back(fmt::format("{} -> {}: its template arguments show only {}; the calls "
                                       "reaching it have {}",
                                       Printable(caller, 300), Printable(name, 300),
                                       Names(cand.shown), Names(can)));
    }
  }
  return out;
}

}  // namespace etmem::firmware
