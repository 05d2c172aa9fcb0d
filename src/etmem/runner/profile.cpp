// Owns: the runner-profile JSON reader, the built-in profiles and choosing one (profile.h).
// Not: sizes (runner_plan.cpp).
#include "etmem/runner/profile.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "etmem/base/printable.h"

namespace etmem::runner {
namespace {

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
constexpr size_t kMaxText = 4096;  // a string field longer than this is cut short

// Reads fields of one JSON object, naming the object in every error, and refuses fields it
// does not know (a misspelt field would otherwise be silently ignored). Every string read is
// kept printable (etmem::Printable), as errors and reports quote names, ids and descriptions.
class Fields {
 public:
  Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {}

  Status Known(std::initializer_list<const char*> names) const {
    if (!j_.is_object()) return Bad(where_ + " is not an object");
    for (const auto& item : j_.items()) {
      const std::string& key = item.key();  // em++ (clang 14) cannot capture a structured binding
      if (std::none_of(names.begin(), names.end(), [&](const char* n) { return key == n; }))
        return Bad(where_ + ": unknown field \"" + Printable(key) + "\"");
    }
    return Ok{};
  }
  Result<std::string> String(const char* name, bool required) const {
    if (!j_.contains(name)) {
      if (required) return Bad(where_ + ": missing field \"" + name + "\"");
      return std::string();
    }
    const json& v = j_.at(name);
    if (!v.is_string()) return Bad(where_ + ": \"" + name + "\" is not a string");
    return Printable(v.get<std::string>(), kMaxText);
  }
  Result<uint64_t> Bytes(const char* name, bool required, uint64_t fallback = 0) const {
    if (!j_.contains(name)) {
      if (required) return Bad(where_ + ": missing field \"" + name + "\"");
      return fallback;
    }
    const json& v = j_.at(name);
    if (v.is_number_integer() && v.get<int64_t>() < 0)
      return Bad(where_ + ": \"" + name + "\" is negative");
    if (!v.is_number_unsigned() && !v.is_number_integer())
      return Bad(where_ + ": \"" + name + "\" is not a whole number of bytes");
    const uint64_t n = v.get<uint64_t>();
    if (n > kMaxBytes) return Bad(where_ + ": \"" + name + "\" is above 4 GiB");
    return n;
  }
  Result<std::vector<std::string>> Strings(const char* name, bool required) const {
    std::vector<std::string> out;
    if (!j_.contains(name)) {
      if (required) return Bad(where_ + ": missing field \"" + name + "\"");
      return out;
    }
    const json& v = j_.at(name);
    if (!v.is_array()) return Bad(where_ + ": \"" + name + "\" is not a list of strings");
    for (const json& s : v) {
      if (!s.is_string()) return Bad(where_ + ": \"" + name + "\" is not a list of strings");
      out.push_back(Printable(s.get<std::string>(), kMaxText));
    }
    return out;
  }
  Result<const json*> Array(const char* name) const {
    if (!j_.contains(name)) return Bad(where_ + ": missing field \"" + name + "\"");
    const json& v = j_.at(name);
    if (!v.is_array()) return Bad(where_ + ": \"" + name + "\" is not a list");
    return &v;
  }
  const json* Optional(const char* name) const {
    return j_.contains(name) ? &j_.at(name) : nullptr;
  }
  const std::string& where() const { return where_; }

  static Error Bad(const std::string& what) { return MakeError(ErrorCode::kInvalidArgument, what); }

 private:
  const json& j_;
  std::string where_;
};

bool PowerOfTwo(uint64_t v) { return v >= 1 && v <= 4096 && (v & (v - 1)) == 0; }

// "1.4.1" -> {1, 4, 1}; a snapshot of ExecuTorch's main branch, "main-YYYYMMDD-<commit>",
// comes after every numbered release, by date; empty when it is neither.
std::vector<int> VersionParts(std::string_view v) {
  constexpr std::string_view kMain = "main-";
  if (v.starts_with(kMain) && v.size() > kMain.size() + 9 && v[kMain.size() + 8] == '-') {
    const std::string_view date = v.substr(kMain.size(), 8);
    const std::string_view commit = v.substr(kMain.size() + 9);
    if (!std::all_of(date.begin(), date.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        !std::all_of(commit.begin(), commit.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }))
      return {};
    return {1000000, std::stoi(std::string(date)), 0};
  }
  if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
  std::vector<int> parts;
  int n = -1;
  for (char c : v) {
    if (c >= '0' && c <= '9') {
      n = (n < 0 ? 0 : n * 10) + (c - '0');
      if (n > 100000) return {};
    } else if (c == '.' && n >= 0) {
      parts.push_back(n);
      n = -1;
    } else {
      return {};
    }
  }
  if (n < 0) return {};
  parts.push_back(n);
  while (parts.size() < 3) parts.push_back(0);
  return parts;
}

Result<FailureBehaviour> ReadFailure(const json& j, const std::string& where) {
  Fields f(j, where + " on_failure");
  if (auto ok = f.Known({"logs", "aborts", "harmless", "then"}); !ok) return ok.error();
  FailureBehaviour b;
  ETMEM_TRY(b.logs, f.Strings("logs", false));
  if (const json* a = f.Optional("aborts")) {
    if (!a->is_boolean()) return Fields::Bad(f.where() + ": \"aborts\" is not true or false");
    b.aborts = a->get<bool>();
  } else {
    return Fields::Bad(f.where() + ": missing field \"aborts\"");
  }
  if (const json* h = f.Optional("harmless")) {
    if (!h->is_boolean()) return Fields::Bad(f.where() + ": \"harmless\" is not true or false");
    b.harmless = h->get<bool>();
    if (b.harmless && b.aborts)
      return Fields::Bad(f.where() + ": a failure after which the runner aborts is not harmless");
  }
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
    return Fields::Bad(where + ": unknown step kind \"" + kind + "\" (known: " + known + ")");
  }
  s.kind = k->kind;
  ETMEM_TRY(s.pool, f.String("pool", true));
  if (!p.FindPool(s.pool)) return Fields::Bad(where + ": unknown pool \"" + s.pool + "\"");
  ETMEM_TRY(s.temp_pool, f.String("temp_pool", false));
  if (!s.temp_pool.empty() && s.kind != StepKind::kLoadMethod)
    return Fields::Bad(where + ": \"temp_pool\" belongs to a load_method step");
  if (!s.temp_pool.empty() && !p.FindPool(s.temp_pool))
    return Fields::Bad(where + ": unknown pool \"" + s.temp_pool + "\"");
  if (!s.temp_pool.empty() && s.temp_pool == s.pool)
    return Fields::Bad(where + ": the temp allocator cannot use the method allocator's pool");
  if (const json* a = f.Optional("align")) {
    if (a->is_string() && a->get<std::string>() == "default") {
      s.align_rule = AlignRule::kDefault;
    } else if (a->is_string() && a->get<std::string>() == "element") {
      s.align_rule = AlignRule::kElement;
    } else if (a->is_number_integer() || a->is_number_unsigned()) {
      if (a->is_number_integer() && a->get<int64_t>() < 0)
        return Fields::Bad(where + ": \"align\" is negative");
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
    return Fields::Bad(where + ": missing field \"element\" (a " + kind + " step lists elements)");
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
  ETMEM_TRY(s.when, f.String("when", false));
  if (!s.when.empty() && !p.HasOption(WhenOption(s.when)))
    return Fields::Bad(where + ": \"when\" names an option the profile does not declare: \"" +
                       s.when + "\"");
  ETMEM_TRY(s.bug, f.String("bug", false));
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
  if (const json* e = f.Optional("skip_empty")) {
    if (s.kind != StepKind::kPlannedBuffers)
      return Fields::Bad(where + ": \"skip_empty\" belongs to a planned_buffers step");
    if (!e->is_boolean()) return Fields::Bad(where + ": \"skip_empty\" is not true or false");
    s.skip_empty = e->get<bool>();
  }
  ETMEM_TRY(s.figure, f.String("figure", false));
  const json* failure = f.Optional("on_failure");
  if (!failure) return Fields::Bad(where + ": missing field \"on_failure\"");
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
  if (!p.FindPool(out.pool)) return Fields::Bad(where + ": unknown pool \"" + out.pool + "\"");
  ETMEM_TRY(std::string counter, f.String("counter", true));
  if (counter == "cursor")
    out.counter = Counter::kCursor;
  else if (counter == "arm_bookkeeping")
    out.counter = Counter::kArmBookkeeping;
  else
    return Fields::Bad(where + ": unknown \"counter\" \"" + counter +
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
      return Fields::Bad(o.where() + ": figure \"" + spec.name + "\" declared twice");
    ETMEM_TRY(std::string measure, o.String("measure", true));
    auto m = std::find_if(std::begin(kMeasures), std::end(kMeasures),
                          [&](const MeasureName& n) { return measure == n.name; });
    if (m == std::end(kMeasures))
      return Fields::Bad(o.where() + ": unknown \"measure\" \"" + measure +
                         "\" (known: steps, used, pool_size, free)");
    spec.measure = m->measure;
    ETMEM_TRY(spec.pool, o.String("pool", false));
    if (!spec.pool.empty() && spec.measure != Measure::kPoolSize)
      return Fields::Bad(o.where() + ": \"pool\" belongs to a pool_size figure");
    if (!spec.pool.empty() && !p.FindPool(spec.pool))
      return Fields::Bad(o.where() + ": unknown pool \"" + spec.pool + "\"");
    out.figures.push_back(std::move(spec));
  }
  return out;
}

Result<Profile> ParseJson(const json& j, const std::string& origin) {
  Fields f(j, origin);
  if (auto ok = f.Known({"etmem_runner_profile", "name", "description", "source", "releases",
                         "pools", "options", "steps", "printout"});
      !ok)
    return ok.error();
  const json* version = f.Optional("etmem_runner_profile");
  if (!version)
    return Fields::Bad(origin + ": missing field \"etmem_runner_profile\" (the format version, 1)");
  if (!version->is_number_integer() || version->get<int64_t>() != 1)
    return Fields::Bad(origin + ": \"etmem_runner_profile\" must be 1 (this etmem reads format 1)");
  Profile p;
  ETMEM_TRY(p.name, f.String("name", true));
  if (p.name.empty() || p.name.find_first_of("+/ \t") != std::string::npos ||
      p.name.ends_with(".json"))
    return Fields::Bad(origin + ": \"name\" must be non-empty, without '+', '/', blanks or .json");
  ETMEM_TRY(p.description, f.String("description", true));

  const json* source = f.Optional("source");
  if (!source) return Fields::Bad(origin + ": missing field \"source\"");
  Fields src(*source, origin + " source");
  if (auto ok = src.Known({"path", "tags"}); !ok) return ok.error();
  ETMEM_TRY(p.source_path, src.String("path", true));
  ETMEM_TRY(p.source_tags, src.Strings("tags", false));

  const json* releases = f.Optional("releases");
  if (!releases) return Fields::Bad(origin + ": missing field \"releases\"");
  Fields rel(*releases, origin + " releases");
  if (auto ok = rel.Known({"first", "last"}); !ok) return ok.error();
  ETMEM_TRY(p.first_release, rel.String("first", true));
  ETMEM_TRY(p.last_release, rel.String("last", true));
  const auto first = VersionParts(p.first_release), last = VersionParts(p.last_release);
  if (first.empty())
    return Fields::Bad(origin + ": releases first \"" + p.first_release + "\" is not a version");
  if (last.empty())
    return Fields::Bad(origin + ": releases last \"" + p.last_release + "\" is not a version");
  if (last < first) return Fields::Bad(origin + ": releases last comes before first");

  if (const json* options = f.Optional("options")) {
    if (!options->is_array()) return Fields::Bad(origin + ": \"options\" is not a list");
    for (size_t i = 0; i < options->size(); ++i) {
      Fields o((*options)[i], origin + " option " + std::to_string(i));
      if (auto ok = o.Known({"name", "description"}); !ok) return ok.error();
      OptionSpec spec;
      ETMEM_TRY(spec.name, o.String("name", true));
      ETMEM_TRY(spec.description, o.String("description", true));
      if (spec.name.empty() || spec.name.find_first_of("+ \t") != std::string::npos)
        return Fields::Bad(o.where() + ": \"name\" must be non-empty, without '+' or blanks");
      if (p.HasOption(spec.name))
        return Fields::Bad(o.where() + ": option \"" + spec.name + "\" declared twice");
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
      return Fields::Bad(o.where() + ": pool \"" + pool.id + "\" declared twice");
    ETMEM_TRY(pool.variable, o.String("variable", true));
    ETMEM_TRY(pool.macro, o.String("macro", false));
    ETMEM_TRY(pool.default_bytes, o.Bytes("default_bytes", true));
    ETMEM_TRY(uint64_t align, o.Bytes("base_align", true));
    if (!PowerOfTwo(align))
      return Fields::Bad(o.where() + ": \"base_align\" must be a power of two up to 4096");
    pool.base_align = static_cast<uint32_t>(align);
    ETMEM_TRY(pool.role, o.String("role", true));
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
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const std::string& name = p.steps[i].figure;
    if (name.empty()) continue;
    const bool known =
        p.printout && std::any_of(p.printout->figures.begin(), p.printout->figures.end(),
                                  [&](const FigureSpec& s) {
                                    return s.name == name && s.measure == Measure::kSteps;
                                  });
    if (!known)
      return Fields::Bad(origin + " step " + std::to_string(i) + ": \"figure\" \"" + name +
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

Result<Profile> ParseProfile(std::string_view text, const std::string& origin_raw) {
  const std::string origin = Printable(origin_raw, kShownPathBytes);  // every message quotes it
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Fields::Bad(origin + ": not valid JSON");
  return ParseJson(j, origin);
}

Result<Profile> ReadProfileFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kIo, Printable(path, kShownPathBytes) + ": cannot open the runner file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > (1u << 20)) return Fields::Bad(Printable(path, kShownPathBytes) + ": a runner file above 1 MiB");
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
                                : VersionParts(a->first_release) < VersionParts(b->first_release);
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
      return Fields::Bad("--runner " + Printable(spec) + ": runner " +
                         s.candidates.front()->name + " has no option \"" + Printable(o) +
                         "\" (options: " + (list.empty() ? "none" : list) + ")");
    }
    if (std::count(options.begin(), options.end(), o) > 1)
      return Fields::Bad("--runner " + Printable(spec) + ": option \"" + Printable(o) +
                         "\" given twice");
  }
  s.options = std::move(options);
  return s;
}

Result<const Profile*> ProfileFor(const RunnerSelection& s, const std::string& version) {
  const auto v = VersionParts(version);
  std::string ranges;
  for (const auto& p : s.candidates) {
    if (VersionParts(p->first_release) <= v && v <= VersionParts(p->last_release)) {
      for (const std::string& o : s.options)
        if (!p->HasOption(o))
          return Fields::Bad("runner " + p->name + " (" + p->file + ") has no option \"" +
                             Printable(o) + "\" at ExecuTorch " + Printable(version));
      return p.get();
    }
    ranges += (ranges.empty() ? "" : ", ") + p->first_release + "-" + p->last_release;
  }
  return Fields::Bad("runner " + s.candidates.front()->name + " is not modelled for ExecuTorch " +
                     Printable(version) + " (profiles cover " + ranges + ")");
}

}  // namespace etmem::runner
