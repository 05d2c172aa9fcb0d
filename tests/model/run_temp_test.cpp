// The temp allocator while the method runs (kernels/): the kernel libraries' data per release,
// the portable topk's requests on the builder's `topk` program (held to the real kernel's trace
// in tests/measured/x86_64_run_temp.json), the Cadence HiFi broadcast rules' checks, the pool
// check and its log lines, the heap fallback, and the motivating CNN, whose portable kernels take
// no temp memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/kernels/library.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/pte/read_program.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem {
namespace run_temp_test {

const runtime::RuntimeTraits& Release(const std::string& v) { return **runtime::FindRelease(v); }

pte::ProgramView Read(const testing::ProgramBuilder& b) {
  static std::vector<std::vector<uint8_t>> keep;  // the views point into the bytes
  keep.push_back(b.Build());
  auto view = pte::ReadProgramBytes(keep.back(), "builder");
  EXPECT_TRUE(view.has_value());
  return std::move(*view);
}

kernels::RunTemp Temp(const pte::ProgramView& p, const std::string& release,
                     const std::string& target, kernels::RunTempOptions o = {}) {
  auto abi = abi::FindBuiltinTarget(target);
  EXPECT_TRUE(abi.has_value());
  auto r = kernels::ComputeRunTemp(p, p.methods[0], Release(release), *abi, o);
  EXPECT_TRUE(r.has_value());
  return std::move(*r);
}

TEST(KernelLibraries, PortableTopkFirstRegisteredAtItsRelease) {
  auto before = kernels::LibraryAt("portable", Release("0.3.0"));
  auto at = kernels::LibraryAt("portable", Release("0.4.0"));
  ASSERT_TRUE(before && at);
  EXPECT_FALSE((*before)->ops.contains("aten::topk.values"));
  EXPECT_EQ((*at)->ops.at("aten::topk.values"), kernels::TempRule::kTopk);
  EXPECT_EQ((*at)->ops.at("aten::convolution.out"), kernels::TempRule::kNone);
}

TEST(KernelLibraries, CortexMScratchLeavesTheTempAllocatorAt140) {
  auto first = kernels::LibraryAt("cortex_m", Release("1.1.0"));
  auto mid = kernels::LibraryAt("cortex_m", Release("1.2.0"));
  auto with = kernels::LibraryAt("cortex_m", Release("1.3.1"));
  auto without = kernels::LibraryAt("cortex_m", Release("1.4.0"));
  ASSERT_TRUE(first && mid && with && without);
  // alignof(int16_t) at 1.1.0, kCortexMMveAlignment from 1.2.0.
  EXPECT_EQ((*first)->temp_alignment, 2u);
  EXPECT_EQ((*mid)->temp_alignment, 16u);
  EXPECT_EQ((*mid)->ops.at("cortex_m::quantized_conv2d.out"), kernels::TempRule::kCmsisConvolve);
  EXPECT_EQ((*mid)->ops.at("cortex_m::quantized_transpose_conv2d.out"),
            kernels::TempRule::kCmsisTransposeConv);
  EXPECT_EQ((*with)->ops.at("cortex_m::quantized_conv2d.out"),
            kernels::TempRule::kCmsisConvolveWrapper);
  EXPECT_EQ((*without)->ops.at("cortex_m::quantized_conv2d.out"), kernels::TempRule::kNone);
  EXPECT_EQ((*without)->ops.at("cortex_m::quantized_depthwise_conv2d.out"),
            kernels::TempRule::kNone);
}

// The CMSIS-NN scratch depends on the core: the built-in cortex-m target does not name one and
// assumes the Cortex-M backend's documented Cortex-M55 (MVE), and says so; x86_64 is not an Arm
// M-profile core (CMSIS-NN's plain C paths) and assumes nothing.
TEST(RunTemp, CortexMScratchFollowsTheCoresExtensionAndSaysWhatItAssumed) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("cortex_m_conv"));
  kernels::RunTempOptions o;
  o.kernels = {"cortex_m"};
  o.pool_align = 16;  // the requests are 16-aligned: no padding before them
  const kernels::RunTemp mve = Temp(p, "1.3.0", "cortex-m", o);
  EXPECT_TRUE(mve.known());
  EXPECT_EQ(mve.peak_bytes, 12400u);  // depthwise 5x5: 4 x CH_IN_BLOCK_MVE (124) x 25
  ASSERT_EQ(mve.assumptions.size(), 1u);
  EXPECT_NE(mve.assumptions[0].find("m_extension mve"), std::string::npos);
  EXPECT_NE(mve.assumptions[0].find("Cortex-M55"), std::string::npos);
  const kernels::RunTemp none = Temp(p, "1.3.0", "x86_64", o);
  EXPECT_EQ(none.peak_bytes, 112u);  // conv 3x3 on 3 channels: 2 x align4(27) int16
  EXPECT_TRUE(none.assumptions.empty());
  // Without MVE a 3x3 depthwise asks for 0 bytes, and still asks.
  ASSERT_EQ(none.calls.size(), 5u);
  EXPECT_EQ(none.calls[2].instruction, 3u);
  EXPECT_EQ(none.calls[2].requests[0].bytes, 0u);
  // A pool one byte short: the conv's own line at 1.3.0, then the call fails.
  o.temp_pool_bytes = 111;
  const kernels::RunTemp short_pool = Temp(p, "1.3.0", "x86_64", o);
  ASSERT_TRUE(short_pool.check && !short_pool.check->fits);
  EXPECT_EQ(short_pool.check->log,
            (std::vector<std::string>{
                "Memory allocation failed: 112B requested (adjusted for alignment), 111B "
                "available",
                "Failed to allocate temp memory. Bytes requested: 112",
                "quantized_conv2d_out: failed to allocate scratch buffer (112 bytes, error 33)",
                "KernelCall failed at instruction 0:0 in operator "
                "cortex_m::quantized_conv2d.out: 0x21"}));
  // From 1.4.0 the scratch is a planned tensor.
  EXPECT_EQ(Temp(p, "1.4.0", "cortex-m", {.kernels = {"cortex_m"}}).calls.size(), 0u);
}

TEST(KernelLibraries, EthosUScratchFromTheTempAllocatorFrom070At16From100) {
  auto at = [](const std::string& v) {
    for (const kernels::DelegateLibrary& l : kernels::DelegateLibrariesAt(Release(v)))
      if (l.backends.contains("EthosUBackend")) return l;
    return kernels::DelegateLibrary{};
  };
  EXPECT_EQ(at("0.1.0").backends.at("ArmBackend"), kernels::DelegateRule::kNone);
  EXPECT_EQ(at("0.6.0").backends.at("EthosUBackend"), kernels::DelegateRule::kEthosUScratchInBlob);
  EXPECT_EQ(at("0.7.0").backends.at("EthosUBackend"), kernels::DelegateRule::kEthosUScratch);
  EXPECT_EQ(at("0.7.0").scratch_align, 0u);
  EXPECT_EQ(at("1.0.0").scratch_align, 16u);
}

TEST(KernelLibraries, AnUnknownLibraryNameIsOneLineListingTheKnownOnes) {
  auto r = kernels::LibraryAt("fast\x01", Release("1.4.1"));
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("known: portable, optimized"), std::string::npos);
  EXPECT_EQ(r.error().message.find('\x01'), std::string::npos);
}

TEST(RunTemp, MotivatingCnnPortableTakesNoTempWhileRunning) {
  const pte::ProgramView p = Read(testing::MotivatingCnn());
  const kernels::RunTemp t = Temp(p, "1.4.1", "cortex-m");
  EXPECT_TRUE(t.known());
  EXPECT_EQ(t.peak_bytes, 0u);
  EXPECT_EQ(t.kernel_calls, 15u);
  EXPECT_EQ(t.Describe(),
            "0 B: none of these kernels allocates temp memory while running [kernels: portable]");
}

TEST(RunTemp, TopkOnCortexMPairsArePaddedToTheInt64Alignment) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("topk"));
  const kernels::RunTemp t = Temp(p, "1.4.1", "cortex-m");
  ASSERT_EQ(t.calls.size(), 3u);
  // pair<float, int64_t> and pair<double, int64_t> are 16 bytes on Arm EABI (int64 8-aligned).
  EXPECT_EQ(t.calls[0].requests[0].bytes, 5u * 16);
  EXPECT_EQ(t.calls[1].requests[0].bytes, 40u * 16);
  EXPECT_EQ(t.calls[2].requests[0].bytes, 7u * 16);
  EXPECT_EQ(t.calls[0].requests[0].alignment, 4u);  // alignof(void*)
  EXPECT_EQ(t.peak_bytes, 640u);
  ASSERT_TRUE(t.peak_call.has_value());
  EXPECT_EQ(t.calls[*t.peak_call].instruction, 1u);
}

TEST(RunTemp, TopkOnI386PairsAreTwelveBytes) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("topk"));
  auto targets = abi::BuiltinTargets();
  for (const abi::Abi& a : targets) {
    if (a.int64.align != 4) continue;  // a target whose int64 is 4-aligned, if built in
    auto t = kernels::ComputeRunTemp(p, p.methods[0], Release("1.4.1"), a, {});
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->calls[0].requests[0].bytes, 5u * 12);
  }
}

TEST(RunTemp, APoolOneByteShortFailsTheLargestCallWithTheKernelsLines) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("topk"));
  kernels::RunTempOptions o;
  o.pool_align = 16;
  o.temp_pool_bytes = 639;
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_TRUE(t.check.has_value());
  EXPECT_FALSE(t.check->fits);
  EXPECT_EQ(t.calls[*t.check->failing_call].instruction, 1u);
  EXPECT_EQ(t.check->log, (std::vector<std::string>{
                              "Memory allocation failed: 640B requested (adjusted for "
                              "alignment), 639B available",
                              "Failed to allocate temp memory. Bytes requested: 640",
                              "Check failed (temp_mem_allocated): ",
                              "KernelCall failed at instruction 0:1 in operator "
                              "aten::topk.values: 0x21"}));
  o.temp_pool_bytes = 640;
  EXPECT_TRUE(Temp(p, "1.4.1", "x86_64", o).check->fits);
}

TEST(RunTemp, NoTempAllocatorGoesToTheHeapFromTheFallbackRelease) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("topk"));
  kernels::RunTempOptions o;
  o.temp_allocator = false;
  // 0.3.0: no fallback (allocate_temp would return NotFound), and no topk in its portable
  // library yet: the three calls are unknown, naming the operator.
  const kernels::RunTemp none = Temp(p, "0.3.0", "x86_64", o);
  EXPECT_TRUE(none.no_temp_allocator);
  EXPECT_EQ(none.unknown_calls, 3u);
  const kernels::RunTemp old = Temp(p, "0.4.0", "x86_64", o);
  EXPECT_TRUE(old.platform_fallback);
  // node (2 pointers) + size + alignment; from 1.3.0 + alignment - 1.
  EXPECT_EQ(old.heap_peak_bytes, 16u + 640 + 8);
  const kernels::RunTemp now = Temp(p, "1.3.0", "x86_64", o);
  EXPECT_EQ(now.heap_peak_bytes, 16u + 640 + 7);
  ASSERT_TRUE(now.no_heap_failing_call.has_value());
  EXPECT_EQ(now.calls[*now.no_heap_failing_call].instruction, 0u);
  EXPECT_EQ(now.no_heap_log, (std::vector<std::string>{
                                 "Failed to allocate 103 bytes",
                                 "Failed to allocate temp memory. Bytes requested: 80",
                                 "Check failed (temp_mem_allocated): ",
                                 "KernelCall failed at instruction 0:0 in operator "
                                 "aten::topk.values: 0x21"}));
}

TEST(RunTemp, AnOperatorNoLibraryImplementsIsUnknownNamingItAndTheLibraryAsked) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int x = m.Tensor({.sizes = {4}});
  m.KernelCall(m.Operator("my_ns::frobnicate", "out"), {x, x});
  m.KernelCall(m.Operator("aten::fft_r2c", "out"), {x, x});
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"optimized"};
  const kernels::RunTemp t = Temp(p, "1.4.1", "cortex-m", o);
  EXPECT_EQ(t.unknown_calls, 2u);
  EXPECT_EQ(t.calls[0].unknown,
            "no modelled library implements my_ns::frobnicate.out (asked: optimized and the "
            "my_ns:: libraries)");
  EXPECT_EQ(t.calls[1].unknown, "no modelled library implements aten::fft_r2c.out (asked: optimized)");
  EXPECT_TRUE(t.calls[0].missing_log.empty());  // no modelled library: etmem cannot say
  EXPECT_FALSE(t.first_missing_call.has_value());
}

// An operator the chosen library lacks but another registers: named with the libraries that
// register it (from the library data at that release), and, since Method::init resolves every
// operator, with only the chosen library load_method fails with the runtime's own line.
TEST(RunTemp, AnOperatorTheChosenLibraryLacksNamesTheLibrariesThatRegisterIt) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int x = m.Tensor({.sizes = {4}});
  m.KernelCall(m.Operator("aten::add", "out"), {x, x, x, x});  // in optimized
  const int conv = m.Operator("aten::convolution", "out");
  m.KernelCall(conv, {x, x, x});
  m.KernelCall(conv, {x, x, x});
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"optimized"};
  for (const char* release : {"0.4.0", "1.4.1", "main"}) {
    SCOPED_TRACE(release);
    std::vector<std::string> registering;
    for (const kernels::KernelLibrary& l : kernels::AllLibrariesAt(Release(release)))
      if (l.ops.contains("aten::convolution.out")) registering.push_back(l.name);
    ASSERT_FALSE(registering.empty());
    EXPECT_EQ(registering.front(), "portable");
    std::string by;
    for (const std::string& l : registering) by += (by.empty() ? "" : ", ") + l;
    const kernels::RunTemp t = Temp(p, release, "cortex-m", o);
    ASSERT_EQ(t.calls.size(), 2u);  // the add asks for nothing and is not listed
    EXPECT_EQ(t.unknown_calls, 2u);
    EXPECT_EQ(t.calls[0].registered_by, registering);
    EXPECT_EQ(t.calls[0].unknown, "not in optimized; registered by " + by);
    EXPECT_EQ(t.calls[0].missing_log, "Missing operator: [1] aten::convolution.out");
    EXPECT_EQ(t.missing_operator_calls, 2u);
    ASSERT_TRUE(t.first_missing_call.has_value());
    EXPECT_EQ(t.calls[*t.first_missing_call].instruction, 1u);
    const std::string line = t.Describe();
    EXPECT_NE(line.find("first instruction 1 (aten::convolution.out): not in optimized; "
                        "registered by " + by),
              std::string::npos)
        << line;
    EXPECT_NE(line.find("with only optimized registered, load_method fails before the method can "
                        "run: \"Missing operator: [1] aten::convolution.out\" (OperatorMissing, "
                        "0x14); 2 call(s) in all lack their kernel"),
              std::string::npos)
        << line;
    // With portable after it (the fallback the optimized build links), nothing is missing.
    kernels::RunTempOptions both = o;
    both.kernels = {"optimized", "portable"};
    const kernels::RunTemp fine = Temp(p, release, "cortex-m", both);
    EXPECT_EQ(fine.unknown_calls, 0u);
    EXPECT_FALSE(fine.first_missing_call.has_value());
  }
}

// Delegates: per backend, whether its temp use is modelled, and what lies outside every pool:
// XNNPACK's own heap (unknown, named), Ethos-U's ExecutionHandle on the C heap from 1.2.0 (two
// pointers per delegate to 1.4.1; a PlatformState* and a VelaHandles of 4 pointers and 4 size_t
// at main), nothing before (its handle then came from the method allocator).
TEST(RunTemp, DelegatesSayWhatIsModelledAndWhatLiesOutsideEveryPool) {
  const pte::ProgramView xnn = Read(testing::ProgramWithDelegate("XnnpackBackend"));
  const kernels::RunTemp t = Temp(xnn, "1.4.1", "cortex-m");
  ASSERT_EQ(t.delegate_uses.size(), 1u);
  const kernels::DelegateUse& u = t.delegate_uses[0];
  EXPECT_EQ(u.backend, "XnnpackBackend");
  EXPECT_EQ(u.delegates, xnn.methods[0].delegates.size());
  EXPECT_GE(u.calls, 1u);
  EXPECT_EQ(u.library, "backends");
  EXPECT_TRUE(u.temp_modelled);
  EXPECT_NE(u.outside.find("XNNPACK's own heap"), std::string::npos) << u.outside;
  EXPECT_TRUE(u.outside_unknown);
  EXPECT_FALSE(u.outside_bytes.has_value());
  const std::string line = t.Describe();
  EXPECT_NE(line.find("0 B: none of these kernels and delegates asks the temp allocator while "
                      "running; "
                      "XnnpackBackend x1: temp use modelled; outside every pool: XNNPACK's own "
                      "heap (unknown) [kernels: portable]"),
            std::string::npos)
      << line;
  EXPECT_EQ(u.temp, "execute() takes nothing from the temp allocator (modelled)");
  EXPECT_EQ(line.find("none of these kernels allocates"), std::string::npos) << line;

  const pte::ProgramView ethos = Read(testing::ProgramWithDelegate("EthosUBackend"));
  for (const char* target : {"cortex-m", "x86_64"}) {
    const abi::Abi abi = *abi::FindBuiltinTarget(target);
    auto outside = [&](const char* release) {
      const kernels::RunTemp e = Temp(ethos, release, target);
      EXPECT_EQ(e.delegate_uses.size(), 1u);
      return e.delegate_uses.at(0);
    };
    EXPECT_TRUE(outside("1.1.0").outside.empty());
    EXPECT_FALSE(outside("1.1.0").outside_bytes.has_value());
    for (const char* release : {"1.2.0", "1.4.1"}) {
      const kernels::DelegateUse e = outside(release);
      EXPECT_NE(e.outside.find("ExecutionHandle"), std::string::npos) << e.outside;
      EXPECT_EQ(e.outside_bytes, 2u * abi.pointer.size) << release << " " << target;
    }
    EXPECT_EQ(outside("main").outside_bytes, 5u * abi.pointer.size + 4u * abi.size_type.size)
        << target;
  }
}

// A backend nobody models: its temp use and what it takes outside the pools are both unknown.
TEST(RunTemp, AnUnmodelledBackendIsUnknownOnBothCounts) {
  const pte::ProgramView p = Read(testing::ProgramWithDelegate("SomeNpuBackend"));
  const kernels::RunTemp t = Temp(p, "1.4.1", "cortex-m");
  ASSERT_EQ(t.delegate_uses.size(), 1u);
  EXPECT_TRUE(t.delegate_uses[0].library.empty());
  EXPECT_FALSE(t.delegate_uses[0].temp_modelled);
  EXPECT_TRUE(t.delegate_uses[0].outside_unknown);
  EXPECT_FALSE(t.known());
}

// The HiFi broadcast rules on what the builder's hifi_broadcast program does not cover (that one
// is held to the real kernels in measured_run_temp_test): atan2 checks no dtype, pow fails two
// Bool inputs; a static output of the wrong shape fails before asking; a dynamic one asks for its
// broadcast shape, said to be an upper bound.
TEST(RunTemp, HifiBroadcastDtypeAndShapeChecksComeBeforeTheRequests) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int a = m.Tensor({.dtype = testing::kBool, .sizes = {2, 1}});
  const int c = m.Tensor({.dtype = testing::kBool, .sizes = {1, 3}});
  const int out = m.Tensor({.sizes = {2, 3}});
  const int wrong = m.Tensor({.sizes = {3, 3}});
  const int dynamic = m.Tensor({.sizes = {4, 4}, .dynamism = pte::Dynamism::kDynamicBound});
  const int atan2 = m.Operator("aten::atan2", "out");
  const int pow = m.Operator("aten::pow", "Tensor_Tensor_out");
  m.KernelCall(atan2, {a, c, out, out});
  m.KernelCall(pow, {a, c, out, out});
  m.KernelCall(atan2, {a, c, wrong, wrong});
  m.KernelCall(atan2, {a, c, dynamic, dynamic});
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_EQ(t.calls.size(), 2u);  // atan2 on out, atan2 on the dynamic output
  EXPECT_EQ(t.calls[0].instruction, 0u);
  ASSERT_EQ(t.calls[0].requests.size(), 2u);
  EXPECT_EQ(t.calls[0].requests[0].bytes, 24u);
  EXPECT_EQ(t.calls[0].requests[1].check, "ptr2 != nullptr");
  EXPECT_EQ(t.calls[1].instruction, 3u);
  EXPECT_EQ(t.calls[1].requests[0].bytes, 24u);
  EXPECT_TRUE(t.calls[1].upper_bound);
  EXPECT_TRUE(t.known());
}

// 0.5.0's HiFi pow.Tensor_Tensor_out and where.self_out malloc their broadcast buffers (op_pow.cpp,
// op_where.cpp) and free them: pow out.numel() x 4 B per broadcast input, the first input's two
// words longer when only it is broadcast; where out.numel() B for the broadcast cond; a cond
// neither Bool nor Byte aborts (ET_CHECK_MSG). From 0.6.0 the same buffers come from the temp
// allocator.
TEST(RunTemp, HifiPowAndWhereMallocTheirBroadcastBuffersAt050) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int col = m.Tensor({.sizes = {2, 1}});
  const int row = m.Tensor({.sizes = {1, 3}});
  const int full = m.Tensor({.sizes = {2, 3}});
  const int out = m.Tensor({.sizes = {2, 3}});
  const int cond = m.Tensor({.dtype = testing::kBool, .sizes = {1, 3}});
  const int cond_float = m.Tensor({.sizes = {1, 3}});
  const int pow = m.Operator("aten::pow", "Tensor_Tensor_out");
  const int where = m.Operator("aten::where", "self_out");
  m.KernelCall(pow, {col, row, out, out});    // both broadcast
  m.KernelCall(pow, {col, full, out, out});   // the first
  m.KernelCall(pow, {full, row, out, out});   // the second
  m.KernelCall(pow, {full, full, out, out});  // neither
  m.KernelCall(where, {cond, full, full, out, out});
  m.KernelCall(where, {cond_float, full, full, out, out});
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  const kernels::RunTemp t = Temp(p, "0.5.0", "cortex-m", o);
  ASSERT_EQ(t.calls.size(), 4u);
  EXPECT_EQ(t.peak_bytes, 0u);
  ASSERT_EQ(t.calls[0].mallocs.size(), 2u);
  EXPECT_EQ(t.calls[0].mallocs[1].bytes, 24u);
  ASSERT_EQ(t.calls[1].mallocs.size(), 1u);
  EXPECT_EQ(t.calls[1].mallocs[0].bytes, 32u);  // (6 + 2) x 4
  EXPECT_EQ(t.calls[2].mallocs[0].bytes, 24u);
  EXPECT_EQ(t.calls[3].instruction, 4u);
  ASSERT_EQ(t.calls[3].mallocs.size(), 1u);
  EXPECT_EQ(t.calls[3].mallocs[0].bytes, 6u);
  for (const kernels::CallTemp& c : t.calls)
    for (const kernels::MallocRequest& q : c.mallocs) EXPECT_TRUE(q.freed);
  EXPECT_EQ(t.malloc_peak_bytes, 48u);
  EXPECT_EQ(t.malloc_leaked_bytes, 0u);
  ASSERT_EQ(t.run_failures.size(), 1u);  // the Float cond
  EXPECT_NE(t.run_failures[0].find("instruction 5"), std::string::npos) << t.run_failures[0];
  const kernels::RunTemp later = Temp(p, "0.6.0", "cortex-m", o);
  EXPECT_FALSE(later.malloc_peak_call);
  ASSERT_FALSE(later.calls.empty());
  EXPECT_EQ(later.calls[0].requests.size(), 2u);
  EXPECT_EQ(later.calls[0].requests[0].bytes, t.calls[0].mallocs[0].bytes);
}

// The HiFi bitwise kernels do not check their broadcast buffers: a pool too small logs the
// runtime's lines for each and no KernelCall line; the model says the kernel goes on with NULL.
TEST(RunTemp, HifiBitwiseGoesOnWithNullWhenThePoolIsShort) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_bitwise"));
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  o.temp_pool_bytes = 14;
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  EXPECT_EQ(t.peak_bytes, 31u);
  ASSERT_TRUE(t.check && !t.check->fits);
  EXPECT_EQ(t.calls[*t.check->failing_call].instruction, 0u);
  EXPECT_EQ(t.check->log, (std::vector<std::string>{
                              "Memory allocation failed: 15B requested (adjusted for "
                              "alignment), 14B available",
                              "Failed to allocate temp memory. Bytes requested: 15",
                              "Failed to allocate temp memory, error: 0x21",
                              "Memory allocation failed: 15B requested (adjusted for "
                              "alignment), 14B available",
                              "Failed to allocate temp memory. Bytes requested: 15",
                              "Failed to allocate temp memory, error: 0x21"}));
  EXPECT_FALSE(t.check->then.empty());
}

// The HiFi mean.out asks (from 0.6.0; 0.5.0 mallocs) for xa_nn_reduce_getsize_nhwc's words, and
// says the getsize is NNLib v4.1.0's, while the release pins an unpublished commit.
TEST(RunTemp, HifiMeanAsksForTheNnlibReduceScratchAndSaysWhichNnlib) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int x = m.Tensor({.sizes = {2, 3}});
  const int y = m.Tensor({.sizes = {2, 1}});
  const int z = m.Tensor({.sizes = {}});
  const int mean = m.Operator("aten::mean", "out");
  m.KernelCall(mean, {x, m.IntListOf({1}), m.Bool(true), m.Null(), y, y});
  m.KernelCall(mean, {x, m.Null(), m.Bool(false), m.Null(), z, z});   // dim None: aborts
  m.KernelCall(mean, {z, m.IntListOf({-1}), m.Bool(false), m.Null(), z, z});  // inp_shape[-1]
  m.KernelCall(mean, {x, m.IntListOf({1, -1}), m.Bool(true), m.Null(), y, y});  // a repeated dim
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_EQ(t.calls.size(), 3u);  // the repeated dim fails the argument check: nothing asked
  // 0.5.0 mallocs the same getsize in bytes (not x sizeof(int)) and never frees it: nothing from
  // the temp allocator, the heap grows by it every run.
  const kernels::RunTemp t05 = Temp(p, "0.5.0", "x86_64", o);
  ASSERT_EQ(t05.calls.size(), 3u);
  EXPECT_EQ(t05.peak_bytes, 0u);
  EXPECT_TRUE(t05.calls[0].requests.empty());
  ASSERT_EQ(t05.calls[0].mallocs.size(), 1u);
  EXPECT_EQ(t05.calls[0].mallocs[0].bytes * 4, t.calls[0].requests[0].bytes);
  EXPECT_FALSE(t05.calls[0].mallocs[0].freed);
  EXPECT_EQ(t05.malloc_leaked_bytes, 16u);
  EXPECT_EQ(t05.malloc_peak_bytes, 16u);
  EXPECT_NE(t05.Describe().find("never free 16 B"), std::string::npos) << t05.Describe();
  // ALIGNED_SIZE(6 / 3 x 4 + 7, 8) = 16, x sizeof(int).
  ASSERT_EQ(t.calls[0].requests.size(), 1u);
  EXPECT_EQ(t.calls[0].requests[0].bytes, 64u);
  EXPECT_EQ(t.calls[0].requests[0].alignment, 16u);
  EXPECT_EQ(t.calls[0].requests[0].check, "p_scratch_in != nullptr");
  EXPECT_NE(t.calls[1].unknown.find("dim is None"), std::string::npos);
  EXPECT_NE(t.calls[2].unknown.find("inp_shape[-1]"), std::string::npos);
  ASSERT_EQ(t.assumptions.size(), 1u);
  EXPECT_NE(t.assumptions[0].find("6a9ea45"), std::string::npos);
  EXPECT_NE(t.assumptions[0].find("64d73d729797388b0e346794d7a2e408374a74de"), std::string::npos);
  EXPECT_NE(t.Describe().find("NNLib getsize as at v4.1.0 (6a9ea45) assumed: this release pins "
                              "64d73d7, not public"),
            std::string::npos)
      << t.Describe();
  const kernels::RunTemp old = Temp(p, "0.6.0", "x86_64", o);
  ASSERT_FALSE(old.calls.empty());
  EXPECT_EQ(old.calls[0].requests[0].alignment, 8u);  // allocate_temp's default before 1.0.0
  ASSERT_EQ(old.assumptions.size(), 1u);
  EXPECT_NE(old.assumptions[0].find("102944a6f76a0de4d81adc431f3f132f517aa87f"), std::string::npos);
}

// The HiFi quantized_max_pool2d_nhwc.out on Byte input asks for xa_nn_maxpool_getsize's bytes,
// unchecked; a getsize of -1 (one channel, a kernel wider than the input) asks for SIZE_MAX of the
// target's size_t; Char input passes PREC_SYM8S, for which the modelled NNLib has no case.
TEST(RunTemp, HifiMaxPoolNhwcAsksForTheNnlibMaxpoolScratch) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  auto pool = [&](std::vector<int32_t> in, std::vector<int32_t> out, int8_t dtype,
                  std::vector<int64_t> k) {
    const int x = m.Tensor({.dtype = dtype, .sizes = in});
    const int y = m.Tensor({.dtype = dtype, .sizes = out});
    m.KernelCall(m.Operator("cadence::quantized_max_pool2d_nhwc", "out"),
                 {x, m.IntListOf(k), m.IntListOf({1, 1}), m.IntListOf({0, 0}),
                  m.IntListOf({1, 1}), m.Bool(false), y, y});
  };
  pool({1, 4, 5, 6}, {1, 3, 4, 6}, testing::kByte, {2, 2});  // 6 x 5 x 2 -> 64, + 12 -> 16
  pool({1, 4, 2, 1}, {1, 2, 1, 1}, testing::kByte, {3, 3});  // kernel wider than the input: -1
  pool({1, 4, 5, 6}, {1, 3, 4, 6}, testing::kChar, {2, 2});
  const pte::ProgramView p = Read(b);
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  const kernels::RunTemp before = Temp(p, "1.2.0", "x86_64", o);  // registered from 1.3.0
  ASSERT_FALSE(before.calls.empty());
  EXPECT_NE(before.calls[0].unknown.find("no modelled library"), std::string::npos);
  const kernels::RunTemp t = Temp(p, "1.3.0", "x86_64", o);
  ASSERT_EQ(t.calls.size(), 3u);
  EXPECT_EQ(t.calls[0].requests[0].bytes, 80u);
  EXPECT_EQ(t.calls[0].requests[0].check, "");  // not checked: the kernel goes on with NULL
  EXPECT_EQ(t.calls[1].requests[0].bytes, UINT64_MAX);
  EXPECT_EQ(Temp(p, "1.3.0", "xtensa", o).calls[1].requests[0].bytes, uint64_t{UINT32_MAX});
  EXPECT_NE(t.calls[2].unknown.find("PREC_SYM8S"), std::string::npos);
  EXPECT_NE(t.calls[2].unknown.find("64d73d7"), std::string::npos);
  EXPECT_FALSE(t.known());
  o.temp_pool_bytes = 79;  // the first call's 80 B are refused: the NNLib rejects the NULL
  const kernels::RunTemp small = Temp(p, "1.3.0", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_NE(small.check->then.find("xa_nn_maxpool_asym8"), std::string::npos) << small.check->then;
}

// The HiFi specialised quantized convolutions: NHWC asks for xa_nn_conv2d_getsize's bytes, NCHW
// first for the input's and the kernel's NHWC copies; nothing is checked, so a pool of the peak
// - 1 logs the runtime's and allocate_temp_memory's lines at the peak's instruction and the kernel
// goes on (the NNLib rejects the NULL); groups != 1 aborts before asking; the state's six
// pointers are the target's.
TEST(RunTemp, HifiQuantizedConvAsksForTheTransposesAndTheNnlibConv2dScratch) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_quantized_conv2d"));
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  EXPECT_TRUE(t.known());
  ASSERT_EQ(t.calls.size(), 7u);
  // 8 + (48 + 7) + (10 rows x 3 x 16 channels + 7) + 8.
  EXPECT_EQ(t.calls[1].requests[0].bytes, 558u);
  EXPECT_EQ(t.calls[1].requests[0].check, "");
  EXPECT_EQ(t.calls[0].requests[0].bytes, 0u);  // getsize -1: 8 channels over 3
  ASSERT_EQ(t.calls[5].requests.size(), 3u);
  EXPECT_EQ(t.calls[5].requests[0].bytes, 16392u);  // 16 x 32 x 32 + 8
  EXPECT_EQ(t.calls[5].requests[1].bytes, 4616u);   // 32 x 16 x 3 x 3 + 8
  EXPECT_EQ(t.calls[5].requests[2].bytes, 1710u);
  EXPECT_EQ(t.peak_bytes, 22734u);
  EXPECT_EQ(t.peak_call, 5u);
  EXPECT_NE(t.Describe().find("64d73d7, not public"), std::string::npos) << t.Describe();
  // The state is 24 B on the 32-bit Xtensa core.
  EXPECT_EQ(Temp(p, "1.4.1", "xtensa", o).calls[1].requests[0].bytes, 558u - 24u);
  // 1.0.x names its operators quantized_conv_*; quantized_conv2d_* is not registered.
  EXPECT_FALSE(Temp(p, "1.0.0", "x86_64", o).known());
  const kernels::RunTemp old =
      Temp(Read(testing::NamedScenarioProgram("hifi_quantized_conv")), "1.0.0", "x86_64", o);
  EXPECT_TRUE(old.known());
  EXPECT_EQ(old.peak_bytes, 22734u);
  o.temp_pool_bytes = t.peak_bytes - 1;
  const kernels::RunTemp small = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 5u);
  EXPECT_EQ(small.check->log, (std::vector<std::string>{
                                  "Memory allocation failed: 1718B requested (adjusted for "
                                  "alignment), 1717B available",
                                  "Failed to allocate temp memory. Bytes requested: 1710",
                                  "Failed to allocate temp memory, error: 0x21"}));
  EXPECT_NE(small.check->then.find("xa_nn_transpose_8_8"), std::string::npos)
      << small.check->then;
  o.temp_pool_bytes = t.peak_bytes;
  EXPECT_TRUE(Temp(p, "1.4.1", "x86_64", o).check->fits);

  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int x = m.Tensor({.dtype = testing::kChar, .sizes = {1, 4, 6, 6}});
  const int w = m.Tensor({.dtype = testing::kChar, .sizes = {4, 1, 3, 3}});
  const int bias = m.Tensor({.dtype = testing::kInt32, .sizes = {4}});
  const int y = m.Tensor({.dtype = testing::kChar, .sizes = {1, 4, 4, 4}});
  m.KernelCall(m.Operator("cadence::quantized_conv2d_nhwc_asym8sxsym8s_asym8s", "per_tensor_out"),
               {x, w, bias, m.IntListOf({1, 1}), m.IntListOf({0, 0}), m.IntListOf({1, 1}),
                m.Int(4), m.Int(0), m.Int(0), m.Double(1), m.Double(1), m.Int(0), m.Int(0),
                m.Int(0), y, y});
  const kernels::RunTemp grouped = Temp(Read(b), "1.4.1", "x86_64", {.kernels = {"cadence_hifi"}});
  ASSERT_EQ(grouped.run_failures.size(), 1u);
  EXPECT_NE(grouped.run_failures[0].find("Only groups=1"), std::string::npos);
  EXPECT_EQ(grouped.peak_bytes, 0u);
}

// The HiFi specialised depthwise convolutions ask for xa_nn_conv2d_depthwise_getsize's bytes,
// NCHW then for its NHWC output; the NHWC kernel reads its sizes as NCHW to 1.1.x and as NHWC
// from 1.2.0; a pool of the peak - 1 fails the peak's second request, unchecked.
TEST(RunTemp, HifiQuantizedDepthwiseAsksForTheNnlibDepthwiseScratch) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_quantized_conv2d_depthwise"));
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  EXPECT_TRUE(t.known());
  ASSERT_EQ(t.calls.size(), 7u);
  // [1, 8, 8, 4] with weight [3, 3, 4, 1]: the state 48 + 8 rows x 4 channels x 3 + 3 x 3 x 4 to 8.
  EXPECT_EQ(t.calls[0].requests[0].bytes, 48u + 96u + 40u);
  // To 1.1.x the same is read as 8 channels, out channels 3: a multiplier of 0, getsize -1.
  EXPECT_EQ(Temp(p, "1.1.0", "x86_64", o).calls[0].requests[0].bytes, 0u);
  EXPECT_EQ(Temp(p, "1.1.0", "x86_64", o).calls[2].requests[0].bytes, 304u);
  // The state's pointers are the target's: 28 B, aligned to 32.
  EXPECT_EQ(Temp(p, "1.4.1", "xtensa", o).calls[0].requests[0].bytes, 32u + 96u + 40u);
  ASSERT_EQ(t.calls[5].requests.size(), 2u);
  EXPECT_EQ(t.calls[5].requests[0].bytes, 736u);
  EXPECT_EQ(t.calls[5].requests[1].bytes, 32u * 14 * 14 + 8);
  EXPECT_EQ(t.peak_bytes, 7016u);
  o.temp_pool_bytes = t.peak_bytes - 1;
  const kernels::RunTemp small = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 5u);
  EXPECT_EQ(small.check->log, (std::vector<std::string>{
                                  "Memory allocation failed: 6280B requested (adjusted for "
                                  "alignment), 6279B available",
                                  "Failed to allocate temp memory. Bytes requested: 6280",
                                  "Failed to allocate temp memory, error: 0x21"}));
  EXPECT_NE(small.check->then.find("xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s"),
            std::string::npos);
}

// The HiFi generic quantized convolutions ask as the specialised kernel (groups 1) or the
// depthwise one (groups = input channels) on their NNLib path: Char input, or from 1.2.0 Char and
// Byte, with dilation 1; a dilation, other groups and other dtypes ask for nothing. 0.6.x's
// cadence::quantized_conv.out asks as 1.0.x's.
TEST(RunTemp, HifiQuantizedConvGenericAsksOnItsNnlibPath) {
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_quantized_conv2d_generic"));
  const kernels::RunTemp old = Temp(p, "1.1.0", "x86_64", o);
  EXPECT_TRUE(old.known());
  ASSERT_EQ(old.calls.size(), 4u);  // instructions 0, 1, 5, 6: Byte, dilation, groups 2 ask nothing
  EXPECT_EQ(old.calls[0].requests.size(), 3u);
  EXPECT_EQ(old.calls[1].requests.size(), 2u);
  EXPECT_EQ(old.calls[3].instruction, 6u);
  ASSERT_EQ(old.calls[3].requests.size(), 2u);
  EXPECT_EQ(old.calls[3].requests[1].bytes, 6u * 7 * 7 + 8);  // NHWC: a temporary output
  const kernels::RunTemp now = Temp(p, "1.2.0", "x86_64", o);
  EXPECT_TRUE(now.known());
  ASSERT_EQ(now.calls.size(), 4u);
  EXPECT_EQ(now.calls[2].instruction, 2u);  // Byte from 1.2.0
  EXPECT_EQ(now.calls[2].requests[2].bytes, 373u);
  // NHWC from 1.2.0 reads NHWC sizes: [1, 16, 10, 12] is 16 rows of 10 x 12 channels and the
  // weight [8, 16, 3, 3] 16 x 3 kernels of 3 channels (4 groups to getsize, which accepts
  // them): 8 + (48 + 7) + ((16 rows + 7 below) x 3 x 4 = 276, grown to 288, + 7) + 8 +
  // (16 x 3 x 4 x 8 + 7). The .out with groups 6, not the 9 channels, asks for nothing.
  EXPECT_EQ(now.calls[3].instruction, 5u);
  EXPECT_EQ(now.calls[3].requests[0].bytes, 1909u);
  const pte::ProgramView nchw =
      Read(testing::NamedScenarioProgram("hifi_quantized_conv2d_nchw_generic"));
  const kernels::RunTemp t = Temp(nchw, "1.4.1", "x86_64", o);
  EXPECT_TRUE(t.known());
  EXPECT_EQ(t.peak_bytes, 821u);
  o.temp_pool_bytes = t.peak_bytes - 1;
  const kernels::RunTemp small = Temp(nchw, "1.4.1", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 2u);
  EXPECT_EQ(small.check->log, (std::vector<std::string>{
                                  "Memory allocation failed: 385B requested (adjusted for "
                                  "alignment), 384B available",
                                  "Failed to allocate temp memory. Bytes requested: 373",
                                  "Failed to allocate temp memory, error: 0x21"}));
  // 0.6.x's and 0.7.x's cadence::quantized_conv.out: the same paths, NHWC by channel_last, at the
  // allocator's default alignment and without allocate_temp_memory's line.
  const pte::ProgramView cl =
      Read(testing::NamedScenarioProgram("hifi_quantized_conv_channel_last"));
  o.temp_pool_bytes.reset();
  const kernels::RunTemp v06 = Temp(cl, "0.6.0", "x86_64", o);
  EXPECT_TRUE(v06.known());
  ASSERT_EQ(v06.calls.size(), 4u);
  EXPECT_EQ(v06.calls[2].instruction, 3u);
  EXPECT_EQ(v06.calls[2].requests[0].bytes, 558u);
  EXPECT_EQ(v06.calls[2].requests[0].alignment, 8u);
  EXPECT_EQ(v06.peak_bytes, 808u);
  o.temp_pool_bytes = 807;
  const kernels::RunTemp v06_small = Temp(cl, "0.6.0", "x86_64", o);
  ASSERT_TRUE(v06_small.check && !v06_small.check->fits);
  EXPECT_EQ(v06_small.check->log.size(), 2u);
  EXPECT_FALSE(Temp(cl, "1.0.0", "x86_64", o).known());  // removed at 1.0.0
}

// The HiFi generic NHWC quantized convolution from 1.2.0 reads NHWC sizes and tells a depthwise
// weight by its rank (at 1.2.x the depthwise path takes any weight when groups = the channels,
// and a 3-D input is never depthwise); from 1.3.0 .per_tensor_out takes an offset before out.
TEST(RunTemp, HifiQuantizedConvGenericNhwcReadsNhwcSizes) {
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const pte::ProgramView v12 =
      Read(testing::NamedScenarioProgram("hifi_quantized_conv2d_nhwc_generic_12"));
  const kernels::RunTemp a = Temp(v12, "1.2.0", "x86_64", o);
  EXPECT_TRUE(a.known());
  ASSERT_EQ(a.calls.size(), 4u);
  EXPECT_EQ(a.calls[0].requests[0].bytes, 558u);  // [1, 10, 12, 16] as H 10, W 12, C 16
  EXPECT_EQ(a.calls[1].requests[0].bytes, 304u);  // depthwise, [3, 3, 6]
  EXPECT_EQ(a.calls[2].requests[0].bytes, 0u);    // the 1-D one: multiplier 5 / 8 = 0, getsize -1
  EXPECT_EQ(a.calls[3].instruction, 5u);
  const pte::ProgramView now =
      Read(testing::NamedScenarioProgram("hifi_quantized_conv2d_nhwc_generic"));
  const kernels::RunTemp b = Temp(now, "1.3.0", "x86_64", o);
  EXPECT_TRUE(b.known());
  ASSERT_EQ(b.calls.size(), 3u);  // the 1-D one falls back to the generic kernel
  EXPECT_EQ(b.calls[2].requests[0].bytes, 409u);
  EXPECT_EQ(b.peak_bytes, 558u);
  o.temp_pool_bytes = 557;
  const kernels::RunTemp small = Temp(now, "1.4.1", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 0u);
  EXPECT_EQ(small.check->log.size(), 3u);
  EXPECT_FALSE(small.check->then.empty());
}

// The HiFi 1-D quantized convolutions of 1.0.x and 1.1.x ask for xa_nn_conv1d_std_getsize's
// bytes, NCL first for its transposes, reading NCL sizes whatever the layout; at 1.2.x each file
// its own way (the NCL asym8s one hands stride and padding to xa_nn_conv2d_getsize swapped).
TEST(RunTemp, HifiQuantizedConv1dAsksForTheNnlibConv1dScratch) {
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_quantized_conv1d"));
  const kernels::RunTemp t = Temp(p, "1.1.0", "x86_64", o);
  EXPECT_TRUE(t.known());
  ASSERT_EQ(t.calls.size(), 5u);
  // (48 + 7) + kernel width 5 x (6 x 20) + 8.
  EXPECT_EQ(t.calls[0].requests[2].bytes, 55u + 600u + 8u);
  // NLC [1, 20, 6] is read as 20 channels of width 6, the weight [4, 5, 6] as kernel width 6.
  EXPECT_EQ(t.calls[2].requests[0].bytes, 55u + 6u * 120u + 8u);
  EXPECT_EQ(Temp(p, "1.1.0", "xtensa", o).calls[2].requests[0].bytes, 31u + 720u + 8u);
  EXPECT_EQ(t.peak_bytes, 1583u);
  // 1.2.x: NCL asym8u asks for its scratch first; NLC asym8u reads [1, 7, 10] as width 7 of 10
  // channels, kernel width weight.size(1) 3: 55 + 3 x 72 + 8.
  const kernels::RunTemp v12 = Temp(p, "1.2.0", "x86_64", o);
  EXPECT_TRUE(v12.known());
  ASSERT_EQ(v12.calls.size(), 5u);
  EXPECT_EQ(v12.calls[1].requests[0].bytes, 363u);
  EXPECT_EQ(v12.calls[3].requests[0].bytes, 279u);
  // Stride [1, 2], padding [0, 3] swapped: 21 rows, stride 1, no padding, 21 x 16 = 336 B of
  // circular buffer (not swapped: 24 rows, 384 B).
  EXPECT_EQ(v12.calls[4].requests[2].bytes, 8u + 55u + 343u + 8u);
  o.temp_pool_bytes = 1582;
  const kernels::RunTemp small = Temp(p, "1.1.0", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 4u);
  EXPECT_EQ(small.check->log, (std::vector<std::string>{
                                  "Memory allocation failed: 1079B requested (adjusted for "
                                  "alignment), 1078B available",
                                  "Failed to allocate temp memory. Bytes requested: 1071",
                                  "Failed to allocate temp memory, error: 0x21"}));
  EXPECT_NE(small.check->then.find("xa_nn_transpose_8_8"), std::string::npos);
}

// quantized_conv1d_ncl.per_tensor_out from 1.3.0 (and _nlc, without the transposes) asks by
// out's dtype: Char for the transposes, the per-channel multipliers and shifts and
// xa_nn_conv2d_getsize; Byte for xa_nn_conv1d_std_getsize and the transposes; a stride above 1
// (and groups above 1 but for NCL Char) falls back to the generic kernel. A refused multiplier
// array is written through: undefined behaviour, which the model says.
TEST(RunTemp, HifiQuantizedConv1dNclFrom13AsksByOutputDtype) {
  kernels::RunTempOptions o;
  o.kernels = {"cadence_hifi"};
  o.pool_align = 16;
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("hifi_quantized_conv1d_ncl"));
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  EXPECT_TRUE(t.known());
  ASSERT_EQ(t.calls.size(), 3u);  // instructions 0, 1, 4
  EXPECT_EQ(t.calls[0].requests[0].bytes, 363u);  // Byte: the scratch first
  ASSERT_EQ(t.calls[1].requests.size(), 5u);
  EXPECT_EQ(t.calls[1].requests[2].bytes, 16u);  // 4 out channels x 4
  EXPECT_NE(t.calls[1].requests[2].unchecked_then.find("undefined behaviour"), std::string::npos);
  // Padding 2 goes where getsize does not count it: 21 rows, 21 x 16 = 336.
  EXPECT_EQ(t.calls[2].requests[4].bytes, 8u + 55u + 343u + 8u);
  EXPECT_EQ(t.peak_bytes, 958u);
  EXPECT_FALSE(Temp(p, "1.2.0", "x86_64", o).known());  // registered from 1.3.0
  o.temp_pool_bytes = 957;
  const kernels::RunTemp small = Temp(p, "1.3.0", "x86_64", o);
  ASSERT_TRUE(small.check && !small.check->fits);
  EXPECT_EQ(small.calls[*small.check->failing_call].instruction, 4u);
  EXPECT_EQ(small.check->log.size(), 3u);
  // quantized_conv1d_nlc (an offset before out) reads NLC sizes: Byte [1, 33, 3] with weight
  // [8, 3, 3] is width 33 of 3 channels, kernel width 3; Char asks for its multipliers and shifts
  // and the conv2d scratch.
  const pte::ProgramView nlc = Read(testing::NamedScenarioProgram("hifi_quantized_conv1d_nlc"));
  o.temp_pool_bytes.reset();
  const kernels::RunTemp n = Temp(nlc, "1.4.1", "x86_64", o);
  EXPECT_TRUE(n.known());
  ASSERT_EQ(n.calls.size(), 3u);
  EXPECT_EQ(n.calls[0].requests[0].bytes, 363u);
  ASSERT_EQ(n.calls[1].requests.size(), 3u);
  EXPECT_EQ(n.calls[1].requests[2].bytes, 405u);
  EXPECT_EQ(n.peak_bytes, 446u);
  // quantized_depthwise_conv1d_nlc: the weight's copy, then the NHWC depthwise scratch of one row:
  // [1, 20, 8] with weight [8, 5, 1]: 48 + 8 channels x 5 + 5 x 4 rounded up to 24.
  const pte::ProgramView dw =
      Read(testing::NamedScenarioProgram("hifi_quantized_depthwise_conv1d_nlc"));
  const kernels::RunTemp d = Temp(dw, "1.3.0", "x86_64", o);
  EXPECT_TRUE(d.known());
  ASSERT_EQ(d.calls.size(), 3u);  // instructions 0, 1, 4: a dilation and a Float output ask nothing
  EXPECT_EQ(d.calls[0].requests[0].bytes, 8u * 5 + 8);
  EXPECT_EQ(d.calls[0].requests[1].bytes, 48u + 40u + 24u);
  EXPECT_EQ(d.peak_bytes, 320u);
  o.temp_pool_bytes = 319;
  const kernels::RunTemp d_small = Temp(dw, "1.4.1", "x86_64", o);
  ASSERT_TRUE(d_small.check && !d_small.check->fits);
  EXPECT_EQ(d_small.calls[*d_small.check->failing_call].instruction, 4u);
  EXPECT_NE(d_small.check->then.find("xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s"),
            std::string::npos);
}

// The Fusion G3 native_layer_norm asks for the default weight and bias it is not given (none at
// 0.5.0), aligned to 16 from 1.0.0, and aborts (Result::get's ET_CHECK) when one is refused.
TEST(RunTemp, FusionG3LayerNormAsksForTheDefaultsItIsNotGiven) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("fusion_g3_layer_norm"));
  kernels::RunTempOptions o;
  o.kernels = {"cadence_fusion_g3"};
  // 0.5.0 mallocs the defaults (and frees them): the same bytes, none from the temp allocator.
  const kernels::RunTemp t05 = Temp(p, "0.5.0", "x86_64", o);
  ASSERT_EQ(t05.calls.size(), 3u);
  EXPECT_EQ(t05.peak_bytes, 0u);
  EXPECT_TRUE(t05.calls[0].requests.empty());
  ASSERT_EQ(t05.calls[0].mallocs.size(), 2u);
  EXPECT_EQ(t05.calls[0].mallocs[1].bytes, 48u);
  EXPECT_TRUE(t05.calls[0].mallocs[1].freed);
  EXPECT_EQ(t05.malloc_peak_bytes, 96u);  // both at once
  EXPECT_EQ(t05.calls[*t05.malloc_peak_call].instruction, 0u);
  EXPECT_EQ(t05.malloc_leaked_bytes, 0u);
  for (const char* release : {"0.6.0", "1.0.0", "1.4.1"}) {
    EXPECT_FALSE(Temp(p, release, "x86_64", o).malloc_peak_call) << release;
    const kernels::RunTemp t = Temp(p, release, "x86_64", o);
    const uint32_t align = std::string(release) == "0.6.0" ? 8 : 16;
    EXPECT_TRUE(t.known()) << release;
    ASSERT_EQ(t.calls.size(), 3u) << release;  // weight and bias given, Double: nothing asked
    EXPECT_EQ(t.calls[0].requests.size(), 2u);
    EXPECT_EQ(t.calls[0].requests[0].bytes, 48u);
    EXPECT_EQ(t.calls[0].requests[1].alignment, align);
    EXPECT_EQ(t.calls[1].requests.size(), 1u);
    EXPECT_EQ(t.calls[1].requests[0].bytes, 20u);
    EXPECT_EQ(t.calls[2].requests[0].bytes, 24u);
    EXPECT_EQ(t.calls[2].instruction, 2u);
    // A pool base of 8 mod 16 pads the first 16-aligned request by 8.
    EXPECT_EQ(t.peak_bytes, align == 16 ? 104u : 96u);
    EXPECT_EQ(t.calls[*t.peak_call].instruction, 0u);
  }
  o.temp_pool_bytes = 95;
  const kernels::RunTemp t = Temp(p, "1.4.1", "x86_64", o);
  ASSERT_TRUE(t.check && !t.check->fits);
  EXPECT_EQ(t.check->log.back(), "In function CheckOk(), assert failed: hasValue_");
  EXPECT_NE(t.check->then.find("aborts"), std::string::npos) << t.check->then;
}

// The Vision _softmax transposes (two checked requests of numel floats) unless dim is the last
// and fits its iDMA buffers; 6-D takes the portable path.
TEST(RunTemp, VisionSoftmaxTransposesOffItsIdmaPaths) {
  const pte::ProgramView p = Read(testing::NamedScenarioProgram("vision_softmax"));
  kernels::RunTempOptions o;
  o.kernels = {"cadence_vision"};
  const kernels::RunTemp t = Temp(p, "1.1.0", "x86_64", o);
  EXPECT_TRUE(t.known());
  std::vector<std::pair<size_t, uint64_t>> asked;
  for (const kernels::CallTemp& c : t.calls)
    if (!c.requests.empty()) asked.push_back({c.instruction, c.requests[0].bytes});
  EXPECT_EQ(asked, (std::vector<std::pair<size_t, uint64_t>>{{0, 60}, {2, 192}, {3, 8400}}));
  EXPECT_EQ(t.peak_bytes, 16800u);
  EXPECT_EQ(t.calls[*t.peak_call].instruction, 3u);
  EXPECT_EQ(t.calls[*t.peak_call].requests[1].check, "ptr_out1 != nullptr");
  EXPECT_EQ(Temp(p, "1.4.1", "x86_64", o).peak_bytes, 16800u);
}

TEST(RunTempCli, SummaryChecksTheTempPoolAgainstEveryInstruction) {
  const test::fs::path p = test::WriteScenario(testing::NamedScenarioProgram("topk"), "topk");
  test::CliRun r =
      test::Etmem("summary " + p.string() + " --target x86_64 --pool-align 16 --temp-pool 639");
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the temp pool does not fit: the verdict (issue 37)
  EXPECT_NE(r.out.find("temp allocator at run time: 640 B, set by instruction 1 "
                       "(aten::topk.values, portable) [kernels: portable]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("temp pool 639 B (--temp-pool): load fits (198 B peak); instruction 1 DOES "
                       "NOT FIT (640 B)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the runtime logs: Failed to allocate temp memory. Bytes requested: 640"),
            std::string::npos)
      << r.out;
}

TEST(RunTempCli, TheHeaderDeclaresTheLargerOfLoadAndRun) {
  const test::fs::path p = test::WriteScenario(testing::NamedScenarioProgram("topk"), "topk");
  test::CliRun r = test::Etmem("header " + p.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("#define ETMEM_FORWARD_TEMP_RUN_BYTES 640UL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("#define ETMEM_FORWARD_TEMP_POOL_BYTES 640UL"), std::string::npos) << r.out;
}

TEST(RunTempCli, UnderTheArmRunnerTheCnnsTempMacroIsItsLoadPeak) {
  const test::fs::path p = test::MotivatingCnnFile();
  test::CliRun a = test::Etmem("analyze " + p.string() + " --runner arm-baremetal --format json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const nlohmann::json j = nlohmann::json::parse(a.out);
  const nlohmann::json& m = j["methods"][0];
  EXPECT_EQ(m["temp_allocator"]["run"]["peak_bytes"], 0);
  EXPECT_EQ(m["temp_allocator"]["run"]["exact"], true);
  std::string macro;
  uint64_t load = 0;
  for (const nlohmann::json& pool : m["runner"]["pools"])
    if (pool["role"] == "temp") {
      macro = pool["macro"];
      load = pool["minimum_bytes"];
      EXPECT_EQ(pool["bytes_with_run"], load);
    }
  ASSERT_FALSE(macro.empty());
  EXPECT_GT(load, 0u);
  test::CliRun h = test::Etmem("header " + p.string() + " --runner arm-baremetal");
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.out.find("#define " + macro + " " + std::to_string(load) + "UL"), std::string::npos)
      << h.out;
}

TEST(RunTempCli, AnUnknownKernelLibraryIsOneLine) {
  const test::fs::path p = test::WriteScenario(testing::NamedScenarioProgram("topk"), "topk");
  test::CliRun r = test::Etmem("summary " + p.string() + " --kernels portable,nosuch");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no kernel library named 'nosuch'"), std::string::npos) << r.err;
}

// The cadence runner's profile names its kernels (HiFi, then portable): without --kernels the
// HiFi mm/bmm answer; --kernels overrides the runner; a profile naming no library is one line.
TEST(RunTempCli, TheRunnersKernelsAnswerUnlessKernelsIsGiven) {
  const test::fs::path p =
      test::WriteScenario(testing::NamedScenarioProgram("hifi_matmul"), "hifi_matmul");
  auto run = [&](const std::string& extra) {
    test::CliRun r = test::Etmem("analyze " + p.string() + " --runtime 1.4.1 --target x86_64 "
                                 "--pool-align 16 --format json " + extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out)["methods"][0]["temp_allocator"]["run"];
  };
  const nlohmann::json runner = run("--runner cadence");
  EXPECT_EQ(runner["kernels"], nlohmann::json({"cadence_hifi", "portable"}));
  // tests/measured/x86_64_run_temp_hifi.json: the real HiFi bmm takes 192 B at 1.4.1.
  EXPECT_EQ(runner["peak_bytes"], 192);
  const nlohmann::json portable = run("--runner cadence --kernels portable");
  EXPECT_EQ(portable["kernels"], nlohmann::json({"portable"}));
  EXPECT_EQ(portable["peak_bytes"], 0);
  const test::fs::path bad = p.parent_path() / "bad_kernels_runner.json";
  std::ofstream(bad) << R"({"etmem_runner_profile": 1, "extends": "cadence-0.3",
                            "kernels": ["no_such_library"]})";
  test::CliRun r = test::Etmem("analyze " + p.string() + " --runner " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"kernels\" names no kernel library 'no_such_library'"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A runner warns when it does not register the program's backend (its profile's "backends",
// read from its CMake): the Arm runner registers Ethos-U only, so an XNNPACK program fails
// load_method; the Espressif runner links XNNPACK only when the ExecuTorch build made it.
TEST(RunTempCli, ARunnerThatDoesNotRegisterTheBackendIsWarnedAbout) {
  const test::fs::path xnn =
      test::WriteScenario(testing::ProgramWithDelegate("XnnpackBackend"), "delegate_xnnpack");
  const test::fs::path ethos =
      test::WriteScenario(testing::ProgramWithDelegate("EthosUBackend"), "delegate_ethosu");
  auto notes = [](const test::fs::path& p, const std::string& runner) {
    test::CliRun r = test::Etmem("analyze " + p.string() + " --runtime 1.4.1 --runner " + runner +
                                 " --format json");
    EXPECT_NE(r.out, "") << r.err;
    return nlohmann::json::parse(r.out)["notes"].dump();
  };
  const std::string arm = notes(xnn, "arm-baremetal");
  EXPECT_NE(arm.find("WARNING: runner arm-baremetal does not register XnnpackBackend (it "
                     "registers EthosUBackend), and method forward delegates to it: load_method "
                     "fails: \\\"Backend XnnpackBackend is not registered.\\\" (NotFound, 0x20)"),
            std::string::npos)
      << arm;
  EXPECT_EQ(notes(ethos, "arm-baremetal").find("register"), std::string::npos);
  const std::string esp = notes(xnn, "espressif");
  EXPECT_NE(esp.find("runner espressif registers XnnpackBackend only when the ExecuTorch build "
                     "made it"),
            std::string::npos)
      << esp;
  EXPECT_NE(notes(ethos, "espressif").find("WARNING: runner espressif does not register "
                                            "EthosUBackend (it registers no backend)"),
            std::string::npos);
  // The text report says it too.
  test::CliRun text = test::Etmem("analyze " + xnn.string() + " --runtime 1.4.1 --runner pico2");
  EXPECT_NE(text.out.find("WARNING: runner pico2 does not register XnnpackBackend"),
            std::string::npos)
      << text.out;
  // A backend the runner never registers is the release refusing the method: exit 1 and the
  // JSON's verdict "refused". One it registers, or may register (if built), is not judged so.
  EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
  auto verdict = [](const test::fs::path& p, const std::string& runner) {
    test::CliRun r = test::Etmem("analyze " + p.string() + " --runtime 1.4.1 --runner " + runner +
                                 " --format json");
    return nlohmann::json::parse(r.out).value("verdict", "");
  };
  EXPECT_EQ(verdict(xnn, "arm-baremetal"), "refused");
  EXPECT_NE(verdict(ethos, "arm-baremetal"), "refused");
  EXPECT_NE(verdict(xnn, "espressif"), "refused");
}

// `etmem list kernels`: every library, and per release exactly what the library data holds at
// that release (the JSON's spans cover each release once, with that release's operators).
TEST(KernelList, EveryLibraryAtEveryReleaseAsTheDataHoldsIt) {
  test::CliRun r = test::Etmem("list kernels --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json whole = nlohmann::json::parse(r.out);
  ASSERT_TRUE(whole.at("schema").is_number_integer());  // {"schema", "kernels": [...]}
  const nlohmann::json& j = whole.at("kernels");
  std::vector<const runtime::RuntimeTraits*> releases;
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) releases.push_back(&t);
  for (const runtime::RuntimeTraits* t : runtime::AllSnapshots()) releases.push_back(t);
  auto index = [&](const std::string& v) {
    for (size_t i = 0; i < releases.size(); ++i)
      if (releases[i]->version == v) return i;
    ADD_FAILURE() << "no release " << v;
    return size_t{0};
  };
  size_t kernel_libraries = 0;
  for (const nlohmann::json& lib : j) {
    const std::string name = lib["name"];
    const bool delegates = lib["kind"] == "delegate";
    kernel_libraries += !delegates;
    for (size_t i = 0; i < releases.size(); ++i) {
      std::map<std::string, bool> want;  // entry -> asks for memory while running
      if (delegates) {
        for (const kernels::DelegateLibrary& d : kernels::DelegateLibrariesAt(*releases[i]))
          if (d.name == name)
            for (const auto& [id, rule] : d.backends)
              want[id] = rule == kernels::DelegateRule::kEthosUScratch ||
                         rule == kernels::DelegateRule::kUnknownSize;
      } else {
        for (const auto& [op, rule] : (*kernels::LibraryAt(name, *releases[i]))->ops)
          want[op] = rule != kernels::TempRule::kNone;
      }
      std::map<std::string, bool> got;
      size_t covering = 0;
      for (const nlohmann::json& span : lib["releases"]) {
        if (index(span["first_release"]) > i || i > index(span["last_release"])) continue;
        ++covering;
        for (const nlohmann::json& e : span[delegates ? "backends" : "operators"])
          got[e[delegates ? "backend" : "operator"]] = e["while_running"] != "none" &&
                                                       !e["while_running"].get<std::string>()
                                                            .starts_with("none:");
      }
      EXPECT_EQ(covering, want.empty() ? 0u : 1u) << name << " at " << releases[i]->version;
      EXPECT_EQ(got, want) << name << " at " << releases[i]->version;
    }
  }
  EXPECT_EQ(kernel_libraries, kernels::KernelLibraryNames().size());
  // The text names every library and says where topk starts asking for temp memory.
  test::CliRun text = test::Etmem("list kernels");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const std::string& name : kernels::KernelLibraryNames())
    EXPECT_NE(("\n" + text.out).find("\n" + name + " ("), std::string::npos) << name;
  EXPECT_TRUE(text.out.starts_with("portable (kernel library, the default of --kernels)"))
      << text.out.substr(0, 200);
  EXPECT_NE(text.out.find("aten::topk.values (temp)"), std::string::npos);
  EXPECT_NE(text.out.find("ethos_u (delegate backends"), std::string::npos);
  EXPECT_NE(text.out.find("XnnpackBackend (none; outside every pool: XNNPACK's own heap "
                          "(unknown))"),
            std::string::npos);
  EXPECT_NE(text.out.find("EthosUBackend (temp; outside every pool: its ExecutionHandle on the C "
                          "heap, 2 pointer(s) per delegate)"),
            std::string::npos);
}

}  // namespace run_temp_test
}  // namespace etmem
