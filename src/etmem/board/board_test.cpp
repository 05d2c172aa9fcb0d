// Board descriptions: every built-in board reads, cites its sources and has one file each; bad
// files get one line naming the file; --reserve and sizes parse as documented.
#include "etmem/board/board.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace etmem::board {
namespace board_test {

namespace fs = std::filesystem;

// Every file of board/boards/ reads as a board, from the source tree as a user's file would be:
// a malformed new board fails here with the reader's one line naming the file and the problem
// (the embedded copies are read by BuiltinBoards(), which stops etmem on an error).
TEST(Board, EveryBoardFileReads) {
  const fs::path dir = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/board/boards";
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    auto b = ParseBoard(text, e.path().filename().string());
    EXPECT_TRUE(b) << b.error().message;
  }
  auto bad = ParseBoard(R"({"name": "x", "regions": [{"name": "SRAM"}]})", "mine.json");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().message.starts_with("mine.json")) << bad.error().message;
}

TEST(Board, EveryBuiltinFileIsABoardWithItsSources) {
  const fs::path dir = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/board/boards";
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.path().extension() == ".json";
  ASSERT_EQ(BuiltinBoards().size(), files);
  std::set<std::string> names;
  for (const auto& b : BuiltinBoards()) {
    EXPECT_TRUE(names.insert(b->name).second) << b->name;
    EXPECT_FALSE(b->sources.empty()) << b->name << " cites no datasheet";
    for (const Region& r : b->regions) {
      EXPECT_GT(r.size, 0u) << b->name << " " << r.name;
      EXPECT_FALSE(r.comment.empty()) << b->name << " " << r.name;
    }
  }
  for (const char* wanted :
       {"stm32wb55", "stm32h743", "nrf52840", "rp2040", "esp32s3", "corstone-300", "corstone-320"})
    EXPECT_TRUE(names.count(wanted)) << wanted;
}

// Every built-in board names the core that runs the model and its M-profile extension (what
// CMSIS-NN is built for there); it replaces only what the target assumes.
TEST(Board, EveryBuiltinBoardNamesItsCoreAndTheCoreSpeaksWhereTheTargetIsSilent) {
  for (const auto& b : BuiltinBoards()) {
    ASSERT_TRUE(b->core.has_value()) << b->name;
    EXPECT_FALSE(b->core->name.empty()) << b->name;
    bool cited = false;
    for (const std::string& s : b->sources) cited |= s.rfind("core: ", 0) == 0;
    EXPECT_TRUE(cited) << b->name << " does not say where its core's extension comes from";
  }
  auto wb55 = SelectBoard("stm32wb55");
  ASSERT_TRUE(wb55);
  auto cortex_m = abi::ResolveTarget("cortex-m");  // assumes MVE
  ASSERT_TRUE(cortex_m && !cortex_m->m_extension_assumed.empty());
  auto on = TargetOnBoard(*cortex_m, *wb55);
  ASSERT_TRUE(on) << on.error().message;
  EXPECT_EQ(on->m_extension, abi::MExtension::kDsp);
  EXPECT_TRUE(on->m_extension_assumed.empty());
  EXPECT_EQ(on->m_extension_from, "board stm32wb55's core, Cortex-M4F");
  // A target that says the same is kept; one that says otherwise is refused in one line.
  abi::Abi said = *cortex_m;
  said.m_extension_assumed.clear();
  said.m_extension = abi::MExtension::kDsp;
  EXPECT_TRUE(TargetOnBoard(said, *wb55));
  said.m_extension = abi::MExtension::kMve;
  auto clash = TargetOnBoard(said, *wb55);
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error().message.find('\n'), std::string::npos);
  // A board without a core leaves the target as it is.
  auto plain = ParseBoard(R"({"name": "p", "regions": [{"name": "A", "size": 8}]})", "p.json");
  ASSERT_TRUE(plain);
  auto kept = TargetOnBoard(*cortex_m, *plain);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->m_extension, abi::MExtension::kMve);
  EXPECT_FALSE(kept->m_extension_assumed.empty());
}

TEST(Board, TheStm32wb55HasItsThreeSrams) {
  auto b = SelectBoard("stm32wb55");
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_EQ(b->regions.size(), 3u);
  EXPECT_EQ(b->FindRegion("SRAM1")->size, 192u * 1024);
  EXPECT_EQ(b->FindRegion("SRAM2a")->size, 32u * 1024);
  EXPECT_EQ(b->FindRegion("SRAM2b")->size, 32u * 1024);
  EXPECT_EQ(*b->FindRegion("SRAM2a")->origin, 0x20030000u);
}

TEST(Board, BadFilesGetOneLineNamingTheFile) {
  const std::vector<std::string> bad = {
      "",
      "[]",
      "{\"name\": \"x\"}",
      "{\"name\": \"x\", \"regions\": []}",
      "{\"name\": \"X Y\", \"regions\": [{\"name\": \"A\", \"size\": 4}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\"}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": -4}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": \"12Q\"}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 0}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 8, \"base_align\": 3}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 8}, {\"name\": \"A\", \"size\": "
      "8}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 8, \"reserved\": [{\"name\": "
      "\"s\", \"bytes\": 9}]}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 8, \"section\": \"a b\"}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": 8, \"colour\": 1}]}",
      "{\"name\": \"x\", \"regions\": [{\"name\": \"A\", \"size\": \"0x1000000000000\"}]}",
      "{\"name\": \"x\", \"core\": \"M4\", \"regions\": [{\"name\": \"A\", \"size\": 8}]}",
      "{\"name\": \"x\", \"core\": {\"name\": \"M4\"}, \"regions\": [{\"name\": \"A\", \"size\": 8}]}",
      "{\"name\": \"x\", \"core\": {\"name\": \"M4\", \"m_extension\": \"neon\"}, \"regions\": "
      "[{\"name\": \"A\", \"size\": 8}]}",
      "{\"name\": \"x\", \"core\": {\"m_extension\": \"dsp\"}, \"regions\": [{\"name\": \"A\", "
      "\"size\": 8}]}",
      "{\"name\": \"x\", \"core\": {\"name\": \"M4\", \"m_extension\": \"dsp\", \"fpu\": 1}, "
      "\"regions\": [{\"name\": \"A\", \"size\": 8}]}",
  };
  for (const std::string& text : bad) {
    auto b = ParseBoard(text, "my-board.json");
    ASSERT_FALSE(b) << text;
    EXPECT_EQ(b.error().message.find('\n'), std::string::npos) << b.error().message;
    EXPECT_EQ(b.error().message.rfind("my-board.json: ", 0), 0u) << b.error().message;
  }
}

TEST(Board, SizesAndReservations) {
  auto b = SelectBoard("stm32wb55");
  ASSERT_TRUE(b);
  ASSERT_TRUE(AddReservation(*b, "SRAM1=24K"));
  EXPECT_EQ(b->FindRegion("SRAM1")->free_bytes(), 192u * 1024 - 24576);
  // Sizes go through the one byte-size grammar (base/byte_size_test.cpp): 0x hex, K, M, G.
  ASSERT_TRUE(AddReservation(*b, "SRAM1=0x400"));
  EXPECT_EQ(b->FindRegion("SRAM1")->free_bytes(), 192u * 1024 - 24576 - 1024);
  for (const char* bad : {"SRAM1=-5", "SRAM1=+5", "SRAM1=1.5K", "SRAM1=K", "SRAM1=0x",
                          "SRAM1=99999999999999999999999", "SRAM1= 1K"}) {
    auto r = AddReservation(*b, bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("--reserve " + std::string(bad) + ": '"), std::string::npos)
        << r.error().message;
  }
  EXPECT_FALSE(AddReservation(*b, "SRAM9=1K"));
  EXPECT_FALSE(AddReservation(*b, "SRAM1=1000K"));
  EXPECT_FALSE(AddReservation(*b, "SRAM1"));
  // Reservations that would wrap 64 bits are refused, not summed past the region's size.
  for (const char* huge : {"SRAM1=0xffffffffffffffff", "SRAM1=0xfffffffffffff000"}) {
    auto r = AddReservation(*b, huge);
    ASSERT_FALSE(r) << huge;
    EXPECT_NE(r.error().message.find("exceed its size"), std::string::npos) << r.error().message;
  }
  EXPECT_EQ(b->FindRegion("SRAM1")->free_bytes(), 192u * 1024 - 24576 - 1024);
  auto unknown = SelectBoard("stm32wb56");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("stm32wb55"), std::string::npos);
}

TEST(Board, AReservationAsRegionAndBytesIsTheSpecsReservation) {
  auto by_spec = SelectBoard("stm32wb55");
  auto by_pair = SelectBoard("stm32wb55");
  ASSERT_TRUE(by_spec && by_pair);
  ASSERT_TRUE(AddReservation(*by_spec, "SRAM1=24K"));
  ASSERT_TRUE(AddReservation(*by_pair, "SRAM1", 24576));
  const Region& a = *by_spec->FindRegion("SRAM1");
  const Region& b = *by_pair->FindRegion("SRAM1");
  ASSERT_EQ(a.reserved.size(), b.reserved.size());
  EXPECT_EQ(a.reserved.back().name, b.reserved.back().name);
  EXPECT_EQ(a.reserved.back().bytes, b.reserved.back().bytes);
  EXPECT_EQ(a.free_bytes(), b.free_bytes());
  // Errors name the region (the pair has no text of the user's to quote).
  auto unknown = AddReservation(*by_pair, "SRAM9", 1024);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message.rfind("--reserve SRAM9: board stm32wb55 has no region 'SRAM9'", 0),
            0u)
      << unknown.error().message;
  const uint64_t free = b.free_bytes();
  EXPECT_FALSE(AddReservation(*by_pair, "SRAM1", free + 1));
  auto wraps = AddReservation(*by_pair, "SRAM1", UINT64_MAX);
  ASSERT_FALSE(wraps);
  EXPECT_NE(wraps.error().message.find("more than 2^64 B) exceed its size"), std::string::npos)
      << wraps.error().message;
  ASSERT_TRUE(AddReservation(*by_pair, "SRAM1", free));
  EXPECT_EQ(by_pair->FindRegion("SRAM1")->free_bytes(), 0u);
}

}  // namespace board_test
}  // namespace etmem::board
