// The BufferDataLoader flash split: every byte of the file in one part, constants and the
// program read in place, Ethos-U blobs read in place, other backends' blobs unknown, mutable
// state copied into the planned buffers only by releases that do so, and the split in the text
// and JSON of `etmem analyze` and in `etmem summary`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"
#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"

namespace etmem::report {
namespace flash_load_test {

const runtime::RuntimeTraits& Release(const std::string& version) {
  return **runtime::FindRelease(version);
}

uint64_t Sum(const FlashLoad& f) {
  uint64_t total = 0;
  for (const FlashPart& p : f.parts) total += p.bytes;
  return total;
}

const FlashPart* Find(const FlashLoad& f, const std::string& prefix) {
  for (const FlashPart& p : f.parts)
    if (p.what.starts_with(prefix)) return &p;
  return nullptr;
}

pte::ProgramView Read(const testing::ProgramBuilder& b) {
  auto p = pte::ReadProgramBytes(b.Build(), "built.pte");
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

TEST(FlashLoad, EveryByteOfTheFileIsInOnePart) {
  for (const auto& b : {testing::MotivatingCnn(), testing::ProgramWithTwoMethods(),
                        testing::ProgramWithDelegate("XnnpackBackend", true),
                        testing::ProgramWithDelegate("XnnpackBackend", false)}) {
    pte::ProgramView p = Read(b);
    for (const char* v : {"0.3", "1.4"})
      EXPECT_EQ(Sum(ComputeFlashLoad(p, Release(v))), p.file_size) << v;
  }
}

TEST(FlashLoad, ConstantSegmentAndProgramAreReadInPlace) {
  pte::ProgramView p = Read(testing::MotivatingCnn());
  FlashLoad f = ComputeFlashLoad(p, Release("1.4"));
  const FlashPart* c = Find(f, "constant segment");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->use, FlashUse::kReadInPlace);
  EXPECT_EQ(c->bytes, p.constant_segment_bytes);
  EXPECT_EQ(f.bytes(FlashUse::kReadInPlace), p.flatbuffer_bytes + p.constant_segment_bytes);
  EXPECT_EQ(f.bytes(FlashUse::kCopiedToRam), 0u);
  EXPECT_EQ(f.ram_bytes(), 0u);
}

TEST(FlashLoad, EthosUBlobInPlaceOtherBackendsUnknown) {
  for (const char* id : {"EthosUBackend", "XnnpackBackend", "SomeNpuBackend"}) {
    pte::ProgramView p = Read(testing::ProgramWithDelegate(id, true));
    FlashLoad f = ComputeFlashLoad(p, Release("1.4"));
    const FlashPart* blob = Find(f, "delegate blob");
    ASSERT_NE(blob, nullptr) << id;
    EXPECT_EQ(blob->bytes, p.methods[0].delegates[0].blob_bytes);
    EXPECT_EQ(blob->use, std::string(id) == "EthosUBackend" ? FlashUse::kReadInPlace
                                                            : FlashUse::kBackendDependent)
        << id;
  }
  // 0.3-0.5 register Ethos-U as "ArmBackend".
  pte::ProgramView p = Read(testing::ProgramWithDelegate("ArmBackend", false));
  EXPECT_EQ(Find(ComputeFlashLoad(p, Release("0.3")), "inline delegate blob")->use,
            FlashUse::kReadInPlace);
}

// A program view made by hand: segment 0 holds mutable state (two float tensors of 16 and 8
// elements, planned, data indices 1 and 2), segment 1 named data nothing else refers to.
pte::ProgramView MutableStateProgram() {
  pte::ProgramView p;
  p.file_size = 1024;
  p.flatbuffer_bytes = 512;
  p.segments = {{0, 256}, {256, 128}};
  p.mutable_segments = 1;
  p.mutable_segment_indices = {0};
  p.named_data = 1;
  p.named_data_segments = {1};
  pte::MethodView m;
  m.OwnWords({16, 8});
  m.tensors.push_back({.dtype = 6, .planned = true, .rank = 1, .sizes_begin = 0, .data_index = 1,
                       .memory_id = 1});
  m.tensors.push_back({.dtype = 6, .planned = true, .rank = 1, .sizes_begin = 1, .data_index = 2,
                       .memory_id = 1, .offset = 64});
  p.methods.push_back(std::move(m));
  return p;
}

TEST(FlashLoad, MutableStateIsCopiedIntoPlannedMemoryFrom04) {
  pte::ProgramView p = MutableStateProgram();
  FlashLoad now = ComputeFlashLoad(p, Release("1.4"));
  const FlashPart* state = Find(now, "mutable data segment");
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->use, FlashUse::kCopiedToRam);
  EXPECT_EQ(state->bytes, 256u);
  EXPECT_EQ(state->ram_bytes, (16u + 8u) * 4u);
  EXPECT_EQ(Find(now, "named data")->use, FlashUse::kBackendDependent);
  EXPECT_EQ(Sum(now), p.file_size);
  // 0.3 points stateful tensors at the constant storage and has no named data.
  FlashLoad old = ComputeFlashLoad(p, Release("0.3"));
  EXPECT_EQ(Find(old, "mutable data segment")->use, FlashUse::kNotRead);
  EXPECT_EQ(Find(old, "named data")->use, FlashUse::kNotRead);
  EXPECT_EQ(old.ram_bytes(), 0u);
  // 0.5 copies the state but does not serve named data yet.
  FlashLoad mid = ComputeFlashLoad(p, Release("0.5"));
  EXPECT_EQ(Find(mid, "mutable data segment")->use, FlashUse::kCopiedToRam);
  EXPECT_EQ(Find(mid, "named data")->use, FlashUse::kNotRead);
}

TEST(FlashLoad, AnalyzeTextAndJsonAgree) {
  const auto path = test::WriteScenario(testing::ProgramWithDelegate("XnnpackBackend", true),
                                        "flash_delegate");
  pte::ProgramView p = *pte::ReadProgram(path.string());
  FlashLoad f = ComputeFlashLoad(p, Release("1.4"));
  test::CliRun json = test::Etmem("analyze " + path.string() + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out)["flash"]["buffer_data_loader"];
  EXPECT_EQ(j["read_in_place_bytes"], f.bytes(FlashUse::kReadInPlace));
  EXPECT_EQ(j["backend_dependent_bytes"], f.bytes(FlashUse::kBackendDependent));
  EXPECT_GT(f.bytes(FlashUse::kBackendDependent), 0u);
  EXPECT_EQ(j["parts"].size(), f.parts.size());
  EXPECT_TRUE(j["assumption"].get<std::string>().find("BufferDataLoader") != std::string::npos);
  test::CliRun text = test::Etmem("analyze " + path.string());
  EXPECT_NE(text.out.find(std::to_string(f.bytes(FlashUse::kReadInPlace)) +
                          " B stay in flash, read in place"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("backend-dependent: unknown"), std::string::npos);
  test::CliRun summary = test::Etmem("summary " + path.string());
  EXPECT_NE(summary.out.find(std::to_string(f.bytes(FlashUse::kBackendDependent)) +
                             " B backend-dependent: unknown"),
            std::string::npos)
      << summary.out;
  // A program without delegate blobs or named data has no byte whose use is unknown.
  const auto cnn = test::WriteScenario(testing::MotivatingCnn(), "flash_cnn");
  EXPECT_EQ(ComputeFlashLoad(*pte::ReadProgram(cnn.string()), Release("1.4"))
                .bytes(FlashUse::kBackendDependent),
            0u);
  for (const char* verb : {"analyze ", "summary "}) {
    const test::CliRun out = test::Etmem(verb + cnn.string());
    EXPECT_NE(out.out.find("; no backend-dependent bytes"), std::string::npos) << out.out;
    EXPECT_EQ(out.out.find("backend-dependent: unknown"), std::string::npos) << out.out;
  }
}

}  // namespace flash_load_test
}  // namespace etmem::report
