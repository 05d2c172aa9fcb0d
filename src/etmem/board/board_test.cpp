// Board descriptions: every built-in board reads, cites its sources and has one file each; bad
// files get one line naming the file; --reserve and sizes parse as documented.
#include "etmem/board/board.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace etmem::board {
namespace board_test {

namespace fs = std::filesystem;

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
  auto unknown = SelectBoard("stm32wb56");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("stm32wb55"), std::string::npos);
}

}  // namespace board_test
}  // namespace etmem::board
