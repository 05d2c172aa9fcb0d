// Owns: the web page's binding to etmem's public API (include/etmem/etmem.h), with embind: one
// function per view of the page (module.open, lists, analyze, perOp, summary, plan, fit,
// firmware, ...), each returning {ok: VALUE} or {error: the one line}, VALUE a JavaScript object
// built here from the library's values: the API's structs member by member, or its JSON values
// (api::JsonValue) walked node by node into objects and arrays, never rendered to text and
// parsed. The text the page shows as text (the reports as the command line prints them, the
// C header, the planned-memory map's HTML) comes as strings. Options come in as the page's
// objects. Not: any analysis or formatting (the API does it, byte for byte as the command line),
// nor the page (app.js).
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "etmem/etmem.h"

// The JavaScript side of ValBuilder (below): Module.etmemValue, the value being built.
EM_JS(void, etmem_value_start, (), {
  Module.etmemValue = {stack: [], arrays: [], keys: [], key: null, names: [], result: null,
                       decoder: new TextDecoder()};
});
EM_JS(void, etmem_value_name, (int id, const char* data, int size), {
  const b = Module.etmemValue;
  b.names[id] = b.decoder.decode(HEAPU8.subarray(data, data + size));
});
EM_JS(void, etmem_value_add, (int kind, double number, const char* data, int size), {
  // kind 0: null, 1: boolean (number), 2: number, 3: a string (data, size), 4: a named string
  // (number: its id), 5: a key (number: its id), 6: begin an array, 7: begin an object, 8: end.
  const b = Module.etmemValue;
  let v;
  switch (kind) {
    case 0: v = null; break;
    case 1: v = number !== 0; break;
    case 2: v = number; break;
    case 3: v = b.decoder.decode(HEAPU8.subarray(data, data + size)); break;
    case 4: v = b.names[number]; break;
    case 5: b.key = b.names[number]; return;
    case 6: case 7:
      b.keys.push(b.key);
      b.arrays.push(kind === 6);
      b.stack.push(kind === 6 ? [] : {});
      b.key = null;
      return;
    case 8:
      v = b.stack.pop();
      b.arrays.pop();
      b.key = b.keys.pop();
      break;
  }
  const n = b.stack.length;
  if (n === 0) b.result = v;
  else if (b.arrays[n - 1]) b.stack[n - 1].push(v);
  else b.stack[n - 1][b.key] = v;
});
EM_JS(void, etmem_value_finish, (), {
  Module.etmemValueResult = Module.etmemValue.result;
  Module.etmemValue = null;
});
EM_JS(void, etmem_value_clear, (), { Module.etmemValueResult = null; });

namespace {

namespace api = etmem::api;
using emscripten::val;

std::optional<api::Program> g_program;  // the program the page opened
std::optional<api::Report> g_report;    // the last analysis (analyze)
api::Options g_options;                 // its options (a fit analyzes again on the board)

// A JavaScript string of UTF-8 bytes (the library's strings are valid UTF-8).
val Str(std::string_view s) { return val(std::string(s)); }

// api::JsonValue as JavaScript values: objects with the members in the JSON text's order,
// arrays, numbers, strings, booleans and null: what JSON.parse makes of the text the command
// line prints, without the text (a 64-bit integer becomes the nearest double, as there). The
// walk is the library's (JsonValue::Visit); each node it visits is one call of the small
// JavaScript functions above (EM_JS), which attach it to the open object or array
// (Module.etmemValue):
// numbers and booleans go as numbers, strings as their UTF-8 bytes in the module's memory, and
// keys and short strings, which repeat (members, categories, sites), once each, then by number.
// The LSTM x100's report (47,000 allocations) is built so in about 0.4-0.8 s of the page's
// analysis where embind's generic val calls (three to five handle operations per node) took
// 1.9-3.7 s (bench/RESULTS.md, 2026-12-07 late).
class ValBuilder final : public api::JsonVisitor {
 public:
  ValBuilder() { etmem_value_start(); }
  val Take() {
    etmem_value_finish();
    val result = val::module_property("etmemValueResult");
    etmem_value_clear();
    return result;
  }

  void Null() override { Add(0); }
  void Bool(bool v) override { Add(1, v ? 1 : 0); }
  void Int(int64_t v) override { Add(2, static_cast<double>(v)); }
  void Uint(uint64_t v) override { Add(2, static_cast<double>(v)); }
  void Double(double v) override { Add(2, v); }
  void String(std::string_view v) override {
    if (v.size() <= 24) Add(4, Named(v));
    else etmem_value_add(3, 0, v.data(), static_cast<int>(v.size()));
  }
  void BeginArray(size_t) override { Add(6); }
  void BeginObject(size_t) override { Add(7); }
  void Key(std::string_view key) override { Add(5, Named(key)); }
  void EndArray() override { Add(8); }
  void EndObject() override { Add(8); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  static void Add(int kind, double number = 0) { etmem_value_add(kind, number, nullptr, 0); }
  // The id of a key or short string, defined on the JavaScript side when it is new.
  double Named(std::string_view v) {
    auto it = names_.find(v);
    if (it == names_.end()) {
      it = names_.emplace(std::string(v), static_cast<int>(names_.size())).first;
      etmem_value_name(it->second, v.data(), static_cast<int>(v.size()));
    }
    return it->second;
  }

  std::unordered_map<std::string, int, Hash, std::equal_to<>> names_;
};

val ToVal(const api::JsonValue& value) {
  ValBuilder builder;
  value.Visit(builder);
  return builder.Take();
}

template <typename T>
val Array(const std::vector<T>& items, val (*each)(const T&)) {
  val a = val::array();
  for (uint32_t i = 0; i < items.size(); ++i) a.set(i, each(items[i]));
  return a;
}
val Strings(const std::vector<std::string>& items) {
  return Array<std::string>(items, [](const std::string& s) { return Str(s); });
}
val Bytes(uint64_t n) { return val(static_cast<double>(n)); }
// An object with these members, in this order.
val Object(std::initializer_list<std::pair<const char*, val>> members) {
  val o = val::object();
  for (const auto& [key, value] : members) o.set(key, value);
  return o;
}

// The page's option values: a string, a whole number (a size), a boolean (a flag) or an array
// of strings; anything else is an error naming the option.
std::string Text(const val& v, const std::string& field) {
  const std::string type = v.typeOf().as<std::string>();
  if (type == "string") return v.as<std::string>();
  if (type == "number") {
    const double d = v.as<double>();
    if (d >= 0 && d < 18446744073709551616.0 && std::floor(d) == d)
      return std::to_string(static_cast<uint64_t>(d));
  }
  throw api::Error(api::ErrorKind::kInvalidArgument,
                   "bad options from the page: " + field + ": not a string or a whole number");
}
bool Given(const val& v) { return !v.isUndefined() && !v.isNull(); }

// The model options (Options) from the page's object, read through the one options schema
// (api::OptionSchema, what the command line registers): each member is a schema field, its value
// what the flag takes (a number for a size, true for a flag, an array for a list); absent or
// null members keep the API's defaults. keep_allocations is the page's own (no flag).
api::Options OptionsFrom(const val& j) {
  api::Options o;
  if (!Given(j)) return o;
  for (const api::OptionSpec& spec : api::OptionSchema()) {
    const val v = j[spec.field];
    if (!Given(v)) continue;
    std::vector<std::string> values;
    if (spec.kind == api::OptionSpec::Kind::kFlag && v.typeOf().as<std::string>() == "boolean") {
      if (!v.as<bool>()) continue;
    } else if (v.isArray()) {
      const uint32_t n = v["length"].as<uint32_t>();
      for (uint32_t i = 0; i < n; ++i) values.push_back(Text(v[i], spec.field));
    } else {
      values.push_back(Text(v, spec.field));
    }
    spec.set(o, values);
  }
  const val keep = j["keep_allocations"];
  if (Given(keep)) o.keep_allocations = keep.as<bool>();
  return o;
}
std::string Member(const val& j, const char* key, const std::string& otherwise = "") {
  if (!Given(j)) return otherwise;
  const val v = j[key];
  return Given(v) ? Text(v, key) : otherwise;
}

// The bytes of a Uint8Array, copied into the module's memory.
std::vector<std::byte> BytesOf(const val& array) {
  std::vector<std::byte> bytes(array["length"].as<size_t>());
  val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<uint8_t*>(bytes.data())))
      .call<void>("set", array);
  return bytes;
}

const api::Program& Opened() {
  if (!g_program) throw api::Error(api::ErrorKind::kInvalidArgument, "no program is open");
  return *g_program;
}

const api::Report& Analyzed() {
  if (!g_report) throw api::Error(api::ErrorKind::kInvalidArgument, "nothing is analyzed");
  return *g_report;
}

// {ok: f()}, or {error: the one line the command line prints after "etmem: "}.
template <typename F>
val Guarded(F&& f) {
  val out = val::object();
  std::string error;
  try {
    out.set("ok", f());
    return out;
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  }
  out.set("error", Str(error));
  return out;
}

api::Format FormatNamed(const std::string& f) {
  return f == "text" ? api::Format::kText
         : f == "csv" ? api::Format::kCsv
         : f == "md"  ? api::Format::kMarkdown
                      : api::Format::kJson;
}

// Reads and verifies the program in `bytes` (a Uint8Array); `name` stands for its path in the
// reports. {name, size_bytes, methods}.
val Open(val bytes, std::string name) {
  return Guarded([&] {
    g_report.reset();
    g_program.reset();
    g_program = api::Program::FromBytes(BytesOf(bytes), name);
    return Object({{"name", Str(g_program->name())},
                   {"size_bytes", Bytes(g_program->size_bytes())},
                   {"methods", Strings(g_program->method_names())}});
  });
}

// What the page offers to choose from: `etmem list runtimes|targets|runners|boards`, the options
// schema and the version.
val Lists() {
  return Guarded([&] {
    // The release the command line analyzes without --runtime (Options::runtime empty): the
    // newest published release, the last of Releases() before the snapshots of main.
    std::string default_runtime;
    for (const auto& r : api::Releases())
      if (r.commit.empty()) default_runtime = r.version;
    return Object({
        {"version", Str(api::Version())},
        {"default_runtime", Str(default_runtime)},
        // The options schema: what each option means and its default, as the command line's
        // help says (the page shows it; its values come from the lists below).
        {"options", Array<api::OptionSpec>(api::OptionSchema(),
                                           [](const api::OptionSpec& o) {
                                             return Object({{"field", Str(o.field)},
                                                            {"flag", Str(o.flag)},
                                                            {"help", Str(o.help)},
                                                            {"default_help", Str(o.default_help)},
                                                            {"choices", Strings(o.choices)}});
                                           })},
        {"releases", Array<api::ReleaseInfo>(api::Releases(),
                                             [](const api::ReleaseInfo& r) {
                                               return Object({{"version", Str(r.version)},
                                                              {"summary", Str(r.summary)}});
                                             })},
        {"targets", Array<api::TargetInfo>(api::Targets(),
                                           [](const api::TargetInfo& t) {
                                             return Object({{"name", Str(t.name)},
                                                            {"description", Str(t.description)},
                                                            {"default_pool_align",
                                                             val(t.default_pool_align)}});
                                           })},
        {"runners", Array<api::RunnerInfo>(api::Runners(),
                                           [](const api::RunnerInfo& r) {
                                             val options = val::array();
                                             uint32_t i = 0;
                                             for (const auto& [name, what] : r.options)
                                               options.set(i++, Object({{"name", Str(name)},
                                                                        {"description", Str(what)}}));
                                             return Object({{"name", Str(r.name)},
                                                            {"first_release", Str(r.first_release)},
                                                            {"last_release", Str(r.last_release)},
                                                            {"source", Str(r.source)},
                                                            {"options", options}});
                                           })},
        {"boards", Array<api::Board>(api::Boards(), [](const api::Board& b) {
           return Object(
               {{"name", Str(b.name())},
                {"description", Str(b.description())},
                {"regions", Array<api::BoardRegion>(b.regions(), [](const api::BoardRegion& r) {
                   return Object({{"name", Str(r.name)},
                                  {"size_bytes", Bytes(r.size_bytes)},
                                  {"free_bytes", Bytes(r.free_bytes)},
                                  {"base_align", val(r.base_align)}});
                 })}});
         })},
    });
  });
}

// `etmem analyze --format json`'s content for the options, as a value; the report is kept for
// render, header, perOp, summary and fit.
val Analyze(val options) {
  return Guarded([&] {
    g_report.reset();
    g_options = OptionsFrom(options);
    g_report = api::Analyze(Opened(), g_options);
    return ToVal(api::ToJsonValue(std::span(&*g_report, 1)));
  });
}

// The kept report as `etmem analyze --format FORMAT` (text, csv, md or json) prints it: text to
// show or save, never to parse.
val Render(std::string format) {
  return Guarded([&] { return Str(Analyzed().Render(FormatNamed(format))); });
}

// `etmem analyze --per-op --format json`'s content for the kept report, sorted by `sort`
// ("index", "live", "temp", "constant", "stack").
val PerOp(std::string sort) {
  return Guarded([&] { return ToVal(api::PerOpJson(Analyzed(), sort)); });
}

// `etmem summary --format json`'s content for the kept report (per method its RAM and parts).
val Summary() {
  return Guarded([&] { return ToVal(api::SummaryJson(Analyzed())); });
}

// `etmem header` for the kept report; header: {margin, define_pools, section}.
val Header(val header) {
  return Guarded([&] {
    api::HeaderOptions h;
    h.margin = Member(header, "margin", h.margin);
    h.section = Member(header, "section", h.section);
    if (Given(header) && Given(header["define_pools"])) h.define_pools = header["define_pools"].as<bool>();
    return Str(api::Header(Analyzed(), h));
  });
}

api::PlanOptions PlanOptionsFrom(const val& options, uint32_t alignment) {
  api::PlanOptions plan;
  plan.alignment = alignment;
  plan.model = OptionsFrom(options);
  plan.method = plan.model.method;
  return plan;
}

// `etmem plan --format json`'s content, as a value.
val Plan(val options, uint32_t alignment) {
  return Guarded([&] { return ToVal(api::PlanJson(Opened(), PlanOptionsFrom(options, alignment))); });
}

// `etmem plan --format html`: the page the map's frame shows.
val PlanHtml(val options, uint32_t alignment) {
  return Guarded([&] {
    api::PlanOptions plan = PlanOptionsFrom(options, alignment);
    plan.format = api::PlanFormat::kHtml;
    return Str(api::Plan(Opened(), plan).output);
  });
}

// `etmem fit --board B [--reserve R=N]... [--method M]` for the kept report's options, analyzed
// again on the board (its core names CMSIS-NN's extension where the target does not): request
// {board: a built-in name | board_json: a board file's text, board_name: its name,
// reserve: ["REGION=BYTES", ...], method: the method (default: the report's first)}.
// {method, board, board_file, fits, short_bytes, lower_bound: {short_bytes, reason},
// placement: [{piece, region, offset, padding, bytes, align, memory_id}],
// regions: [{name, free_bytes, used_bytes}], notes, splits, text} (text: what `etmem fit` prints).
val Fit(val request) {
  return Guarded([&] {
    api::Board board = Given(request["board_json"])
                           ? api::Board::FromJson(Member(request, "board_json"),
                                                  Member(request, "board_name", "<board>"))
                           : api::Board::Open(Member(request, "board"));
    const val reserve = request["reserve"];
    if (Given(reserve))
      for (uint32_t i = 0, n = reserve["length"].as<uint32_t>(); i < n; ++i)
        board = board.Reserve(Text(reserve[i], "reserve"));
    Analyzed();  // a program analyzed first, as the other views need
    const api::BoardFit fit =
        api::Fit(api::Analyze(Opened(), g_options, board), board, Member(request, "method"));
    return Object(
        {{"method", Str(fit.method())},
         {"board", Str(board.name())},
         {"board_file", Str(board.file())},
         {"fits", val(fit.fits())},
         {"short_bytes", Bytes(fit.short_bytes())},
         {"lower_bound", Object({{"short_bytes", Bytes(fit.lower_bound_short_bytes())},
                                 {"reason", Str(fit.lower_bound_reason())}})},
         {"placement", Array<api::FitPlacement>(fit.placement(),
                                                [](const api::FitPlacement& p) {
                                                  return Object({{"piece", Str(p.piece)},
                                                                 {"region", Str(p.region)},
                                                                 {"offset", Bytes(p.offset)},
                                                                 {"padding", Bytes(p.padding)},
                                                                 {"bytes", Bytes(p.bytes)},
                                                                 {"align", val(p.align)},
                                                                 {"memory_id", val(p.memory_id)}});
                                                })},
         {"regions", Array<api::FitRegion>(fit.regions(),
                                           [](const api::FitRegion& g) {
                                             return Object({{"name", Str(g.name)},
                                                            {"free_bytes", Bytes(g.free_bytes)},
                                                            {"used_bytes", Bytes(g.used_bytes)}});
                                           })},
         {"notes", Strings(fit.notes())},
         {"splits", val(fit.splits())},
         {"text", Str(fit.Render())}});
  });
}

// `etmem firmware IMAGE --runtime R [--runner N] [--method M] [--target T] [--kernels K]` for a
// linked image (a Uint8Array; `name` stands for its path); options {runtime, runner, method,
// target, kernels} ("" or absent: the command line's default). {report: `etmem firmware --format
// json`'s content as a value, text: what it prints}.
val Firmware(val bytes, std::string name, val options) {
  return Guarded([&] {
    api::FirmwareOptions o;
    o.model.runtime = Member(options, "runtime", o.model.runtime);
    o.model.runner = Member(options, "runner", o.model.runner);
    o.model.method = Member(options, "method", o.model.method);
    o.model.target = Member(options, "target", o.model.target);
    if (Given(options) && Given(options["kernels"])) {
      const val k = options["kernels"];
      if (k.isArray())
        for (uint32_t i = 0, n = k["length"].as<uint32_t>(); i < n; ++i)
          o.model.kernels.push_back(Text(k[i], "kernels"));
      else
        o.model.kernels.push_back(Text(k, "kernels"));
    }
    o.stack = false;  // no disassembler in WebAssembly: `etmem firmware --no-stack`'s report
    const std::vector<std::byte> image = BytesOf(bytes);
    const api::FirmwareReport r = api::CheckFirmware(image, name, o);
    return Object({{"report", ToVal(api::ToJsonValue(r))},
                   {"text", Str(api::Render(r, api::Format::kText))}});
  });
}

// `etmem replan`: the re-planned program's bytes (a Uint8Array).
val Replan(uint32_t alignment) {
  return Guarded([&] {
    const api::Replanned r = api::Replan(Opened(), alignment);
    return val::global("Uint8Array")
        .new_(emscripten::typed_memory_view(r.program.size(),
                                            reinterpret_cast<const uint8_t*>(r.program.data())));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(etmem_web) {
  emscripten::function("open", &Open);
  emscripten::function("lists", &Lists);
  emscripten::function("analyze", &Analyze);
  emscripten::function("render", &Render);
  emscripten::function("perOp", &PerOp);
  emscripten::function("summary", &Summary);
  emscripten::function("header", &Header);
  emscripten::function("plan", &Plan);
  emscripten::function("planHtml", &PlanHtml);
  emscripten::function("fit", &Fit);
  emscripten::function("firmware", &Firmware);
  emscripten::function("replan", &Replan);
}
