// Owns: the programs that some release refuses to load (issue 13 item 4), one per refusal
// class, named so the measurements in tests/measured/ can name them.
// Not: the scenarios every release loads (scenarios.cpp), the refusal model (runtime/).
#include "etmem/testing/scenarios.h"

#include "etmem/testing/scenario_helpers.h"

namespace etmem::testing {
namespace {

// A float input, a float output and, between them, a planned tensor of `dtype` that a kernel
// call reads: the dtype is the only thing that differs between the programs.
ProgramBuilder WithPlannedTensorOf(int8_t dtype, uint64_t element_bytes) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {2, 4});
  int odd = m.Tensor({.dtype = dtype, .sizes = {2, 4}, .placement = planner.Take(8 * element_bytes)});
  int y = PlannedTensor(m, planner, {2, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int to = m.Operator("aten::_to_copy", "out");
  m.KernelCall(to, {x, odd, odd});
  m.KernelCall(to, {odd, y, y});
  return program;
}

// A planned tensor with an initial value (mutable state, e.g. a buffer the model updates) whose
// bytes the writer puts among the constants: the program has no mutable data segment
// (`empty_list`: Program.mutable_data_segments is written, empty).
ProgramBuilder MutableStateWithoutSegment(bool empty_list = false) {
  ProgramBuilder program;
  if (empty_list) program.EmptyMutableDataSegmentList();
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int w = ConstantTensor(m, {1, 4});
  int state = m.Tensor({.sizes = {1, 4},
                        .constant = ConstantData{CounterBytes(16)},
                        .placement = planner.Take(16)});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, w, y, y});
  m.KernelCall(add, {y, state, state, state});
  return program;
}

// Mutable state as the exporter writes it from 0.4: a planned [1, 4] float tensor whose initial
// value is entry `data_index` of the program's mutable data segment (`offsets` into `bytes`
// bytes of it; `segment_index` written instead of the segment's own when given; `omit_offsets`:
// the entry has no offsets vector). The runtime copies the value into planned memory when it
// parses the tensor.
ProgramBuilder MutableStateInSegment(uint32_t data_index, std::vector<uint64_t> offsets,
                                     size_t bytes = 32,
                                     std::optional<uint32_t> segment_index = std::nullopt,
                                     bool omit_offsets = false) {
  ProgramBuilder program;
  program.MutableDataSegment({CounterBytes(bytes), std::move(offsets), segment_index, omit_offsets});
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int state = m.Tensor({.sizes = {1, 4}, .placement = planner.Take(16), .data_index = data_index});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  int alpha = m.Int(1);
  m.KernelCall(add, {x, state, alpha, y, y});
  return program;
}

// x -> add(x, w) -> add(., c) -> y, with a float [1, 4] input and output, where w is an
// ordinary constant and c the tensor under test: `c` describes it, `setup` sets program options.
ProgramBuilder AddsTensor(TensorSpec c, void (*setup)(ProgramBuilder&) = nullptr) {
  ProgramBuilder program;
  if (setup) setup(program);
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int w = ConstantTensor(m, {1, 4});
  if (c.placement) c.placement = planner.Take(16);  // a planned `c` gets its room here
  int t = m.Tensor(std::move(c));
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, w, y, y});
  m.KernelCall(add, {y, t, y, y});
  return program;
}

// A constant [1, 4] float tensor (16 bytes) whose data index is `index`, or (0) whose own
// `bytes` bytes are stored as its constant.
TensorSpec ConstantSpec(uint32_t index, uint64_t bytes = 16) {
  TensorSpec s{.sizes = {1, 4}};
  if (index > 0) s.data_index = index;
  else s.constant = ConstantData{CounterBytes(bytes)};
  return s;
}

void Inline(ProgramBuilder& p) { p.ConstantsInSegment(false); }

// A float [1, 4] tensor whose data lives in a .ptd under key "c"; planned: a training-style
// tensor (its initial value loaded into planned memory), else an external constant.
TensorSpec ExternalSpec(bool planned, bool keyed = true) {
  TensorSpec s{.sizes = {1, 4}, .external_fqn = keyed ? "c" : ""};
  s.external_without_key = !keyed;
  if (planned) s.placement = Placement{};
  return s;
}

// A keyed external constant "c" (value 1), then one without a key (value 2): with a data map,
// parse_external_constants looks "c" up first, then refuses the keyless one at index 2; 0.6
// without a map dereferences the null map at "c" (a crash).
ProgramBuilder KeyedThenKeylessExternal() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int c = m.Tensor(ExternalSpec(false, true));
  int k = m.Tensor(ExternalSpec(false, false));
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, c, y, y});
  m.KernelCall(add, {y, k, y, y});
  return program;
}

// Only `c` refers to constant data (index 1), and the program has no constant storage at all:
// no constant segment and no Program.constant_buffer vector.
ProgramBuilder ConstantWithoutConstantStorage() {
  ProgramBuilder program;
  program.OmitInlineConstantVector();
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int c = m.Tensor({.sizes = {1, 4}, .data_index = 1});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  m.KernelCall(m.Operator("aten::add", "out"), {x, c, y, y});
  return program;
}

ProgramBuilder MethodWithoutDelegatesVector() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y});
  m.OmitDelegatesVector();
  return program;
}

// Issue 26: the planned-memory lookup (AddReluPair, scenario_helpers.h).
ProgramBuilder ReluPair(Placement where, int64_t buffer = 48, int32_t storage_offset = 0) {
  ProgramBuilder program;
  AddReluPair(program.Method("forward"), where, buffer, storage_offset);
  return program;
}

// As ReluPair, with the middle tensor (planned at offset 16 of the 48-byte buffer) of `sizes`:
// sizes whose element count or bytes overflow the target's ssize_t / size_t (issue 26).
ProgramBuilder ReluPairThrough(std::vector<int32_t> sizes) {
  ProgramBuilder program;
  AddReluPair(program.Method("forward"), Placement{1, 16}, 48, 0, std::move(sizes));
  return program;
}

// x -> a delegate -> y, where the delegate is written without its backend id.
ProgramBuilder DelegateWithoutId() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
  int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 16}});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({32});
  int d = m.Delegate({.blob = CounterBytes(16), .omit_backend_id = true});
  m.DelegateCall(d, {x, y});
  return program;
}

// Two methods, only the second refused: "forward" loads, "broken" plans a tensor past its
// buffer's end.
ProgramBuilder TwoMethodsOneRefused() {
  ProgramBuilder program;
  AddReluPair(program.Method("forward"), Placement{1, 16});
  AddReluPair(program.Method("broken"), Placement{1, 40});
  return program;
}

// Several faults in one file. Method "first": value 1 ends past its buffer, value 2 has a storage
// offset, and the method has no delegates vector: the runtime meets value 1's first (values are
// parsed before the delegates). Method "second": a storage offset on value 1 and a tensor past
// its buffer at value 2: the storage offset first.
ProgramBuilder SeveralFaults() {
  ProgramBuilder program;
  {
    MethodBuilder& m = program.Method("first");
    int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
    int h = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 40}});
    int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 32}, .storage_offset = 2});
    m.Inputs({x});
    m.Outputs({y});
    m.PlannedBufferSizes({48});
    int relu = m.Operator("aten::relu", "out");
    m.KernelCall(relu, {x, h});
    m.KernelCall(relu, {h, y});
    m.OmitDelegatesVector();
  }
  {
    MethodBuilder& m = program.Method("second");
    int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}, .storage_offset = 1});
    int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 40}});
    m.Inputs({x});
    m.Outputs({y});
    m.PlannedBufferSizes({48});
    m.KernelCall(m.Operator("aten::relu", "out"), {x, y});
  }
  return program;
}

constexpr NamedScenario kRefusals[] = {
    // ScalarType 27 (UInt16): added to the enum in 0.5.
    {"scalar_uint16", [] { return WithPlannedTensorOf(27, 2); }},
    // ScalarType 15 (BFloat16): refused by 0.2's tensor parser only.
    {"scalar_bfloat16", [] { return WithPlannedTensorOf(15, 2); }},
    // ScalarType 9 (ComplexFloat): refused by the tensor parser of 0.2 to 0.5.
    {"scalar_complex_float", [] { return WithPlannedTensorOf(9, 8); }},
    // Mutable state (planned, with an initial value) and no mutable data segment: from 0.4 the
    // runtime copies the value from that segment at load and finds none (NotFound).
    {"mutable_state_without_segment", [] { return MutableStateWithoutSegment(); }},
    // Constants the release cannot resolve. A data index no entry of the constant segment has
    // (the segment has the reserved entry and w's): InvalidArgument from 0.2.
    {"constant_index_beyond_segment", [] { return AddsTensor(ConstantSpec(2)); }},
    // The same in a program whose constants are inline (Program.constant_buffer).
    {"constant_index_beyond_inline", [] { return AddsTensor(ConstantSpec(2), Inline); }},
    // The last constant of the segment has 8 bytes, its tensor needs 16: past the segment's end.
    {"constant_past_segment_end", [] { return AddsTensor(ConstantSpec(0, 8)); }},
    // Inline constants of 8 and of 32 bytes for a 16-byte tensor: 1.2 reversed the check.
    {"inline_constant_smaller_than_tensor", [] { return AddsTensor(ConstantSpec(0, 8), Inline); }},
    {"inline_constant_larger_than_tensor", [] { return AddsTensor(ConstantSpec(0, 32), Inline); }},
    // A data index in a program with no constant storage at all (no Program.constant_buffer
    // vector): 0.1 to 0.5 read the absent vector (a crash).
    {"constant_without_constant_storage", ConstantWithoutConstantStorage},
    // Tensors that take their data from outside the program, loaded without a .ptd: an external
    // constant (EXTERNAL, no placement) and a training-style planned tensor (EXTERNAL, planned:
    // its initial value is loaded from the data map into planned memory).
    {"external_constant_without_map", [] { return AddsTensor(ExternalSpec(false)); }},
    {"external_planned_without_map", [] { return AddsTensor(ExternalSpec(true)); }},
    // An external constant whose key the program's own Program.named_data holds: tensors read
    // only the .ptd map passed to load_method, never the program's named data.
    {"external_constant_in_named_data",
     [] { return AddsTensor(ExternalSpec(false), [](ProgramBuilder& p) {
            p.NamedData("c", CounterBytes(16));
          }); }},
    // The program's own named data ("n") beside an external constant / a planned external
    // tensor "c" that only the .ptd holds: 1.0+ merge the two maps (MergedDataMap) for the
    // backends, while the tensors still look "c" up in the .ptd alone; 0.7 refuses the pair.
    {"merged_external_constant",
     [] { return AddsTensor(ExternalSpec(false), [](ProgramBuilder& p) {
            p.NamedData("n", CounterBytes(16));
          }); }},
    // An empty Program.named_data vector: the runtime's PteDataMap exists all the same, so 0.7
    // refuses the pair and 1.0+ merge (the merged map's instance is allocated).
    {"merged_empty_named_data",
     [] { return AddsTensor(ExternalSpec(false), [](ProgramBuilder& p) { p.EmptyNamedData(); }); }},
    {"merged_external_planned",
     [] { return AddsTensor(ExternalSpec(true), [](ProgramBuilder& p) {
            p.NamedData("n", CounterBytes(16));
          }); }},
    // An absent optional vector the runtime reads: a method without a delegates vector (no
    // delegate, and not even an empty list): InvalidProgram from 0.2, an ET_CHECK abort at 0.1.
    {"method_without_delegates_vector", MethodWithoutDelegatesVector},
    // Issue 26: the planned-memory lookup (HierarchicalAllocator::get_offset_address). A planned
    // tensor whose bytes end 8 bytes past its buffer (40 + 16 > 48): MemoryAllocationFailed.
    {"planned_past_buffer", [] { return ReluPair(Placement{1, 40}); }},
    // The same tensor in buffer 2 of a method that plans one: InvalidArgument "id 1 >= 1".
    {"planned_in_missing_buffer", [] { return ReluPair(Placement{2, 16}); }},
    // Memory id 0 (the reserved entry): the runtime's id wraps to 4294967295.
    {"planned_memory_id_zero", [] { return ReluPair(Placement{0, 16}); }},
    // An offset whose sum with the size wraps 64 bits: refused from 1.1 (InvalidArgument),
    // before that the end wraps to 8 bytes and the tensor loads; 0.1 reads the low word only.
    {"planned_offset_overflow", [] { return ReluPair(Placement{1, ~uint64_t{0} - 7}); }},
    // A tensor with a non-zero storage offset: NotSupported at every release.
    {"storage_offset_nonzero", [] { return ReluPair(Placement{1, 16}, 48, 4); }},
    // A dim order that repeats an entry ([0, 0] for a rank-2 tensor): refused from 1.2
    // (dim_order_to_stride checks for a permutation; Internal), loaded before.
    {"dim_order_repeated", [] {
       ProgramBuilder program;
       MethodBuilder& m = program.Method("forward");
       int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
       int h = m.Tensor({.sizes = {1, 4}, .dim_order = std::vector<uint8_t>{0, 0},
                         .placement = Placement{1, 16}});
       int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 32}});
       m.Inputs({x});
       m.Outputs({y});
       m.PlannedBufferSizes({48});
       int relu = m.Operator("aten::relu", "out");
       m.KernelCall(relu, {x, h});
       m.KernelCall(relu, {h, y});
       return program;
     }},
    // A String value without its string (after the three tensors): InvalidProgram from 0.2, a
    // null dereference at 0.1.
    {"string_absent", [] {
       ProgramBuilder program;
       MethodBuilder& m = program.Method("forward");
       AddReluPair(m, Placement{1, 16});
       m.AbsentString();
       return program;
     }},
    // An operator whose "name.overload" has 100 characters (the runtime's buffer holds 99):
    // Internal from 0.2, an abort at 0.1.
    {"operator_name_too_long", [] {
       ProgramBuilder program;
       MethodBuilder& m = program.Method("forward");
       int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
       int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 16}});
       m.Inputs({x});
       m.Outputs({y});
       m.PlannedBufferSizes({32});
       // 8 + 88 + 4 = 100 characters with ".out".
       m.KernelCall(m.Operator("custom::" + std::string(88, 'r'), "out"), {x, y});
       return program;
     }},
    // An operator without a name string (only its overload): InvalidProgram "Missing operator
    // name" from 0.2, when the kernel call is parsed.
    {"operator_without_name", [] {
       ProgramBuilder program;
       MethodBuilder& m = program.Method("forward");
       int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
       int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 16}});
       m.Inputs({x});
       m.Outputs({y});
       m.PlannedBufferSizes({32});
       m.KernelCall(m.NamelessOperator("out"), {x, y});
       return program;
     }},
    // A constant in the constant segment and an (empty) entry in Program.constant_buffer too:
    // Program::load refuses the file from 0.2 ("Only one should be used"), InvalidProgram.
    {"constants_in_both_storages", [] {
       ProgramBuilder program;
       program.AlsoInlineConstantBuffers(1);
       MethodBuilder& m = program.Method("forward");
       BumpPlanner planner;
       int x = PlannedTensor(m, planner, {1, 4});
       int w = ConstantTensor(m, {1, 4});
       int y = PlannedTensor(m, planner, {1, 4});
       int alpha = m.Int(1);
       m.Inputs({x});
       m.Outputs({y});
       m.PlannedBufferSizes({planner.high_water()});
       m.KernelCall(m.Operator("aten::add", "out"), {x, w, alpha, y, y});
       return program;
     }},
    // Mutable state with its initial value in a mutable data segment (32 bytes, offsets [0, 16]):
    // entry 1 loads from 0.4; 0.2/0.3 look the index up among the constants.
    {"mutable_state_in_segment", [] { return MutableStateInSegment(1, {0, 16}); }},
    // Entry 2 of a segment with two offsets: NotFound "offset index 2 out of range >= 2" (0.4+).
    {"mutable_state_index_beyond_offsets", [] { return MutableStateInSegment(2, {0, 16}); }},
    // Entry 1 at offset 24 of 32 bytes: its 16 bytes run past the segment's end (InvalidArgument).
    {"mutable_state_past_segment_end", [] { return MutableStateInSegment(1, {0, 24}); }},
    // The mutable data segment entry names segment 7 of a program with one: NotFound.
    {"mutable_segment_missing", [] { return MutableStateInSegment(1, {0, 16}, 32, 7); }},
    // Issue 26, the paths modelled from the source before a program tripped them. Mutable
    // state in a program whose Program.mutable_data_segments is an empty list: NotFound
    // "mutable_data_segments_index 0 out of range >= 0" (0.4+).
    {"mutable_segment_list_empty", [] { return MutableStateWithoutSegment(true); }},
    // A mutable data segment entry without an offsets vector: NotFound "No offsets in mutable
    // data segment"; with an empty one: NotFound "offset index 1 out of range >= 0" (0.4+).
    {"mutable_segment_without_offsets",
     [] { return MutableStateInSegment(1, {0, 16}, 32, std::nullopt, true); }},
    {"mutable_segment_offsets_empty", [] { return MutableStateInSegment(1, {}); }},
    // Entry 1 at offset 2^64 - 8: offset + 16 wraps. 1.3+ InvalidProgram "offset O + size 16
    // overflows"; 0.4-1.2 the sum wraps to 8, within the segment, and the value loads.
    {"mutable_state_offset_wraps", [] { return MutableStateInSegment(1, {0, ~uint64_t{0} - 7}); }},
    // A constant whose constant_segment offset is 2^64 - 8: before 1.3 offset + 16 wraps and the
    // check passes (the tensor loads); 1.3+ checks offset <= size first (InvalidArgument).
    {"constant_offset_wraps", [] {
       ProgramBuilder program = AddsTensor(ConstantSpec(0, 16));
       program.ConstantOffset(2, ~uint64_t{0} - 7);
       return program;
     }},
    // A constant whose offset (4096) lies beyond the constant segment's end: InvalidArgument
    // (0.2+), the log naming the offset as written.
    {"constant_offset_beyond_segment", [] {
       ProgramBuilder program = AddsTensor(ConstantSpec(0, 16));
       program.ConstantOffset(2, 4096);
       return program;
     }},
    // A planned EXTERNAL tensor without a key (no fully_qualified_name): InvalidExternalData
    // "Fully qualified name of external tensor is null" (0.6+); before, an ordinary planned tensor.
    {"external_planned_without_key", [] { return AddsTensor(ExternalSpec(true, false)); }},
    // An EXTERNAL constant (not planned) without a key: with a data map passed to load_method,
    // parse_external_constants refuses it before any lookup (InvalidExternalData "Fully
    // qualified name of external tensor is null at index 2", 0.6+); without one, 0.7+ refuse
    // the missing map first (InvalidState) and 0.6 refuses it too (the key check comes before
    // the null map is dereferenced). Its .ptd (RefusalPtds) holds "c" only to be loadable.
    {"external_constant_without_key", [] { return AddsTensor(ExternalSpec(false, false)); }},
    // A keyed external constant before the keyless one: with the data map "c" is looked up
    // (found in its .ptd) and the keyless constant refused after it, at index 2; 0.6 without a
    // map crashes at "c"'s lookup; 0.7+ refuse the missing map (InvalidState).
    {"external_constant_keyed_then_without_key", KeyedThenKeylessExternal},
    // A planned offset with a high word (2^32 + 16): on a 64-bit host past the 48-byte buffer
    // (MemoryAllocationFailed, 0.2+; 0.1 reads the low word, 16, and loads); on a 32-bit target
    // NotSupported "size_t cannot hold memory offset ..." (0.2+).
    {"planned_offset_high_word", [] { return ReluPair(Placement{1, (uint64_t{1} << 32) + 16}); }},
    // A float tensor of 65536^4 elements: the count wraps to 0 in a 64-bit (and a 32-bit)
    // ssize_t, so its bytes are 0 and it loads, except at 1.1, whose TensorImpl aborts
    // ("numel overflowed").
    {"numel_wraps_to_zero", [] { return ReluPairThrough({65536, 65536, 65536, 65536}); }},
    // 2^62 floats: the count fits a 64-bit ssize_t and its 2^64 bytes wrap to 0 (1.1 aborts:
    // "nbytes overflowed"); where ssize_t has 32 bits the count itself wraps to 0.
    {"nbytes_wraps_to_zero", [] { return ReluPairThrough({65536, 65536, 65536, 16384}); }},
    // 65536^3 x 65537 floats: in 64 bits the count wraps to 2^48, whose 2^50 bytes end past the
    // 48-byte buffer (MemoryAllocationFailed; 1.1 aborts first); in 32 bits it wraps to 0 and
    // the tensor loads.
    {"numel_wraps_past_buffer", [] { return ReluPairThrough({65536, 65536, 65536, 65537}); }},
    // 65537^2 floats (2^32 + 2^17 + 1): their 17180393476 bytes end past the buffer where size_t
    // has 64 bits; where it has 32 the count wraps to 131073 and its 524292 bytes do (both
    // MemoryAllocationFailed, with different sizes in the line; a 32-bit 1.1 aborts first).
    {"numel_wraps_in_32_bits", [] { return ReluPairThrough({65537, 65537}); }},
    // An empty Program.named_data vector and no Program.segments vector: Program::load refuses
    // the file from 0.6 (InvalidArgument, PteDataMap::create); earlier releases do not read
    // named_data and load it.
    {"named_data_without_segments", [] {
       ProgramBuilder program = ReluPair(Placement{1, 16});
       program.EmptyNamedDataWithoutSegments();
       return program;
     }},
    // Inline constants (an entry of 32 bytes for a 16-byte tensor) beside the exporter's
    // placeholder constant_segment {0, [0]}, in a program that has a segment (an unused mutable
    // data segment): 0.4+ do not load a constant segment of one offset and read the constant
    // inline, where 0.4-1.1 refuse an entry larger than the tensor and 1.2+ load it; 0.2/0.3
    // load the segment and refuse the file (constants in both storages).
    {"inline_constant_beside_placeholder_segment", [] {
       ProgramBuilder program = AddsTensor(ConstantSpec(0, 32), Inline);
       program.PlaceholderConstantOffset();
       program.MutableDataSegment({CounterBytes(16), {0}});
       return program;
     }},
    // A delegate without a backend id: InvalidProgram "Missing backend id" (0.2+), a null
    // dereference at 0.1.
    {"delegate_without_id", DelegateWithoutId},
    // Several methods, only one refused; several faults in one file.
    {"two_methods_one_refused", TwoMethodsOneRefused},
    {"several_faults", SeveralFaults},
};

}  // namespace

std::span<const NamedScenario> RefusalScenarios() { return kRefusals; }

}  // namespace etmem::testing
