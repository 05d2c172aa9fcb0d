// The Ethos-U scratch read from hand-written Vela payloads (the block format of the research
// notes §2.2), in built programs with the blob inline and in a segment, and in `etmem summary`.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etmem_cli.h"
#include "etmem/plan/ethosu_scratch.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenario_helpers.h"

namespace etmem::plan {
namespace plan_ethosu_test {

using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

// The blocks in the order arm_vela.py writes them; `scratch` is "scratch_size" (new payloads,
// a uint32) or "scratch_data" (old ones, that many zero bytes).
std::vector<uint8_t> Payload(const std::string& scratch, uint32_t bytes) {
  return testing::VelaPayload(scratch, bytes);
}

TEST(PlanEthosU, ReadsTheScratchSizeBlock) {
  auto s = ReadVelaScratch(Payload("scratch_size", 1536));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->kind, ScratchKind::kTempAllocation);
  EXPECT_EQ(s->bytes, 1536u);
}

TEST(PlanEthosU, OldPayloadsCarryTheScratchInTheBlob) {
  auto s = ReadVelaScratch(Payload("scratch_data", 100));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->kind, ScratchKind::kInBlob);
  EXPECT_EQ(s->bytes, 100u);
}

TEST(PlanEthosU, RejectsWhatIsNotAVelaStream) {
  EXPECT_FALSE(ReadVelaScratch(std::vector<uint8_t>(64, 0)));
  std::vector<uint8_t> truncated = Payload("scratch_size", 1536);
  truncated.resize(100);  // the weight_data block now runs past the end
  EXPECT_FALSE(ReadVelaScratch(truncated));
  std::vector<uint8_t> none(64, 0);  // a vela_bin_stream block, then vela_end_stream
  std::copy_n("vela_bin_stream", 15, none.begin());
  std::copy_n("vela_end_stream", 15, none.begin() + 32);
  EXPECT_FALSE(ReadVelaScratch(none));
}

// x -> Ethos-U delegate -> y, optionally followed by a portable relu.
ProgramBuilder EthosUProgram(std::vector<uint8_t> payload, bool in_segment, bool with_kernel) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  int y = m.Tensor({.sizes = {16}, .placement = Placement{1, 64}});
  int z = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  m.Inputs({x});
  int d = m.Delegate({.backend_id = "EthosUBackend", .blob = std::move(payload),
                      .blob_in_segment = in_segment});
  m.DelegateCall(d, {x, y});
  if (with_kernel) m.KernelCall(m.Operator("aten::relu", "out"), {y, z, z});
  m.Outputs({with_kernel ? z : y});
  m.PlannedBufferSizes({128});
  return b;
}

TEST(PlanEthosU, MethodTempIsTheDelegatesScratchInlineOrInASegment) {
  for (bool in_segment : {false, true}) {
    auto p = pte::ReadProgramBytes(
        EthosUProgram(Payload("scratch_size", 1536), in_segment, false).Build(), "ethosu.pte");
    ASSERT_TRUE(p) << p.error().message;
    RunTimeTemp t = ComputeRunTimeTemp(*p, p->methods[0]);
    EXPECT_EQ(t.ethosu_delegates, 1u);
    EXPECT_EQ(t.temp_bytes, 1536u) << "in segment: " << in_segment;
    EXPECT_EQ(t.unreadable, 0u);
    EXPECT_FALSE(t.other_calls);
  }
}

TEST(PlanEthosU, SummaryStatesTheScratchAndTheKernels) {
  const test::fs::path p = test::WriteScenario(
      EthosUProgram(Payload("scratch_size", 1536), true, true), "ethosu");
  test::CliRun r = test::Etmem("summary " + p.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 1.4.1 takes the scratch at 16-byte alignment; the pool base is aligned to 8, not 16: 8 B of
  // padding. The relu after it is portable's, which takes no temp memory.
  // The backend's ExecutionHandle is on the C heap from 1.2.0: two pointers (Cortex-M: 8 B).
  EXPECT_NE(r.out.find("temp allocator at run time: 1544 B, set by instruction 0 (delegate 0 "
                       "(EthosUBackend), ethos_u); EthosUBackend x1: temp use modelled; outside "
                       "every pool: 8 B of the C heap (its ExecutionHandle) [kernels: portable]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("instruction 0 delegate 0 (EthosUBackend) (ethos_u): the Vela payload's "
                       "scratch_size = 1536 B at 16; takes 1544 B of the pool"),
            std::string::npos)
      << r.out;
}

}  // namespace plan_ethosu_test
}  // namespace etmem::plan
