// Owns: ReadProgram. Header first, then the flatbuffers verifier over the program region, then
// a walk that records the metadata in the flat ProgramView, range-checking the indexes it follows
// itself (value indexes that only the runtime follows are the release model's: runtime/).
#include "etmem/pte/read_program.h"

#include <bitset>
#include <algorithm>
#include <cstring>
#include <string_view>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/fb/program_generated.h"
#include "etmem/pte/mapped_file.h"

namespace etmem::pte {
namespace {

constexpr size_t kHeaderOffset = 8;
constexpr uint32_t kMinHeaderLength = 24;
// Entries the ProgramView holds or points at (values, tensors, sizes, list items, arguments,
// ...) per byte of flatbuffer. An unshared file spends at least 4 bytes on each; flatbuffers
// lets tables and vectors be shared, which would let a small file name one big vector millions
// of times (memory and time out of proportion to its size). No writer shares them.
constexpr uint64_t kMaxEntriesPerByte = 1;

uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian host assumed (checked in CMake)
}
uint64_t LoadU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

template <typename V>
uint64_t SizeOf(const V* vector) {
  return vector ? vector->size() : 0;
}

// Item i of a vector of 8-byte scalars. The verifier checks a vector's alignment only for its
// 4-byte length, so the items may sit 4 bytes off their natural alignment: copy, never load.
template <typename T>
T UnalignedAt(const flatbuffers::Vector<T>* vector, size_t i) {
  T value;
  std::memcpy(&value, vector->Data() + i * sizeof(T), sizeof(T));
  return value;
}


// Where a problem lies, e.g. "method 'forward', chain 0, instruction 3". A chain of small
// records on the stack, turned into text only when there is a problem to report: the walk
// visits every value and instruction, and almost never fails.
struct Where {
  const Where* parent = nullptr;
  const char* what = "";
  int64_t index = -1;     // -1: none
  std::string_view name;  // quoted instead of the index when `named`
  bool named = false;

  std::string Text() const {
    std::string text = parent ? parent->Text() + ", " + what : what;
    if (named) return text + " '" + Printable(name) + "'";
    return index >= 0 ? text + " " + std::to_string(index) : text;
  }
};

// Where the values are read to: the method's own arrays.
struct ValuesOut {
  ValueView* values;  // by value index; the method's array, sized before the walk
  std::vector<TensorView>& tensors;
  std::vector<std::string_view>& fqns;
  std::vector<std::pair<uint32_t, int32_t>>& storage_offsets;
  std::vector<uint32_t>& repeated_dim_orders;
  std::vector<uint32_t>& dim_orders_past_rank;
  std::span<const int32_t> words;  // MethodView::words
};

// Collects the first problem found while walking a method; the walk stops at it.
class Walker {
 public:
  Walker(const std::string& file, const ReadLimits& limits, uint64_t flatbuffer_bytes)
      : file_(file),
        limits_(limits),
        flatbuffer_bytes_(flatbuffer_bytes),
        budget_(flatbuffer_bytes * kMaxEntriesPerByte) {}

  Status ReadMethod(const fb::Method& m, size_t method_index, MethodView& out);
  [[gnu::noinline]] Error Fail(const Where& where, const std::string& what) const {
    return MakeError(ErrorCode::kInvalidProgram, file_ + ": " + where.Text() + ": " + what);
  }
  // Every entry the ProgramView holds or points at is charged here first (see kMaxEntriesPerByte):
  // false when the file cannot hold that many, and the caller returns OverBudget.
  bool Afford(uint64_t entries);
  [[gnu::noinline]] Error OverBudget(const Where& where) const;
  // A walk stopped by OverBudget: the file's tables are shared, a fault of the file, not of the
  // method being read.
  bool over_budget() const { return over_budget_; }

 private:
  Status ReadValues(const fb::Method& m, const Where& where, MethodView& out);
  Status ReadValueRun(const fb::Method& m, uint32_t begin, uint32_t end, const Where& where,
                      ValuesOut& out);
  Status ReadValue(const fb::Value* v, const Where& where, ValueView& vv, ValuesOut& out);
  Status ReadTensor(const fb::Tensor& t, const Where& where, ValuesOut& out);
  Status ReadList(const flatbuffers::Vector<int64_t>* items, const Where& where, ValueView& v,
                  ValuesOut& out);
  // A list the runtime needs only the length of (doubles, bools).
  template <typename Items>
  Status CountItems(const Items* items, const char* what, const Where& where,
                    ValueView& v) const {
    if (!items) return Fail(where, std::string(what) + " has no items vector");
    v.count = items->size();
    return Ok{};
  }
  Status ReadChains(const fb::Method& m, const Where& where, MethodView& out);
  Status ReadInstruction(const fb::Instruction& ins, const Where& where, MethodView& out);
  Status CheckPayload(const fb::Value& v, const Where& where) const;
  Status CheckStep(const fb::Instruction& ins, const Where& where) const;

  const std::string& file_;
  const ReadLimits& limits_;
  uint64_t flatbuffer_bytes_;
  uint64_t budget_;
  mutable bool over_budget_ = false;
};

// The checks below run for every value and argument: the passing path is kept small enough to
// inline, the message is built out of line.
inline bool Walker::Afford(uint64_t entries) {
  if (entries > budget_) [[unlikely]]
    return false;
  budget_ -= entries;
  return true;
}

Error Walker::OverBudget(const Where& where) const {
  over_budget_ = true;
  return Fail(where, "names more entries than a file of its size can hold (tables or vectors "
                     "are shared, which no writer does)");
}

Where MethodWhere(const fb::Method& m, size_t index) {
  Where w{nullptr, "method", static_cast<int64_t>(index)};
  if (m.name()) w.name = m.name()->string_view();
  w.named = m.name() != nullptr;
  return w;
}

// A typed value must carry its table: the runtime dereferences it unchecked. Null is the
// exception (nothing reads its empty table); unknown types are reported by the caller.
Status Walker::CheckPayload(const fb::Value& v, const Where& where) const {
  const fb::Payload type = v.payload_type();
  if (type == fb::Payload::NONE || type == fb::Payload::Null || type > fb::Payload::MAX ||
      v.payload())
    return Ok{};
  return Fail(where, std::string("value of type ") + fb::EnumNamePayload(type) +
                         " has no payload table");
}

Status Walker::CheckStep(const fb::Instruction& ins, const Where& where) const {
  const fb::Step type = ins.step_type();
  if (type == fb::Step::NONE || type > fb::Step::MAX || ins.step()) return Ok{};
  return Fail(where, std::string("instruction of type ") + fb::EnumNameStep(type) +
                         " has no step table");
}

// The instructions a method's chains hold, as the chains say.
uint64_t InstructionCount(const fb::Method& m) {
  uint64_t instructions = 0;
  if (m.chains())
    for (const fb::Chain* c : *m.chains())
      if (c && c->instructions()) instructions += c->instructions()->size();
  return instructions;
}

// Where an int32 vector of the verified flatbuffer starts in MethodView::words.
uint32_t WordIndex(const int32_t* data, std::span<const int32_t> words) {
  return static_cast<uint32_t>(data - words.data());
}

Status Walker::ReadTensor(const fb::Tensor& t, const Where& where, ValuesOut& out) {
  // Filled in place: a record built on the stack and copied costs a store-forwarding stall.
  TensorView& tv = out.tensors.emplace_back();
  tv.dtype = static_cast<int8_t>(t.dtype());
  auto dyn = static_cast<uint8_t>(t.dynamism());
  if (dyn > 2) return Fail(where, "unknown shape dynamism " + std::to_string(dyn));
  tv.dynamism = static_cast<Dynamism>(dyn);
  const flatbuffers::Vector<int32_t>* sizes = t.sizes();
  const flatbuffers::Vector<uint8_t>* dim_order = t.dim_order();
  if (!sizes) return Fail(where, "tensor has no sizes");
  if (!dim_order) return Fail(where, "tensor has no dim_order");
  tv.rank = sizes->size();
  if (tv.rank > limits_.max_rank)
    return Fail(where, "tensor rank " + std::to_string(tv.rank) + " is absurd");
  if (dim_order->size() != tv.rank)
    return Fail(where, "tensor dim_order has " + std::to_string(dim_order->size()) +
                           " entries but sizes has " + std::to_string(tv.rank));
  if (!Afford(1 + tv.rank)) return OverBudget(where);
  tv.sizes_begin = WordIndex(sizes->data(), out.words);
  for (int32_t s : *sizes)
    if (s < 0) return Fail(where, "tensor size " + std::to_string(s) + " is negative");
  std::bitset<256> seen;  // entries are bytes
  bool repeated = false, past_rank = false;
  for (uint8_t d : *dim_order) {
    past_rank |= d >= tv.rank;
    repeated |= seen[d];
    seen[d] = true;
  }
  // Not the reader's to refuse: every release (an entry past the rank) or some (a repeated
  // entry) refuse the tensor where they parse it (runtime/load_plan.cpp).
  const auto tensor = static_cast<uint32_t>(out.tensors.size() - 1);
  if (past_rank) out.dim_orders_past_rank.push_back(tensor);
  if (repeated) out.repeated_dim_orders.push_back(tensor);
  tv.data_index = t.data_index();
  // Not the reader's to refuse: the runtime's tensor parser does (runtime/load_plan.cpp).
  if (t.storage_offset() != 0)
    out.storage_offsets.emplace_back(static_cast<uint32_t>(out.tensors.size() - 1),
                                     t.storage_offset());
  if (const fb::PlannedPlacement* p = t.placement()) {
    tv.planned = true;
    tv.memory_id = p->memory_id();
    tv.offset = uint64_t{p->offset_low()} | (uint64_t{p->offset_high()} << 32);
  }
  if (const fb::TensorExtras* x = t.extras()) {
    tv.external = x->location() == fb::DataLocation::EXTERNAL;
    if (x->fqn()) {
      out.fqns.emplace_back(x->fqn()->c_str(), x->fqn()->size());
      tv.fqn_index = static_cast<uint32_t>(out.fqns.size());
    }
  }
  return Ok{};
}

Status Walker::ReadList(const flatbuffers::Vector<int64_t>* items, const Where& where,
                        ValueView& v, ValuesOut& out) {
  if (!items) return Fail(where, "list has no items vector");
  if (!Afford(items->size())) return OverBudget(where);
  v.index = WordIndex(reinterpret_cast<const int32_t*>(items->Data()), out.words);
  v.count = items->size();
  // The items are not the reader's to judge: each release checks them (or not) where it parses
  // the list (runtime/load_plan.cpp); every consumer bounds-checks an item before using it.
  return Ok{};
}

Status Walker::ReadValues(const fb::Method& m, const Where& method_where, MethodView& out) {
  if (!m.values()) return Fail(method_where, "has no values vector");
  const uint32_t n = m.values()->size();
  if (!Afford(n)) return OverBudget(method_where);
  out.values.resize(n);
  // At most one tensor per value. Reserving the bound (pages never written are never touched)
  // saves the copies and page faults of growing the largest vector of a big program; capped so
  // that a file of shared Int tables cannot make it reserve gigabytes it will not fill.
  out.tensors.reserve(std::min<size_t>(n, size_t{1} << 22));
  ValuesOut all{out.values.data(), out.tensors, out.fqns, out.storage_offsets,
                    out.repeated_dim_orders, out.dim_orders_past_rank, out.words};
  return ReadValueRun(m, 0, n, method_where, all);
}

Status Walker::ReadValueRun(const fb::Method& m, uint32_t begin, uint32_t end,
                            const Where& method_where, ValuesOut& out) {
  for (uint32_t i = begin; i < end; ++i) {
    const Where where{&method_where, "value", static_cast<int64_t>(i)};
    if (auto s = ReadValue(m.values()->Get(i), where, out.values[i], out); !s) return s;
  }
  return Ok{};
}

Status Walker::ReadValue(const fb::Value* v, const Where& where, ValueView& vv, ValuesOut& out) {
  if (!v) return Fail(where, "null value entry");
  if (auto s = CheckPayload(*v, where); !s) return s;
  switch (v->payload_type()) {
    case fb::Payload::NONE: vv.kind = ValueKind::kNone; break;
    case fb::Payload::Null: vv.kind = ValueKind::kNull; break;
    case fb::Payload::Int: {  // the value itself, split over index (low) and count (high)
      vv.kind = ValueKind::kInt;
      const auto bits = static_cast<uint64_t>(v->payload_as_Int()->value());
      vv.index = static_cast<uint32_t>(bits);
      vv.count = static_cast<uint32_t>(bits >> 32);
      break;
    }
    case fb::Payload::Bool:  // the value in index (0 or 1)
      vv.kind = ValueKind::kBool;
      vv.index = v->payload_as_Bool()->value() ? 1 : 0;
      break;
    case fb::Payload::Double: vv.kind = ValueKind::kDouble; break;
    case fb::Payload::Tensor: {
      vv.kind = ValueKind::kTensor;
      vv.index = static_cast<uint32_t>(out.tensors.size());
      auto s = ReadTensor(*v->payload_as_Tensor(), where, out);
      if (!s) return s;
      break;
    }
    case fb::Payload::String: {
      vv.kind = ValueKind::kString;
      const auto* s = v->payload_as_String()->value();
      vv.count = s ? s->size() : 0;
      vv.index = s ? 0 : 1;  // absent: not the reader's to refuse (runtime/load_plan.cpp)
      break;
    }
    case fb::Payload::IntList: {
      vv.kind = ValueKind::kIntList;
      auto s = ReadList(v->payload_as_IntList()->items(), where, vv, out);
      if (!s) return s;
      break;
    }
    case fb::Payload::DoubleList:
      vv.kind = ValueKind::kDoubleList;
      return CountItems(v->payload_as_DoubleList()->items(), "double list", where, vv);
    case fb::Payload::BoolList:
      vv.kind = ValueKind::kBoolList;
      return CountItems(v->payload_as_BoolList()->items(), "bool list", where, vv);
    case fb::Payload::TensorList:
    case fb::Payload::OptionalTensorList: {
      bool optional = v->payload_type() == fb::Payload::OptionalTensorList;
      vv.kind = optional ? ValueKind::kOptionalTensorList : ValueKind::kTensorList;
      const flatbuffers::Vector<int32_t>* items =
          optional ? v->payload_as_OptionalTensorList()->items() : v->payload_as_TensorList()->items();
      if (!items) return Fail(where, "tensor list has no items vector");
      if (!Afford(items->size())) return OverBudget(where);
      vv.index = WordIndex(items->data(), out.words);
      vv.count = items->size();  // items judged by the release model, as an IntList's
      break;
    }
    default:
      return Fail(where, "unknown value type " +
                             std::to_string(static_cast<int>(v->payload_type())));
  }
  return Ok{};
}

Status Walker::ReadInstruction(const fb::Instruction& ins, const Where& where,
                               MethodView& out) {
  if (auto s = CheckStep(ins, where); !s) return s;
  InstructionView& iv = out.instructions.emplace_back();  // in place (see ReadTensor)
  const flatbuffers::Vector<int32_t>* args = nullptr;
  switch (ins.step_type()) {
    case fb::Step::KernelCall: {
      const auto* k = ins.step_as_KernelCall();
      iv.kind = InstructionKind::kKernelCall;
      iv.target = k->op_index();  // checked by the release model (runtime/load_plan.cpp)
      args = k->args();
      break;
    }
    case fb::Step::DelegateCall: {
      const auto* d = ins.step_as_DelegateCall();
      iv.kind = InstructionKind::kDelegateCall;
      // Not checked: no release's Method::init does (consumers use MethodView::DelegateOf).
      iv.target = d->delegate_index();
      args = d->args();
      break;
    }
    case fb::Step::MoveCall: {
      const auto* mv = ins.step_as_MoveCall();
      iv.kind = InstructionKind::kMove;
      iv.target = mv->from();  // indexes checked by the release model (some releases do)
      iv.second = mv->to();
      break;
    }
    case fb::Step::JumpFalseCall: {
      const auto* j = ins.step_as_JumpFalseCall();
      iv.kind = InstructionKind::kJumpFalse;
      iv.target = j->condition();  // checked by the release model (0.2+ do)
      iv.second = j->destination();
      break;
    }
    case fb::Step::FreeCall: {
      iv.kind = InstructionKind::kFree;
      iv.target = ins.step_as_FreeCall()->value();  // checked by the release model (1.3+ do)
      break;
    }
    default:
      return Fail(where, "unknown instruction type " +
                             std::to_string(static_cast<int>(ins.step_type())));
  }
  if (iv.kind == InstructionKind::kKernelCall || iv.kind == InstructionKind::kDelegateCall) {
    if (!args) return Fail(where, "call has no args vector");
    if (!Afford(args->size())) return OverBudget(where);
    iv.args_begin = WordIndex(args->data(), out.words);
    iv.args_count = args->size();
    // An argument past the values is the release model's to judge (runtime/load_plan.cpp): 0.2+
    // refuse it in gen_instruction_arguments, 0.1 reads past the values.
    const uint64_t n = out.values.size();
    for (int32_t a : *args) out.value_references_in_range &= static_cast<uint32_t>(a) < n;
  }
  return Ok{};
}

Status Walker::ReadChains(const fb::Method& m, const Where& method_where, MethodView& out) {
  if (!m.chains()) return Fail(method_where, "has no chains vector");
  if (!Afford(m.chains()->size())) return OverBudget(method_where);
  for (const fb::Chain* c : *m.chains()) {
    const Where where{&method_where, "chain", static_cast<int64_t>(out.chains.size())};
    if (!c || !c->instructions()) return Fail(where, "has no instructions vector");
    if (!Afford(c->instructions()->size())) return OverBudget(where);
    ChainView cv;
    cv.instructions_begin = static_cast<uint32_t>(out.instructions.size());
    cv.instructions_count = c->instructions()->size();
    for (const fb::Instruction* ins : *c->instructions()) {
      const Where iwhere{&where, "instruction",
                         static_cast<int64_t>(out.instructions.size() - cv.instructions_begin)};
      if (!ins) return Fail(iwhere, "null instruction");
      if (auto s = ReadInstruction(*ins, iwhere, out); !s) return s;
    }
    for (size_t i = cv.instructions_begin; i < out.instructions.size(); ++i) {
      const InstructionView& iv = out.instructions[i];
      // A destination equal to the chain's length jumps to its end (Method::step then moves to
      // the next chain), which the emitter writes for a branch that ends its chain.
      if (iv.kind == InstructionKind::kJumpFalse &&
          (iv.second < 0 || static_cast<uint32_t>(iv.second) > cv.instructions_count))
        return Fail(where, "jump to instruction " + std::to_string(iv.second) +
                               " outside the chain's " + std::to_string(cv.instructions_count));
    }
    out.chains.push_back(cv);
  }
  return Ok{};
}

// Instructions are reserved up front, counted exactly (the chains say how many): growing by
// doubling would copy them and write their pages twice; capped so that a file of shared
// tables cannot make it reserve gigabytes it will not fill.
void ReserveInstructions(const fb::Method& m, MethodView& out) {
  constexpr uint64_t kCap = uint64_t{1} << 22;
  out.instructions.reserve(static_cast<size_t>(std::min(InstructionCount(m), kCap)));
}

Status Walker::ReadMethod(const fb::Method& m, size_t method_index, MethodView& out) {
  const Where where = MethodWhere(m, method_index);
  ReserveInstructions(m, out);
  if (m.name()) out.name = std::string_view(m.name()->c_str(), m.name()->size());
  const uint64_t listed = SizeOf(m.operators()) + SizeOf(m.inputs()) + SizeOf(m.outputs()) +
                          SizeOf(m.planned_buffer_sizes());
  if (!Afford(listed)) return OverBudget(where);
  if (m.operators())
    for (const fb::Operator* op : *m.operators()) {
      OperatorView ov;
      if (op && op->name()) ov.name = std::string_view(op->name()->c_str(), op->name()->size());
      if (op && op->overload())
        ov.overload = std::string_view(op->overload()->c_str(), op->overload()->size());
      out.operators.push_back(ov);
    }
  if (auto s = ReadValues(m, where, out); !s) return s;
  for (auto* io : {m.inputs(), m.outputs()}) {
    if (!io) continue;
    auto& dst = io == m.inputs() ? out.inputs : out.outputs;
    // An input or output past the values is the release model's to judge, as the arguments.
    for (int32_t i : *io) {
      out.value_references_in_range &= static_cast<uint32_t>(i) < out.values.size();
      dst.push_back(i);
    }
  }
  out.has_inputs_vector = m.inputs() != nullptr;
  out.has_outputs_vector = m.outputs() != nullptr;
  out.has_planned_buffer_sizes_vector = m.planned_buffer_sizes() != nullptr;
  if (const auto* sizes = m.planned_buffer_sizes())
    for (size_t k = 0; k < sizes->size(); ++k) {
      const int64_t s = UnalignedAt(sizes, k);
      // Not the reader's to refuse: the runner and some releases do (runtime/load_plan.cpp).
      if (s < 0 && k > 0 && !out.negative_planned_buffer)
        out.negative_planned_buffer = {static_cast<uint32_t>(k), s};
      out.planned_buffer_sizes.push_back(std::max<int64_t>(s, 0));
    }
  return ReadChains(m, where, out);
}

Status ReadDelegates(const fb::Program& p, const uint8_t* file_base, const fb::Method& m,
                     const ProgramView& program, const Where& where, Walker& w,
                     MethodView& out) {
  out.has_delegates_vector = m.delegates() != nullptr;
  if (!m.delegates()) return Ok{};
  if (!w.Afford(m.delegates()->size())) return w.OverBudget(where);
  for (const fb::Delegate* d : *m.delegates()) {
    const Where dwhere{&where, "delegate", static_cast<int64_t>(out.delegates.size())};
    if (!d) return w.Fail(dwhere, "null delegate entry");
    DelegateView dv;
    dv.has_backend = d->backend() != nullptr;
    if (d->backend()) dv.backend = std::string_view(d->backend()->c_str(), d->backend()->size());
    dv.has_compile_specs = d->compile_specs() != nullptr;
    dv.compile_specs = dv.has_compile_specs ? d->compile_specs()->size() : 0;
    if (!d->blob()) return w.Fail(dwhere, "has no processed-blob reference");
    dv.blob_index = d->blob()->index();
    if (d->blob()->location() == fb::BlobLocation::INLINE) {
      dv.location = BlobLocation::kInline;
      const auto* blobs = p.inline_blobs();
      if (!blobs || dv.blob_index >= blobs->size() || !blobs->Get(dv.blob_index)->bytes())
        return w.Fail(dwhere, "inline blob " + std::to_string(dv.blob_index) + " does not exist");
      const auto* bytes = blobs->Get(dv.blob_index)->bytes();
      dv.blob_bytes = bytes->size();
      dv.blob_file_offset = static_cast<uint64_t>(bytes->data() - file_base);
    } else if (d->blob()->location() == fb::BlobLocation::SEGMENT) {
      dv.location = BlobLocation::kSegment;
      if (dv.blob_index >= program.segments.size())
        return w.Fail(dwhere, "blob segment " + std::to_string(dv.blob_index) +
                                  " does not exist (program has " +
                                  std::to_string(program.segments.size()) + ")");
      dv.blob_bytes = program.segments[dv.blob_index].size;
      dv.blob_file_offset = (program.header ? program.header->segment_base_offset : 0) +
                            program.segments[dv.blob_index].offset;
    } else {
      return w.Fail(dwhere, "unknown blob location " +
                                std::to_string(static_cast<int>(d->blob()->location())));
    }
    out.delegates.push_back(dv);
  }
  return Ok{};
}

Status ReadSegments(const fb::Program& p, const std::string& file, ProgramView& out) {
  if (!p.segments()) return Ok{};
  uint64_t base = out.header ? out.header->segment_base_offset : 0;
  for (const fb::Segment* s : *p.segments()) {
    if (!s) return MakeError(ErrorCode::kInvalidProgram, file + ": null segment entry");
    SegmentView sv{s->offset(), s->size()};
    auto end = CheckedAdd(base, sv.offset);
    if (end) end = CheckedAdd(*end, sv.size);
    if (!end || *end > out.file_size)
      return MakeError(ErrorCode::kInvalidProgram,
                       file + ": segment " + std::to_string(out.segments.size()) + " (offset " +
                           std::to_string(sv.offset) + ", " + std::to_string(sv.size) +
                           " bytes) lies outside the file (" + std::to_string(out.file_size) +
                           " bytes)");
    out.segments.push_back(sv);
  }
  return Ok{};
}

// Where each constant data index's bytes start in the file (ProgramView::constants).
void LocateConstants(const fb::Program& p, const uint8_t* file_base, ProgramView& out) {
  out.constants.clear();
  if (out.constant_segment) {
    const SegmentView& seg = out.segments[*out.constant_segment];
    const uint64_t base = (out.header ? out.header->segment_base_offset : 0) + seg.offset;
    const auto* offsets = p.constant_segment()->offsets();
    out.constants.reserve(offsets->size());
    for (size_t i = 0; i < offsets->size(); ++i) {
      const uint64_t offset = UnalignedAt(offsets, i);  // 8-byte items may sit 4 bytes off
      out.constants.push_back({base + std::min(offset, seg.size),
                               offset < seg.size ? seg.size - offset : 0, offset});
    }
  } else if (const auto* inl = p.inline_constants()) {
    out.constants.reserve(inl->size());
    for (const fb::InlineBuffer* b : *inl) {
      if (b && b->bytes())
        out.constants.push_back({static_cast<uint64_t>(b->bytes()->data() - file_base),
                                 b->bytes()->size()});
      else
        out.constants.push_back({});
    }
  }
}

Status ReadConstants(const fb::Program& p, const uint8_t* file_base, const std::string& /*file*/,
                     ProgramView& out) {
  if (const auto* inl = p.inline_constants()) {
    out.inline_constant_buffers = inl->size();
    out.has_inline_constant_vector = true;
    out.inline_constant_sizes.reserve(inl->size());
    for (const fb::InlineBuffer* b : *inl) {
      const uint64_t size = b && b->bytes() ? b->bytes()->size() : 0;
      out.inline_constant_sizes.push_back(size);
      out.inline_constant_bytes += size;
    }
  }
  if (const fb::SubSegments* cs = p.constant_segment()) {
    out.constant_offsets = cs->offsets() ? cs->offsets()->size() : 0;
    // A segment index that names no segment is not the reader's to refuse: the exporter writes
    // {segment 0, offsets [0]} without segments for a program with no constants, which 0.4+
    // load; each release's Program::load check is modelled in runtime/load_plan.cpp
    // (ConstantSegmentLoads, reading the index from the file).
    if (out.constant_offsets > 0 && cs->segment_index() < out.segments.size()) {
      out.constant_segment = cs->segment_index();
      out.constant_segment_bytes = out.segments[cs->segment_index()].size;
    }
  }
  out.has_segments_vector = p.segments() != nullptr;
  if (p.named_data()) {
    out.has_named_data_vector = true;
    out.named_data = p.named_data()->size();
    for (const fb::NamedBlob* b : *p.named_data())
      if (b) out.named_data_segments.push_back(b->segment_index());
  }
  if (p.mutable_segments()) {
    out.mutable_segments = p.mutable_segments()->size();
    out.has_mutable_segments_vector = true;
    if (out.mutable_segments > 0 && p.mutable_segments()->Get(0) &&
        p.mutable_segments()->Get(0)->offsets()) {
      out.first_mutable_has_offsets = true;
      // Read byte-wise: a hostile file may place the vector at any 4-byte boundary.
      const auto* offsets = p.mutable_segments()->Get(0)->offsets();
      for (uint32_t i = 0; i < offsets->size(); ++i)
        out.first_mutable_offsets.push_back(UnalignedAt(offsets, i));
    }
    for (const fb::SubSegments* s : *p.mutable_segments())
      if (s) out.mutable_segment_indices.push_back(s->segment_index());
  }
  LocateConstants(p, file_base, out);
  return Ok{};
}

// The four bytes after the root offset: "ET12", or an error saying what they are instead.
Status CheckFileIdentifier(std::span<const uint8_t> bytes, const std::string& name) {
  const std::string_view id(reinterpret_cast<const char*>(bytes.data() + 4), 4);
  // A .ptd (FlatTensor: identifier "FT.." at byte 4, header "FH.." at byte 8) is the external
  // data a program's runner passes to load_method, given where the program goes.
  const bool flat_tensor_header =
      bytes.size() >= 12 && std::string_view(reinterpret_cast<const char*>(bytes.data() + 8), 2) == "FH";
  if (!id.starts_with("ET") && (id.starts_with("FT") || flat_tensor_header))
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": external data (a .ptd file), not an ExecuTorch program: give the "
                            "program (.pte) and this file with --external-data " +
                         (name.ends_with(".ptd") ? name : std::string("FILE.ptd")));
  if (!id.starts_with("ET"))
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": not an ExecuTorch program (file identifier is not \"ET..\")");
  if (id != "ET12")
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": program format '" + Printable(id) +
                         "' is not ET12, the only format ExecuTorch 0.3-1.4 load");
  return Ok{};
}

// The flatbuffers verifier over the program region. An unshared flatbuffer holds at most one
// table per 4 bytes (each starts with a 4-byte vtable offset), so a file whose tables are
// shared cannot make the verifier visit more than that. A flatbuffer is at most 2 GiB (the
// verifier asserts it): a larger region can only be corrupt, and verifying its first 2 GiB
// rejects whatever points past them.
Status VerifyFlatbuffer(const uint8_t* data, uint64_t size, const std::string& name,
                        const ReadLimits& limits) {
  flatbuffers::Verifier::Options options;
  options.max_depth = limits.max_depth;
  options.max_tables = static_cast<uint32_t>(std::min<uint64_t>(limits.max_tables, size / 4 + 1));
  options.check_alignment = true;
  const auto verified_size = std::min<uint64_t>(size, FLATBUFFERS_MAX_BUFFER_SIZE - 1);
  flatbuffers::Verifier verifier(data, static_cast<size_t>(verified_size), options);
  if (!fb::VerifyProgramBuffer(verifier))
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": the program flatbuffer fails verification (corrupt or truncated)");
  return Ok{};
}

Status ReadMethods(const fb::Program& p, const uint8_t* file_base, const std::string& name,
                   const ReadLimits& limits, ProgramView& out) {
  if (!p.methods() || p.methods()->size() == 0)
    return MakeError(ErrorCode::kInvalidProgram, name + ": the program has no methods");
  Walker walker(name, limits, out.flatbuffer_bytes);
  if (!walker.Afford(p.methods()->size())) return walker.OverBudget(Where{nullptr, "methods"});
  out.methods.resize(p.methods()->size());
  // A method the walk cannot read keeps its name and the fault; the others are read as usual
  // (the runtime loads each method on its own). Only when no method can be read, or the file's
  // tables are shared beyond its size, is the file refused, with the first fault.
  std::optional<Error> first_fault;
  size_t faulted = 0;
  for (size_t i = 0; i < p.methods()->size(); ++i) {
    const fb::Method* m = p.methods()->Get(i);
    MethodView& view = out.methods[i];
    view.words = {reinterpret_cast<const int32_t*>(file_base), out.flatbuffer_bytes / 4};
    Status s = Ok{};
    if (!m) {
      s = MakeError(ErrorCode::kInvalidProgram,
                    name + ": method " + std::to_string(i) + ": null method entry");
    } else {
      // Delegates first: instructions are checked against their count.
      s = ReadDelegates(p, file_base, *m, out, MethodWhere(*m, i), walker, view);
      if (s) s = walker.ReadMethod(*m, i, view);
    }
    if (s) continue;
    if (walker.over_budget()) return s;
    if (!first_fault) first_fault = s.error();
    ++faulted;
    MethodView empty;
    empty.words = view.words;
    if (m && m->name()) empty.name = std::string_view(m->name()->c_str(), m->name()->size());
    // What Program::method_meta checks first, read for the faulted method too.
    empty.has_inputs_vector = m && m->inputs();
    empty.has_outputs_vector = m && m->outputs();
    empty.has_planned_buffer_sizes_vector = m && m->planned_buffer_sizes();
    const std::string& text = s.error().message;  // "FILE: method ...: what"
    empty.fault = text.starts_with(name + ": ") ? text.substr(name.size() + 2) : text;
    view = std::move(empty);
  }
  if (faulted == out.methods.size()) return *first_fault;
  return Ok{};
}

}  // namespace

const char* ValueKindName(ValueKind k) {
  switch (k) {
    case ValueKind::kNone: return "None";
    case ValueKind::kNull: return "Null";
    case ValueKind::kInt: return "Int";
    case ValueKind::kBool: return "Bool";
    case ValueKind::kDouble: return "Double";
    case ValueKind::kTensor: return "Tensor";
    case ValueKind::kString: return "String";
    case ValueKind::kIntList: return "IntList";
    case ValueKind::kDoubleList: return "DoubleList";
    case ValueKind::kBoolList: return "BoolList";
    case ValueKind::kTensorList: return "TensorList";
    case ValueKind::kOptionalTensorList: return "OptionalTensorList";
  }
  return "?";
}

const char* InstructionKindName(InstructionKind k) {
  switch (k) {
    case InstructionKind::kNone: return "none";
    case InstructionKind::kKernelCall: return "kernel call";
    case InstructionKind::kDelegateCall: return "delegate call";
    case InstructionKind::kMove: return "move";
    case InstructionKind::kJumpFalse: return "jump-if-false";
    case InstructionKind::kFree: return "free";
  }
  return "?";
}

uint32_t MethodView::external_constants() const {
  uint32_t n = 0;
  for (const TensorView& t : tensors) n += (t.external && !t.planned) ? 1 : 0;
  return n;
}

const MethodView* ProgramView::FindMethod(std::string_view name) const {
  for (const MethodView& m : methods)
    if (m.name == name) return &m;
  return nullptr;
}

Result<std::optional<ExtendedHeader>> ReadExtendedHeader(std::span<const uint8_t> bytes,
                                                         const std::string& name) {
  if (bytes.size() < kHeaderOffset + 8 || std::memcmp(bytes.data() + kHeaderOffset, "eh00", 4) != 0)
    return std::optional<ExtendedHeader>();
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": extended header (\"eh00\" at byte 8) " + what);
  };
  ExtendedHeader h;
  h.length = LoadU32(bytes.data() + kHeaderOffset + 4);
  if (h.length < kMinHeaderLength)
    return fail("has length " + std::to_string(h.length) + " < " +
                std::to_string(kMinHeaderLength));
  if (bytes.size() < kHeaderOffset + kMinHeaderLength)
    return fail("is cut short: the file has only " + std::to_string(bytes.size()) + " bytes");
  h.program_size = LoadU64(bytes.data() + kHeaderOffset + 8);
  h.segment_base_offset = LoadU64(bytes.data() + kHeaderOffset + 16);
  if (h.length >= 32 && bytes.size() >= kHeaderOffset + 32)
    h.segment_data_size = LoadU64(bytes.data() + kHeaderOffset + 24);
  if (h.program_size > bytes.size())
    return fail("claims a program of " + std::to_string(h.program_size) +
                " bytes but the file has " + std::to_string(bytes.size()) +
                " (not a valid header; ExecuTorch refuses this file in Program::load)");
  if (h.program_size < kHeaderOffset + h.length)
    return fail("claims a program of " + std::to_string(h.program_size) +
                " bytes, smaller than the header itself");
  if (h.segment_base_offset != 0 && h.segment_base_offset < h.program_size)
    return fail("puts segments at byte " + std::to_string(h.segment_base_offset) +
                ", inside the program (" + std::to_string(h.program_size) + " bytes)");
  return std::optional<ExtendedHeader>(h);
}

Result<ProgramView> ReadProgramFile(std::shared_ptr<const MappedFile> file,
                                    const std::string& name_raw, const ReadLimits& limits) {
  const std::string name = Printable(name_raw, kShownPathBytes);  // every message quotes it
  std::span<const uint8_t> bytes = file->bytes();
  ProgramView out;
  out.path = name;  // printable: messages and reports quote it
  out.file_size = bytes.size();
  if (bytes.size() < 8)
    return MakeError(ErrorCode::kInvalidProgram,
                     name + ": only " + std::to_string(bytes.size()) +
                         " bytes; too short to be an ExecuTorch program");
  if (auto s = CheckFileIdentifier(bytes, name); !s) return s.error();
  ETMEM_TRY(out.header, ReadExtendedHeader(bytes, name));
  out.flatbuffer_bytes = out.header ? out.header->program_size : bytes.size();
  if (auto s = VerifyFlatbuffer(bytes.data(), out.flatbuffer_bytes, name, limits); !s)
    return s.error();
  const fb::Program& p = *fb::GetProgram(bytes.data());
  if (auto s = ReadSegments(p, name, out); !s) return s.error();
  if (auto s = ReadConstants(p, bytes.data(), name, out); !s) return s.error();
  if (auto s = ReadMethods(p, bytes.data(), name, limits, out); !s) return s.error();
  out.file = std::move(file);
  return out;
}

Result<ProgramView> ReadProgram(const std::string& path, const ReadLimits& limits) {
  ETMEM_TRY(auto file, MappedFile::Open(path));
  return ReadProgramFile(std::move(file), path, limits);
}

Result<ProgramView> ReadProgramBytes(std::span<const uint8_t> bytes, const std::string& name,
                                     const ReadLimits& limits) {
  return ReadProgramFile(MappedFile::FromBytes(bytes), name, limits);
}

}  // namespace etmem::pte
