// The one byte-size grammar (base/byte_size.h): every case the two former parsers took
// (board::ParseBytes: "24K", "0x6000", "2M"; report::ParseByteSize: "64KiB", "64KB", "2G"), and
// what both refuse: a sign, junk, a fraction, space, overflow.
#include "etmem/base/byte_size.h"

#include <gtest/gtest.h>

namespace etmem {
namespace byte_size_test {

TEST(ByteSize, TheFormerBoardGrammar) {
  EXPECT_EQ(*ParseByteSize("24K"), 24576u);
  EXPECT_EQ(*ParseByteSize("24k"), 24576u);
  EXPECT_EQ(*ParseByteSize("0x6000"), 24576u);
  EXPECT_EQ(*ParseByteSize("0X6000"), 24576u);
  EXPECT_EQ(*ParseByteSize("0xffffffffffffffff"), UINT64_MAX);
  EXPECT_EQ(*ParseByteSize("2M"), 2u << 20);
  EXPECT_EQ(*ParseByteSize("2m"), 2u << 20);
  EXPECT_EQ(*ParseByteSize("4096"), 4096u);
  for (const char* bad : {"K", "", "0x", "0x1K", "0xg", "99999999999999999999999",
                          "0x10000000000000000"})
    EXPECT_FALSE(ParseByteSize(bad)) << bad;
}

TEST(ByteSize, TheFormerBudgetGrammar) {
  EXPECT_EQ(*ParseByteSize("64K"), 65536u);
  EXPECT_EQ(*ParseByteSize("64KiB"), 65536u);
  EXPECT_EQ(*ParseByteSize("64kib"), 65536u);
  EXPECT_EQ(*ParseByteSize("64KB"), 65536u);
  EXPECT_EQ(*ParseByteSize("64B"), 64u);
  EXPECT_EQ(*ParseByteSize("1M"), 1048576u);
  EXPECT_EQ(*ParseByteSize("1MiB"), 1048576u);
  EXPECT_EQ(*ParseByteSize("2G"), 2147483648u);
  EXPECT_EQ(*ParseByteSize("2GB"), 2147483648u);
  EXPECT_EQ(*ParseByteSize("0"), 0u);
  EXPECT_EQ(*ParseByteSize("0x100"), 256u);  // was refused by the budget grammar alone
  EXPECT_EQ(*ParseByteSize("17179869183G"), 17179869183ull << 30);
  for (const char* bad : {"-1", "+1", "1.5K", "64Q", "64 K B", "64 K", " 64K", "64K ", "64KK",
                          "64iB", "17179869184G", "18446744073709551616"})
    EXPECT_FALSE(ParseByteSize(bad)) << bad;
}

TEST(ByteSize, RefusalsAreOneLineQuotingTheValueEscaped) {
  EXPECT_EQ(ParseByteSize("-5").error().message,
            "'-5' is not a byte size (a whole number of bytes, optionally followed by K, M or "
            "G, 1024-based; or 0x hex)");
  EXPECT_EQ(ParseByteSize("17179869184G").error().message, "'17179869184G' is too large");
  EXPECT_EQ(ParseByteSize("99999999999999999999").error().message,
            "'99999999999999999999' is too large");
  const std::string escaped = ParseByteSize("1\r\n2").error().message;
  EXPECT_EQ(escaped.find('\n'), std::string::npos);
  EXPECT_NE(escaped.find("'1\\x0d\\x0a2'"), std::string::npos) << escaped;
}

}  // namespace byte_size_test
}  // namespace etmem
