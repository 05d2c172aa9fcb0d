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
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "etmem/etmem.h"

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
// line prints, without the text (a 64-bit integer becomes the nearest double, as there). Keys and
// short strings repeat (members, categories, sites): each distinct one is made once.
class ValBuilder final : public api::JsonVisitor {
 public:
  val Take() { return std::move(*result_); }

  void Null() override { Add(val::null()); }
  void Bool(bool v) override { Add(val(v)); }
  void Int(int64_t v) override { Add(val(static_cast<double>(v))); }
  void Uint(uint64_t v) override { Add(val(static_cast<double>(v))); }
  void Double(double v) override { Add(val(v)); }
  void String(std::string_view v) override { Add(v.size() <= 24 ? Cached(v) : Str(v)); }
  void BeginArray(size_t) override { stack_.push_back({val::array(), std::nullopt, 0}); }
  void BeginObject(size_t) override { stack_.push_back({val::object(), std::nullopt, 0}); }
  void Key(std::string_view key) override { stack_.back().key = Cached(key); }
  void EndArray() override { Close(); }
  void EndObject() override { Close(); }

 private:
  struct Frame {
    val container;
    std::optional<val> key;  // an object's member whose value comes next
    uint32_t index;          // an array's next item
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  const val& Cached(std::string_view v) {
    auto it = cache_.find(v);
    if (it == cache_.end()) it = cache_.emplace(std::string(v), Str(v)).first;
    return it->second;
  }
  void Close() {
    val done = std::move(stack_.back().container);
    stack_.pop_back();
    Add(done);
  }
  void Add(const val& v) {
    if (stack_.empty()) {
      result_.emplace(v);
      return;
    }
    Frame& f = stack_.back();
    if (f.key) {
      f.container.set(*f.key, v);
      f.key.reset();
    } else {
      f.container.set(f.index++, v);
    }
  }

  std::vector<Frame> stack_;
  std::optional<val> result_;
  std::unordered_map<std::string, val, Hash, std::equal_to<>> cache_;
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
    val r = val::object();
    r.set("name", Str(g_program->name()));
    r.set("size_bytes", Bytes(g_program->size_bytes()));
    r.set("methods", Strings(g_program->method_names()));
    return r;
  });
}

// What the page offers to choose from: `etmem list runtimes|targets|runners|boards`, the options
// schema and the version.
val Lists() {
  return Guarded([&] {
    val releases = Array<api::ReleaseInfo>(api::Releases(), [](const api::ReleaseInfo& r) {
      val e = val::object();
      e.set("version", Str(r.version));
      e.set("summary", Str(r.summary));
      return e;
    });
    val targets = Array<api::TargetInfo>(api::Targets(), [](const api::TargetInfo& t) {
      val e = val::object();
      e.set("name", Str(t.name));
      e.set("description", Str(t.description));
      e.set("default_pool_align", val(t.default_pool_align));
      return e;
    });
    val runners = Array<api::RunnerInfo>(api::Runners(), [](const api::RunnerInfo& r) {
      val options = val::array();
      uint32_t i = 0;
      for (const auto& [name, description] : r.options) {
        val o = val::object();
        o.set("name", Str(name));
        o.set("description", Str(description));
        options.set(i++, o);
      }
      val e = val::object();
      e.set("name", Str(r.name));
      e.set("first_release", Str(r.first_release));
      e.set("last_release", Str(r.last_release));
      e.set("source", Str(r.source));
      e.set("options", options);
      return e;
    });
    val boards = Array<api::Board>(api::Boards(), [](const api::Board& b) {
      val e = val::object();
      e.set("name", Str(b.name()));
      e.set("description", Str(b.description()));
      e.set("regions", Array<api::BoardRegion>(b.regions(), [](const api::BoardRegion& r) {
              val g = val::object();
              g.set("name", Str(r.name));
              g.set("size_bytes", Bytes(r.size_bytes));
              g.set("free_bytes", Bytes(r.free_bytes));
              g.set("base_align", val(r.base_align));
              return g;
            }));
      return e;
    });
    // The release the command line analyzes without --runtime (Options::runtime empty): the
    // newest published release, the last of Releases() before the snapshots of main.
    std::string default_runtime;
    for (const auto& r : api::Releases())
      if (r.commit.empty()) default_runtime = r.version;
    // The options schema: what each option means and its default, as the command line's help
    // says (the page shows it; its values come from the lists above).
    val options = Array<api::OptionSpec>(api::OptionSchema(), [](const api::OptionSpec& spec) {
      val e = val::object();
      e.set("field", Str(spec.field));
      e.set("flag", Str(spec.flag));
      e.set("help", Str(spec.help));
      e.set("default_help", Str(spec.default_help));
      e.set("choices", Strings(spec.choices));
      return e;
    });
    val r = val::object();
    r.set("version", Str(api::Version()));
    r.set("default_runtime", Str(default_runtime));
    r.set("options", options);
    r.set("releases", releases);
    r.set("targets", targets);
    r.set("runners", runners);
    r.set("boards", boards);
    return r;
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
    val r = val::object();
    r.set("method", Str(fit.method()));
    r.set("board", Str(board.name()));
    r.set("board_file", Str(board.file()));
    r.set("fits", val(fit.fits()));
    r.set("short_bytes", Bytes(fit.short_bytes()));
    val lower = val::object();
    lower.set("short_bytes", Bytes(fit.lower_bound_short_bytes()));
    lower.set("reason", Str(fit.lower_bound_reason()));
    r.set("lower_bound", lower);
    r.set("placement", Array<api::FitPlacement>(fit.placement(), [](const api::FitPlacement& p) {
            val e = val::object();
            e.set("piece", Str(p.piece));
            e.set("region", Str(p.region));
            e.set("offset", Bytes(p.offset));
            e.set("padding", Bytes(p.padding));
            e.set("bytes", Bytes(p.bytes));
            e.set("align", val(p.align));
            e.set("memory_id", val(p.memory_id));
            return e;
          }));
    r.set("regions", Array<api::FitRegion>(fit.regions(), [](const api::FitRegion& g) {
            val e = val::object();
            e.set("name", Str(g.name));
            e.set("free_bytes", Bytes(g.free_bytes));
            e.set("used_bytes", Bytes(g.used_bytes));
            return e;
          }));
    r.set("notes", Strings(fit.notes()));
    r.set("splits", val(fit.splits()));
    r.set("text", Str(fit.Render()));
    return r;
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
    val out = val::object();
    out.set("report", ToVal(api::ToJsonValue(r)));
    out.set("text", Str(api::Render(r, api::Format::kText)));
    return out;
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
