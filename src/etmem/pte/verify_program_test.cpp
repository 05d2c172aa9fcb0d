// VerifyProgramFlatbuffer must give the generated verifier's answer (fb::VerifyProgramBuffer)
// on every buffer, whichever path it takes: on the builder's programs, and on thousands of
// corrupted and truncated copies of them, with the two-thread path forced.
#include "etmem/pte/verify_program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "etmem/fb/program_generated.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/scenarios.h"

namespace etmem::pte {
namespace {

using Bytes = std::vector<uint8_t>;

flatbuffers::Verifier::Options Options(size_t size) {
  flatbuffers::Verifier::Options o;
  o.max_tables = static_cast<flatbuffers::uoffset_t>(size / 4 + 1);  // as the reader sets it
  return o;
}

bool Generated(const Bytes& b) {
  flatbuffers::Verifier v(b.data(), b.size(), Options(b.size()));
  return fb::VerifyProgramBuffer(v);
}

bool TwoThreads(const Bytes& b) {
  return VerifyProgramFlatbuffer(b.data(), b.size(), Options(b.size()), /*parallel_from=*/0);
}

// The builder's programs hold every table of the schema between them.
std::vector<Bytes> Programs() {
  std::vector<Bytes> out;
  for (const testing::NamedScenario& s : testing::NamedScenarios()) out.push_back(s.make().Build());
  out.push_back(testing::LstmLike(2).Build());
  out.push_back(testing::ScaledCnn(1).Build());
  return out;
}

// A copy of `b` with 1-3 random edits: a byte, a 4-byte little-endian word (small or any
// value, the kind that moves offsets and lengths), or a cut.
Bytes Corrupt(const Bytes& b, std::mt19937& rng) {
  Bytes m = b;
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits && !m.empty(); ++e) {
    const size_t at = rng() % m.size();
    switch (rng() % 4) {
      case 0: m[at] = static_cast<uint8_t>(rng()); break;
      case 1: m[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      case 2: {
        const uint32_t word = rng() % 2 ? rng() % 64 : static_cast<uint32_t>(rng());
        for (size_t k = 0; k < 4 && at + k < m.size(); ++k)
          m[at + k] = static_cast<uint8_t>(word >> (8 * k));
        break;
      }
      default: m.resize(at); break;
    }
  }
  return m;
}

TEST(VerifyProgramTest, EveryBuilderProgramPassesOnBothPaths) {
  for (const Bytes& b : Programs()) {
    ASSERT_TRUE(Generated(b));
    EXPECT_TRUE(TwoThreads(b));
    EXPECT_TRUE(VerifyProgramFlatbuffer(b.data(), b.size(), Options(b.size()), b.size() + 1));
  }
}

TEST(VerifyProgramTest, CorruptedProgramsGetTheGeneratedVerifiersAnswer) {
  std::mt19937 rng(20261130);
  size_t accepted = 0, rejected = 0;
  for (const Bytes& program : Programs())
    for (int i = 0; i < 600; ++i) {
      const Bytes m = Corrupt(program, rng);
      const bool want = Generated(m);
      ASSERT_EQ(TwoThreads(m), want) << "mutant " << i << " of a " << program.size()
                                     << "-byte program";
      (want ? accepted : rejected) += 1;
    }
  // Both answers occur, or the comparison proved little.
  EXPECT_GT(accepted, 100u);
  EXPECT_GT(rejected, 100u);
}

// Every aligned word of each program's flatbuffer set to values that break offsets, lengths
// and vtables: a field the two-thread path forgot to verify shows up here.
TEST(VerifyProgramTest, EveryWordOverwrittenGetsTheGeneratedVerifiersAnswer) {
  size_t rejected = 0, mutants = 0;
  for (const Bytes& program : Programs()) {
    const auto header = ReadExtendedHeader(program, "program");
    ASSERT_TRUE(header.has_value());
    const size_t flatbuffer = *header ? (*header)->program_size : program.size();
    if (flatbuffer > (16u << 10)) continue;  // the scaled ones repeat the small ones' tables
    for (size_t at = 0; at + 4 <= flatbuffer; at += 4) {
      uint32_t original;
      std::memcpy(&original, program.data() + at, 4);
      for (uint32_t word : {0u, 0xffffffffu, original + 4, original + 0x10000}) {
        Bytes m = program;
        std::memcpy(m.data() + at, &word, 4);
        const bool want = Generated(m);
        ASSERT_EQ(TwoThreads(m), want) << "word at " << at << " set to " << word << " in a "
                                       << program.size() << "-byte program";
        rejected += !want;
        ++mutants;
      }
    }
  }
  EXPECT_GT(rejected, mutants / 20) << "the words barely reached the verifier";
}

TEST(VerifyProgramTest, EveryTruncationGetsTheGeneratedVerifiersAnswer) {
  const Bytes program = testing::NamedScenarios().front().make().Build();
  for (size_t n = 0; n < program.size(); n += 7) {
    const Bytes cut(program.begin(), program.begin() + static_cast<long>(n));
    EXPECT_EQ(TwoThreads(cut), Generated(cut)) << n << " bytes";
  }
}

}  // namespace
}  // namespace etmem::pte
