// Tests of the program builder (src/etmem/testing): every scenario's bytes pass etmem's reader
// and read back as what was recorded (values, instructions, delegates, constants, layout), and
// MotivatingCnn has the same structure as the real program it rebuilds.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "etmem/fb/program_generated.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"
#include "etmem/testing/view_contents.h"

namespace etmem::testing {
namespace builder_test {

namespace fs = std::filesystem;

pte::ProgramView Read(const std::vector<uint8_t>& bytes, const std::string& name) {
  auto view = pte::ReadProgramBytes(bytes, name);
  EXPECT_TRUE(view.has_value()) << (view ? "" : view.error().message);
  if (!view) return {};
  return std::move(view).value();
}

// ---- The view matches the record ---------------------------------------------------------

void ExpectTensorMatches(const pte::MethodView& view, const pte::TensorView& t,
                         const TensorRecord& r, const std::string& where) {
  EXPECT_EQ(t.dtype, r.dtype) << where;
  EXPECT_EQ(t.dynamism, r.dynamism) << where;
  ASSERT_EQ(t.rank, r.sizes.size()) << where;
  EXPECT_EQ(t.rank, r.dim_order.size()) << where;
  auto sizes = view.SizesOf(t);
  EXPECT_EQ(std::vector<int32_t>(sizes.begin(), sizes.end()), r.sizes) << where;
  EXPECT_EQ(t.planned, r.placement.has_value()) << where;
  if (r.placement) {
    EXPECT_EQ(t.memory_id, r.placement->memory_id) << where;
    EXPECT_EQ(t.offset, r.placement->offset) << where;
  }
  EXPECT_EQ(t.data_index != 0, r.constant >= 0) << where;
  EXPECT_EQ(t.external, !r.external_fqn.empty()) << where;
  EXPECT_EQ(view.FqnOf(t), r.external_fqn) << where;
}

size_t ListLength(const ValueRecord& v) {
  return std::visit(
      [](const auto& x) -> size_t {
        if constexpr (requires { x.items; }) {
          return x.items.size();
        } else if constexpr (std::is_same_v<std::decay_t<decltype(x)>, StringValue>) {
          return x.value.size();
        } else {
          return 0;
        }
      },
      v);
}

void ExpectValuesMatch(const pte::MethodView& view, const MethodRecord& r) {
  ASSERT_EQ(view.values.size(), r.values.size());
  for (size_t i = 0; i < r.values.size(); ++i) {
    const std::string where = r.name + " value " + std::to_string(i);
    const pte::ValueView& v = view.values[i];
    ASSERT_EQ(static_cast<size_t>(v.kind), r.values[i].index() + 1) << where;
    if (const auto* t = std::get_if<TensorRecord>(&r.values[i])) {
      ExpectTensorMatches(view, view.tensors[v.index], *t, where);
    } else if (v.kind != pte::ValueKind::kNull && v.kind != pte::ValueKind::kInt &&
               v.kind != pte::ValueKind::kBool && v.kind != pte::ValueKind::kDouble) {
      EXPECT_EQ(v.count, ListLength(r.values[i])) << where;
    }
  }
}

void ExpectInstructionMatches(const pte::MethodView& view, const pte::InstructionView& iv,
                              const InstructionRecord& r, const std::string& where) {
  ASSERT_EQ(static_cast<size_t>(iv.kind), r.index() + 1) << where;
  auto args = view.ArgsOf(iv);
  std::vector<int32_t> got(args.begin(), args.end());
  if (const auto* k = std::get_if<KernelCallRecord>(&r)) {
    EXPECT_EQ(iv.target, k->op) << where;
    EXPECT_EQ(got, k->args) << where;
  } else if (const auto* d = std::get_if<DelegateCallRecord>(&r)) {
    EXPECT_EQ(iv.target, d->delegate) << where;
    EXPECT_EQ(got, d->args) << where;
  } else if (const auto* mv = std::get_if<MoveRecord>(&r)) {
    EXPECT_EQ(iv.target, mv->from) << where;
    EXPECT_EQ(iv.second, mv->to) << where;
  } else if (const auto* j = std::get_if<JumpFalseRecord>(&r)) {
    EXPECT_EQ(iv.target, j->condition) << where;
    EXPECT_EQ(iv.second, j->destination) << where;
  } else {
    EXPECT_EQ(iv.target, std::get<FreeRecord>(r).value) << where;
  }
}

void ExpectChainsMatch(const pte::MethodView& view, const MethodRecord& r) {
  ASSERT_EQ(view.chains.size(), r.chains.size());
  for (size_t c = 0; c < r.chains.size(); ++c) {
    const pte::ChainView& cv = view.chains[c];
    ASSERT_EQ(cv.instructions_count, r.chains[c].size());
    for (size_t i = 0; i < r.chains[c].size(); ++i)
      ExpectInstructionMatches(
          view, view.instructions[cv.instructions_begin + i], r.chains[c][i],
          r.name + " chain " + std::to_string(c) + " instruction " + std::to_string(i));
  }
}

void ExpectDelegatesMatch(const pte::ProgramView& program, const pte::MethodView& view,
                          const MethodRecord& r) {
  ASSERT_EQ(view.delegates.size(), r.delegates.size());
  const uint8_t* file = program.file->bytes().data();
  for (size_t i = 0; i < r.delegates.size(); ++i) {
    const pte::DelegateView& d = view.delegates[i];
    const DelegateSpec& spec = r.delegates[i];
    EXPECT_EQ(d.backend, spec.backend_id);
    EXPECT_EQ(d.has_compile_specs, !spec.omit_compile_specs);
    EXPECT_EQ(d.compile_specs, spec.omit_compile_specs ? 0 : spec.compile_specs.size());
    EXPECT_EQ(d.location == pte::BlobLocation::kSegment, spec.blob_in_segment);
    ASSERT_EQ(d.blob_bytes, spec.blob.size());
    ASSERT_LE(d.blob_file_offset + d.blob_bytes, program.file_size);
    EXPECT_EQ(0, std::memcmp(file + d.blob_file_offset, spec.blob.data(), spec.blob.size()));
  }
}

void ExpectMethodMatches(const pte::ProgramView& program, const pte::MethodView& view,
                         const MethodRecord& r) {
  EXPECT_EQ(view.name, r.name);
  ExpectValuesMatch(view, r);
  EXPECT_EQ(view.inputs, r.inputs);
  EXPECT_EQ(view.outputs, r.outputs);
  ASSERT_EQ(view.operators.size(), r.operators.size());
  for (size_t i = 0; i < r.operators.size(); ++i) {
    EXPECT_EQ(view.operators[i].name, r.operators[i].name);
    EXPECT_EQ(view.operators[i].overload, r.operators[i].overload);
  }
  ExpectChainsMatch(view, r);
  ExpectDelegatesMatch(program, view, r);
  std::vector<int64_t> planned{0};
  planned.insert(planned.end(), r.planned_sizes.begin(), r.planned_sizes.end());
  EXPECT_EQ(view.planned_buffer_sizes, planned);
}

// ---- Layout and constant bytes -----------------------------------------------------------

void ExpectLayoutValid(const pte::ProgramView& p, const ProgramOptions& options) {
  EXPECT_EQ(p.header.has_value(), !p.segments.empty());
  if (!p.header) return;
  EXPECT_EQ(p.header->length, options.header_length);
  EXPECT_LE(p.header->program_size, p.header->segment_base_offset);
  EXPECT_EQ(p.header->segment_base_offset % options.segment_alignment, 0u);
  uint64_t end = 0;
  for (const pte::SegmentView& s : p.segments) {
    EXPECT_EQ(s.offset % options.segment_alignment, 0u);
    EXPECT_GE(s.offset, end) << "segments overlap";
    end = s.offset + s.size;
    EXPECT_LE(p.header->segment_base_offset + end, p.file_size);
  }
  EXPECT_EQ(p.header->segment_base_offset + end, p.file_size);
  if (options.header_length == 32) {
    EXPECT_EQ(p.header->segment_data_size, end);
  }
}

// Each constant's bytes, found through the tensor's data_index, equal what was recorded.
void ExpectConstantsStored(const pte::ProgramView& p, const MethodRecord& r,
                           const pte::MethodView& view) {
  const uint8_t* file = p.file->bytes().data();
  const fb::Program* program = fb::GetProgram(file);
  for (size_t i = 0; i < r.values.size(); ++i) {
    const auto* t = std::get_if<TensorRecord>(&r.values[i]);
    if (!t || t->constant < 0) continue;
    const ConstantData& data = r.constants[static_cast<size_t>(t->constant)];
    const uint32_t index = view.TensorAt(static_cast<int64_t>(i))->data_index;
    const uint8_t* stored = nullptr;
    if (p.constant_segment) {
      ASSERT_LT(index, p.constant_offsets);
      uint64_t offset = p.header->segment_base_offset + p.segments[*p.constant_segment].offset +
                        program->constant_segment()->offsets()->Get(index);
      ASSERT_LE(offset + data.size(), p.file_size);
      stored = file + offset;
    } else {
      ASSERT_LT(index, p.inline_constant_buffers);
      const auto* bytes = program->inline_constants()->Get(index)->bytes();
      ASSERT_EQ(bytes->size(), data.size());
      stored = bytes->data();
    }
    std::vector<uint8_t> expected =
        data.bytes.empty() ? std::vector<uint8_t>(data.size()) : data.bytes;
    EXPECT_EQ(0, std::memcmp(stored, expected.data(), expected.size())) << "value " << i;
  }
}

void ExpectProgramMatches(const ProgramBuilder& builder,
                          const std::vector<const MethodRecord*>& records,
                          const std::string& name) {
  std::vector<uint8_t> bytes = builder.Build();
  pte::ProgramView view = Read(bytes, name);
  ASSERT_EQ(view.methods.size(), records.size()) << name;
  ExpectLayoutValid(view, builder.options());
  for (size_t i = 0; i < records.size(); ++i) {
    ExpectMethodMatches(view, view.methods[i], *records[i]);
    ExpectConstantsStored(view, *records[i], view.methods[i]);
  }
}

// ---- Every scenario reads back as built --------------------------------------------------

struct Scenario {
  const char* name;
  std::function<ProgramBuilder()> make;
  std::vector<std::string> methods;
};

class BuilderScenarioTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(BuilderScenarioTest, ReadsBackAsBuilt) {
  ProgramBuilder builder = GetParam().make();
  std::vector<const MethodRecord*> records;
  for (const std::string& m : GetParam().methods) records.push_back(&builder.Method(m).record());
  ExpectProgramMatches(builder, records, GetParam().name);
}

TEST_P(BuilderScenarioTest, ReadsBackWithInlineConstants) {
  ProgramBuilder builder = GetParam().make();
  builder.ConstantsInSegment(false);
  std::vector<const MethodRecord*> records;
  for (const std::string& m : GetParam().methods) records.push_back(&builder.Method(m).record());
  ExpectProgramMatches(builder, records, GetParam().name + std::string(" (inline constants)"));
}

TEST_P(BuilderScenarioTest, BuildIsDeterministic) {
  EXPECT_EQ(GetParam().make().Build(), GetParam().make().Build());
}

INSTANTIATE_TEST_SUITE_P(
    Builder, BuilderScenarioTest,
    ::testing::Values(
        Scenario{"MotivatingCnn", MotivatingCnn, {"forward"}},
        Scenario{"EveryValueKind", ProgramWithEveryValueKind, {"forward"}},
        Scenario{"DynamicShapes", ProgramWithDynamicShapes, {"forward"}},
        Scenario{"DelegateInline",
                 [] { return ProgramWithDelegate("XnnpackBackend", false); },
                 {"forward"}},
        Scenario{"DelegateSegment",
                 [] { return ProgramWithDelegate("XnnpackBackend", true); },
                 {"forward"}},
        Scenario{"TwoMethods", ProgramWithTwoMethods, {"forward", "encode"}},
        Scenario{"ControlFlow", ProgramWithControlFlow, {"forward"}},
        Scenario{"ExternalData", ProgramWithExternalData, {"forward"}},
        Scenario{"LstmLike", [] { return LstmLike(2); }, {"forward"}},
        Scenario{"ScaledCnn", [] { return ScaledCnn(2); }, {"forward"}},
        Scenario{"SparseSegment", [] { return ProgramWithSparseSegment(4096); }, {"forward"}}),
    [](const ::testing::TestParamInfo<Scenario>& info) { return std::string(info.param.name); });

// ---- Builder details ---------------------------------------------------------------------

TEST(BuilderTest, HeaderCommentExampleWorks) {  // the usage sketch in program_builder.h
  ProgramBuilder program;
  MethodBuilder& forward = program.Method("forward");
  int x = forward.Tensor({.sizes = {1, 4}, .placement = Placement{.offset = 0}});
  int y = forward.Tensor({.sizes = {1, 4}, .placement = Placement{.offset = 16}});
  forward.Inputs({x});
  forward.Outputs({y});
  forward.KernelCall(forward.Operator("aten::relu", "out"), {x, y, y});
  forward.PlannedBufferSizes({32});
  pte::ProgramView view = Read(program.Build(), "example");
  ASSERT_EQ(view.methods.size(), 1u);
  EXPECT_EQ(view.methods[0].instructions.size(), 1u);
  EXPECT_EQ(view.methods[0].planned_buffer_sizes, (std::vector<int64_t>{0, 32}));
}

TEST(BuilderTest, ProgramWithoutSegmentsHasNoHeader) {
  ProgramBuilder builder;
  MethodBuilder& m = builder.Method("forward");
  int x = m.Tensor({.sizes = {}, .placement = Placement{}});
  m.Inputs({x});
  m.Outputs({x});
  pte::ProgramView view = Read(builder.Build(), "no segments");
  EXPECT_FALSE(view.header.has_value());
  EXPECT_TRUE(view.segments.empty());
  ASSERT_EQ(view.methods.size(), 1u);
  EXPECT_EQ(view.methods[0].tensors[0].rank, 0u);  // empty sizes vector still written
  EXPECT_TRUE(view.methods[0].chains.empty());     // empty chains vector still written
  EXPECT_EQ(view.methods[0].planned_buffer_sizes, std::vector<int64_t>{0});
}

TEST(BuilderTest, HeaderSplicedAfterIdentifier) {
  for (uint32_t length : {24u, 32u}) {
    ProgramBuilder builder = ProgramWithDelegate("XnnpackBackend", true);
    builder.HeaderLength(length).SegmentAlignment(256);
    std::vector<uint8_t> bytes = builder.Build();
    EXPECT_EQ(0, std::memcmp(bytes.data() + 4, "ET12", 4));
    EXPECT_EQ(0, std::memcmp(bytes.data() + 8, "eh00", 4));
    pte::ProgramView view = Read(bytes, "header " + std::to_string(length));
    ASSERT_TRUE(view.header.has_value());
    EXPECT_EQ(view.header->length, length);
    EXPECT_EQ(view.header->segment_base_offset % 256, 0u);
    EXPECT_EQ(view.header->segment_data_size.has_value(), length == 32);
    ExpectLayoutValid(view, builder.options());
  }
}

TEST(BuilderTest, ConstantsShareOneSegmentAcrossMethods) {
  ProgramBuilder builder = ProgramWithTwoMethods();
  pte::ProgramView view = Read(builder.Build(), "two methods");
  ASSERT_TRUE(view.constant_segment.has_value());
  EXPECT_EQ(*view.constant_segment, 0u);
  EXPECT_EQ(view.constant_offsets, 5u);  // reserved + 2 per method
  EXPECT_EQ(view.methods[0].tensors[1].data_index, 1u);
  EXPECT_EQ(view.methods[1].tensors[1].data_index, 3u);
  EXPECT_EQ(view.methods[1].planned_buffer_sizes.size(), 3u);
}

TEST(BuilderTest, OperatorsAreDeduplicated) {
  MethodBuilder m("forward");
  EXPECT_EQ(m.Operator("aten::add", "out"), 0);
  EXPECT_EQ(m.Operator("aten::mul", "out"), 1);
  EXPECT_EQ(m.Operator("aten::add", "out"), 0);
  EXPECT_EQ(m.Operator("aten::add", "Scalar_out"), 2);
}

TEST(BuilderTest, InstructionsReturnTheirIndexInTheChain) {
  ProgramBuilder builder = ProgramWithControlFlow();
  const MethodRecord& r = builder.Method("forward").record();
  ASSERT_EQ(r.chains.size(), 3u);
  EXPECT_EQ(std::get<JumpFalseRecord>(r.chains[0][2]).destination, 0);
  EXPECT_EQ(std::get<JumpFalseRecord>(r.chains[1][0]).destination, 2);
}

TEST(BuilderTest, OmittedCompileSpecsAreAbsent) {
  ProgramBuilder builder;
  MethodBuilder& m = builder.Method("forward");
  int x = m.Tensor({.sizes = {2}, .placement = Placement{}});
  int d = m.Delegate({.backend_id = "B", .blob = {1, 2, 3}, .omit_compile_specs = true});
  m.DelegateCall(d, {x});
  pte::ProgramView view = Read(builder.Build(), "no compile specs");
  ASSERT_EQ(view.methods[0].delegates.size(), 1u);
  EXPECT_FALSE(view.methods[0].delegates[0].has_compile_specs);
}

TEST(BuilderTest, WritesInvalidProgramsWhenAsked) {
  ProgramBuilder builder;
  MethodBuilder& m = builder.Method("forward");
  int x = m.Tensor({.sizes = {2, 2}, .dim_order = std::vector<uint8_t>{0}});
  m.KernelCall(7, {x});  // no operator 7
  EXPECT_FALSE(pte::ReadProgramBytes(builder.Build(), "invalid").has_value());
}

TEST(BuilderTest, ExternalDataKeepsDuplicateKeys) {
  pte::ProgramView view = Read(ProgramWithExternalData().Build(), "external");
  const pte::MethodView& m = view.methods[0];
  EXPECT_EQ(m.external_constants(), 3u);  // two share "linear.weight"; the planned one is not
  int weights = 0;
  for (const pte::TensorView& t : m.tensors) weights += m.FqnOf(t) == "linear.weight";
  EXPECT_EQ(weights, 2);
}

TEST(BuilderTest, ScaledProgramsGrowPerUnit) {
  for (int scale : {1, 3}) {
    pte::ProgramView lstm = Read(LstmLike(scale).Build(), "lstm");
    EXPECT_EQ(lstm.methods[0].instructions.size(), 98u * scale);
    EXPECT_NEAR(static_cast<double>(lstm.methods[0].values.size()) / scale, 296, 15);
    pte::ProgramView cnn = Read(ScaledCnn(scale).Build(), "cnn");
    EXPECT_EQ(cnn.methods[0].instructions.size(), 98u * scale);
    EXPECT_NEAR(static_cast<double>(cnn.methods[0].values.size()) / scale, 296, 15);
  }
}

TEST(BuilderTest, SparseSegmentIsWrittenWithAHole) {
  const uint64_t weight = uint64_t{3} << 30;  // 3 GiB, more than an int32 dimension holds
  fs::path path = fs::path(::testing::TempDir()) / "etmem_sparse_segment.pte";
  ASSERT_TRUE(WriteProgramWithSparseSegment(path.string(), weight).has_value());
  auto view = pte::ReadProgram(path.string());
  ASSERT_TRUE(view.has_value()) << view.error().message;
  EXPECT_EQ(view->constant_segment_bytes, weight);
  EXPECT_EQ(view->file_size, fs::file_size(path));
  EXPECT_EQ(view->file_size, view->header->segment_base_offset + weight);
  fs::remove(path);
}

// ---- MotivatingCnn has the real program's structure --------------------------------------

void ExpectSameTensor(const pte::MethodView& a, const pte::TensorView& x, const pte::MethodView& b,
                      const pte::TensorView& y, const std::string& where) {
  EXPECT_EQ(x.dtype, y.dtype) << where;
  EXPECT_EQ(x.dynamism, y.dynamism) << where;
  EXPECT_EQ(x.planned, y.planned) << where;
  EXPECT_EQ(x.external, y.external) << where;
  EXPECT_EQ(x.rank, y.rank) << where;
  EXPECT_EQ(x.data_index, y.data_index) << where;
  EXPECT_EQ(x.memory_id, y.memory_id) << where;
  EXPECT_EQ(x.offset, y.offset) << where;
  auto xs = a.SizesOf(x), ys = b.SizesOf(y);
  EXPECT_EQ(std::vector<int32_t>(xs.begin(), xs.end()), std::vector<int32_t>(ys.begin(), ys.end()))
      << where;
}

void ExpectSameMethod(const pte::MethodView& a, const pte::MethodView& b) {
  ASSERT_EQ(a.values.size(), b.values.size());
  for (size_t i = 0; i < a.values.size(); ++i) {
    const std::string where = "value " + std::to_string(i);
    ASSERT_EQ(a.values[i].kind, b.values[i].kind) << where;
    EXPECT_EQ(a.values[i].count, b.values[i].count) << where;
    if (a.values[i].kind == pte::ValueKind::kTensor)
      ExpectSameTensor(a, a.tensors[a.values[i].index], b, b.tensors[b.values[i].index], where);
  }
  EXPECT_EQ(testing::AllListItems(a), testing::AllListItems(b));
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.outputs, b.outputs);
  ASSERT_EQ(a.chains.size(), b.chains.size());
  ASSERT_EQ(a.instructions.size(), b.instructions.size());
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    EXPECT_EQ(a.instructions[i].kind, b.instructions[i].kind) << "instruction " << i;
    EXPECT_EQ(a.instructions[i].target, b.instructions[i].target) << "instruction " << i;
    EXPECT_EQ(a.instructions[i].second, b.instructions[i].second) << "instruction " << i;
  }
  EXPECT_EQ(testing::AllArgs(a), testing::AllArgs(b));
  ASSERT_EQ(a.operators.size(), b.operators.size());
  for (size_t i = 0; i < a.operators.size(); ++i) {
    EXPECT_EQ(a.operators[i].name, b.operators[i].name);
    EXPECT_EQ(a.operators[i].overload, b.operators[i].overload);
  }
  EXPECT_EQ(a.delegates.size(), b.delegates.size());
  EXPECT_EQ(a.planned_buffer_sizes, b.planned_buffer_sizes);
}

std::vector<uint64_t> ConstantOffsets(const pte::ProgramView& p) {
  const auto* cs = fb::GetProgram(p.file->bytes().data())->constant_segment();
  if (!cs || !cs->offsets()) return {};
  return {cs->offsets()->begin(), cs->offsets()->end()};
}

TEST(BuilderTest, MotivatingCnnMatchesTheRealProgram) {
  const fs::path real =
      fs::path(ETMEM_SHARED_DIR) / "models/real/cnn_trained_2025-04-04_34b7e8d.pte";
  if (!fs::exists(ETMEM_SHARED_DIR))
    GTEST_SKIP() << "shared reference folder " << ETMEM_SHARED_DIR << " is absent";
  auto original = pte::ReadProgram(real.string());
  ASSERT_TRUE(original.has_value()) << original.error().message;
  pte::ProgramView rebuilt = Read(MotivatingCnn().Build(), "MotivatingCnn");

  ASSERT_EQ(rebuilt.methods.size(), original->methods.size());
  EXPECT_EQ(rebuilt.methods[0].name, original->methods[0].name);
  ExpectSameMethod(rebuilt.methods[0], original->methods[0]);
  ASSERT_TRUE(rebuilt.header && original->header);
  EXPECT_EQ(rebuilt.header->length, original->header->length);
  ASSERT_EQ(rebuilt.segments.size(), original->segments.size());
  for (size_t i = 0; i < rebuilt.segments.size(); ++i) {
    EXPECT_EQ(rebuilt.segments[i].offset, original->segments[i].offset);
    EXPECT_EQ(rebuilt.segments[i].size, original->segments[i].size);
  }
  // Program::load keeps the whole flatbuffer region resident, so its size is part of what
  // must match (it does because MotivatingCnn also writes pytree strings of the same length).
  EXPECT_EQ(rebuilt.flatbuffer_bytes, original->flatbuffer_bytes);
  EXPECT_EQ(rebuilt.file_size, original->file_size);
  EXPECT_EQ(rebuilt.constant_segment, original->constant_segment);
  EXPECT_EQ(rebuilt.constant_segment_bytes, original->constant_segment_bytes);
  EXPECT_EQ(ConstantOffsets(rebuilt), ConstantOffsets(*original));
  EXPECT_EQ(rebuilt.inline_constant_buffers, original->inline_constant_buffers);
  EXPECT_EQ(rebuilt.named_data, original->named_data);
  EXPECT_EQ(rebuilt.mutable_segments, original->mutable_segments);
}

}  // namespace builder_test
}  // namespace etmem::testing
