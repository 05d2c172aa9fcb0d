// Owns: the runner-profile JSON reader, the built-in profiles and choosing one (profile.h).
// Not: sizes (runner_plan.cpp).
#include "etmem/runner/profile.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "etmem/base/json_file.h"
#include "etmem/base/printable.h"
#include "etmem/base/version.h"
#include "etmem/runtime/release_range.h"

namespace etmem::runner {
namespace {

// Text a profile keeps only to print it in reports (descriptions, roles, the source path),
// escaped to printable text once, on reading, as boards and target files keep theirs. The log
// lines a runner prints are kept as they are: `etmem check` compares them byte for byte with a
// device's log (the Pico 2 example's hold UTF-8 emoji).
std::string ReportText(const std::string& text) { return Printable(text, text.size()); }

bool IsCIdentifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

using json = nlohmann::json;

struct KindName {
  StepKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {StepKind::kPlannedBuffers, "planned_buffers"}, {StepKind::kSpanTable, "span_table"},
    {StepKind::kLoadMethod, "load_method"},         {StepKind::kInputList, "input_list"},
    {StepKind::kInputBuffers, "input_buffers"},     {StepKind::kDebugBuffer, "debug_buffer"},
    {StepKind::kProgramFile, "program_file"},       {StepKind::kFixed, "fixed"},
};

constexpr uint64_t kMaxBytes = 0xFFFFFFFFull;  // a MemoryAllocator's size is a uint32_t

// One JSON object's fields (base/json_file.h: the errors every data file shares), and the
// byte counts a profile states.
class Fields : public json_file::Object {
 public:
  using Object::Object;
  Result<uint64_t> Bytes(const char* name, bool required, uint64_t fallback = 0) const {
    return Unsigned(name, required, 0, kMaxBytes, fallback);
  }
  static Error Bad(const std::string& what) { return json_file::Bad(what); }
};

bool PowerOfTwo(uint64_t v) { return v >= 1 && v <= 4096 && (v & (v - 1)) == 0; }

Result<FailureBehaviour> ReadFailure(const json& j, const std::string& where) {
  Fields f(j, where + " on_failure");
  if (auto ok = f.Known({"logs", "aborts", "harmless", "then"}); !ok) return ok.error();
  FailureBehaviour b;
  ETMEM_TRY(b.logs, f.Strings("logs", false));
  ETMEM_TRY(b.aborts, f.Bool("aborts", true));
  ETMEM_TRY(b.harmless, f.Bool("harmless", false));
  if (b.harmless && b.aborts)
    return Fields::Bad(f.where() + ": a failure after which the runner aborts is not harmless");
  ETMEM_TRY(b.then, f.String("then", false));
  return b;
}

Result<StepSpec> ReadStep(const json& j, const std::string& where, const Profile& p) {
  Fields f(j, where);
  if (auto ok = f.Known({"kind", "pool", "temp_pool", "align", "element", "writes", "bytes",
                         "size_macro", "label", "when", "bug", "memory_ids", "skip_empty",
                         "figure", "on_failure"});
      !ok)
    return ok.error();
  StepSpec s;
  ETMEM_TRY(std::string kind, f.String("kind", true));
  auto k = std::find_if(std::begin(kKinds), std::end(kKinds),
                        [&](const KindName& n) { return kind == n.name; });
  if (k == std::end(kKinds)) {
    std::string known;
    for (const KindName& n : kKinds) known += (known.empty() ? "" : ", ") + std::string(n.name);
    return Fields::Bad(where + ": unknown step kind \"" + Printable(kind) + "\" (known: " + known + ")");
  }
  s.kind = k->kind;
  ETMEM_TRY(s.pool, f.String("pool", true));
  if (!p.FindPool(s.pool)) return Fields::Bad(where + ": unknown pool \"" + Printable(s.pool) + "\"");
  ETMEM_TRY(s.temp_pool, f.String("temp_pool", false));
  if (!s.temp_pool.empty() && s.kind != StepKind::kLoadMethod)
    return Fields::Bad(where + ": \"temp_pool\" belongs to a load_method step");
  if (!s.temp_pool.empty() && !p.FindPool(s.temp_pool))
    return Fields::Bad(where + ": unknown pool \"" + Printable(s.temp_pool) + "\"");
  if (!s.temp_pool.empty() && s.temp_pool == s.pool)
    return Fields::Bad(where + ": the temp allocator cannot use the method allocator's pool");
  if (const json* a = f.Optional("align")) {
    if (a->is_string() && a->get<std::string>() == "default") {
      s.align_rule = AlignRule::kDefault;
    } else if (a->is_string() && a->get<std::string>() == "element") {
      s.align_rule = AlignRule::kElement;
    } else if (a->is_number_integer() || a->is_number_unsigned()) {
      if (a->is_number_integer() && a->get<int64_t>() < 0)
        return f.OutOfRange("align", *a, 1, 4096);
      const uint64_t v = a->get<uint64_t>();
      if (!PowerOfTwo(v))
        return Fields::Bad(where + ": \"align\" must be a power of two up to 4096");
      s.align_rule = AlignRule::kFixed;
      s.align = static_cast<uint32_t>(v);
    } else {
      return Fields::Bad(where + ": \"align\" must be a number, \"default\" or \"element\"");
    }
  }
  ETMEM_TRY(s.element, f.String("element", false));
  ETMEM_TRY(s.writes, f.String("writes", false));
  const bool needs_element = s.kind == StepKind::kSpanTable || s.kind == StepKind::kInputList;
  if (needs_element && s.element.empty())
    return Fields::Bad(f.Missing("element").message + " (a " + kind + " step lists elements)");
  if (!needs_element && (!s.element.empty() || !s.writes.empty()))
    return Fields::Bad(where + ": \"element\" and \"writes\" belong to span_table and input_list");
  if (s.align_rule == AlignRule::kElement && !needs_element)
    return Fields::Bad(where + ": \"align\": \"element\" needs an element type");
  const bool sized = s.kind == StepKind::kDebugBuffer || s.kind == StepKind::kFixed;
  ETMEM_TRY(s.bytes, f.Bytes("bytes", sized));
  if (!sized && f.Optional("bytes"))
    return Fields::Bad(where + ": \"bytes\" belongs to debug_buffer and fixed steps");
  ETMEM_TRY(s.size_macro, f.String("size_macro", false));
  ETMEM_TRY(s.label, f.String("label", false));
  s.label = ReportText(s.label);  // the report prints it
  ETMEM_TRY(s.when, f.String("when", false));
  if (!s.when.empty() && !p.HasOption(WhenOption(s.when)))
    return Fields::Bad(where + ": \"when\" names an option the profile does not declare: \"" +
                       s.when + "\"");
  ETMEM_TRY(s.bug, f.String("bug", false));
  s.bug = ReportText(s.bug);  // the report prints it
  if (const json* ids = f.Optional("memory_ids")) {
    if (s.kind != StepKind::kPlannedBuffers)
      return Fields::Bad(where + ": \"memory_ids\" belongs to a planned_buffers step");
    if (!ids->is_array() || ids->empty())
      return Fields::Bad(where + ": \"memory_ids\" is not a non-empty list of memory ids");
    for (const json& id : *ids) {
      if (!id.is_number_unsigned() || id.get<uint64_t>() < 1 || id.get<uint64_t>() > 65535)
        return Fields::Bad(where + ": \"memory_ids\" holds something else than a memory id "
                           "from 1 to 65535");
      const uint32_t v = id.get<uint32_t>();
      if (std::find(s.memory_ids.begin(), s.memory_ids.end(), v) != s.memory_ids.end())
        return Fields::Bad(where + ": memory id " + std::to_string(v) + " listed twice");
      s.memory_ids.push_back(v);
    }
  }
  if (f.Optional("skip_empty")) {
    if (s.kind != StepKind::kPlannedBuffers)
      return Fields::Bad(where + ": \"skip_empty\" belongs to a planned_buffers step");
    ETMEM_TRY(s.skip_empty, f.Bool("skip_empty", false));
  }
  ETMEM_TRY(s.figure, f.String("figure", false));
  const json* failure = f.Optional("on_failure");
  if (!failure) return f.Missing("on_failure");
  ETMEM_TRY(s.on_failure, ReadFailure(*failure, where));
  return s;
}

struct MeasureName {
  Measure measure;
  const char* name;
};
constexpr MeasureName kMeasures[] = {{Measure::kSteps, "steps"},
                                     {Measure::kUsed, "used"},
                                     {Measure::kPoolSize, "pool_size"},
                                     {Measure::kFree, "free"}};

Result<PrintoutSpec> ReadPrintout(const json& j, const std::string& where, const Profile& p) {
  Fields f(j, where);
  if (auto ok = f.Known({"format", "pool", "counter", "figures", "when"}); !ok) return ok.error();
  PrintoutSpec out;
  ETMEM_TRY(out.format, f.String("format", true));
  if (out.format.empty()) return Fields::Bad(where + ": \"format\" is empty");
  ETMEM_TRY(out.pool, f.String("pool", true));
  if (!p.FindPool(out.pool)) return Fields::Bad(where + ": unknown pool \"" + Printable(out.pool) + "\"");
  ETMEM_TRY(std::string counter, f.String("counter", true));
  if (counter == "cursor")
    out.counter = Counter::kCursor;
  else if (counter == "arm_bookkeeping")
    out.counter = Counter::kArmBookkeeping;
  else
    return Fields::Bad(where + ": unknown \"counter\" \"" + Printable(counter) +
                       "\" (known: cursor, arm_bookkeeping)");
  ETMEM_TRY(out.when, f.String("when", false));
  if (!out.when.empty() && !p.HasOption(out.when))
    return Fields::Bad(where + ": \"when\" names an option the profile does not declare: \"" +
                       out.when + "\"");
  ETMEM_TRY(const json* figures, f.Array("figures"));
  for (size_t i = 0; i < figures->size(); ++i) {
    Fields o((*figures)[i], where + " figure " + std::to_string(i));
    if (auto ok = o.Known({"name", "measure", "pool"}); !ok) return ok.error();
    FigureSpec spec;
    ETMEM_TRY(spec.name, o.String("name", true));
    if (spec.name.empty()) return Fields::Bad(o.where() + ": \"name\" is empty");
    if (std::any_of(out.figures.begin(), out.figures.end(),
                    [&](const FigureSpec& s) { return s.name == spec.name; }))
      return Fields::Bad(o.where() + ": figure \"" + Printable(spec.name) + "\" declared twice");
    ETMEM_TRY(std::string measure, o.String("measure", true));
    auto m = std::find_if(std::begin(kMeasures), std::end(kMeasures),
                          [&](const MeasureName& n) { return measure == n.name; });
    if (m == std::end(kMeasures))
      return Fields::Bad(o.where() + ": unknown \"measure\" \"" + Printable(measure) +
                         "\" (known: steps, used, pool_size, free)");
    spec.measure = m->measure;
    ETMEM_TRY(spec.pool, o.String("pool", false));
    if (!spec.pool.empty() && spec.measure != Measure::kPoolSize)
      return Fields::Bad(o.where() + ": \"pool\" belongs to a pool_size figure");
    if (!spec.pool.empty() && !p.FindPool(spec.pool))
      return Fields::Bad(o.where() + ": unknown pool \"" + Printable(spec.pool) + "\"");
    out.figures.push_back(std::move(spec));
  }
  return out;
}

struct ConditionName {
  RefusalCondition condition;
  const char* name;
};
constexpr ConditionName kConditions[] = {
    {RefusalCondition::kInputsAbove, "inputs_above"},
    {RefusalCondition::kTensorInputsAbove, "tensor_inputs_above"},
    {RefusalCondition::kOutputsAbove, "outputs_above"},
    {RefusalCondition::kInputRankAbove, "input_rank_above"},
    {RefusalCondition::kFirstTensorInputSizeOtherThan, "first_tensor_input_size_other_than"},
};

Result<RefusalSpec> ReadRefusal(const json& j, const std::string& where) {
  Fields f(j, where);
  if (auto ok = f.Known({"condition", "limit", "logs", "then", "why"}); !ok) return ok.error();
  RefusalSpec r;
  ETMEM_TRY(std::string condition, f.String("condition", true));
  auto c = std::find_if(std::begin(kConditions), std::end(kConditions),
                        [&](const ConditionName& n) { return condition == n.name; });
  if (c == std::end(kConditions))
    return Fields::Bad(where + ": unknown \"condition\" \"" + Printable(condition) +
                       "\" (known: inputs_above, tensor_inputs_above, outputs_above, "
                       "input_rank_above, first_tensor_input_size_other_than)");
  r.condition = c->condition;
  ETMEM_TRY(r.limit, f.Bytes("limit", true));
  ETMEM_TRY(r.logs, f.Strings("logs", true));
  ETMEM_TRY(r.then, f.String("then", true));
  ETMEM_TRY(r.why, f.String("why", false));
  return r;
}

// A name as an image's symbol table or section headers spell it: printable ASCII, no blanks
// (compared byte for byte with the image, so never escaped).
bool IsImageName(const std::string& name) {
  return !name.empty() && name.size() <= 256 &&
         std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

// A string, or null / absent for "none" ("" then). A delta's null removes a key (RFC 7396), so
// the two mean the same.
Result<std::string> StringOrNull(const Fields& f, const char* key) {
  const json* v = f.Optional(key);
  if (!v || v->is_null()) return std::string();
  if (!v->is_string()) return f.WrongType(key, "a string or null");
  return v->get<std::string>();
}

Result<ImageSpec> ReadImage(const json& j, const std::string& where, const Profile& p) {
  Fields f(j, where);
  if (auto ok = f.Known({"tags", "pools", "program", "markers"}); !ok) return ok.error();
  ImageSpec image;
  ETMEM_TRY(image.tags, f.Strings("tags", false));
  for (std::string& t : image.tags) t = ReportText(t);
  ETMEM_TRY(const json* pools, f.Array("pools"));
  if (pools->empty()) return Fields::Bad(where + ": \"pools\" is empty");
  for (size_t i = 0; i < pools->size(); ++i) {
    Fields o((*pools)[i], where + " pool " + std::to_string(i));
    if (auto ok = o.Known({"id", "section"}); !ok) return ok.error();
    ImageSpec::Pool pool;
    ETMEM_TRY(pool.id, o.String("id", true));
    if (!p.FindPool(pool.id))
      return Fields::Bad(o.where() + ": unknown pool \"" + Printable(pool.id) + "\"");
    if (std::any_of(image.pools.begin(), image.pools.end(),
                    [&](const ImageSpec::Pool& q) { return q.id == pool.id; }))
      return Fields::Bad(o.where() + ": pool \"" + Printable(pool.id) + "\" listed twice");
    ETMEM_TRY(pool.section, StringOrNull(o, "section"));
    if (!pool.section.empty() && !IsImageName(pool.section))
      return Fields::Bad(o.where() + ": \"section\" \"" + Printable(pool.section) +
                         "\" is not a section name (printable, no blanks)");
    image.pools.push_back(std::move(pool));
  }
  // In the profile's pool order, whatever order the file lists them in.
  std::vector<ImageSpec::Pool> ordered;
  for (const PoolSpec& spec : p.pools)
    for (const ImageSpec::Pool& pool : image.pools)
      if (pool.id == spec.id) ordered.push_back(pool);
  image.pools = std::move(ordered);
  if (const json* program = f.Optional("program"); program && !program->is_null()) {
    Fields o(*program, where + " program");
    if (auto ok = o.Known({"symbol", "section", "align"}); !ok) return ok.error();
    ETMEM_TRY(image.program_symbol, o.String("symbol", true));
    if (!IsCIdentifier(image.program_symbol))
      return Fields::Bad(o.where() + ": \"symbol\" \"" + Printable(image.program_symbol) +
                         "\" is not a C identifier");
    ETMEM_TRY(image.program_section, StringOrNull(o, "section"));
    if (!image.program_section.empty() && !IsImageName(image.program_section))
      return Fields::Bad(o.where() + ": \"section\" \"" + Printable(image.program_section) +
                         "\" is not a section name (printable, no blanks)");
    if (const json* a = o.Optional("align"); a && !a->is_null()) {
      ETMEM_TRY(uint64_t align, o.Unsigned("align", true, 1, 4096));
      if (!PowerOfTwo(align))
        return Fields::Bad(o.where() + ": \"align\" must be a power of two up to 4096");
      image.program_align = static_cast<uint32_t>(align);
    }
  }
  ETMEM_TRY(image.markers, f.Strings("markers", false));
  for (const std::string& m : image.markers)
    if (!IsImageName(m))
      return Fields::Bad(where + ": marker \"" + Printable(m) +
                         "\" is not part of a symbol name (printable, no blanks)");
  return image;
}

Result<Profile> ParseJson(const json& j, const std::string& origin) {
  Fields f(j, origin);
  if (auto ok = f.Known({"etmem_runner_profile", "name", "description", "source", "releases",
                         "kernels", "methods", "backends", "backends_if_built", "pools",
                         "options", "steps", "printout", "refusals", "image"});
      !ok)
    return ok.error();
  const json* version = f.Optional("etmem_runner_profile");
  if (!version)
    return Fields::Bad(f.Missing("etmem_runner_profile").message + " (the format version, 1)");
  if (!version->is_number_integer() || version->get<int64_t>() != 1)
    return Fields::Bad(origin + ": \"etmem_runner_profile\" must be 1 (this etmem reads format 1)");
  Profile p;
  ETMEM_TRY(p.name, f.String("name", true));
  if (p.name.empty() || p.name.find_first_of("+/ \t") != std::string::npos ||
      p.name.ends_with(".json") ||
      !std::all_of(p.name.begin(), p.name.end(), [](char c) { return c > ' ' && c < 0x7f; }))
    return Fields::Bad(origin + ": \"name\" must be non-empty printable ASCII, without '+', '/', "
                                "blanks or .json");
  ETMEM_TRY(p.description, f.String("description", true));
  p.description = ReportText(p.description);

  const json* source = f.Optional("source");
  if (!source) return f.Missing("source");
  Fields src(*source, origin + " source");
  if (auto ok = src.Known({"path", "tags"}); !ok) return ok.error();
  ETMEM_TRY(p.source_path, src.String("path", true));
  p.source_path = ReportText(p.source_path);
  ETMEM_TRY(p.source_tags, src.Strings("tags", false));

  const json* releases = f.Optional("releases");
  if (!releases) return f.Missing("releases");
  Fields rel(*releases, origin + " releases");
  if (auto ok = rel.Known({"first", "last"}); !ok) return ok.error();
  ETMEM_TRY(p.first_release, rel.String("first", true));
  ETMEM_TRY(p.last_release, rel.String("last", true));
  const auto first = Version::Parse(p.first_release), last = Version::Parse(p.last_release);
  if (!first)
    return Fields::Bad(origin + ": releases first \"" + Printable(p.first_release) + "\" is not a version");
  if (!last)
    return Fields::Bad(origin + ": releases last \"" + Printable(p.last_release) + "\" is not a version");
  if (*last < *first) return Fields::Bad(origin + ": releases last comes before first");

  ETMEM_TRY(p.kernels, f.Strings("kernels", false));
  for (const std::string& k : p.kernels)  // a library name: checked against the libraries later
    if (k.empty() || !IsCIdentifier(k))
      return Fields::Bad(origin + ": \"kernels\" entry \"" + Printable(k) +
                         "\" is not a kernel library name");

  ETMEM_TRY(const std::string methods, f.String("methods", false));
  if (methods != "" && methods != "first" && methods != "all")
    return Fields::Bad(origin + ": \"methods\" must be \"first\" (the runner loads the "
                       "program's first method only) or \"all\", not \"" +
                       Printable(methods) + "\"");
  p.loads_first_method_only = methods == "first";
  ETMEM_TRY(p.backends, f.Strings("backends", false));
  ETMEM_TRY(p.backends_if_built, f.Strings("backends_if_built", false));
  for (const auto* list : {&p.backends, &p.backends_if_built})
    for (const std::string& b : *list)
      if (b.empty() || !IsCIdentifier(b))
        return Fields::Bad(origin + ": backend \"" + Printable(b) + "\" is not a backend id");
  for (const std::string& b : p.backends_if_built)
    if (std::find(p.backends.begin(), p.backends.end(), b) != p.backends.end())
      return Fields::Bad(origin + ": backend \"" + Printable(b) +
                         "\" is in both \"backends\" and \"backends_if_built\"");

  if (const json* options = f.Optional("options")) {
    if (!options->is_array()) return f.WrongType("options", "a list");
    for (size_t i = 0; i < options->size(); ++i) {
      Fields o((*options)[i], origin + " option " + std::to_string(i));
      if (auto ok = o.Known({"name", "description"}); !ok) return ok.error();
      OptionSpec spec;
      ETMEM_TRY(spec.name, o.String("name", true));
      ETMEM_TRY(spec.description, o.String("description", true));
      spec.description = ReportText(spec.description);
      if (spec.name.empty() || spec.name.find_first_of("+ \t") != std::string::npos)
        return Fields::Bad(o.where() + ": \"name\" must be non-empty, without '+' or blanks");
      if (p.HasOption(spec.name))
        return Fields::Bad(o.where() + ": option \"" + Printable(spec.name) + "\" declared twice");
      p.options.push_back(std::move(spec));
    }
  }

  ETMEM_TRY(const json* pools, f.Array("pools"));
  if (pools->empty()) return Fields::Bad(origin + ": \"pools\" is empty");
  for (size_t i = 0; i < pools->size(); ++i) {
    Fields o((*pools)[i], origin + " pool " + std::to_string(i));
    if (auto ok =
            o.Known({"id", "variable", "macro", "default_bytes", "base_align", "role", "when"});
        !ok)
      return ok.error();
    PoolSpec pool;
    ETMEM_TRY(pool.id, o.String("id", true));
    if (pool.id.empty()) return Fields::Bad(o.where() + ": \"id\" is empty");
    if (p.FindPool(pool.id))
      return Fields::Bad(o.where() + ": pool \"" + Printable(pool.id) + "\" declared twice");
    ETMEM_TRY(pool.variable, o.String("variable", true));
    ETMEM_TRY(pool.macro, o.String("macro", false));
    // Both name C symbols (`etmem header` writes them): a C identifier or, for the macro, none.
    for (const auto& [key, name] : {std::pair<const char*, const std::string*>{"variable", &pool.variable},
                                    {"macro", &pool.macro}})
      if (!name->empty() && !IsCIdentifier(*name))
        return Fields::Bad(o.where() + ": \"" + key + "\" \"" + Printable(*name) +
                           "\" is not a C identifier");
    ETMEM_TRY(pool.default_bytes, o.Bytes("default_bytes", true));
    ETMEM_TRY(uint64_t align, o.Bytes("base_align", true));
    if (!PowerOfTwo(align))
      return Fields::Bad(o.where() + ": \"base_align\" must be a power of two up to 4096");
    pool.base_align = static_cast<uint32_t>(align);
    ETMEM_TRY(pool.role, o.String("role", true));
    pool.role = ReportText(pool.role);
    ETMEM_TRY(pool.when, o.String("when", false));
    if (!pool.when.empty() && !p.HasOption(pool.when))
      return Fields::Bad(o.where() + ": \"when\" names an option the profile does not declare: \"" +
                         pool.when + "\"");
    p.pools.push_back(std::move(pool));
  }

  ETMEM_TRY(const json* steps, f.Array("steps"));
  size_t loads = 0;
  for (size_t i = 0; i < steps->size(); ++i) {
    ETMEM_TRY(StepSpec s, ReadStep((*steps)[i], origin + " step " + std::to_string(i), p));
    loads += s.kind == StepKind::kLoadMethod;
    if (s.kind == StepKind::kLoadMethod && !s.when.empty())
      return Fields::Bad(origin + " step " + std::to_string(i) +
                         ": load_method cannot depend on an option");
    p.steps.push_back(std::move(s));
  }
  if (loads != 1)
    return Fields::Bad(origin + ": \"steps\" must have exactly one load_method step (has " +
                       std::to_string(loads) + ")");
  // A memory id claimed by two planned_buffers steps that can both run.
  for (size_t i = 0; i < p.steps.size(); ++i)
    for (size_t k = i + 1; k < p.steps.size(); ++k)
      for (uint32_t id : p.steps[i].memory_ids)
        if (std::find(p.steps[k].memory_ids.begin(), p.steps[k].memory_ids.end(), id) !=
                p.steps[k].memory_ids.end() &&
            (p.steps[i].when.empty() || p.steps[k].when.empty() ||
             p.steps[i].when == p.steps[k].when))
          return Fields::Bad(origin + " step " + std::to_string(k) + ": memory id " +
                             std::to_string(id) + " is already allocated by step " +
                             std::to_string(i));
  if (const json* printout = f.Optional("printout")) {
    ETMEM_TRY(p.printout, ReadPrintout(*printout, origin + " printout", p));
  }
  if (const json* refusals = f.Optional("refusals")) {
    if (!refusals->is_array()) return f.WrongType("refusals", "a list");
    for (size_t i = 0; i < refusals->size(); ++i) {
      ETMEM_TRY(RefusalSpec r,
                ReadRefusal((*refusals)[i], origin + " refusal " + std::to_string(i)));
      p.refusals.push_back(std::move(r));
    }
  }
  if (const json* image = f.Optional("image"); image && !image->is_null()) {
    ETMEM_TRY(p.image, ReadImage(*image, origin + " image", p));
  }
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const std::string& name = p.steps[i].figure;
    if (name.empty()) continue;
    const bool known =
        p.printout && std::any_of(p.printout->figures.begin(), p.printout->figures.end(),
                                  [&](const FigureSpec& s) {
                                    return s.name == name && s.measure == Measure::kSteps;
                                  });
    if (!known)
      return Fields::Bad(origin + " step " + std::to_string(i) + ": \"figure\" \"" + Printable(name) +
                         "\" is not a \"steps\" figure of the profile's printout");
  }
  p.file = origin;
  return p;
}

// The embedded profiles: {file name, JSON text} pairs generated from runner/profiles/*.json.
struct Embedded {
  const char* file;
  const char* text;
};
#define ETMEM_RUNNER_PROFILE(file, text) Embedded{file, text},
constexpr Embedded kEmbedded[] = {
#include "etmem/runner/profile_list.inc"
};
#undef ETMEM_RUNNER_PROFILE

}  // namespace

const char* StepKindName(StepKind k) {
  for (const KindName& n : kKinds)
    if (n.kind == k) return n.name;
  return "?";
}

const char* RefusalConditionName(RefusalCondition c) {
  for (const ConditionName& n : kConditions)
    if (n.condition == c) return n.name;
  return "?";
}

const PoolSpec* Profile::FindPool(std::string_view id) const {
  for (const PoolSpec& p : pools)
    if (p.id == id) return &p;
  return nullptr;
}

bool Profile::HasOption(std::string_view name) const {
  return std::any_of(options.begin(), options.end(),
                     [&](const OptionSpec& o) { return o.name == name; });
}

const StepSpec& Profile::LoadStep() const {
  for (const StepSpec& s : steps)
    if (s.kind == StepKind::kLoadMethod) return s;
  ETMEM_CHECK(false && "a parsed profile has a load_method step");
  return steps.front();
}

std::string_view WhenOption(std::string_view when) {
  return when.starts_with('!') ? when.substr(1) : when;
}

bool WhenHolds(std::string_view when, const std::vector<std::string>& options) {
  if (when.empty()) return true;
  const bool chosen =
      std::find(options.begin(), options.end(), WhenOption(when)) != options.end();
  return when.starts_with('!') ? !chosen : chosen;
}

// ---- Deltas: a profile that "extends" another (docs/runner-profiles.md, "Deltas") ----
// Resolved on the JSON text, in file order, before the whole profile is read and checked as
// any other: a delta cannot make a profile that a whole file could not.
namespace {
using ojson = nlohmann::ordered_json;

const Embedded* FindEmbedded(std::string_view stem) {
  for (const Embedded& e : kEmbedded)
    if (std::string_view(e.file) == std::string(stem) + ".json") return &e;
  return nullptr;
}

std::string BuiltinStems() {
  std::string out;
  for (const Embedded& e : kEmbedded) {
    std::string_view f = e.file;
    f.remove_suffix(5);  // ".json"
    out += (out.empty() ? "" : ", ") + std::string(f);
  }
  return out;
}

// A list of objects keyed by `key` ("id" of a pool, "name" of an option): a list in the delta
// replaces the base's; an object edits it: "KEY": {fields} merges into the entry with that key
// (or appends a new entry), "KEY": null removes it.
Status EditKeyed(ojson& base, const ojson& edit, const char* list, const char* key,
                 const std::string& where) {
  if (edit.is_array()) {
    base[list] = edit;
    return Ok{};
  }
  if (!edit.is_object())
    return Fields::Bad(where + ": \"" + list + "\" is neither a list nor an object of changes");
  if (!base.contains(list) || !base[list].is_array()) base[list] = ojson::array();
  ojson& items = base[list];
  for (const auto& item : edit.items()) {
    auto at = std::find_if(items.begin(), items.end(), [&](const ojson& o) {
      return o.is_object() && o.contains(key) && o[key] == item.key();
    });
    if (item.value().is_null()) {
      if (at == items.end())
        return Fields::Bad(where + ": \"" + list + "\" removes \"" + Printable(item.key()) +
                           "\", which the base does not have");
      items.erase(at);
    } else if (!item.value().is_object()) {
      return Fields::Bad(where + ": \"" + list + "\" change \"" + Printable(item.key()) +
                         "\" is neither an object nor null");
    } else if (at != items.end()) {
      at->merge_patch(item.value());
    } else {
      ojson added = ojson::object();
      added[key] = item.key();
      added.merge_patch(item.value());
      items.push_back(std::move(added));
    }
  }
  return Ok{};
}

// Steps have no names: an object edits them by the base's step numbers (0-based, as errors
// number them). "N": {fields} merges into base step N, "N": null removes it, "before N":
// [steps] inserts steps before base step N (N = the number of base steps: at the end).
Status EditSteps(ojson& base, const ojson& edit, const std::string& where) {
  if (edit.is_array()) {
    base["steps"] = edit;
    return Ok{};
  }
  if (!edit.is_object())
    return Fields::Bad(where + ": \"steps\" is neither a list nor an object of changes");
  const ojson old = base.contains("steps") && base["steps"].is_array() ? base["steps"]
                                                                         : ojson::array();
  const size_t n = old.size();
  std::vector<std::optional<ojson>> kept(old.begin(), old.end());
  std::vector<ojson> before(n + 1, ojson::array());
  auto number = [&](std::string_view text, size_t limit) -> std::optional<size_t> {
    if (text.empty() || text.size() > 6 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    const size_t v = std::stoul(std::string(text));
    return v <= limit ? std::optional<size_t>(v) : std::nullopt;
  };
  for (const auto& item : edit.items()) {
    const std::string& k = item.key();
    const std::string what = where + ": \"steps\" change \"" + Printable(k) + "\"";
    if (k.starts_with("before ")) {
      const auto i = number(std::string_view(k).substr(7), n);
      if (!i) return Fields::Bad(what + " names no base step (0.." + std::to_string(n) + ")");
      if (!item.value().is_array()) return Fields::Bad(what + " is not a list of steps");
      for (const ojson& s : item.value()) before[*i].push_back(s);
      continue;
    }
    const auto i = number(k, n == 0 ? 0 : n - 1);
    if (!i || n == 0)
      return Fields::Bad(what + " names no base step (the base has " + std::to_string(n) + ")");
    if (item.value().is_null()) {
      kept[*i].reset();
    } else if (item.value().is_object()) {
      if (!kept[*i]) return Fields::Bad(what + ": the step is removed");
      kept[*i]->merge_patch(item.value());
    } else {
      return Fields::Bad(what + " is neither an object nor null");
    }
  }
  ojson steps = ojson::array();
  for (size_t i = 0; i <= n; ++i) {
    for (const ojson& s : before[i]) steps.push_back(s);
    if (i < n && kept[i]) steps.push_back(*kept[i]);
  }
  base["steps"] = std::move(steps);
  return Ok{};
}

// The whole profile a file stands for: itself, or (with "extends") the built-in profile it
// names, resolved, with the file's changes applied. `chain` lists the built-ins on the way
// (a built-in that extends itself, directly or not, is an error).
Result<ojson> Resolve(ojson j, const std::string& origin, std::vector<std::string> chain) {
  if (!j.is_object() || !j.contains("extends")) return j;
  const ojson& ext = j["extends"];
  if (!ext.is_string()) return Fields::Bad(origin + ": \"extends\" is not a string");
  const std::string stem = ext.get<std::string>();
  const Embedded* base_file = FindEmbedded(stem);
  if (!base_file)
    return Fields::Bad(origin + ": \"extends\" names no built-in runner profile \"" +
                       Printable(stem) + "\" (built-in: " + BuiltinStems() + ")");
  if (std::find(chain.begin(), chain.end(), stem) != chain.end() || chain.size() > 64)
    return Fields::Bad(origin + ": \"extends\" \"" + Printable(stem) +
                       "\" leads back to itself");
  chain.push_back(stem);
  const std::string text = base_file->text;
  ojson base = ojson::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  const std::string base_origin = std::string("built-in runner profile ") + base_file->file;
  if (base.is_discarded()) return Fields::Bad(base_origin + ": not valid JSON");
  ETMEM_TRY(base, Resolve(std::move(base), base_origin, chain));
  if (!base.is_object()) return Fields::Bad(base_origin + " is not an object");
  if (!j.contains("etmem_runner_profile"))
    return Fields::Bad(origin + ": missing key \"etmem_runner_profile\" (the format version, 1)");
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k == "extends") continue;
    if (k == "pools") {
      if (auto ok = EditKeyed(base, item.value(), "pools", "id", origin); !ok) return ok.error();
    } else if (k == "options") {
      if (auto ok = EditKeyed(base, item.value(), "options", "name", origin); !ok)
        return ok.error();
    } else if (k == "steps") {
      if (auto ok = EditSteps(base, item.value(), origin); !ok) return ok.error();
    } else {
      ojson patch = ojson::object();
      patch[k] = item.value();
      base.merge_patch(patch);  // RFC 7396: objects merge key by key, null removes
    }
  }
  return base;
}

}  // namespace

Result<Profile> ParseProfile(std::string_view text, const std::string& origin_raw) {
  const std::string origin = Printable(origin_raw, kShownPathBytes);  // every message quotes it
  // Parsed in file order (a delta's new pools and steps keep the order they are written in).
  ojson j = ojson::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return json_file::Parse(text, origin).error();
  ETMEM_TRY(ojson whole, Resolve(std::move(j), origin, {}));
  return ParseJson(json::parse(whole.dump()), origin);
}


Result<Profile> ReadProfileFile(const std::string& path) {
  ETMEM_TRY(const std::string text, json_file::ReadText(path, "runner"));
  return ParseProfile(text, path);
}

const std::vector<std::shared_ptr<const Profile>>& BuiltinProfiles() {
  static const std::vector<std::shared_ptr<const Profile>> all = [] {
    std::vector<std::shared_ptr<const Profile>> out;
    for (const Embedded& e : kEmbedded) {
      Result<Profile> p = ParseProfile(e.text, std::string("built-in runner profile ") + e.file);
      if (!p) CheckFailed(__FILE__, __LINE__, p.error().message.c_str());
      p->file = std::string("built-in (") + e.file + ")";
      out.push_back(std::make_shared<const Profile>(std::move(*p)));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a->name != b->name ? a->name < b->name
                                : *Version::Parse(a->first_release) <
                                      *Version::Parse(b->first_release);
    });
    return out;
  }();
  return all;
}

Result<RunnerSelection> SelectRunner(const std::string& spec) {
  std::vector<std::string> parts;
  std::string head = spec;
  // Options follow the last path component: "dir/my+runner.json+opt" keeps the file name whole.
  const size_t slash = spec.rfind('/');
  const size_t json_end = spec.find(".json", slash == std::string::npos ? 0 : slash);
  size_t split = spec.find(
      '+', json_end == std::string::npos ? (slash == std::string::npos ? 0 : slash) : json_end);
  std::vector<std::string> options;
  if (split != std::string::npos) {
    head = spec.substr(0, split);
    std::stringstream rest(spec.substr(split + 1));
    std::string opt;
    while (std::getline(rest, opt, '+')) options.push_back(opt);
  }
  RunnerSelection s;
  if (head.ends_with(".json")) {
    ETMEM_TRY(Profile p, ReadProfileFile(head));
    s.candidates.push_back(std::make_shared<const Profile>(std::move(p)));
  } else {
    std::set<std::string> names;
    for (const auto& p : BuiltinProfiles()) {
      names.insert(p->name);
      if (p->name == head) s.candidates.push_back(p);
    }
    if (s.candidates.empty()) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      return Fields::Bad("--runner " + Printable(head) + ": no such runner (built-in: " + known +
                         "; or a runner file ending in .json)");
    }
  }
  for (const std::string& o : options) {
    const bool known = std::any_of(s.candidates.begin(), s.candidates.end(),
                                   [&](const auto& p) { return p->HasOption(o); });
    if (!known) {
      std::set<std::string> all;
      for (const auto& p : s.candidates)
        for (const OptionSpec& spec_option : p->options) all.insert(spec_option.name);
      std::string list;
      for (const std::string& n : all) list += (list.empty() ? "" : ", ") + n;
      return Fields::Bad("--runner " + Printable(spec) + ": runner " + s.candidates.front()->name +
                         " has no option \"" + Printable(o) +
                         "\" (options: " + (list.empty() ? "none" : list) + ")");
    }
    if (std::count(options.begin(), options.end(), o) > 1)
      return Fields::Bad("--runner " + Printable(spec) + ": option \"" + Printable(o) + "\" given twice");
  }
  s.options = std::move(options);
  return s;
}

Result<const Profile*> ProfileFor(const RunnerSelection& s, const std::string& version) {
  std::string ranges;
  for (const auto& p : s.candidates) {
    if (runtime::ReleaseRange{p->first_release, p->last_release}.Contains(version)) {
      for (const std::string& o : s.options)
        if (!p->HasOption(o))
          return Fields::Bad("runner " + p->name + " (" + p->file + ") has no option \"" + Printable(o) +
                             "\" at ExecuTorch " + Printable(version));
      return p.get();
    }
    ranges += (ranges.empty() ? "" : ", ") + p->first_release + "-" + p->last_release;
  }
  return Fields::Bad("runner " + s.candidates.front()->name + " is not modelled for ExecuTorch " +
                     Printable(version) + " (profiles cover " + ranges + ")");
}

}  // namespace etmem::runner
