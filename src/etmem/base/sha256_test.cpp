// SHA-256 against the FIPS 180-4 / NIST example vectors, and incremental updates that split the
// input at every block-boundary case.
#include <string>

#include <gtest/gtest.h>

#include "etmem/base/sha256.h"

namespace etmem {
namespace sha256_test {

std::span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(Bytes("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex(Bytes("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(Bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(Bytes("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmn"
                            "opjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(Sha256Hex(Bytes("The quick brown fox jumps over the lazy dog")),
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
}

TEST(Sha256, OneMillionAsFedInOddPieces) {
  const std::string chunk(997, 'a');
  Sha256 h;
  size_t left = 1'000'000;
  while (left > 0) {
    const size_t n = std::min(left, chunk.size());
    h.Update(Bytes(chunk).first(n));
    left -= n;
  }
  const Sha256::Digest d = h.Finish();
  EXPECT_EQ(ToHex(d), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries (55, 56, 63, 64, 65 bytes): one-shot and byte-by-byte
// must agree, and each length gives a different digest.
TEST(Sha256, PaddingBoundariesAgreeIncrementally) {
  std::string previous;
  for (size_t len : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u}) {
    const std::string s(len, 'x');
    Sha256 h;
    for (char c : s) h.Update(Bytes(std::string(1, c)));
    const std::string incremental = ToHex(h.Finish());
    EXPECT_EQ(incremental, Sha256Hex(Bytes(s))) << len;
    EXPECT_NE(incremental, previous) << len;
    previous = incremental;
  }
  EXPECT_EQ(Sha256Hex(Bytes(std::string(64, 'a'))),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

}  // namespace sha256_test
}  // namespace etmem
