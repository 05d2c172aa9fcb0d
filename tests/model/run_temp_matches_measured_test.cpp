// Holds the temp allocator while running (kernels/run_temp.h) to the real kernels: the portable
// topk of every release that has it (tests/measured/x86_64_run_temp.json) and the Cadence HiFi
// mm.out, bmm.out and _softmax.out (x86_64_run_temp_hifi.json), atan2.out, pow.*,
// clamp.Tensor_out, where.self_out, bitwise_*.{Tensor,Scalar}_out and cadence::quantized_matmul*
// (x86_64_run_temp_hifi_broadcast.json), and the Cortex-M (CMSIS-NN) operators per core
// extension (x86_64_run_temp_cortex_m.json), the Cadence Fusion G3 native_layer_norm.out and
// Vision _softmax.out (x86_64_run_temp_cadence_g3_vision.json), the HiFi mean.out and
// quantized_max_pool2d_nhwc.out sized by the NNLib's getsize (x86_64_run_temp_hifi_nnlib.json),
// the HiFi quantized convolutions (x86_64_run_temp_hifi_conv.json), the Arm Ethos-U backend's
// scratch (x86_64_run_temp_ethos_u.json), and 0.5.0's Cadence kernels that malloc instead
// (x86_64_run_malloc.json; each file says how it was measured): each call's requests and pool
// bytes, the peak, the call that fails in a pool of peak - 1 bytes and the lines logged, the heap
// requests of the no-temp-allocator fallback and its failure without a heap (for a kernel that
// does not check the pointer, the lines up to where it goes on; for one that ET_CHECKs it, up to
// its Fatal line, and the abort).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "etmem/abi/abi.h"
#include "etmem/base/sha256.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/pte/read_program.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "measured.h"

namespace etmem {
namespace measured_run_temp_test {

// The calls that ask the temp allocator (or whose asking is unknown): not those that only malloc
// (0.5.0's Cadence kernels), which these records, of the temp allocator, do not list.
std::vector<const kernels::CallTemp*> TempCalls(const kernels::RunTemp& t) {
  std::vector<const kernels::CallTemp*> out;
  for (const kernels::CallTemp& c : t.calls)
    if (!c.requests.empty() || !c.unknown.empty() || c.mallocs.empty()) out.push_back(&c);
  return out;
}

// The record's program, the one measured (its sha256, where the record has one), read; nullopt
// (the failure said) otherwise.
std::optional<pte::ProgramView> RecordProgram(const nlohmann::json& rec) {
  const std::vector<uint8_t>& bytes = test::MeasuredProgramBytes(rec);
  if (rec.contains("sha256") && Sha256Hex(bytes) != rec["sha256"]) {
    ADD_FAILURE() << "not the program measured: sha256 " << Sha256Hex(bytes);
    return std::nullopt;
  }
  auto p = pte::ReadProgramBytes(bytes, rec["program"].get<std::string>());
  EXPECT_TRUE(p.has_value());
  if (!p) return std::nullopt;
  return std::move(*p);
}

// Each call's instruction and requests (bytes, alignment) as measured, and its pool bytes where
// the record has them.
void ExpectCallsAsMeasured(const kernels::RunTemp& t, const nlohmann::json& calls) {
  const std::vector<const kernels::CallTemp*> temp = TempCalls(t);
  ASSERT_EQ(temp.size(), calls.size());
  for (size_t i = 0; i < temp.size(); ++i) {
    const nlohmann::json& c = calls[i];
    EXPECT_EQ(temp[i]->instruction, c["instruction"].get<size_t>());
    ASSERT_EQ(temp[i]->requests.size(), c["requests"].size());
    for (size_t q = 0; q < temp[i]->requests.size(); ++q) {
      EXPECT_EQ(temp[i]->requests[q].bytes, c["requests"][q][0].get<uint64_t>());
      EXPECT_EQ(temp[i]->requests[q].alignment, c["requests"][q][1].get<uint32_t>());
    }
    if (c.contains("pool_bytes")) {
      EXPECT_EQ(temp[i]->pool_bytes, c["pool_bytes"].get<uint64_t>());
    }
  }
}

void HoldToMeasured(const char* file) {
  const nlohmann::json measured = test::ReadMeasured(file);
  ASSERT_FALSE(measured["records"].empty());
  for (const nlohmann::json& rec : measured["records"]) {
    SCOPED_TRACE(rec["release"].get<std::string>() + " " + rec["program"].get<std::string>() + " " +
                 rec.value("m_extension", "") + (rec.value("armclang", false) ? " armclang" : ""));
    // x86_64's sizes, with the extension and compiler CMSIS-NN was built for (Cortex-M records).
    abi::Abi target = *abi::FindBuiltinTarget("x86_64");
    for (abi::MExtension e : {abi::MExtension::kNone, abi::MExtension::kDsp, abi::MExtension::kMve})
      if (rec.value("m_extension", "none") == abi::MExtensionName(e)) target.m_extension = e;
    target.armclang = rec.value("armclang", false);
    auto p = RecordProgram(rec);
    ASSERT_TRUE(p.has_value());
    const runtime::RuntimeTraits& release = **runtime::FindRelease(rec["release"]);
    kernels::RunTempOptions o;
    o.pool_align = 16;
    if (rec.contains("kernels")) o.kernels = rec["kernels"].get<std::vector<std::string>>();
    o.temp_pool_bytes = rec.value("pool_bytes", uint64_t{0});
    auto t = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
    ASSERT_TRUE(t.has_value());
    ExpectCallsAsMeasured(*t, rec["calls"]);
    EXPECT_EQ(t->peak_bytes, rec["peak_bytes"].get<uint64_t>());
    if (rec["calls"].empty()) {  // nothing asked at this release: no pool fails, no heap is used
      EXPECT_TRUE(rec["heap_requests"].empty());
      o.temp_allocator = false;
      auto heap = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
      ASSERT_TRUE(heap.has_value());
      EXPECT_EQ(heap->heap_peak_bytes, 0u);
      EXPECT_FALSE(heap->no_heap_failing_call.has_value());
      continue;
    }
    ASSERT_TRUE(t->check && !t->check->fits);
    EXPECT_EQ(t->calls[*t->check->failing_call].instruction,
              rec["failing_instruction"].get<size_t>());
    // The kernel's lines; for a kernel that checks the pointer, the model adds the line
    // Method::step logs after them; one that does not goes on (the model says so in `then`).
    const auto log = rec["failure_log"].get<std::vector<std::string>>();
    const bool pool_stops = rec.value("kernel_stops", true);
    EXPECT_EQ(t->check->then.empty(), pool_stops);
    // A kernel that ET_CHECKs the pointer aborts after its Fatal line: the model says so.
    EXPECT_EQ(t->check->then.find("aborts") != std::string::npos,
              rec.value("kernel_aborts", false));
    ASSERT_EQ(t->check->log.size(), log.size() + (pool_stops ? 1 : 0));
    for (size_t i = 0; i < log.size(); ++i) EXPECT_EQ(t->check->log[i], log[i]);
    if (pool_stops) {
      EXPECT_TRUE(t->check->log.back().starts_with("KernelCall failed at instruction 0:"));
    }
    // No temp allocator: PlatformMemoryAllocator over the heap, freed after each instruction.
    o.temp_allocator = false;
    o.temp_pool_bytes.reset();
    auto heap = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
    ASSERT_TRUE(heap.has_value() && heap->platform_fallback);
    const std::vector<const kernels::CallTemp*> heap_calls = TempCalls(*heap);
    ASSERT_EQ(heap_calls.size(), rec["heap_requests"].size());
    uint64_t peak = 0;
    for (size_t i = 0; i < heap_calls.size(); ++i) {
      uint64_t bytes = 0;  // every request of the instruction is held until it ends
      for (const nlohmann::json& r : rec["heap_requests"][i]) bytes += r.get<uint64_t>();
      EXPECT_EQ(heap_calls[i]->heap_bytes, bytes);
      peak = std::max(peak, bytes);
    }
    EXPECT_EQ(heap->heap_peak_bytes, peak);
    ASSERT_TRUE(heap->no_heap_failing_call.has_value());
    EXPECT_EQ(heap->calls[*heap->no_heap_failing_call].instruction,
              rec["no_heap_failing_instruction"].get<size_t>());
    const auto no_heap = rec["no_heap_log"].get<std::vector<std::string>>();
    // A kernel that checks fails the call (the model adds Method::step's line); one that does
    // not goes on with NULL, which no line says: the model says it in no_heap_then.
    const bool stops = rec.value("no_heap_kernel_stops", true);
    EXPECT_EQ(heap->no_heap_then.empty(), stops);
    EXPECT_EQ(heap->no_heap_then.find("aborts") != std::string::npos,
              rec.value("no_heap_kernel_aborts", false));
    ASSERT_EQ(heap->no_heap_log.size(), no_heap.size() + (stops ? 1 : 0));
    for (size_t i = 0; i < no_heap.size(); ++i) EXPECT_EQ(heap->no_heap_log[i], no_heap[i]);
  }
}

// The Arm Ethos-U backend's scratch (x86_64_run_temp_ethos_u.json): the request its execute()
// makes, the lines a pool one byte short logs, the heap of the no-temp-allocator fallback and
// its failure without a heap; and a payload of the other kind, which execute() refuses before
// asking (the method loads but does not run).
TEST(MeasuredRunTemp, EthosUScratchMatchesTheRealBackendCallForCall) {
  const nlohmann::json measured = test::ReadMeasured("x86_64_run_temp_ethos_u.json");
  ASSERT_FALSE(measured["records"].empty());
  for (const nlohmann::json& rec : measured["records"]) {
    SCOPED_TRACE(rec["release"].get<std::string>() + " " + rec["program"].get<std::string>());
    ASSERT_TRUE(rec.contains("sha256"));
    auto p = RecordProgram(rec);
    ASSERT_TRUE(p.has_value());
    const runtime::RuntimeTraits& release = **runtime::FindRelease(rec["release"]);
    const abi::Abi target = *abi::FindBuiltinTarget("x86_64");
    if (rec.contains("load_error")) {  // init() reads the payload and refuses it (main)
      runtime::RuntimeModel model(release, target);
      const runtime::LoadPlan plan = runtime::PlanMethodLoad(*p, p->methods[0], model, {});
      ASSERT_TRUE(plan.refusal.has_value());
      EXPECT_EQ(plan.refusal->error, "InvalidProgram");
      EXPECT_EQ(rec["load_error"].get<int>(), 0x23);  // Error::InvalidProgram
      EXPECT_EQ(plan.refusal->log, rec["load_log"][0].get<std::string>());
      continue;
    }
    kernels::RunTempOptions o;
    o.pool_align = 16;  // the harness's pools are 64-aligned: no padding before a request
    auto t = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
    ASSERT_TRUE(t.has_value());
    ExpectCallsAsMeasured(*t, rec["calls"]);
    EXPECT_EQ(t->peak_bytes, rec["peak_bytes"].get<uint64_t>());
    // A payload the release's backend does not read: execute() fails, and etmem says so.
    const auto execute_log = rec["execute_log"].get<std::vector<std::string>>();
    if (rec["execute_error"].get<int>() != 0) {
      ASSERT_EQ(t->run_failures.size(), 1u);
      ASSERT_FALSE(execute_log.empty());
      EXPECT_NE(t->run_failures[0].find(execute_log[0]), std::string::npos) << t->run_failures[0];
    } else {
      EXPECT_TRUE(t->run_failures.empty());
    }
    if (rec.contains("failure_log")) {  // a pool one byte short of the peak
      o.temp_pool_bytes = rec["pool_bytes"].get<uint64_t>();
      auto short_pool = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
      ASSERT_TRUE(short_pool && short_pool->check && !short_pool->check->fits);
      EXPECT_EQ(short_pool->check->log, rec["failure_log"].get<std::vector<std::string>>());
      o.temp_pool_bytes.reset();
    }
    o.temp_allocator = false;  // load_method's PlatformMemoryAllocator over the heap
    auto heap = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
    ASSERT_TRUE(heap.has_value());
    uint64_t heap_bytes = 0;
    for (const nlohmann::json& r : rec["heap_requests"]) heap_bytes += r.get<uint64_t>();
    EXPECT_EQ(heap->heap_peak_bytes, heap_bytes);
    EXPECT_EQ(heap->no_heap_log, rec["no_heap_log"].get<std::vector<std::string>>());
  }
}

TEST(MeasuredRunTemp, TopkMatchesTheRealKernelCallForCall) {
  HoldToMeasured("x86_64_run_temp.json");
}

TEST(MeasuredRunTemp, CadenceHifiMatmulAndSoftmaxMatchTheRealKernelsCallForCall) {
  HoldToMeasured("x86_64_run_temp_hifi.json");
}

TEST(MeasuredRunTemp, CadenceHifiBroadcastBitwiseAndQuantizedMatmulMatchTheRealKernelsCallForCall) {
  HoldToMeasured("x86_64_run_temp_hifi_broadcast.json");
}

// The Fusion G3 layer norm's default weight and bias (0.5.0 to 1.4.1; its failed requests abort)
// and the Vision softmax's transposes (1.1.0 to 1.4.1).
TEST(MeasuredRunTemp, CadenceFusionG3LayerNormAndVisionSoftmaxMatchTheRealKernelsCallForCall) {
  HoldToMeasured("x86_64_run_temp_cadence_g3_vision.json");
}

// The HiFi mean.out (0.5.0, which mallocs, to 1.4.1) and quantized_max_pool2d_nhwc.out (1.3.0,
// 1.4.1), their scratch sized by the real NNLib v4.1.0 xa_nn_reduce_getsize_nhwc and
// xa_nn_maxpool_getsize: each request's bytes and alignment, each pool, the peak.
TEST(MeasuredRunTemp, CadenceHifiMeanAndMaxPoolMatchTheRealKernelsAndNnlibGetsize) {
  HoldToMeasured("x86_64_run_temp_hifi_nnlib.json");
}

// 0.5.0's Cadence kernels that malloc instead of asking the temp allocator (HiFi mean.out, pow.
// Tensor_Tensor_out, where.self_out; Fusion G3 native_layer_norm.out), measured with the real
// kernels and malloc/free wrapped (x86_64_run_malloc.json): every malloc in order, its bytes, its
// instruction and whether the kernel freed it; none from 0.6.0, where they ask the temp allocator.
TEST(MeasuredRunTemp, CadenceMallocsAt050MatchTheRealKernelsCallForCall) {
  const nlohmann::json measured = test::ReadMeasured("x86_64_run_malloc.json");
  ASSERT_FALSE(measured["records"].empty());
  for (const nlohmann::json& rec : measured["records"]) {
    SCOPED_TRACE(rec["release"].get<std::string>() + " " + rec["program"].get<std::string>());
    ASSERT_TRUE(rec.contains("sha256"));
    auto p = RecordProgram(rec);
    ASSERT_TRUE(p.has_value());
    const runtime::RuntimeTraits& release = **runtime::FindRelease(rec["release"]);
    kernels::RunTempOptions o;
    o.kernels = rec["kernels"].get<std::vector<std::string>>();
    const abi::Abi target = *abi::FindBuiltinTarget("x86_64");
    auto t = kernels::ComputeRunTemp(*p, p->methods[0], release, target, o);
    ASSERT_TRUE(t.has_value());
    // Instructions the harness did not run with these kernels (an operator they lack).
    std::vector<size_t> not_run;
    if (rec.contains("not_run")) not_run = rec["not_run"].get<std::vector<size_t>>();
    nlohmann::json model = nlohmann::json::array();
    uint64_t leaked = 0;
    for (const kernels::CallTemp& c : t->calls) {
      if (std::find(not_run.begin(), not_run.end(), c.instruction) != not_run.end()) continue;
      for (const kernels::MallocRequest& q : c.mallocs) {
        model.push_back({{"instruction", c.instruction}, {"bytes", q.bytes}, {"freed", q.freed}});
        if (!q.freed) leaked += q.bytes;
      }
    }
    nlohmann::json want = nlohmann::json::array();
    for (const nlohmann::json& q : rec["malloc_requests"])
      want.push_back(
          {{"instruction", q["instruction"]}, {"bytes", q["bytes"]}, {"freed", q["freed"]}});
    EXPECT_EQ(model, want);
    if (not_run.empty()) {
      EXPECT_EQ(t->malloc_leaked_bytes, leaked);
    }
  }
}

// The HiFi specialised quantized convolutions, their depthwise siblings, the generic kernels and
// 0.6.0/0.7.0's cadence::quantized_conv.out, and the 1-D ones of 1.0.0 and 1.1.0 (quantized_conv_*
// at 1.0.0, quantized_conv2d_* at 1.1.0 to 1.4.1), NHWC and NCHW, 2-D and 1-D: the transposes and
// the scratch sized by the real NNLib v4.1.0 xa_nn_conv2d_getsize, xa_nn_conv2d_depthwise_getsize
// and xa_nn_conv1d_std_getsize, each request's bytes and alignment, each pool, the peak, the pool
// one byte short and the heap.
TEST(MeasuredRunTemp, CadenceHifiQuantizedConvMatchesTheRealKernelsAndNnlibGetsize) {
  HoldToMeasured("x86_64_run_temp_hifi_conv.json");
}

// The Cortex-M backend's CMSIS-NN scratch at 1.1.0 to 1.3.1, built without extensions, for DSP,
// for MVE, and with CMSIS-NN's Arm Compiler 6 branches.

TEST(MeasuredRunTemp, CortexMCmsisNnScratchMatchesTheRealOperatorsPerExtension) {
  HoldToMeasured("x86_64_run_temp_cortex_m.json");
}

}  // namespace measured_run_temp_test
}  // namespace etmem
