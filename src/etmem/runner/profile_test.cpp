// Runner profiles: the JSON reader refuses bad files with one line naming the file and the
// problem; the built-in profiles all parse and cover every modelled release without gaps.
#include "etmem/runner/profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "etmem/kernels/library.h"
#include "etmem/runtime/release.h"

namespace etmem::runner {
namespace profile_test {

namespace fs = std::filesystem;

// Every modelled release, then every modelled snapshot of ExecuTorch's main.
std::vector<std::string> AllVersions() {
  std::vector<std::string> out = runtime::ReleaseVersions();
  for (const runtime::RuntimeTraits* s : runtime::AllSnapshots()) out.push_back(s->version);
  return out;
}

// A minimal valid profile; tests replace parts of it.
std::string Valid(
    const std::string& steps = R"([{"kind": "load_method", "pool": "m",
                                                  "on_failure": {"aborts": true}}])",
    const std::string& pools = R"([{"id": "m", "variable": "pool", "macro": "POOL_SIZE",
                                                  "default_bytes": 4096, "base_align": 16, "role": "r"}])") {
  return R"({"etmem_runner_profile": 1, "name": "mine", "description": "d",
             "source": {"path": "ModelExecutor.cpp"}, "releases": {"first": "1.0.0", "last": "1.4.1"},
             "options": [{"name": "dbg", "description": "x"}],
             "pools": )" +
         pools + R"(, "steps": )" + steps + "}";
}

std::string ErrorOf(const std::string& json) {
  Result<Profile> p = ParseProfile(json, "my.json");
  return p ? "" : p.error().message;
}

TEST(RunnerProfile, ReadsAValidProfile) {
  Result<Profile> p = ParseProfile(Valid(), "my.json");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->name, "mine");
  EXPECT_EQ(p->pools.at(0).base_align, 16u);
  EXPECT_EQ(p->LoadStep().pool, "m");
}

TEST(RunnerProfile, BadFilesGetOneLineNamingTheFileAndTheProblem) {
  const std::string load =
      R"({"kind": "load_method", "pool": "m", "on_failure": {"aborts": true}})";
  struct Case {
    std::string json, problem;
  };
  const Case cases[] = {
      {"{", "not valid JSON"},
      {Valid("[" + load + R"(, {"kind": "malloc", "pool": "m", "on_failure": {"aborts": true}}])"),
       "unknown step kind \"malloc\""},
      {Valid("[" + load + R"(, {"kind": "fixed", "pool": "m", "on_failure": {"aborts": true}}])"),
       "missing key \"bytes\""},
      {Valid("[" + load +
             R"(, {"kind": "fixed", "pool": "m", "bytes": -4, "on_failure": {"aborts": true}}])"),
       "\"bytes\" is -4, out of range (0 to 4294967295)"},
      {Valid("[" + load +
             R"(, {"kind": "fixed", "pool": "sram", "bytes": 4, "on_failure": {"aborts": true}}])"),
       "unknown pool \"sram\""},
      {Valid(
           "[" + load +
           R"(, {"kind": "fixed", "pool": "m", "bytes": 4, "align": 3, "on_failure": {"aborts": true}}])"),
       "power of two"},
      {Valid("[" + load + R"(, {"kind": "fixed", "pool": "m", "bytes": 4}])"),
       "missing key \"on_failure\""},
      {Valid("[" + load +
             R"(, {"kind": "input_list", "pool": "m", "on_failure": {"aborts": true}}])"),
       "missing key \"element\""},
      {Valid(
           "[" + load +
           R"(, {"kind": "fixed", "pool": "m", "bytes": 4, "when": "etdump", "on_failure": {"aborts": true}}])"),
       "does not declare"},
      {Valid("[]"), "exactly one load_method"},
      {Valid("[" + load + "," + load + "]"), "exactly one load_method"},
      {Valid(
           "[" + load +
           R"(, {"kind": "fixed", "pool": "m", "bytes": 4, "colour": 1, "on_failure": {"aborts": true}}])"),
       "unknown key \"colour\""},
      {Valid(
           R"([{"kind": "load_method", "pool": "m", "temp_pool": "m", "on_failure": {"aborts": true}}])"),
       "cannot use the method allocator's pool"},
      {Valid("[" + load + "]",
             R"([{"id": "m", "variable": "pool", "default_bytes": 4096, "base_align": 16}])"),
       "missing key \"role\""},
      {Valid(
           "[" + load + "]",
           R"([{"id": "m", "variable": "pool", "default_bytes": 4096, "base_align": 0, "role": "r"}])"),
       "\"base_align\" must be a power of two"},
      {Valid(
           "[" + load + "]",
           R"([{"id": "m", "variable": "pool", "default_bytes": 99999999999, "base_align": 8, "role": "r"}])"),
       "\"default_bytes\" is 99999999999, out of range (0 to 4294967295)"},
      {Valid(R"([{"kind": "load_method", "pool": "m", "figure": "loaded",
                  "on_failure": {"aborts": true}}])"),
       "is not a \"steps\" figure of the profile's printout"},
      {Valid("[" + load +
             R"(, {"kind": "fixed", "pool": "m", "bytes": 4, "memory_ids": [3], "on_failure": {"aborts": true}}])"),
       "\"memory_ids\" belongs to a planned_buffers step"},
      {Valid("[" + load +
             R"(, {"kind": "planned_buffers", "pool": "m", "memory_ids": [0], "on_failure": {"aborts": true}}])"),
       "memory id from 1 to 65535"},
      {Valid("[" + load +
             R"(, {"kind": "planned_buffers", "pool": "m", "memory_ids": [3], "on_failure": {"aborts": true}},
                 {"kind": "planned_buffers", "pool": "m", "memory_ids": [3], "on_failure": {"aborts": true}}])"),
       "memory id 3 is already allocated by step 1"},
      {R"({"name": "x"})", "missing key \"etmem_runner_profile\""},
      {"[1, 2]", "my.json: not an object"},
  };
  for (const Case& c : cases) {
    const std::string error = ErrorOf(c.json);
    EXPECT_NE(error.find(c.problem), std::string::npos) << "got: " << error << "\nfor: " << c.json;
    EXPECT_TRUE(error.starts_with("my.json")) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

// Every file of runner/profiles/ reads as a profile, read from the source tree as a user's file
// would be: a malformed new profile fails here with the reader's one line naming the file and
// the problem (the embedded copies are read by BuiltinProfiles(), which stops etmem on an error).
TEST(RunnerProfile, EveryProfileFileReads) {
  const fs::path dir = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner/profiles";
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    Result<Profile> p = ParseProfile(text, e.path().filename().string());
    EXPECT_TRUE(p) << p.error().message;
  }
  EXPECT_EQ(files, BuiltinProfiles().size()) << "every file is embedded (CMake globs the folder)";
  // The rule bites: a profile with a misspelt step kind is refused, naming the file.
  const std::string bad = ErrorOf(Valid(R"([{"kind": "load_methd", "pool": "m",
                                            "on_failure": {"aborts": true}}])"));
  EXPECT_NE(bad.find("my.json step 0: unknown step kind \"load_methd\""), std::string::npos) << bad;
}

TEST(RunnerProfile, BuiltinProfilesParseAndCoverEveryReleaseOnce) {
  std::set<std::string> names;
  for (const auto& p : BuiltinProfiles()) names.insert(p->name);
  ASSERT_TRUE(names.count("arm-baremetal"));
  for (const std::string& name : names) {
    Result<RunnerSelection> s = SelectRunner(name);
    ASSERT_TRUE(s) << s.error().message;
    size_t covered = 0;
    for (const std::string& v : AllVersions()) {
      size_t matching = 0;
      for (const auto& p : s->candidates) {
        Result<const Profile*> one = ProfileFor(RunnerSelection{{p}, {}, {}}, v);
        matching += one.has_value();
      }
      EXPECT_LE(matching, 1u) << name << " has overlapping profiles at " << v;
      covered += matching;
    }
    EXPECT_GT(covered, 0u) << name;
  }
  // The Arm runner is in ExecuTorch's tree at every modelled release from 0.2.0 on (at 0.1.0 it
  // was only a patch to Arm's core_platform, examples/arm/ethos-u-setup/core_platform/patches/,
  // not modelled: asking for it there is an error naming the releases the profiles cover).
  RunnerSelection arm = *SelectRunner("arm-baremetal");
  for (const std::string& v : AllVersions())
    EXPECT_EQ(ProfileFor(arm, v).has_value(), v != "0.1.0") << v;
  // ExecuTorch main as of cff6f4dd: its own Arm profile (the fast-memory region of memory id 3
  // is new there), and the runners whose source did not change since 1.4.1 extend to it.
  const std::string main = "main-20260822-cff6f4dd";
  ASSERT_TRUE(ProfileFor(arm, main)) << "arm-baremetal does not cover " << main;
  EXPECT_EQ((*ProfileFor(arm, main))->first_release, main);
  EXPECT_TRUE((*ProfileFor(arm, main))->HasOption("fast_memory"));
  EXPECT_NE((*ProfileFor(arm, main))->FindPool("fast"), nullptr);
  EXPECT_EQ((*ProfileFor(arm, "1.4.1"))->FindPool("fast"), nullptr);
  for (const char* name : {"zephyr-hello", "pico2", "cadence", "espressif", "zephyr-mv2-ethosu"}) {
    RunnerSelection s = *SelectRunner(name);
    ASSERT_TRUE(ProfileFor(s, main)) << name;
    EXPECT_EQ(*ProfileFor(s, main), *ProfileFor(s, "1.4.1")) << name;
  }
  // zephyr/samples/mv2-ethosu is in ExecuTorch's tree at v1.3.0, v1.3.1, v1.4.0, v1.4.1 and main
  // (git ls-tree of every tag; never under another path), with the same src/main.cpp, Kconfig and
  // prj.conf at each: its profile covers exactly those releases.
  RunnerSelection mv2 = *SelectRunner("zephyr-mv2-ethosu");
  for (const std::string& v : AllVersions()) {
    const bool has_sample = v == "1.3.0" || v == "1.3.1" || v == "1.4.0" || v == "1.4.1" ||
                            v.starts_with("main-");
    EXPECT_EQ(ProfileFor(mv2, v).has_value(), has_sample) << v;
  }
}

// Every built-in profile says which kernel libraries its build links for aten operators (read
// from the runners' CMake files and build scripts, docs/runner-profiles.md), each a modelled
// library, the portable kernels last: the run-time temp figure under --runner asks them.
TEST(RunnerProfile, EveryBuiltinProfileNamesItsKernelLibraries) {
  const std::vector<std::string>& known = kernels::KernelLibraryNames();
  for (const auto& p : BuiltinProfiles()) {
    SCOPED_TRACE(p->file);
    ASSERT_FALSE(p->kernels.empty());
    for (const std::string& k : p->kernels)
      EXPECT_NE(std::find(known.begin(), known.end(), k), known.end()) << k;
    EXPECT_EQ(p->kernels.back(), "portable");
  }
}

// Every built-in profile says which delegate backends its build registers (read from the
// runners' CMake files, docs/runner-profiles.md), each a backend id the release's runtime model
// knows at every release the profile covers: the Arm runner ArmBackend to 0.5.0, EthosUBackend
// from 0.6.0 (the id backends/arm/runtime registers); Espressif XNNPACK only if built.
TEST(RunnerProfile, EveryBuiltinProfileNamesTheBackendsItRegisters) {
  for (const auto& p : BuiltinProfiles()) {
    SCOPED_TRACE(p->file);
    for (const std::string& v : AllVersions()) {
      if (!ProfileFor(RunnerSelection{{p}, {}, {}}, v)) continue;
      const runtime::RuntimeTraits& release = **runtime::FindRelease(v);
      for (const auto* list : {&p->backends, &p->backends_if_built})
        for (const std::string& b : *list)
          EXPECT_TRUE(release.backends.contains(b)) << b << " at " << v;
    }
  }
  RunnerSelection arm = *SelectRunner("arm-baremetal");
  EXPECT_EQ((*ProfileFor(arm, "0.5.0"))->backends, std::vector<std::string>{"ArmBackend"});
  EXPECT_EQ((*ProfileFor(arm, "0.6.0"))->backends, std::vector<std::string>{"EthosUBackend"});
  EXPECT_EQ((*ProfileFor(arm, "main-20260822-cff6f4dd"))->backends,
            std::vector<std::string>{"EthosUBackend"});
  RunnerSelection esp = *SelectRunner("espressif");
  EXPECT_TRUE((*ProfileFor(esp, "1.4.1"))->backends.empty());
  EXPECT_EQ((*ProfileFor(esp, "1.4.1"))->backends_if_built,
            std::vector<std::string>{"XnnpackBackend"});
  RunnerSelection mv2 = *SelectRunner("zephyr-mv2-ethosu");
  EXPECT_EQ((*ProfileFor(mv2, "1.3.0"))->backends_if_built,
            std::vector<std::string>{"EthosUBackend"});
  EXPECT_NE(ErrorOf(Valid().insert(1, R"("backends": ["Xnn pack"], )")).find("is not a backend id"),
            std::string::npos);
}

TEST(RunnerProfile, PrintoutIsReadAndCheckedAgainstItsPools) {
  const std::string load = R"({"kind": "load_method", "pool": "m", "figure": "used",
                               "on_failure": {"aborts": true}})";
  auto with = [&](const std::string& printout) {
    std::string json = Valid("[" + load + "]");
    json.insert(json.rfind('}'), R"(, "printout": )" + printout);
    return json;
  };
  Result<Profile> p = ParseProfile(
      with(R"({"format": "pi_pico_usage", "pool": "m", "counter": "cursor",
               "figures": [{"name": "used", "measure": "steps"},
                           {"name": "pool", "measure": "pool_size"}]})"),
      "my.json");
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(p->printout);
  EXPECT_EQ(p->printout->format, "pi_pico_usage");
  EXPECT_EQ(p->printout->figures.size(), 2u);
  EXPECT_EQ(p->steps[0].figure, "used");
  const std::pair<std::string, std::string> bad[] = {
      {R"({"format": "x", "pool": "m", "counter": "abacus", "figures": []})",
       "unknown \"counter\" \"abacus\""},
      {R"({"format": "x", "pool": "q", "counter": "cursor", "figures": []})",
       "unknown pool \"q\""},
      {R"({"format": "x", "pool": "m", "counter": "cursor",
           "figures": [{"name": "used", "measure": "steps"}, {"name": "used", "measure": "used"}]})",
       "declared twice"},
      {R"({"format": "x", "pool": "m", "counter": "cursor",
           "figures": [{"name": "used", "measure": "mean"}]})",
       "unknown \"measure\" \"mean\""},
      {R"({"format": "x", "pool": "m", "counter": "cursor",
           "figures": [{"name": "used", "measure": "used"}]})",
       "is not a \"steps\" figure"},
  };
  for (const auto& [printout, problem] : bad) {
    const std::string error = ErrorOf(with(printout));
    EXPECT_NE(error.find(problem), std::string::npos) << error;
    EXPECT_TRUE(error.starts_with("my.json")) << error;
  }
}

// How a runner's pools and program appear in a linked image ("image", what `etmem firmware`
// recognises a runner by) is read with the rest of its profile: each pool's symbol is its
// variable, sections and markers are kept byte for byte, and a delta may drop it (null).
TEST(RunnerProfile, ImageDeclarationsAreReadAndChecked) {
  auto with = [](const std::string& image) {
    std::string json = Valid();
    json.insert(json.rfind('}'), R"(, "image": )" + image);
    return json;
  };
  Result<Profile> p = ParseProfile(
      with(R"({"tags": ["v1.4.1"], "pools": [{"id": "m", "section": ".bss.tensor_arena"}],
               "program": {"symbol": "model_pte", "section": null, "align": 16},
               "markers": ["13RunnerContext"]})"),
      "my.json");
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(p->image);
  ASSERT_EQ(p->image->pools.size(), 1u);
  EXPECT_EQ(p->image->pools[0].section, ".bss.tensor_arena");
  EXPECT_EQ(p->image->program_symbol, "model_pte");
  EXPECT_EQ(p->image->program_section, "");
  EXPECT_EQ(p->image->program_align, 16u);
  EXPECT_EQ(p->image->markers, std::vector<std::string>{"13RunnerContext"});
  EXPECT_FALSE(ParseProfile(Valid(), "my.json")->image) << "no \"image\": not recognised by symbols";
  const std::pair<std::string, std::string> bad[] = {
      {R"({"pools": [{"id": "q"}]})", "image pool 0: unknown pool \"q\""},
      {R"({"pools": [{"id": "m"}, {"id": "m"}]})", "pool \"m\" listed twice"},
      {R"({"pools": []})", "\"pools\" is empty"},
      {R"({"markers": []})", "missing key \"pools\""},
      {R"({"pools": [{"id": "m", "section": "my section"}]})", "is not a section name"},
      {R"({"pools": [{"id": "m", "section": 7}]})", "\"section\" is not a string or null"},
      {R"({"pools": [{"id": "m"}], "program": {"symbol": "model pte"}})", "is not a C identifier"},
      {R"({"pools": [{"id": "m"}], "program": {"section": ".data"}})", "missing key \"symbol\""},
      {R"({"pools": [{"id": "m"}], "program": {"symbol": "p", "align": 24}})", "power of two"},
      {R"({"pools": [{"id": "m"}], "markers": ["a\tb"]})", "is not part of a symbol name"},
      {R"({"pools": [{"id": "m"}], "colour": 1})", "unknown key \"colour\""},
      {"3", "image: not an object"},
  };
  for (const auto& [image, problem] : bad) {
    const std::string error = ErrorOf(with(image));
    EXPECT_NE(error.find(problem), std::string::npos) << "got: " << error << "\nfor: " << image;
    EXPECT_TRUE(error.starts_with("my.json")) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  // A delta inherits its base's declarations, edits them field by field, or drops them.
  const std::string head = R"({"etmem_runner_profile": 1, "extends": "arm-baremetal-1.4", )";
  Result<Profile> same = ParseProfile(head + R"("name": "my-arm"})", "my.json");
  ASSERT_TRUE(same && same->image) << (same ? "no image" : same.error().message);
  const Profile& base = **ProfileFor(*SelectRunner("arm-baremetal"), "1.4.1");
  EXPECT_EQ(*same->image, *base.image);
  Result<Profile> moved = ParseProfile(head + R"("image": {"markers": ["my_main"]}})", "my.json");
  ASSERT_TRUE(moved) << moved.error().message;
  EXPECT_EQ(moved->image->markers, std::vector<std::string>{"my_main"});
  EXPECT_EQ(moved->image->program_symbol, base.image->program_symbol);
  Result<Profile> none = ParseProfile(head + R"("image": null})", "my.json");
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_FALSE(none->image);
}

// Every built-in profile's declarations name its own pools, the method pool among them (what
// `etmem firmware` finds a runner by), and a runner's profiles declare each pool's symbol as
// the pool's variable (one fact, one place).
TEST(RunnerProfile, BuiltinImageDeclarationsNameTheMethodPool) {
  size_t with_image = 0;
  for (const auto& p : BuiltinProfiles()) {
    if (!p->image) continue;
    SCOPED_TRACE(p->file);
    ++with_image;
    EXPECT_TRUE(std::any_of(p->image->pools.begin(), p->image->pools.end(),
                            [](const ImageSpec::Pool& q) { return q.id == "method"; }));
    EXPECT_FALSE(p->image->tags.empty()) << "where the declarations were read";
  }
  EXPECT_GT(with_image, 0u);
}

// A snapshot of ExecuTorch's main branch ("main-YYYYMMDD-<commit>") comes after every numbered
// release.
TEST(RunnerProfile, AMainSnapshotIsAReleaseAfterTheNumberedOnes) {
  std::string json = Valid();
  json.replace(json.find(R"("first": "1.0.0", "last": "1.4.1")"),
               std::string(R"("first": "1.0.0", "last": "1.4.1")").size(),
               R"("first": "main-20260822-cff6f4dd", "last": "main-20260822-cff6f4dd")");
  Result<Profile> p = ParseProfile(json, "main.json");
  ASSERT_TRUE(p) << p.error().message;
  const RunnerSelection s{{std::make_shared<const Profile>(*p)}, {}, {}};
  EXPECT_TRUE(ProfileFor(s, "main-20260822-cff6f4dd"));
  EXPECT_FALSE(ProfileFor(s, "1.4.1"));
  EXPECT_FALSE(ProfileFor(s, "main-20270101-abc"));
  std::string bad = Valid();
  bad.replace(bad.find(R"("first": "1.0.0")"), std::string(R"("first": "1.0.0")").size(),
              R"("first": "main-2026-cff")");
  EXPECT_NE(ErrorOf(bad).find("is not a version"), std::string::npos) << ErrorOf(bad);
}

TEST(RunnerProfile, SelectRunnerTakesOptionsAndRefusesUnknownOnes) {
  Result<RunnerSelection> s = SelectRunner("arm-baremetal+etdump");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->options, std::vector<std::string>{"etdump"});
  EXPECT_NE(SelectRunner("arm-baremetal+fast").error().message.find("no option \"fast\""),
            std::string::npos);
  EXPECT_NE(SelectRunner("nosuch").error().message.find("no such runner"), std::string::npos);
  EXPECT_NE(SelectRunner("/nonexistent/r.json").error().message.find("/nonexistent/r.json"),
            std::string::npos);
  // An option that exists only in later profiles is refused for an earlier release.
  EXPECT_FALSE(ProfileFor(*s, "0.5.0"));
  EXPECT_TRUE(ProfileFor(*s, "1.4.1"));
}

}  // namespace profile_test
}  // namespace etmem::runner

namespace etmem::runner {
namespace profile_test {

// A file may extend a built-in profile and state only what differs (docs/runner-profiles.md,
// "Deltas"): pools by id, steps by the base's numbers, other objects field by field.
TEST(RunnerProfileDelta, AUserFileExtendsABuiltinProfile) {
  Result<Profile> p = ParseProfile(R"({"etmem_runner_profile": 1, "extends": "arm-baremetal-1.4",
      "name": "my-arm", "description": "the Arm runner with a header block first",
      "pools": {"method": {"default_bytes": 4096}},
      "steps": {"before 0": [{"kind": "fixed", "pool": "method", "bytes": 64, "label": "header",
                              "on_failure": {"aborts": true}}],
                "0": {"on_failure": {"logs": ["no room"]}}}})",
                                   "my.json");
  ASSERT_TRUE(p) << p.error().message;
  const Profile& base = **ProfileFor(*SelectRunner("arm-baremetal"), "1.4.1");
  EXPECT_EQ(p->name, "my-arm");
  EXPECT_EQ(p->first_release, base.first_release);
  EXPECT_EQ(p->last_release, base.last_release);
  ASSERT_EQ(p->steps.size(), base.steps.size() + 1);
  EXPECT_EQ(p->steps[0].kind, StepKind::kFixed);
  EXPECT_EQ(p->steps[0].label, "header");
  // Base step 0 keeps everything but its logs.
  EXPECT_EQ(p->steps[1].kind, base.steps[0].kind);
  EXPECT_EQ(p->steps[1].on_failure.logs, std::vector<std::string>{"no room"});
  EXPECT_EQ(p->steps[1].on_failure.then, base.steps[0].on_failure.then);
  EXPECT_EQ(p->FindPool("method")->default_bytes, 4096u);
  EXPECT_EQ(p->FindPool("method")->macro, base.FindPool("method")->macro);
  EXPECT_EQ(p->pools.size(), base.pools.size());
  EXPECT_EQ(p->file, "my.json");
}

TEST(RunnerProfileDelta, BadDeltasGetOneLineNamingTheFile) {
  struct Case {
    std::string json, problem;
  };
  const std::string head = R"({"etmem_runner_profile": 1, "extends": "arm-baremetal-1.4", )";
  const Case cases[] = {
      {R"({"etmem_runner_profile": 1, "extends": "nope"})",
       "\"extends\" names no built-in runner profile \"nope\" (built-in: "},
      {R"({"etmem_runner_profile": 1, "extends": 3})", "\"extends\" is not a string"},
      {R"({"extends": "arm-baremetal-1.4"})", "missing key \"etmem_runner_profile\""},
      {head + R"("steps": {"99": null}})", "\"steps\" change \"99\" names no base step"},
      {head + R"("steps": {"before 99": []}})", "\"steps\" change \"before 99\" names no base step"},
      {head + R"("steps": {"first": {}}})", "\"steps\" change \"first\" names no base step"},
      {head + R"("steps": {"0": 5}})", "is neither an object nor null"},
      {head + R"("steps": 5})", "\"steps\" is neither a list nor an object of changes"},
      {head + R"("pools": {"sram": null}})", "removes \"sram\", which the base does not have"},
      {head + R"("pools": {"method": 1}})", "\"pools\" change \"method\" is neither"},
      // The result is checked as a whole file: removing load_method is refused.
      {head + R"("steps": {"4": null}})", "exactly one load_method step (has 0)"},
      {head + R"("pools": {"method": {"colour": 1}}})", "unknown key \"colour\""},
  };
  for (const Case& c : cases) {
    Result<Profile> p = ParseProfile(c.json, "my.json");
    ASSERT_FALSE(p) << c.json;
    const std::string& error = p.error().message;
    EXPECT_NE(error.find(c.problem), std::string::npos) << "got: " << error << "\nfor: " << c.json;
    EXPECT_TRUE(error.starts_with("my.json")) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace profile_test
}  // namespace etmem::runner
