// The one JSON data-file reader: runner profiles, boards and target files word the same problem
// the same way (base/json_file.h), each naming the file and escaping the key it quotes.
#include "etmem/base/json_file.h"

#include <gtest/gtest.h>

#include "etmem/abi/abi.h"
#include "etmem/board/board.h"
#include "etmem/runner/profile.h"

namespace etmem {
namespace json_data_files_test {

std::string ProfileError(const std::string& text) {
  auto r = runner::ParseProfile(text, "f.json");
  return r ? "" : r.error().message;
}
std::string BoardError(const std::string& text) {
  auto r = board::ParseBoard(text, "f.json");
  return r ? "" : r.error().message;
}
std::string TargetError(const std::string& text) {
  auto r = abi::ReadTargetText(text, "f.json");
  return r ? "" : r.error().message;
}

constexpr const char* kTarget =
    R"("pointer": [4, 4], "size_t": [4, 4], "int64": [8, 8], "double": [8, 8])";

TEST(JsonFile, TheThreeReadersWordTheSameProblemTheSameWay) {
  for (const std::string& e : {ProfileError("{"), BoardError("{"), TargetError("{")})
    EXPECT_EQ(e, "f.json: not valid JSON");
  for (const std::string& e : {ProfileError("[]"), BoardError("[]"), TargetError("[]")})
    EXPECT_EQ(e, "f.json: not an object");
  // An unknown key, escaped: a control character in it cannot split the line.
  EXPECT_EQ(TargetError(std::string("{") + kTarget + ", \"col\\nour\": 1}"),
            "f.json: unknown key \"col\\x0aour\"");
  EXPECT_EQ(BoardError(R"({"name": "x", "col\nour": 1, "regions": []})"),
            "f.json: unknown key \"col\\x0aour\"");
  EXPECT_EQ(ProfileError(R"({"etmem_runner_profile": 1, "col\nour": 1})"),
            "f.json: unknown key \"col\\x0aour\"");
  // A missing key.
  EXPECT_EQ(TargetError(R"({"pointer": [4, 4]})"),
            "f.json: missing key \"size_t\" (want [size, align])");
  EXPECT_EQ(BoardError(R"({"name": "x", "regions": [{"name": "A"}]})"),
            "f.json: region 1 (A): missing key \"size\"");
  // A wrong type.
  EXPECT_EQ(TargetError(std::string("{") + kTarget + R"(, "name": 3})"),
            "f.json: \"name\" is not a string");
  EXPECT_EQ(BoardError(R"({"name": 3, "regions": []})"), "f.json: \"name\" is not a string");
  // A number out of range.
  EXPECT_EQ(TargetError(std::string("{") + kTarget + R"(, "max_align": 8192})"),
            "f.json: \"max_align\" is 8192, out of range (1 to 4096)");
  EXPECT_EQ(BoardError(R"({"name": "x", "regions": [{"name": "A", "size": -4}]})"),
            "f.json: region 1 (A): \"size\" is -4, out of range (0 to 1099511627776)");
}

TEST(JsonFile, ReadTextRefusesMissingAndHugeFiles) {
  auto missing = json_file::ReadText("/nonexistent/etmem.json", "board");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/etmem.json: cannot open the board file");
}

}  // namespace json_data_files_test
}  // namespace etmem
