// House rules that keep the model honest, checked on every run: release numbers live only in
// runtime/releases/, and no stage uses host sizes (sizeof of a pointer) where a target's belong.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace architecture_test {

namespace fs = std::filesystem;

std::vector<fs::path> Sources(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".cpp" || ext == ".h") &&
        e.path().filename().string().find("_test") == std::string::npos)
      out.push_back(e.path());
  }
  return out;
}

// The file's code with // comments removed (comments may cite releases freely).
std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::string code, line;
  while (std::getline(in, line)) code += line.substr(0, line.find("//")) + "\n";
  return code;
}

TEST(Architecture, ReleaseNumbersAppearOnlyInTheReleaseFiles) {
  const std::regex version(R"("v?[01]\.[0-9](\.[0-9])?")");
  for (const char* dir : {"src/etmem", "tools"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      if (p.parent_path().filename() == "releases") continue;
      // Kernel libraries are release data too: one file per library, deltas per release.
      if (p.parent_path().filename() == "libraries" &&
          p.parent_path().parent_path().filename() == "kernels")
        continue;
      EXPECT_FALSE(std::regex_search(Read(p), version)) << p << " names a release number";
    }
}

TEST(Architecture, ModelStagesNeverUseHostSizes) {
  const std::regex host_size(R"(sizeof\s*\(\s*(void\s*\*|size_t|std::max_align_t|long)\s*\))");
  for (const char* dir : {"src/etmem/abi", "src/etmem/runtime", "src/etmem/runner", "src/etmem/sim",
                          "src/etmem/analysis", "src/etmem/report"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir))
      EXPECT_FALSE(std::regex_search(Read(p), host_size)) << p << " uses a host size";
}

// Runners are data (src/etmem/runner/profiles/*.json): no code names one, so no code can
// special-case one (`if (runner == "arm-baremetal")`).
TEST(Architecture, NoCodeNamesARunner) {
  std::vector<std::string> names;
  const fs::path profiles = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner/profiles";
  for (const auto& e : fs::directory_iterator(profiles)) {
    std::ifstream in(e.path());
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    // The profile's own name (a delta that names none keeps its base's).
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("name") && j["name"].is_string())
      names.push_back(j["name"].get<std::string>());
  }
  ASSERT_FALSE(names.empty());
  for (const char* dir : {"src/etmem", "tools"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      // Kernel libraries are data too; "cadence" there is an operator namespace, not a runner.
      if (p.parent_path().filename() == "libraries" &&
          p.parent_path().parent_path().filename() == "kernels")
        continue;
      const std::string code = Read(p);
      for (const std::string& name : names) {
        // "cadence::op" names an operator namespace (the temp scenarios' operators), not a runner.
        size_t at = code.find("\"" + name);
        while (at != std::string::npos && code.compare(at + 1 + name.size(), 2, "::") == 0)
          at = code.find("\"" + name, at + 1);
        EXPECT_EQ(at, std::string::npos) << p << " names the runner " << name;
      }
    }
}

// The pipeline's order: the stack stage (the worst-case stack of a linked image) sits after elf/
// and before firmware/: it reads an elf::Executable and knows nothing of ExecuTorch's model, the
// report or the public API; elf/ knows nothing of it.
TEST(Architecture, TheStackStageSitsBetweenElfAndFirmware) {
  const fs::path stack = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/stack";
  ASSERT_TRUE(fs::exists(stack));
  for (const fs::path& p : Sources(stack)) {
    const std::string code = Read(p);
    for (const char* later : {"etmem/firmware/", "etmem/api/", "etmem/report/", "etmem/etmem.h",
                              "etmem/runtime/", "etmem/runner/", "etmem/sim/", "etmem/kernels/"})
      EXPECT_EQ(code.find(later), std::string::npos) << p << " includes " << later;
  }
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/elf"))
    EXPECT_EQ(Read(p).find("etmem/stack/"), std::string::npos) << p << " includes the stack stage";
}

// The pipeline's order: the runner stage sits between runtime and sim, so it includes neither
// the simulation nor the report.
TEST(Architecture, TheRunnerStageIncludesNoLaterStage) {
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner")) {
    const std::string code = Read(p);
    for (const char* later : {"etmem/sim/", "etmem/report/", "etmem/plan/"})
      EXPECT_EQ(code.find(later), std::string::npos) << p << " includes " << later;
  }
}

}  // namespace architecture_test

namespace architecture_test {

// The command line is a client of the public API (include/etmem/etmem.h) for boards, fit and
// check: no verb reaches into the board stage, and `etmem check` not into the search or the log.
TEST(Architecture, TheCommandLineReachesBoardsAndCheckOnlyThroughTheApi) {
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem")) {
    const std::string code = Read(p);
    EXPECT_EQ(code.find("etmem/board/"), std::string::npos) << p << " includes the board stage";
    EXPECT_EQ(code.find("board::"), std::string::npos) << p << " uses the board stage";
  }
  const std::string check = Read(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem/check_command.cpp");
  for (const char* stage : {"etmem/check/", "etmem/device/", "etmem/sim/", "etmem/report/"})
    EXPECT_EQ(check.find(stage), std::string::npos) << "check_command.cpp includes " << stage;
}

}  // namespace architecture_test

namespace architecture_test {

// Verbs in tools/etmem parse arguments, make one library call and print what report/ renders.
// The rule, per verb file (tools/etmem/*_command.cpp):
// - its #includes are the standard library, CLI11, fmt, the public header "etmem/etmem.h",
//   and the command line's own headers (commands.h,
//   model_options.h, board_options.h); nothing else of src/etmem;
// - it is at most kMaxVerbLines lines.
// The verbs that still hold library logic are listed with what they still include and their
// size today: the test fails when one of them grows or needs more, and when one no longer needs
// its exception (so the list only shrinks).
constexpr size_t kMaxVerbLines = 130;

struct VerbException {
  const char* file;
  std::vector<std::string> includes;  // beyond the rule
  size_t max_lines;                   // its size today
};

const std::vector<VerbException>& VerbExceptions() {
  static const std::vector<VerbException> list = {
  };
  return list;
}

std::vector<std::string> Includes(const fs::path& p) {
  std::vector<std::string> out;
  std::ifstream in(p);
  const std::regex include(R"re(^\s*#\s*include\s*[<"]([^>"]+)[>"])re");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, include)) out.push_back(m[1]);
  return out;
}

bool AllowedInAVerb(const std::string& header) {
  if (header.find('/') == std::string::npos && header.find('.') == std::string::npos)
    return true;  // <string>, <iostream>, ...
  for (const char* own : {"commands.h", "model_options.h", "board_options.h", "etmem/etmem.h"})
    if (header == own) return true;
  for (const char* prefix : {"CLI/", "fmt/", "sys/", "unistd.h", "stdlib.h"})
    if (header.starts_with(prefix)) return true;
  return false;
}

size_t Lines(const fs::path& p) {
  std::ifstream in(p);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

TEST(Architecture, VerbsIncludeOnlyThePublicHeaderAndRenderers) {
  size_t verbs = 0;
  for (const auto& e : fs::directory_iterator(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with("_command.cpp")) continue;
    ++verbs;
    const VerbException* exception = nullptr;
    for (const VerbException& x : VerbExceptions())
      if (name == x.file) exception = &x;
    std::vector<std::string> beyond;
    for (const std::string& h : Includes(e.path()))
      if (!AllowedInAVerb(h)) beyond.push_back(h);
    if (!exception) {
      for (const std::string& h : beyond) ADD_FAILURE() << name << " includes " << h;
      EXPECT_LE(Lines(e.path()), kMaxVerbLines) << name << " holds more than argument parsing";
      continue;
    }
    for (const std::string& h : beyond)
      EXPECT_NE(std::find(exception->includes.begin(), exception->includes.end(), h),
                exception->includes.end())
          << name << " includes " << h << " (not among its listed exceptions)";
    for (const std::string& h : exception->includes)
      EXPECT_NE(std::find(beyond.begin(), beyond.end(), h), beyond.end())
          << name << " no longer includes " << h << ": take it off the exception list";
    EXPECT_LE(Lines(e.path()), exception->max_lines) << name << " grew";
  }
  EXPECT_GE(verbs, 11u);  // analyze, list, plan, replan, summary, header, diff, probe, check, ...
}

}  // namespace architecture_test

namespace architecture_test {

// The command line is a client of the public header alone (issue 40): every file of tools/
// includes the standard library, the system's headers, CLI11, fmt, "etmem/etmem.h" and its
// own folder's headers, nothing else of etmem (no api/internal.h, no report/ or runtime/ header), and never reaches
// a report's insides (api::Internal). tools/etmem-examples, the driver of the program builder
// (src/etmem/testing/), may include that builder too.
TEST(Architecture, ToolsIncludeOnlyThePublicHeader) {
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ETMEM_SOURCE_DIR) / "tools")) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    ++files;
    const bool examples = e.path().parent_path().filename() == "etmem-examples";
    for (const std::string& h : Includes(e.path())) {
      if (h.find('/') == std::string::npos && h.find('.') == std::string::npos) continue;  // std
      if (h == "etmem/etmem.h" || h.starts_with("CLI/") || h.starts_with("fmt/")) continue;
      // The operating system's own headers (huge_pages.cpp sets the process's heap).
      if (h.starts_with("sys/") || h == "unistd.h" || h == "malloc.h") continue;
      if (h.find('/') == std::string::npos && fs::exists(e.path().parent_path() / h)) continue;
      if (examples && h.starts_with("etmem/testing/")) continue;
      ADD_FAILURE() << e.path() << " includes " << h << " (tools/ is a client of etmem/etmem.h)";
    }
    const std::string code = Read(e.path());
    EXPECT_EQ(code.find("Internal("), std::string::npos) << e.path() << " reaches api::Internal";
  }
  EXPECT_GE(files, 15u);
}

}  // namespace architecture_test

namespace architecture_test {

// The assumption sentence is composed in one place, analysis/assumptions.cpp (AssumptionSentence
// and its clauses, TempSourceText): no client rebuilds it (the page shows each method's
// "assuming" from the JSON; Python returns the JSON's dicts; the command line prints what the
// API renders), and no other renderer words its clauses. The check's search describes ranges
// of assumptions (every release and alignment it tries; what the user pinned, with "any"):
// search_text.cpp and check_text.cpp word those, each single set through AssumptionSentence.
TEST(Architecture, TheAssumptionSentenceIsComposedOnce) {
  const std::vector<std::string> clauses = {"pool base aligned to", "temp allocator is passed",
                                            "this release's executor_runner does",
                                            "data map is passed"};
  std::vector<fs::path> files;
  for (const char* dir : {"src/etmem", "tools", "web", "python/src"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      const auto ext = e.path().extension();
      if (e.is_regular_file() && (ext == ".cpp" || ext == ".h" || ext == ".js") &&
          e.path().filename().string().find("_test") == std::string::npos &&
          e.path().parent_path().filename() != "test")
        files.push_back(e.path());
    }
  ASSERT_GT(files.size(), 50u);
  size_t composed = 0;
  for (const fs::path& p : files) {
    const std::string name = p.filename().string();
    const std::string code = Read(p);  // code only: comments may name a clause
    for (const std::string& clause : clauses) {
      if (code.find(clause) == std::string::npos) continue;
      if (name == "assumptions.cpp") {
        ++composed;
        continue;
      }
      if ((name == "search_text.cpp" || name == "check_text.cpp") && clause == "pool base aligned to")
        continue;  // ranges of assumptions (see above)
      ADD_FAILURE() << p << " words the assumption clause '" << clause
                    << "' (AssumptionSentence, analysis/assumptions.cpp, composes it)";
    }
  }
  EXPECT_GE(composed, 3u);
}

// Kernel libraries are data, one file each in kernels/libraries/ (compiled by a glob), but the
// registry lists them by hand (kernels/registry.cpp): a library file whose Library_NAME() the
// registry does not call would be compiled and never used.
TEST(Architecture, EveryKernelLibraryFileIsInTheRegistry) {
  const fs::path kernels = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/kernels";
  const std::string registry = Read(kernels / "registry.cpp");
  const std::regex defines(R"((KernelLibraryData|DelegateLibraryData)\s+(Library_\w+)\(\)\s*\{)");
  size_t libraries = 0;
  for (const fs::path& p : Sources(kernels / "libraries")) {
    const std::string code = Read(p);
    for (std::sregex_iterator m(code.begin(), code.end(), defines), end; m != end; ++m) {
      ++libraries;
      const std::string call = (*m)[2].str() + "()";
      // Declared, and called in the list (twice in all).
      size_t uses = 0;
      for (size_t at = registry.find(call); at != std::string::npos; at = registry.find(call, at + 1))
        ++uses;
      EXPECT_GE(uses, 2u) << p.filename() << ": " << call << " is not in kernels/registry.cpp's list";
    }
  }
  EXPECT_GE(libraries, 2u);
}

}  // namespace architecture_test

namespace architecture_test {

// Python gets the library's values, never text to parse (issue 40): the package
// (python/etmem/*.py) has no JSON parser, and every JSON result of the extension is built from a
// value (api::JsonValue: ToJsonValue, SummaryJson, PerOpJson, PlanJson) with the GIL held, not
// rendered: its only Render(..., kJson) is analyze_json, kept for the tests that compare the
// two. The page's rule is PageParsesNoTextTheLibraryRendered.
TEST(Architecture, PythonParsesNoTextTheLibraryRendered) {
  const std::regex parser(R"((^|\n)\s*(import|from)\s+(json|ast|simplejson)\b|json\.loads?\(|JSONDecoder|literal_eval)");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(ETMEM_SOURCE_DIR) / "python/etmem")) {
    if (!e.is_regular_file() || (e.path().extension() != ".py" && e.path().extension() != ".pyi"))
      continue;
    ++files;
    std::ifstream in(e.path());
    std::string code, line;
    while (std::getline(in, line)) code += line.substr(0, line.find('#')) + "\n";
    EXPECT_FALSE(std::regex_search(code, parser)) << e.path() << " parses JSON text";
    // Nor does it write "k=v" text for the library to parse back (the user's own strs go as
    // given; a mapping goes as pairs or a dict): an f-string "{k}={v}" only in a message raised.
    std::istringstream lines(code);
    while (std::getline(lines, line))
      EXPECT_TRUE(line.find("}={") == std::string::npos || line.find("raise ") != std::string::npos)
          << e.path() << " writes k=v text: " << line;
  }
  EXPECT_GE(files, 2u);
  const std::string module = Read(fs::path(ETMEM_SOURCE_DIR) / "python/src/etmem_module.cpp");
  size_t rendered = 0;
  for (size_t at = module.find("Format::kJson"); at != std::string::npos;
       at = module.find("Format::kJson", at + 1)) {
    const size_t line = module.rfind('\n', at) + 1;
    const std::string text = module.substr(line, module.find('\n', at) - line);
    // Choosing the format is allowed (then a value is made); rendering JSON text is not.
    if (text.find("Render") != std::string::npos || text.find("Summary(") != std::string::npos)
      ++rendered;
  }
  EXPECT_EQ(rendered, 1u) << "the extension renders JSON text beyond analyze_json";
  EXPECT_NE(module.find("std::string AnalyzeJson("), std::string::npos);
  EXPECT_EQ(module.find("json.hpp"), std::string::npos) << "the extension builds no JSON DOM";
}

}  // namespace architecture_test

namespace architecture_test {

// The page gets the library's values, never text to parse (issue 40): web/app.js has no JSON
// parser (JSON.parse, eval, Function), and its binding (web/etmem_wasm.cpp, embind) builds every
// result as a JavaScript value from the API's structs or its JSON values (api::JsonValue, walked
// node by node): it holds no JSON DOM and never dumps one; JSON text it renders only for the
// page's JSON download. The text it passes on (the reports as the command line prints them, the
// header, the map's HTML, that download) the page shows or saves, never parses.
TEST(Architecture, PageParsesNoTextTheLibraryRendered) {
  const fs::path web = fs::path(ETMEM_SOURCE_DIR) / "web";
  const std::string app = Read(web / "app.js");
  ASSERT_GT(app.size(), 1000u);
  const std::regex parser(R"(JSON\s*\.\s*parse|\beval\s*\(|\bFunction\s*\(|\.json\s*\(\s*\))");
  EXPECT_FALSE(std::regex_search(app, parser)) << "web/app.js parses JSON text";
  // The page calls the binding's functions, each returning a value (etmem_wasm.cpp).
  EXPECT_NE(app.find("state.module[name]"), std::string::npos);
  const std::string binding = Read(web / "etmem_wasm.cpp");
  for (const char* rendered : {"json.hpp", "nlohmann", ".dump(", "JSON.parse"})
    EXPECT_EQ(binding.find(rendered), std::string::npos)
        << "web/etmem_wasm.cpp renders JSON text for the page (" << rendered << ")";
  // JSON text only for the download (render('json'), saved as `etmem analyze --format json`
  // prints it): the one format name mapped to kJson.
  size_t json_text = 0;
  for (size_t at = binding.find("Format::kJson"); at != std::string::npos;
       at = binding.find("Format::kJson", at + 1))
    ++json_text;
  EXPECT_LE(json_text, 1u) << "web/etmem_wasm.cpp renders JSON text beyond the download";
  const std::regex rendered_json(R"(call\('render',\s*'json'\))");
  size_t downloads = 0;
  for (std::sregex_iterator m(app.begin(), app.end(), rendered_json), end; m != end; ++m) {
    const size_t line = app.rfind('\n', m->position()) + 1;
    EXPECT_NE(app.substr(line, app.find('\n', m->position()) - line).find("save("), std::string::npos)
        << "web/app.js asks for JSON text other than to save it";
    ++downloads;
  }
  EXPECT_LE(downloads, 1u);
  EXPECT_NE(binding.find("EMSCRIPTEN_BINDINGS"), std::string::npos);
  EXPECT_NE(binding.find("public api::JsonVisitor"), std::string::npos)
      << "the binding walks the library's JSON values into JavaScript values";
}

// The output layer (issue 40): read -> model -> analyze -> render. analysis/ builds every result
// as a value from the model stages; report/ renders values only. The rules, per file:
// - analysis/ includes no renderer (report/), nothing of the API (api/, the public header's
//   implementation) and no client;
// - report/ includes the standard library, fmt, nlohmann-json, the public header (whose values
//   some renderers print), base/, analysis/ and report/ itself; a renderer that still prints a
//   model stage's value directly is listed below with that stage's header, and the list only
//   shrinks (the test fails when a listed include is no longer there);
// - api/ composes no output text: no '\n' in its string literals and no stream of text, but for
//   the files still listed with their count today (the list only shrinks).
bool IsStdOrLibrary(const std::string& h) {
  if (h.find('/') == std::string::npos && h.find('.') == std::string::npos) return true;
  return h.starts_with("fmt/") || h.starts_with("nlohmann/");
}

struct RendererException {
  const char* file;
  std::vector<std::string> includes;  // model stages' value headers it still prints from
};

const std::vector<RendererException>& RendererExceptions() {
  static const std::vector<RendererException> list = {
      // The names of the method allocator's categories (data of the runtime model).
      {"diff_report.cpp", {"etmem/runtime/labels.h"}},
      {"json_report.cpp", {"etmem/runtime/labels.h"}},
      {"summary_table.cpp", {"etmem/runtime/labels.h"}},
      // measure/'s and check/'s own results, rendered as they come (not yet analysis/ values).
      {"measure_json.h", {"etmem/measure/measure.h"}},
      {"measure_text.h", {"etmem/measure/measure.h"}},
      {"probe_text.h", {"etmem/measure/probe.h"}},
      {"search_text.h", {"etmem/check/runner_prediction.h", "etmem/check/search.h"}},
      {"search_text.cpp", {"etmem/sim/simulate.h"}},
      // The board stage's placement (board::ProgramFit), printed as the board stage made it.
      {"fit_render.h", {"etmem/board/fit_program.h"}},
  };
  return list;
}

TEST(Architecture, TheAnalysisStageIncludesNoRenderer) {
  const fs::path analysis = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/analysis";
  ASSERT_TRUE(fs::exists(analysis));
  size_t files = 0;
  for (const fs::path& p : Sources(analysis)) {
    ++files;
    for (const std::string& h : Includes(p))
      for (const char* later : {"etmem/report/", "etmem/api/", "etmem/firmware/", "CLI/"})
        EXPECT_FALSE(h.starts_with(later)) << p << " includes " << h;
  }
  EXPECT_GE(files, 10u);
}

TEST(Architecture, ReportRendersValuesOnly) {
  size_t files = 0;
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/report")) {
    ++files;
    const std::string name = p.filename().string();
    const RendererException* exception = nullptr;
    for (const RendererException& x : RendererExceptions())
      if (name == x.file) exception = &x;
    std::vector<std::string> beyond;
    for (const std::string& h : Includes(p)) {
      if (IsStdOrLibrary(h) || h == "etmem/etmem.h") continue;
      bool allowed = false;
      for (const char* own : {"etmem/base/", "etmem/analysis/", "etmem/report/"})
        allowed = allowed || h.starts_with(own);
      if (!allowed) beyond.push_back(h);
    }
    for (const std::string& h : beyond)
      EXPECT_TRUE(exception && std::find(exception->includes.begin(), exception->includes.end(),
                                         h) != exception->includes.end())
          << p << " includes " << h << ": report/ renders analysis/'s values, it builds nothing";
    if (exception)
      for (const std::string& h : exception->includes)
        EXPECT_NE(std::find(beyond.begin(), beyond.end(), h), beyond.end())
            << name << " no longer includes " << h << ": take it off RendererExceptions";
  }
  EXPECT_GE(files, 20u);
  for (const RendererException& x : RendererExceptions())
    EXPECT_TRUE(fs::exists(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/report" / x.file)) << x.file;
}

// Where an api/ file still writes output text: its count of '\n' string literals and text
// streams today.
const std::map<std::string, size_t>& ApiTextExceptions() {
  static const std::map<std::string, size_t> list = {
      {"api.cpp", 1},      // a value: the runner's logged lines joined (api::PoolCheck::log)
      {"measure.cpp", 1},  // a line of the harness's input (the .ptd to pass), not output
  };
  return list;
}

TEST(Architecture, TheApiRendersNothing) {
  const std::regex text(R"(\\n|ostream|ostringstream)");
  size_t files = 0;
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/api")) {
    ++files;
    const std::string code = Read(p);
    size_t n = 0;
    for (size_t at = 0, nl; (nl = code.find('\n', at)) != std::string::npos; at = nl + 1)
      if (std::regex_search(code.substr(at, nl - at), text)) ++n;
    const auto x = ApiTextExceptions().find(p.filename().string());
    const size_t allowed = x == ApiTextExceptions().end() ? 0 : x->second;
    EXPECT_LE(n, allowed) << p << " writes output text (" << n << " lines): render it in report/";
    if (x != ApiTextExceptions().end())
      EXPECT_EQ(n, allowed) << p << " writes less output text now: lower its count to " << n;
  }
  EXPECT_GE(files, 8u);
}

}  // namespace architecture_test
