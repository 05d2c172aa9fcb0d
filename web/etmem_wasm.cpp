// Owns: the web page's binding to etmem's public API (include/etmem/etmem.h): a handful of
// extern "C" functions that app.js calls through the Emscripten module, each taking its
// options as JSON text and leaving its output (or the error line) in one result buffer.
// Not: any analysis or formatting (the API does it, byte for byte as the command line),
// nor the page (app.js).
//
// Every call returns 0 on success and 1 on an error; etmem_web_result() and
// etmem_web_result_size() then give the output, or the error's one line (what the command
// line prints after "etmem: ").
#include <emscripten/emscripten.h>

#include <cstdint>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"

namespace {

using nlohmann::json;
namespace api = etmem::api;

std::optional<api::Program> g_program;  // the program the page opened
std::optional<api::Report> g_report;    // the last analysis (etmem_web_analyze)
api::Options g_options;                 // its options (a fit analyzes again on the board)
std::string g_result;                   // the last call's output or error line

// The model options (Options) from the page's JSON, read through the one options schema
// (api::OptionSchema, what the command line registers): each key is a schema field, its value
// what the flag takes (a number for a size, true for a flag, an array for a list); absent or
// null keys keep the API's defaults. keep_allocations is the page's own (no flag).
api::Options OptionsFrom(const json& j) {
  api::Options o;
  for (const api::OptionSpec& spec : api::OptionSchema()) {
    if (!j.contains(spec.field) || j[spec.field].is_null()) continue;
    const json& v = j[spec.field];
    std::vector<std::string> values;
    if (spec.kind == api::OptionSpec::Kind::kFlag) {
      if (v.is_string()) values.push_back(v.get<std::string>());
      else if (!v.get<bool>()) continue;
    } else if (v.is_array()) {
      for (const json& e : v) values.push_back(e.get<std::string>());
    } else if (v.is_number_unsigned()) {
      values.push_back(std::to_string(v.get<uint64_t>()));
    } else {
      values.push_back(v.get<std::string>());
    }
    spec.set(o, values);
  }
  o.keep_allocations = j.value("keep_allocations", o.keep_allocations);
  return o;
}

const api::Program& Opened() {
  if (!g_program) throw api::Error(api::ErrorKind::kInvalidArgument, "no program is open");
  return *g_program;
}

const api::Report& Analyzed() {
  if (!g_report) throw api::Error(api::ErrorKind::kInvalidArgument, "nothing is analyzed");
  return *g_report;
}

// Runs `f`, which sets g_result; on an exception, g_result is its message and the call fails.
template <typename F>
int Guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::bad_alloc&) {
    g_result = "out of memory";
  } catch (const json::exception& e) {
    g_result = std::string("bad options from the page: ") + e.what();
  } catch (const std::exception& e) {
    g_result = e.what();
  }
  return 1;
}

api::Format FormatNamed(const std::string& f) {
  return f == "text" ? api::Format::kText
         : f == "csv" ? api::Format::kCsv
         : f == "md"  ? api::Format::kMarkdown
                      : api::Format::kJson;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* etmem_web_result() { return g_result.data(); }
EMSCRIPTEN_KEEPALIVE size_t etmem_web_result_size() { return g_result.size(); }

// Reads and verifies the program in data[0..size); `name` stands for its path in the reports.
// Result: {"name", "size_bytes", "methods"}.
EMSCRIPTEN_KEEPALIVE int etmem_web_open(const uint8_t* data, size_t size, const char* name) {
  return Guarded([&] {
    g_report.reset();
    g_program.reset();
    g_program = api::Program::FromBytes(data, size, name);
    g_result = json{{"name", g_program->name()},
                    {"size_bytes", g_program->size_bytes()},
                    {"methods", g_program->method_names()}}
                   .dump();
  });
}

// What the page offers to choose from: `etmem list runtimes|targets|runners|boards` and the
// version.
EMSCRIPTEN_KEEPALIVE int etmem_web_lists() {
  return Guarded([&] {
    json releases = json::array(), targets = json::array(), runners = json::array();
    for (const auto& r : api::Releases())
      releases.push_back({{"version", r.version}, {"summary", r.summary}});
    for (const auto& t : api::Targets())
      targets.push_back({{"name", t.name},
                         {"description", t.description},
                         {"default_pool_align", t.default_pool_align}});
    for (const auto& r : api::Runners()) {
      json options = json::array();
      for (const auto& [name, description] : r.options)
        options.push_back({{"name", name}, {"description", description}});
      runners.push_back({{"name", r.name},
                         {"first_release", r.first_release},
                         {"last_release", r.last_release},
                         {"source", r.source},
                         {"options", options}});
    }
    json boards = json::array();
    for (const api::Board& b : api::Boards()) {
      json regions = json::array();
      for (const api::BoardRegion& r : b.regions())
        regions.push_back({{"name", r.name}, {"size_bytes", r.size_bytes},
                           {"free_bytes", r.free_bytes}, {"base_align", r.base_align}});
      boards.push_back({{"name", b.name()}, {"description", b.description()}, {"regions", regions}});
    }
    // The release the command line analyzes without --runtime (Options::runtime empty): the
    // newest published release, the last of Releases() before the snapshots of main.
    std::string default_runtime;
    for (const auto& r : api::Releases())
      if (r.commit.empty()) default_runtime = r.version;
    // The options schema: what each option means and its default, as the command line's help
    // says (the page shows it; its values come from the lists above).
    json options = json::array();
    for (const api::OptionSpec& spec : api::OptionSchema())
      options.push_back({{"field", spec.field},
                         {"flag", spec.flag},
                         {"help", spec.help},
                         {"default_help", spec.default_help},
                         {"choices", spec.choices}});
    g_result = json{{"version", api::Version()},
                    {"default_runtime", default_runtime},
                    {"options", options},
                    {"releases", releases},
                    {"targets", targets},
                    {"runners", runners},
                    {"boards", boards}}
                   .dump();
  });
}

// `etmem analyze --format json` for the options; the report is kept for etmem_web_render and
// etmem_web_header.
EMSCRIPTEN_KEEPALIVE int etmem_web_analyze(const char* options_json) {
  return Guarded([&] {
    g_report.reset();
    g_options = OptionsFrom(json::parse(options_json));
    g_report = api::Analyze(Opened(), g_options);
    g_result = g_report->Render(api::Format::kJson);
  });
}

// The kept report as `etmem analyze --format FORMAT` (text, csv, md or json) prints it.
EMSCRIPTEN_KEEPALIVE int etmem_web_render(const char* format) {
  return Guarded([&] { g_result = Analyzed().Render(FormatNamed(format)); });
}

// `etmem header` for the kept report; header_json: {"margin", "define_pools", "section"}.
EMSCRIPTEN_KEEPALIVE int etmem_web_header(const char* header_json) {
  return Guarded([&] {
    const json h = json::parse(header_json);
    api::HeaderOptions header;
    header.margin = h.value("margin", header.margin);
    header.define_pools = h.value("define_pools", header.define_pools);
    header.section = h.value("section", header.section);
    g_result = api::Header(Analyzed(), header);
  });
}

// `etmem plan --format FORMAT` (html, json or text) with the options for the breakdown.
EMSCRIPTEN_KEEPALIVE int etmem_web_plan(const char* options_json, const char* format,
                                        uint32_t alignment) {
  return Guarded([&] {
    const std::string f = format;
    api::PlanOptions plan;
    plan.format = f == "html"   ? api::PlanFormat::kHtml
                  : f == "json" ? api::PlanFormat::kJson
                                : api::PlanFormat::kText;
    plan.alignment = alignment;
    plan.model = OptionsFrom(json::parse(options_json));
    plan.method = plan.model.method;
    g_result = api::Plan(Opened(), plan).output;
  });
}

// `etmem fit --board B [--reserve R=N]... [--method M]` for the kept report's options, analyzed
// again on the board (its core names CMSIS-NN's extension where the target does not): fit_json
// {"board": a built-in name | "board_json": a board file's text, "board_name": its name,
// "reserve": ["REGION=BYTES", ...], "method": the method (default: the report's first)}.
// Result: {"method", "board", "board_file", "fits", "short_bytes", "lower_bound": {"short_bytes",
// "reason"}, "placement": [{"piece", "region", "offset", "padding", "bytes", "align",
// "memory_id"}], "regions": [{"name", "free_bytes", "used_bytes"}], "notes", "splits", "text"}
// ("text": what `etmem fit` prints).
EMSCRIPTEN_KEEPALIVE int etmem_web_fit(const char* fit_json) {
  return Guarded([&] {
    const json f = json::parse(fit_json);
    api::Board board = f.contains("board_json")
                           ? api::Board::FromJson(f["board_json"].get<std::string>(),
                                                  f.value("board_name", std::string("<board>")))
                           : api::Board::Open(f.at("board").get<std::string>());
    for (const std::string& r : f.value("reserve", std::vector<std::string>{}))
      board = board.Reserve(r);
    Analyzed();  // a program analyzed first, as the other views need
    const api::BoardFit fit =
        api::Fit(api::Analyze(Opened(), g_options, board), board, f.value("method", std::string()));
    json placement = json::array(), regions = json::array();
    for (const api::FitPlacement& p : fit.placement())
      placement.push_back({{"piece", p.piece}, {"region", p.region}, {"offset", p.offset},
                           {"padding", p.padding}, {"bytes", p.bytes}, {"align", p.align},
                           {"memory_id", p.memory_id}});
    for (const api::FitRegion& r : fit.regions())
      regions.push_back(
          {{"name", r.name}, {"free_bytes", r.free_bytes}, {"used_bytes", r.used_bytes}});
    g_result = json{{"method", fit.method()},
                    {"board", board.name()},
                    {"board_file", board.file()},
                    {"fits", fit.fits()},
                    {"short_bytes", fit.short_bytes()},
                    {"lower_bound",
                     {{"short_bytes", fit.lower_bound_short_bytes()},
                      {"reason", fit.lower_bound_reason()}}},
                    {"placement", placement},
                    {"regions", regions},
                    {"notes", fit.notes()},
                    {"splits", fit.splits()},
                    {"text", fit.Render()}}
                   .dump();
  });
}

// `etmem firmware IMAGE --runtime R [--runner N] [--method M] [--target T]` for a linked image
// in data[0..size) (`name` stands for its path); options_json {"runtime", "runner", "method",
// "target", "kernels"} ("" or absent: the command line's default). Result: {"json": what
// `etmem firmware --format json` prints, "text": what it prints}.
EMSCRIPTEN_KEEPALIVE int etmem_web_firmware(const uint8_t* data, size_t size, const char* name,
                                            const char* options_json) {
  return Guarded([&] {
    const json j = json::parse(options_json);
    api::FirmwareOptions o;
    o.model.runtime = j.value("runtime", o.model.runtime);
    o.model.runner = j.value("runner", o.model.runner);
    o.model.method = j.value("method", o.model.method);
    o.model.target = j.value("target", o.model.target);
    o.model.kernels = j.value("kernels", o.model.kernels);
    o.stack = false;  // no disassembler in WebAssembly: `etmem firmware --no-stack`'s report
    const api::FirmwareReport r = api::CheckFirmware(
        std::span(reinterpret_cast<const std::byte*>(data), size), name, o);
    g_result = json{{"json", api::Render(r, api::Format::kJson)},
                    {"text", api::Render(r, api::Format::kText)}}
                   .dump();
  });
}

// `etmem replan`: the re-planned program's bytes (binary, in the result buffer).
EMSCRIPTEN_KEEPALIVE int etmem_web_replan(uint32_t alignment) {
  return Guarded([&] {
    const api::Replanned r = api::Replan(Opened(), alignment);
    g_result.assign(reinterpret_cast<const char*>(r.program.data()), r.program.size());
  });
}

}  // extern "C"
