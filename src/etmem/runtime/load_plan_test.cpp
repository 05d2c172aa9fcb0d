// The load model, release by release: each named delta, the layouts it uses, and the closed-form
// total of spec §3 (expected values are formulas over computed layouts, never copied numbers,
// except where a measured fact is cited).
#include "etmem/runtime/load_plan.h"

#include <stdexcept>

#include <gtest/gtest.h>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/scenarios.h"

namespace etmem::runtime {
namespace load_plan_test {

using pte::InstructionKind;
using pte::ValueKind;

// A hand-made method: tensors, every list kind, a delegate call and two kernel calls.
class MethodMaker {
 public:
  int Tensor(std::vector<int32_t> sizes, pte::Dynamism d = pte::Dynamism::kStatic) {
    pte::TensorView t;
    t.dtype = 6;
    t.dynamism = d;
    t.rank = static_cast<uint32_t>(sizes.size());
    t.sizes_begin = Words(sizes);
    m.values.push_back({ValueKind::kTensor, static_cast<uint32_t>(m.tensors.size()), 0});
    m.tensors.push_back(t);
    return Last();
  }
  int Scalar(ValueKind k, uint32_t count = 0) {
    m.values.push_back({k, 0, count});
    return Last();
  }
  int List(ValueKind k, std::vector<int64_t> items) {
    std::vector<int32_t> words;  // as the flatbuffer holds them: IntList items are 64-bit
    for (int64_t i : items) {
      words.push_back(static_cast<int32_t>(i));
      if (k == ValueKind::kIntList) words.push_back(static_cast<int32_t>(i >> 32));
    }
    m.values.push_back({k, Words(words), static_cast<uint32_t>(items.size())});
    return Last();
  }
  void Call(InstructionKind kind, int32_t target, std::vector<int32_t> args) {
    m.instructions.push_back({kind, target, 0, Words(args), static_cast<uint32_t>(args.size())});
    if (m.chains.empty()) m.chains.push_back({0, 0});
    m.chains.back().instructions_count++;
  }
  int Last() const { return static_cast<int>(m.values.size()) - 1; }
  pte::MethodView m;

 private:
  // Appends to the view's own words (where a read view points at its flatbuffer).
  uint32_t Words(const std::vector<int32_t>& w) {
    std::vector<int32_t> words(m.words.begin(), m.words.end());
    const auto begin = static_cast<uint32_t>(words.size());
    words.insert(words.end(), w.begin(), w.end());
    m.OwnWords(std::move(words));
    return begin;
  }
};

pte::MethodView RichMethod(std::string backend = "CoreMLBackend", uint32_t specs = 2) {
  MethodMaker b;
  int a = b.Tensor({2, 3});
  int c = b.Tensor({4, 5});
  int d = b.Tensor({7}, pte::Dynamism::kDynamicBound);
  b.Tensor({});
  int i0 = b.Scalar(ValueKind::kInt);
  b.Scalar(ValueKind::kNull);
  b.Scalar(ValueKind::kBool);
  b.Scalar(ValueKind::kDouble);
  b.Scalar(ValueKind::kString, 5);
  b.Scalar(ValueKind::kBoolList, 3);
  b.Scalar(ValueKind::kDoubleList, 2);
  int il = b.List(ValueKind::kIntList, {i0, i0});
  int tl = b.List(ValueKind::kTensorList, {a, c});
  b.List(ValueKind::kOptionalTensorList, {a, -1, c});
  b.m.operators = {{"aten::add", "out"}, {"aten::cat", "out"}};
  // The view holds string_views into the file; keep the test's names alive like a file would.
  static std::set<std::string> names;
  b.m.delegates.push_back({*names.insert(backend).first, true, specs});
  b.m.inputs = {a, c};
  b.m.outputs = {d};
  b.Call(InstructionKind::kKernelCall, 0, {a, c, i0, d});
  b.Call(InstructionKind::kKernelCall, 1, {tl, il, d, a, c});
  b.Call(InstructionKind::kDelegateCall, 0, {a, d});
  b.m.instructions.push_back({InstructionKind::kFree, a, 0, 0, 0});
  b.m.chains.back().instructions_count++;
  return b.m;
}

const abi::Abi& Target(const std::string& name) {
  static std::map<std::string, abi::Abi> cache;
  if (!cache.count(name)) cache[name] = *abi::FindBuiltinTarget(name);
  return cache[name];
}

LoadPlan Plan(const pte::MethodView& m, const RuntimeTraits& t, const std::string& target,
              LoadOptions o = {}) {
  static pte::ProgramView program;
  RuntimeModel model(t, Target(target));
  return PlanMethodLoad(program, m, model, o);
}

uint64_t Sum(const LoadPlan& p, PoolKind pool = PoolKind::kMethod) {
  uint64_t s = 0;
  for (const auto& r : p.requests) s += r.pool == pool ? r.size : 0;
  return s;
}

// Spec §3 closed form (sizes only, no padding), written independently of the planner.
uint64_t ClosedForm(const pte::MethodView& m, const RuntimeTraits& t, const abi::Abi& abi,
                    const LoadOptions& o) {
  RuntimeModel model(t, abi);
  auto E = [&](const char* type) { return uint64_t{model.Layout(type).size}; };
  uint64_t total = (t.platform_allocator_when_no_temp && !o.temp_allocator) ? E("PlatformMemoryAllocator") : 0;
  total += m.values.size() * E("EValue") + (t.input_set_array ? m.inputs.size() : 0);
  for (const auto& v : m.values) {
    if (v.kind == ValueKind::kTensor) {
      const auto& tv = m.tensors[v.index];
      total += (tv.dynamism != pte::Dynamism::kStatic ? 5 * tv.rank : 0) + 4 * tv.rank + E("TensorImpl");
    }
    bool boxed_list = v.kind == ValueKind::kIntList || v.kind == ValueKind::kTensorList ||
                      v.kind == ValueKind::kOptionalTensorList;
    bool ref = v.kind == ValueKind::kBoolList || v.kind == ValueKind::kDoubleList || v.kind == ValueKind::kString;
    if (v.kind == ValueKind::kIntList) total += v.count * (E("EValue*") + 8);
    if (v.kind == ValueKind::kTensorList) total += v.count * (E("Tensor") + E("EValue*"));
    if (v.kind == ValueKind::kOptionalTensorList) total += v.count * (E("EValue*") + E("optional<Tensor>"));
    if (t.boxed_lists && boxed_list) total += E("BoxedEvalueList");
    if (t.boxed_lists && ref) total += E("ArrayRef");
  }
  total += m.delegates.size() * E("BackendDelegate");
  for (const auto& d : m.delegates) total += d.compile_specs * E("CompileSpec");
  total += m.chains.size() * E("Chain") + m.instructions.size() * (E("OpFunction") + E("InstructionArgs"));
  const bool temp_route = t.operator_metadata_on_user_temp && o.temp_allocator;
  for (const auto& ins : m.instructions) {
    if (ins.kind == InstructionKind::kKernelCall || ins.kind == InstructionKind::kDelegateCall)
      total += ins.args_count * E("EValue*");
    if (ins.kind != InstructionKind::kKernelCall || temp_route) continue;
    total += ins.args_count * E("TensorMeta");
    for (int32_t a : m.ArgsOf(ins))
      if (const auto* tv = m.TensorAt(a)) total += tv->rank;
  }
  return total;
}

class EveryReleaseAndTarget
    : public ::testing::TestWithParam<std::tuple<size_t, std::string, bool>> {
 protected:
  const RuntimeTraits& release() const { return AllReleases()[std::get<0>(GetParam())]; }
  const std::string& target() const { return std::get<1>(GetParam()); }
  LoadOptions options() const { return {.temp_allocator = std::get<2>(GetParam())}; }
};

TEST_P(EveryReleaseAndTarget, RequestedBytesMatchTheClosedForm) {
  pte::MethodView m = RichMethod();
  LoadPlan p = Plan(m, release(), target(), options());
  EXPECT_FALSE(p.refusal.has_value());
  EXPECT_EQ(Sum(p), ClosedForm(m, release(), Target(target()), options()));
}

TEST_P(EveryReleaseAndTarget, EveryRequestIsAlignedToItsTypesAlignment) {
  pte::MethodView m = RichMethod();
  RuntimeModel model(release(), Target(target()));
  const LoadPlan plan = Plan(m, release(), target(), options());
  for (const AllocationRequest& r : plan.requests) {
    const std::string type = r.site == Site::kBackendInit
                                 ? std::string(plan.backend_types.at(static_cast<size_t>(r.subject)))
                                 : SiteElementType(r.site);
    EXPECT_EQ(r.align, model.Layout(type).align) << SiteName(r.site);
    EXPECT_EQ(r.size, r.count * model.Layout(type).size) << SiteName(r.site);
  }
}

TEST_P(EveryReleaseAndTarget, OperatorMetadataGoesToTempOnlyFromOneZeroWithATempAllocator) {
  LoadPlan p = Plan(RichMethod(), release(), target(), options());
  const bool want_temp = release().operator_metadata_on_user_temp && options().temp_allocator;
  int resets = 0;
  for (const auto& r : p.requests) {
    if (r.site == Site::kTensorMeta || r.site == Site::kTensorMetaDimOrder)
      EXPECT_EQ(r.pool == PoolKind::kTemp, want_temp);
    else
      EXPECT_EQ(r.pool, PoolKind::kMethod);
    resets += r.reset_temp_after;
  }
  EXPECT_EQ(resets, want_temp ? 2 : 0);  // one reset per kernel call
}

// A temp allocator of size 0 (--temp-pool 0, a 0 B temp pool in a firmware) is not "none": the
// platform allocator is not made (Method::load makes it only for a null one), and from 1.0.0 on
// Method::resolve_operator passes the empty allocator over ("allocator == nullptr ||
// allocator->size() == 0"), so the metadata is on the method allocator. The method pool then
// holds exactly what it holds without a temp allocator, less the platform allocator.
TEST_P(EveryReleaseAndTarget, EmptyTempAllocatorPutsTheMetadataOnTheMethodAllocator) {
  if (!options().temp_allocator) GTEST_SKIP() << "a 0 B temp allocator is a temp allocator";
  const pte::MethodView m = RichMethod();
  LoadOptions empty = options();
  empty.temp_pool_bytes = 0;
  const LoadPlan p = Plan(m, release(), target(), empty);
  const bool from_one_zero = release().operator_metadata_on_user_temp;
  // Every release that puts metadata on a user temp allocator passes an empty one over.
  EXPECT_EQ(release().operator_metadata_skips_empty_temp, from_one_zero) << release().version;
  for (const auto& r : p.requests) {
    EXPECT_EQ(r.pool, PoolKind::kMethod) << SiteName(r.site);
    EXPECT_FALSE(r.reset_temp_after);
  }
  EXPECT_EQ(p.metadata.on_temp, 0u);
  EXPECT_EQ(p.metadata.fell_back, from_one_zero ? 2u : 0u);  // two kernel calls
  LoadOptions none = options();
  none.temp_allocator = false;
  RuntimeModel model(release(), Target(target()));
  const uint64_t platform = release().platform_allocator_when_no_temp
                                ? uint64_t{model.Layout("PlatformMemoryAllocator").size}
                                : 0;
  EXPECT_EQ(Sum(p) + platform, Sum(Plan(m, release(), target(), none)));
  // A temp pool of 1 B is not empty: the metadata stays on it (main: see the fallback test).
  if (release().operator_metadata_temp_fallback_dims == 0) {
    LoadOptions one = options();
    one.temp_pool_bytes = 1;
    EXPECT_EQ(Plan(m, release(), target(), one).metadata.on_temp, from_one_zero ? 2u : 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Releases, EveryReleaseAndTarget,
    ::testing::Combine(::testing::Range<size_t>(0, ReleaseVersions().size()),
                       ::testing::Values("cortex-m", "riscv32", "xtensa", "aarch64", "x86_64"),
                       ::testing::Bool()));

// Every release tag of pytorch/executorch (git tag, rc tags left out).
TEST(Releases, EveryPublishedReleaseFromZeroThreeOnIsModelledInOrder) {
  const std::vector<std::string> want = {"0.1.0", "0.2.0", "0.2.1", "0.3.0", "0.4.0", "0.5.0",
                                         "0.6.0", "0.7.0", "1.0.0", "1.0.1", "1.1.0", "1.2.0",
                                         "1.3.0", "1.3.1", "1.4.0", "1.4.1"};
  EXPECT_EQ(ReleaseVersions(), want);
  ASSERT_EQ(AllReleases().size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(AllReleases()[i].version, want[i]);
    EXPECT_EQ((*FindRelease(want[i]))->version, want[i]);
    EXPECT_FALSE(AllReleases()[i].summary.empty()) << want[i];
  }
}

TEST(Releases, ShortNamesPickTheNewestPatchAndUnknownOnesAreErrors) {
  EXPECT_EQ((*FindRelease("1.4"))->version, "1.4.1");
  EXPECT_EQ((*FindRelease("1.3"))->version, "1.3.1");
  EXPECT_EQ((*FindRelease("1.0"))->version, "1.0.1");
  EXPECT_EQ((*FindRelease("v1.4.0"))->version, "1.4.0");
  EXPECT_EQ((*FindRelease("v0.3.0"))->version, "0.3.0");
  EXPECT_EQ((*FindRelease("0.2"))->version, "0.2.1");
  EXPECT_EQ((*FindRelease("0.1"))->version, "0.1.0");
  EXPECT_EQ((*FindRelease("0.7"))->version, "0.7.0");
  auto bad = FindRelease("1.3.2");  // not a release
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("modelled: 0.1.0, 0.2.0, 0.2.1, 0.3.0"), std::string::npos);
  // Newer than every modelled release: named as such (tests/read/option_values_test.cpp says how).
  auto newer = FindRelease("1.5");
  ASSERT_FALSE(newer);
  EXPECT_NE(newer.error().message.find("is newer than the newest modelled release"),
            std::string::npos);
  EXPECT_FALSE(FindRelease("0.0"));
  EXPECT_FALSE(FindRelease("1"));
}

// Spec §0: releases in the same allocation-model group make identical sequences.
TEST(Releases, ReleasesInOneSpecGroupMakeIdenticalSequences) {
  const std::vector<std::vector<std::string>> groups = {
      {"0.1.0", "0.2.0", "0.2.1", "0.3.0"}, {"0.4.0", "0.5.0"}, {"0.6.0", "0.7.0"}, {"1.0.0", "1.0.1"},
      {"1.1.0", "1.2.0", "1.3.0", "1.3.1", "1.4.0", "1.4.1"}};
  pte::MethodView m = RichMethod();
  for (const auto& group : groups)
    for (const char* target : {"cortex-m", "x86_64"})
      for (bool temp : {false, true}) {
        LoadPlan first = Plan(m, **FindRelease(group[0]), target, {.temp_allocator = temp});
        for (const auto& v : group) {
          LoadPlan other = Plan(m, **FindRelease(v), target, {.temp_allocator = temp});
          ASSERT_EQ(other.requests.size(), first.requests.size()) << v;
          for (size_t i = 0; i < first.requests.size(); ++i) {
            EXPECT_EQ(other.requests[i].size, first.requests[i].size) << v << " #" << i;
            EXPECT_EQ(other.requests[i].align, first.requests[i].align) << v << " #" << i;
          }
        }
      }
}

TEST(Releases, PlatformAllocatorComesFirstFromZeroFourWhenNoTempIsPassed) {
  for (const auto& t : AllReleases()) {
    LoadPlan no_temp = Plan(RichMethod(), t, "cortex-m", {.temp_allocator = false});
    LoadPlan temp = Plan(RichMethod(), t, "cortex-m", {.temp_allocator = true});
    const bool before_04 = t.version.starts_with("0.1.") || t.version.starts_with("0.2.") ||
                           t.version == "0.3.0";
    EXPECT_EQ(no_temp.requests[0].site == Site::kPlatformAllocator, !before_04) << t.version;
    EXPECT_NE(temp.requests[0].site, Site::kPlatformAllocator);
  }
}

// Measured sizes (spec §6, checked against the real runtime): EValue shrinks in 1.1.
TEST(Releases, EValueIs24Then16OnCortexMAnd32Then16OnX86) {
  auto evalue = [](const char* v, const char* target) {
    return RuntimeModel(**FindRelease(v), Target(target)).Layout("EValue");
  };
  EXPECT_EQ(evalue("1.0", "cortex-m"), (abi::SizeAlign{24, 8}));
  EXPECT_EQ(evalue("1.1", "cortex-m"), (abi::SizeAlign{16, 8}));
  EXPECT_EQ(evalue("1.0", "x86_64"), (abi::SizeAlign{32, 8}));
  EXPECT_EQ(evalue("1.1", "x86_64"), (abi::SizeAlign{16, 8}));
}

uint64_t BackendBytes(const char* version, const char* target, const char* backend) {
  LoadPlan p = Plan(RichMethod(backend, 0), **FindRelease(version), target);
  uint64_t n = 0;
  for (const auto& r : p.requests) n += r.site == Site::kBackendInit ? r.size : 0;
  return n;
}

// sizeof(XNNExecutor) with libstdc++ (spec §5.1, measured).
TEST(Backends, XnnpackTakesOneExecutorWhoseSizeFollowsTheRelease) {
  EXPECT_EQ(BackendBytes("0.2", "cortex-m", "XnnpackBackend"), 48u);  // XNNExecutor.h as 0.3.0's
  EXPECT_EQ(BackendBytes("0.3", "cortex-m", "XnnpackBackend"), 48u);
  EXPECT_EQ(BackendBytes("0.6", "cortex-m", "XnnpackBackend"), 60u);
  EXPECT_EQ(BackendBytes("1.1", "cortex-m", "XnnpackBackend"), 68u);
  EXPECT_EQ(BackendBytes("1.4", "cortex-m", "XnnpackBackend"), 92u);
  EXPECT_EQ(BackendBytes("0.5", "x86_64", "XnnpackBackend"), 96u);
  EXPECT_EQ(BackendBytes("1.0", "x86_64", "XnnpackBackend"), 120u);
  EXPECT_EQ(BackendBytes("1.3", "x86_64", "XnnpackBackend"), 136u);
  EXPECT_EQ(BackendBytes("1.4", "x86_64", "XnnpackBackend"), 184u);
  // 1.4.0 has the weights cache and the two flags but not 1.4.1's unpacked_buffers_ vector.
  EXPECT_EQ(BackendBytes("1.4.0", "cortex-m", "XnnpackBackend"), 80u);
  EXPECT_EQ(BackendBytes("1.4.0", "x86_64", "XnnpackBackend"), 160u);
}

// Ethos-U (spec §5.2): "ArmBackend" up to 0.5, "EthosUBackend" after; heap from 1.2.
TEST(Backends, EthosUHandleShrinksIn06AndLeavesTheArenaIn12) {
  // 0.2.x: init() returns the blob itself as the handle (ArmBackendEthosU.cpp at v0.2.0).
  EXPECT_EQ(BackendBytes("0.2.0", "cortex-m", "ArmBackend"), 0u);
  EXPECT_EQ(BackendBytes("0.2.1", "x86_64", "ArmBackend"), 0u);
  EXPECT_TRUE(Plan(RichMethod("ArmBackend"), **FindRelease("0.2"), "cortex-m").exact());
  EXPECT_EQ(BackendBytes("0.3", "cortex-m", "ArmBackend"), 8u);
  EXPECT_EQ(BackendBytes("0.3", "x86_64", "ArmBackend"), 16u);
  EXPECT_EQ(BackendBytes("0.5", "cortex-m", "ArmBackend"), 8u);
  EXPECT_EQ(BackendBytes("0.6", "cortex-m", "EthosUBackend"), 4u);
  EXPECT_EQ(BackendBytes("1.1", "cortex-m", "EthosUBackend"), 4u);
  EXPECT_EQ(BackendBytes("1.2", "cortex-m", "EthosUBackend"), 0u);
  EXPECT_TRUE(Plan(RichMethod("EthosUBackend"), **FindRelease("1.2"), "cortex-m").exact());
  EXPECT_FALSE(Plan(RichMethod("ArmBackend"), **FindRelease("1.2"), "cortex-m").exact());
}

TEST(Backends, UnmodelledBackendsMakeTheTotalALowerBound) {
  LoadPlan p = Plan(RichMethod("MyNpuBackend"), **FindRelease("1.4"), "cortex-m");
  ASSERT_EQ(p.unknowns.size(), 1u);
  EXPECT_EQ(p.unknowns[0].backend, "MyNpuBackend");
  EXPECT_FALSE(p.exact());
  EXPECT_FALSE(Plan(RichMethod("VulkanBackend"), **FindRelease("0.3"), "x86_64").exact());
}

LoadPlan PlanIn(const pte::ProgramView& program, const pte::MethodView& m, const char* version) {
  RuntimeModel model(**FindRelease(version), Target("cortex-m"));
  return PlanMethodLoad(program, m, model, {});
}

// 0.1.0 has no constant segment (docs/executorch-0.1.md): a tensor's data index is looked up in
// Program.constant_buffer after its strides and TensorImpl are allocated.
TEST(Refusals, ZeroOneLooksConstantsUpInTheInlineBufferOnly) {
  MethodMaker b;
  int x = b.Tensor({2, 3});
  b.Tensor({4});
  b.m.tensors.back().data_index = 1;  // a constant
  b.Tensor({5});
  b.Call(InstructionKind::kKernelCall, 0, {x});
  b.m.operators = {{"aten::relu", ""}};
  pte::ProgramView segment;  // constants in a segment, an empty constant_buffer vector
  segment.constant_segment = 0;
  segment.constant_offsets = 2;
  segment.has_inline_constant_vector = true;
  LoadPlan p = PlanIn(segment, b.m, "0.1.0");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "InvalidArgument");
  EXPECT_NE(p.refusal->reason.find("value 1"), std::string::npos) << p.refusal->reason;
  // EValue[3], then tensor 0's strides and TensorImpl, then tensor 1's: nothing after.
  ASSERT_EQ(p.requests.size(), 5u);
  EXPECT_EQ(p.requests.back().site, Site::kTensorImpl);
  EXPECT_EQ(p.requests.back().subject, 1);
  EXPECT_FALSE(PlanIn(segment, b.m, "0.2.0").refusal.has_value());
  pte::ProgramView no_vector = segment;  // constant_buffer absent: size() through null
  no_vector.has_inline_constant_vector = false;
  EXPECT_EQ(PlanIn(no_vector, b.m, "0.1.0").refusal->error, "crash (null dereference)");
  pte::ProgramView inline_constants;  // the reserved entry and the constant
  inline_constants.inline_constant_buffers = 2;
  inline_constants.has_inline_constant_vector = true;
  LoadPlan ok = PlanIn(inline_constants, b.m, "0.1.0");
  EXPECT_FALSE(ok.refusal.has_value());
  LoadPlan same = PlanIn(inline_constants, b.m, "0.2.0");
  ASSERT_EQ(ok.requests.size(), same.requests.size());
  for (size_t i = 0; i < ok.requests.size(); ++i) EXPECT_EQ(ok.requests[i].size, same.requests[i].size);
}

// 0.1.0's Method::init ET_CHECKs a NONE value (abort) and finds a missing chain only at its end.
TEST(Refusals, ZeroOneAbortsOnANoneValueAndFindsNoChainsLate) {
  MethodMaker b;
  b.Tensor({2});
  b.Scalar(ValueKind::kNone);
  b.Call(InstructionKind::kKernelCall, 0, {0});
  b.m.operators = {{"aten::relu", ""}};
  pte::ProgramView program;
  EXPECT_EQ(PlanIn(program, b.m, "0.1.0").refusal->error, "abort (ET_CHECK)");
  EXPECT_EQ(PlanIn(program, b.m, "0.2.0").refusal->error, "InvalidProgram");
  MethodMaker c;
  c.Tensor({2});
  LoadPlan old = PlanIn(program, c.m, "0.1.0");
  ASSERT_TRUE(old.refusal.has_value());
  EXPECT_EQ(old.refusal->error, "Internal");
  EXPECT_EQ(old.requests.back().site, Site::kChains);  // Chain[0] is allocated first
  EXPECT_EQ(old.requests.back().size, 0u);
  LoadPlan newer = PlanIn(program, c.m, "0.2.0");
  EXPECT_EQ(newer.refusal->error, "InvalidProgram");
  EXPECT_EQ(newer.requests.size() + 1, old.requests.size());
}

// XNNPACK's init in 0.1.0 allocates per dynamically quantized input, which the blob describes.
TEST(Backends, XnnpackIsUnknownOnZeroOne) {
  LoadPlan p = Plan(RichMethod("XnnpackBackend"), **FindRelease("0.1.0"), "cortex-m");
  ASSERT_EQ(p.unknowns.size(), 1u);
  EXPECT_NE(p.unknowns[0].why.find("dynamically quantized"), std::string::npos);
  EXPECT_EQ(BackendBytes("0.1.0", "cortex-m", "ArmBackend"), 0u);
}

TEST(Refusals, NullCompileSpecsCrashBefore13AndAreSkippedAfter) {
  pte::MethodView m = RichMethod();
  m.delegates[0].has_compile_specs = false;
  m.delegates[0].compile_specs = 0;
  EXPECT_TRUE(Plan(m, **FindRelease("1.2"), "cortex-m").refusal.has_value());
  LoadPlan p = Plan(m, **FindRelease("1.3"), "cortex-m");
  EXPECT_FALSE(p.refusal.has_value());
  for (const auto& r : p.requests) EXPECT_NE(r.site, Site::kCompileSpecs);
}

TEST(Refusals, UnboundedDynamicTensorsAreNotSupportedAnywhere) {
  MethodMaker b;
  b.Tensor({3});
  b.Tensor({4}, pte::Dynamism::kDynamicUnbound);
  b.m.chains.push_back({0, 0});
  for (const auto& t : AllReleases()) {
    LoadPlan p = Plan(b.m, t, "cortex-m", {.temp_allocator = true});
    ASSERT_TRUE(p.refusal.has_value()) << t.version;
    EXPECT_EQ(p.refusal->error, "NotSupported");
    EXPECT_EQ(p.requests.back().site, Site::kTensorImpl);  // of the first tensor only
  }
}

TEST(Refusals, RankAboveSixteenIsRefusedFromOneZero) {
  MethodMaker b;
  b.Tensor(std::vector<int32_t>(17, 1));
  b.m.chains.push_back({0, 0});
  EXPECT_FALSE(Plan(b.m, **FindRelease("0.7"), "cortex-m").refusal.has_value());
  EXPECT_TRUE(Plan(b.m, **FindRelease("1.0"), "cortex-m").refusal.has_value());
}

TEST(Refusals, ExternalConstantsNeedADataMap) {
  MethodMaker b;
  b.Tensor({8});
  b.m.tensors[0].external = true;
  b.m.fqns = {"w"};
  b.m.tensors[0].fqn_index = 1;
  b.m.chains.push_back({0, 0});
  EXPECT_FALSE(Plan(b.m, **FindRelease("0.5"), "cortex-m").refusal.has_value());  // ignores EXTERNAL
  LoadPlan p = Plan(b.m, **FindRelease("0.6"), "cortex-m");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "crash (null dereference)");  // 0.6 looks "w" up in a null map
  EXPECT_EQ(p.requests.back().site, Site::kExternalConstants);
  EXPECT_FALSE(Plan(b.m, **FindRelease("0.6"), "cortex-m", {.external_data_map = true}).refusal);
}

// Method::parse_external_constants refuses an external constant without a key where it meets
// it in value order, before its lookup, once the external constants list is allocated
// (InvalidExternalData, 0.6+). Without a data map 0.7+ refuse the missing map first; 0.6 meets
// the key check before it dereferences the null map, when the keyless constant comes first.
TEST(Refusals, AnExternalConstantWithoutAKeyIsRefusedWhereTheLoopMeetsIt) {
  MethodMaker b;
  b.Tensor({8});
  b.Tensor({8});
  b.m.tensors[0].external = b.m.tensors[1].external = true;
  b.m.chains.push_back({0, 0});
  for (const char* release : {"0.6", "0.7", "1.0", "1.3", "main"}) {
    LoadPlan p = Plan(b.m, **FindRelease(release), "cortex-m", {.external_data_map = true});
    ASSERT_TRUE(p.refusal.has_value()) << release;
    EXPECT_EQ(p.refusal->error, "InvalidExternalData") << release;
    EXPECT_EQ(p.refusal->log, "Fully qualified name of external tensor is null at index 0")
        << release;
    EXPECT_EQ(p.requests.back().site, Site::kExternalConstants) << release;
    EXPECT_EQ(p.requests.back().count, 2u) << release;  // both EXTERNAL tensors counted
  }
  LoadPlan no_map = Plan(b.m, **FindRelease("0.6"), "cortex-m");
  ASSERT_TRUE(no_map.refusal.has_value());
  EXPECT_EQ(no_map.refusal->error, "InvalidExternalData");
  EXPECT_EQ(no_map.requests.back().site, Site::kExternalConstants);
  for (const char* release : {"0.7", "1.4", "main"}) {
    LoadPlan p = Plan(b.m, **FindRelease(release), "cortex-m");
    ASSERT_TRUE(p.refusal.has_value()) << release;
    EXPECT_EQ(p.refusal->error, "InvalidState") << release;
  }
  EXPECT_FALSE(Plan(b.m, **FindRelease("0.5"), "cortex-m").refusal.has_value());  // ignores EXTERNAL
  // A keyed constant first: its lookup comes first (taken to succeed with a map; 0.6 without one
  // dereferences the null map), then the keyless one, at its index.
  b.m.fqns = {"w"};
  b.m.tensors[0].fqn_index = 1;
  LoadPlan second = Plan(b.m, **FindRelease("1.4"), "cortex-m", {.external_data_map = true});
  ASSERT_TRUE(second.refusal.has_value());
  EXPECT_EQ(second.refusal->log, "Fully qualified name of external tensor is null at index 1");
  LoadPlan crash = Plan(b.m, **FindRelease("0.6"), "cortex-m");
  ASSERT_TRUE(crash.refusal.has_value());
  EXPECT_EQ(crash.refusal->error, "crash (null dereference)");
}

}  // namespace load_plan_test
}  // namespace etmem::runtime

namespace etmem::runtime {
namespace load_plan_test {

TEST(Backends, DeclaredInitMakesAnUnmodelledBackendExact) {
  LoadOptions o;
  o.declared_backends["MyNpuBackend"] = {24, 8};
  LoadPlan p = Plan(RichMethod("MyNpuBackend"), **FindRelease("1.4"), "x86_64", o);
  EXPECT_TRUE(p.exact());
  uint64_t declared = 0;
  for (const auto& r : p.requests)
    if (r.site == Site::kBackendInit) {
      declared += r.size;
      EXPECT_EQ(r.align, 8u);
    }
  EXPECT_EQ(declared, 24u);
  o.declared_backends["MyNpuBackend"] = {0, 8};
  LoadPlan none = Plan(RichMethod("MyNpuBackend"), **FindRelease("1.4"), "x86_64", o);
  EXPECT_TRUE(none.exact());
  for (const auto& r : none.requests) EXPECT_NE(r.site, Site::kBackendInit);
}

}  // namespace load_plan_test
}  // namespace etmem::runtime

namespace etmem::runtime {
namespace load_plan_test {

// Issue 26: refusals of programs etmem's reader accepts, from the runtime's source (the builder
// programs of the same paths are measured: tests/model/refusals_match_measured_test.cpp).
MethodMaker OnePlannedTensor(uint32_t memory_id, uint64_t offset, int64_t buffer) {
  MethodMaker b;
  b.Tensor({4});  // 16 bytes of float
  b.m.tensors[0].planned = true;
  b.m.tensors[0].memory_id = memory_id;
  b.m.tensors[0].offset = offset;
  b.m.planned_buffer_sizes = {0, buffer};
  b.m.chains.push_back({0, 0});
  return b;
}

TEST(Refusals, PlannedOffsetsA32BitSizeTCannotHoldAreNotSupported) {
  MethodMaker b = OnePlannedTensor(1, uint64_t{1} << 32, int64_t{1} << 33);
  LoadPlan p = Plan(b.m, **FindRelease("0.2"), "cortex-m");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "NotSupported");
  EXPECT_EQ(p.refusal->log, "size_t cannot hold memory offset 0x00000001.00000000");
  EXPECT_EQ(p.requests.back().site, Site::kTensorImpl);  // after the TensorImpl
  EXPECT_EQ(Plan(b.m, **FindRelease("1.1"), "cortex-m").refusal->log,
            "size_t cannot hold memory offset 0x0000000100000000");
  // A 64-bit size_t holds it; 0.1 reads the low word only (offset 0).
  EXPECT_FALSE(Plan(b.m, **FindRelease("1.1"), "x86_64").refusal.has_value());
  EXPECT_FALSE(Plan(b.m, **FindRelease("0.1"), "cortex-m").refusal.has_value());
  // 0.6-1.0 guard the check with sizeof(size_t) > sizeof(uint32_t): a 32-bit target drops the
  // high word and looks the tensor up at offset 0 (measured with g++ -m32).
  for (const char* r : {"0.6", "0.7", "1.0", "1.0.1"})
    EXPECT_FALSE(Plan(b.m, **FindRelease(r), "cortex-m").refusal.has_value()) << r;
  EXPECT_TRUE(Plan(b.m, **FindRelease("0.5"), "cortex-m").refusal.has_value());
}

TEST(Refusals, PlannedTensorsMustLieInsideTheRunnersBuffers) {
  for (const auto& t : AllReleases()) {
    EXPECT_FALSE(Plan(OnePlannedTensor(1, 16, 32).m, t, "cortex-m").refusal) << t.version;
    LoadPlan past = Plan(OnePlannedTensor(1, 17, 32).m, t, "cortex-m");
    ASSERT_TRUE(past.refusal.has_value()) << t.version;
    EXPECT_EQ(past.refusal->error, "MemoryAllocationFailed");
    EXPECT_EQ(past.refusal->log,
              "offset_bytes (17) + size_bytes (16) >= allocator size (32) for memory_id 0");
    LoadPlan missing = Plan(OnePlannedTensor(2, 0, 32).m, t, "cortex-m");
    ASSERT_TRUE(missing.refusal.has_value()) << t.version;
    EXPECT_EQ(missing.refusal->log, "id 1 >= 1");
  }
}

TEST(Refusals, ConstantsInASegmentAndInlineAreRefusedByProgramLoad) {
  pte::ProgramView program;
  program.constant_offsets = 2;
  program.constant_segment = 0;
  program.inline_constant_buffers = 2;
  program.has_inline_constant_vector = true;
  MethodMaker b = OnePlannedTensor(1, 0, 16);
  for (const auto& t : AllReleases()) {
    LoadPlan p = PlanMethodLoad(program, b.m, RuntimeModel(t, Target("x86_64")), {});
    if (!t.constant_segment) {
      EXPECT_FALSE(p.refusal.has_value()) << t.version;  // 0.1 knows no constant segment
      continue;
    }
    ASSERT_TRUE(p.refusal.has_value()) << t.version;
    EXPECT_EQ(p.refusal->error, "InvalidProgram");
    EXPECT_EQ(p.refusal->log, "constant_buffer contains 2 items, constant_segment.offsets "
                              "contains 2 items. Only one should be used.");
    EXPECT_TRUE(p.requests.empty()) << t.version;  // Program::load: no method was loaded
  }
  // From 0.4 a constant segment of only the reserved offset is not loaded: no conflict.
  program.constant_offsets = 1;
  EXPECT_FALSE(PlanMethodLoad(program, b.m, RuntimeModel(**FindRelease("0.4"), Target("x86_64")), {})
                   .refusal.has_value());
}

TEST(Refusals, MutableStateIsCheckedAgainstItsSegment) {
  pte::ProgramView program;
  program.header = pte::ExtendedHeader{24, 64, 64, std::nullopt};
  program.segments = {{0, 24}};
  program.mutable_segments = 1;
  program.has_mutable_segments_vector = true;
  program.first_mutable_has_offsets = true;
  program.first_mutable_offsets = {0, 16};
  program.mutable_segment_indices = {0};
  auto plan = [&](uint32_t data_index, const char* release) {
    MethodMaker b = OnePlannedTensor(1, 0, 16);
    b.m.tensors[0].data_index = data_index;
    return PlanMethodLoad(program, b.m, RuntimeModel(**FindRelease(release), Target("x86_64")), {});
  };
  // Data index 1: 16 bytes at offset 16 of a 24-byte segment.
  LoadPlan p = plan(1, "0.4");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "InvalidArgument");
  EXPECT_EQ(p.refusal->log, "offset 16 + size 16 out of range > 24");
  p = plan(2, "1.4");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "NotFound");
  EXPECT_EQ(p.refusal->log, "offset index 2 out of range >= 2");
  program.first_mutable_offsets = {0, 8};
  EXPECT_FALSE(plan(1, "1.4").refusal.has_value());
  program.segments.clear();
  EXPECT_EQ(plan(1, "1.4").refusal->log, "Segment index 0 out of range (>= 0)");
  // 0.3 reads such a tensor's data as a constant (there is none: InvalidArgument of its own).
  EXPECT_NE(plan(1, "0.3").refusal->log.rfind("offset", 0), 0u);
  // No segments at all (the header's segment base 0): "No segments in program".
  program.header->segment_base_offset = 0;
  EXPECT_EQ(plan(1, "1.4").refusal->log, "No segments in program");
}

TEST(Refusals, OperatorNamesMustExistAndFitTheRuntimesBuffer) {
  MethodMaker b;
  int x = b.Tensor({4});
  b.Call(InstructionKind::kKernelCall, 0, {x, x});
  b.m.operators.push_back({});  // no name
  LoadPlan p = Plan(b.m, **FindRelease("0.2"), "x86_64");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "InvalidProgram");
  EXPECT_EQ(p.refusal->log, "Missing operator name");
  EXPECT_EQ(Plan(b.m, **FindRelease("0.1"), "x86_64").refusal->error, "crash (null dereference)");
  const std::string name(95, 'n');  // with ".out": 99 characters fit, 100 do not
  b.m.operators[0] = {name, "out"};
  EXPECT_FALSE(Plan(b.m, **FindRelease("1.4"), "x86_64").refusal.has_value());
  const std::string longer = name + "n";
  b.m.operators[0] = {longer, "out"};
  p = Plan(b.m, **FindRelease("1.4"), "x86_64");
  ASSERT_TRUE(p.refusal.has_value());
  EXPECT_EQ(p.refusal->error, "Internal");
  EXPECT_EQ(p.refusal->log, "Operator name " + longer +
                                ".out with length 100 truncated to 100 due to internal buffer limit.");
  EXPECT_EQ(p.requests.back().site, Site::kInstructionArgs);  // before the operator's metadata
}

}  // namespace load_plan_test
}  // namespace etmem::runtime
