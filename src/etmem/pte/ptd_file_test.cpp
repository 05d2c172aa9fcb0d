// Owns: tests of the .ptd reader (ptd_file.h) on the builder's files (testing/ptd_writer.h).
#include "etmem/pte/ptd_file.h"

#include <gtest/gtest.h>

#include "etmem/testing/ptd_scenarios.h"
#include "etmem/testing/ptd_writer.h"

namespace etmem::pte {
namespace ptd_file_test {

std::vector<uint8_t> Named(std::string_view name) {
  for (const testing::NamedPtd& p : testing::PtdScenarios())
    if (p.name == name) return p.make();
  ADD_FAILURE() << name;
  return {};
}

TEST(PtdFile, ReadsBothLayouts) {
  for (const bool v06 : {false, true}) {
    auto f = ReadPtdBytes(Named(v06 ? "external_data.match06" : "external_data.match"), "w.ptd");
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ((*f)->layout, v06 ? PtdLayout::k06 : PtdLayout::k07);
    ASSERT_EQ((*f)->entries.size(), 3u);
    EXPECT_EQ((*f)->entries[0].key, "linear.weight");
    ASSERT_TRUE((*f)->entries[0].layout.has_value());
    EXPECT_EQ((*f)->entries[0].layout->dtype, 6);
    EXPECT_EQ((*f)->entries[0].layout->sizes, (std::vector<int32_t>{8, 8}));
    EXPECT_EQ((*f)->entries[0].layout->dim_order, (std::vector<uint8_t>{0, 1}));
    EXPECT_EQ((*f)->entries[2].key, "cache.state");
    ASSERT_EQ((*f)->segments.size(), 3u);
    EXPECT_EQ((*f)->segments[0].size, 256u);
    EXPECT_EQ((*f)->segments[1].offset, 256u);
    EXPECT_EQ(std::string((*f)->header.magic, 4), "FH01");
    EXPECT_EQ((*f)->header.flatbuffer_offset, 48u);
    EXPECT_EQ((*f)->header.segment_data_size, 256u + 32u + 32u);
    EXPECT_EQ((*f)->header.segment_base_offset + (*f)->header.segment_data_size,
              (*f)->bytes().size());
  }
}

TEST(PtdFile, ADamagedHeaderIsLeftToTheRelease) {
  for (const char* name : {"external_data.bad_magic", "external_data.short_header",
                           "external_data.bad_identifier", "external_data.truncated"}) {
    auto f = ReadPtdBytes(Named(name), "w.ptd");
    ASSERT_TRUE(f) << name << ": " << f.error().message;
  }
  EXPECT_EQ((*ReadPtdBytes(Named("external_data.bad_magic"), "w.ptd"))->layout, PtdLayout::kUnread);
}

TEST(PtdFile, NoPtdAtAllIsAnErrorNamingTheFile) {
  const std::vector<std::vector<uint8_t>> junk = {
      {}, std::vector<uint8_t>(63, 'F'), std::vector<uint8_t>(200, 0)};
  for (const auto& bytes : junk) {
    auto f = ReadPtdBytes(bytes, "junk.ptd");
    ASSERT_FALSE(f);
    EXPECT_TRUE(f.error().message.starts_with("junk.ptd: not a readable .ptd file: "))
        << f.error().message;
    EXPECT_EQ(f.error().message.find('\n'), std::string::npos);
  }
  // Header and identifier right, the flatbuffer garbage: it verifies in neither layout.
  std::vector<uint8_t> bytes = Named("external_data.match");
  for (size_t i = 56; i < 200; ++i) bytes[i] = 0xff;
  auto f = ReadPtdBytes(bytes, "junk.ptd");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().message.find("does not verify"), std::string::npos) << f.error().message;
  EXPECT_FALSE(ReadPtd("/nonexistent/x.ptd"));
}

}  // namespace ptd_file_test
}  // namespace etmem::pte
