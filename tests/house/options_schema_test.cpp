// The one options schema (api::OptionSchema, issue 40): its help and defaults come from the
// registries (releases, targets, runner profiles, kernel libraries), its parsers set Options as
// the command line does, every client takes its options from it (the command line's help says
// each option's help; the page reads them through it; the Python module's keywords and stubs
// name every field), and no client types the lists of releases or kernel libraries.
#include <algorithm>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "etmem/etmem.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace options_schema_test {

const api::OptionSpec& Spec(const std::string& field) {
  for (const api::OptionSpec& s : api::OptionSchema())
    if (s.field == field) return s;
  ADD_FAILURE() << "no option " << field;
  static const api::OptionSpec none;
  return none;
}

TEST(OptionSchema, EachFieldAndFlagOnceWithHelpAndAParser) {
  std::set<std::string> fields, flags;
  for (const api::OptionSpec& s : api::OptionSchema()) {
    EXPECT_TRUE(fields.insert(s.field).second) << s.field;
    EXPECT_TRUE(flags.insert(s.flag).second) << s.flag;
    EXPECT_TRUE(s.flag.starts_with("--")) << s.flag;
    EXPECT_FALSE(s.help.empty()) << s.field;
    EXPECT_TRUE(static_cast<bool>(s.set)) << s.field;
  }
  for (const char* f : {"runtime", "target", "pool_align", "temp", "temp_pool", "external_data",
                        "backends", "runner", "kernels", "pool", "method"})
    EXPECT_TRUE(fields.count(f)) << f;
}

TEST(OptionSchema, HelpAndDefaultsComeFromTheRegistries) {
  const std::string runtime = Spec("runtime").help + " " + Spec("runtime").default_help;
  std::vector<std::string> published;
  for (const api::ReleaseInfo& r : api::Releases())
    if (r.commit.empty()) published.push_back(r.version);
  ASSERT_GE(published.size(), 2u);
  EXPECT_NE(runtime.find(published.front()), std::string::npos) << runtime;
  EXPECT_NE(runtime.find("default: " + published.back()), std::string::npos) << runtime;
  for (const api::ReleaseInfo& r : api::Releases())
    if (!r.commit.empty()) EXPECT_NE(runtime.find(r.version), std::string::npos) << runtime;
  for (const api::TargetInfo& t : api::Targets())
    EXPECT_NE(Spec("target").help.find(t.name), std::string::npos) << t.name;
  for (const api::RunnerInfo& r : api::Runners())
    EXPECT_NE(Spec("runner").help.find(r.name), std::string::npos) << r.name;
  const api::OptionSpec& kernels = Spec("kernels");
  ASSERT_FALSE(kernels.choices.empty());
  const std::string listed = api::List("kernels");
  for (const std::string& k : kernels.choices) {
    EXPECT_NE(kernels.help.find(k), std::string::npos) << k;
    EXPECT_NE(listed.find(k), std::string::npos) << k << " is no library etmem lists";
  }
  // Defaults are Options' own.
  const api::Options o;
  EXPECT_EQ(Spec("target").default_value, o.target);
  EXPECT_EQ(Spec("temp").default_value, o.temp);
  EXPECT_NE(Spec("target").default_help.find(o.target), std::string::npos);
}

TEST(OptionSchema, ParsersSetOptionsAsTheCommandLineReadsThem) {
  api::Options o;
  Spec("runtime").set(o, {"0.3"});
  Spec("pool_align").set(o, {"0x10"});
  Spec("temp_pool").set(o, {"4K"});
  Spec("temp").set(o, {"null"});
  Spec("kernels").set(o, {"portable", "optimized"});
  Spec("backends").set(o, {"A=1"});
  Spec("backends").set(o, {"B=2"});
  Spec("external_data").set(o, {});
  Spec("pool").set(o, {"1M"});
  EXPECT_EQ(o.runtime, "0.3");
  EXPECT_EQ(o.pool_align, 16u);
  EXPECT_EQ(o.temp_pool, 4096u);
  EXPECT_EQ(o.temp, "null");
  EXPECT_EQ(o.kernels, (std::vector<std::string>{"portable", "optimized"}));
  EXPECT_EQ(o.backends, (std::vector<std::string>{"A=1", "B=2"}));
  EXPECT_TRUE(o.external_data);
  EXPECT_TRUE(o.external_data_file.empty());
  EXPECT_EQ(o.pool, 1048576u);
  Spec("external_data").set(o, {"weights.ptd"});
  EXPECT_EQ(o.external_data_file, "weights.ptd");
  auto error = [](const std::string& field, const std::string& value) {
    api::Options x;
    try {
      Spec(field).set(x, {value});
    } catch (const api::Error& e) {
      EXPECT_EQ(e.kind(), api::ErrorKind::kInvalidArgument);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("pool_align", "24").find("--pool-align '24': must be a power of two"),
            std::string::npos);
  EXPECT_NE(error("temp_pool", "-5").find("--temp-pool '-5': not a size in bytes"), std::string::npos);
  EXPECT_NE(error("temp", "maybe").find("--temp 'maybe'"), std::string::npos);
  EXPECT_NE(error("pool_align", "8192").find("power of two up to 4096"), std::string::npos);
}

// The command line registers the schema's options: its help says the schema's words.
TEST(OptionSchema, TheCommandLineHelpIsTheSchemas) {
  for (const char* verb : {"analyze", "header", "fit", "firmware"}) {
    const CliRun help = Etmem(std::string(verb) + " --help");
    ASSERT_EQ(help.exit_code, 0) << verb;
    // CLI11 wraps nothing: each help is on its option's line.
    std::string flat = std::regex_replace(help.out, std::regex("\\s+"), " ");
    for (const char* field : {"runtime", "target", "runner", "kernels"}) {
      const api::OptionSpec& s = Spec(field);
      EXPECT_NE(flat.find(s.flag), std::string::npos) << verb << " lacks " << s.flag;
      EXPECT_NE(flat.find(s.help), std::string::npos) << verb << " " << s.flag << ":\n" << help.out;
    }
  }
}

// The Python module binds the options through the schema (its extension's MakeOptions and the
// package's _model set no member by hand), its stubs name every field of the schema, and neither
// it nor the page types a release as a default.
TEST(OptionSchema, PythonAndThePageTakeEveryOption) {
  const std::string py = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "python/etmem/__init__.py");
  const std::string pyi = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "python/etmem/__init__.pyi");
  const std::string module = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "python/src/etmem_module.cpp");
  const size_t model = py.find("def _model(");
  ASSERT_NE(model, std::string::npos);
  const std::string body = py.substr(model, py.find("\n\n\n", model) - model);
  EXPECT_NE(body.find("_SCHEMA"), std::string::npos) << "_model does not read the schema";
  const size_t make = module.find("api::Options MakeOptions(");
  ASSERT_NE(make, std::string::npos);
  const std::string binding = module.substr(make, module.find("\n}\n", make) - make);
  EXPECT_NE(binding.find("api::OptionSchema()"), std::string::npos);
  const size_t analyze = pyi.find("def analyze(");
  ASSERT_NE(analyze, std::string::npos);
  const std::string stub = pyi.substr(analyze, pyi.find(") ->", analyze) - analyze);
  for (const api::OptionSpec& s : api::OptionSchema()) {
    EXPECT_EQ(body.find(s.field), std::string::npos) << "_model names " << s.field;
    EXPECT_EQ(binding.find("o." + s.field + " ="), std::string::npos) << "MakeOptions binds " << s.field;
    EXPECT_NE(stub.find("    " + s.field + ":"), std::string::npos) << "analyze's stub lacks " << s.field;
  }
  // No signature types a release as its default (the schema's default is the CLI's: none).
  const std::regex typed_release(R"(runtime(: [A-Za-z\[\]]+)? ?= ?"[0-9])");
  for (const auto& [name, text] : {std::pair{"__init__.py", py}, std::pair{"__init__.pyi", pyi}}) {
    size_t defs = 0;
    for (size_t at = text.find("\ndef "); at != std::string::npos; at = text.find("\ndef ", at + 1)) {
      const std::string signature = text.substr(at, text.find(")", text.find("(", at)) - at);
      ++defs;
      EXPECT_FALSE(std::regex_search(signature, typed_release))
          << name << " types a release as a default:" << signature;
    }
    EXPECT_GT(defs, 5u) << name;
  }
  // The page reads its options through the schema (OptionsFrom binds no member by hand).
  const std::string wasm = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "web/etmem_wasm.cpp");
  const size_t from = wasm.find("api::Options OptionsFrom(");
  ASSERT_NE(from, std::string::npos);
  const std::string page = wasm.substr(from, wasm.find("\n}\n", from) - from);
  EXPECT_NE(page.find("api::OptionSchema()"), std::string::npos);
  for (const api::OptionSpec& s : api::OptionSchema())
    EXPECT_EQ(page.find("o." + s.field + " ="), std::string::npos) << "OptionsFrom binds " << s.field;
  const std::string app = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "web/app.js");
  EXPECT_NE(app.find("o.kernels"), std::string::npos) << "the page takes no --kernels";
}

}  // namespace options_schema_test
}  // namespace etmem::test
