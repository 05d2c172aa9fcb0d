// Owns: the schema-free picture of a verified program that every later stage reads.
// Not: reading bytes (read_program.h) or any release's behaviour (runtime/).
//
// Everything here has been range-checked by ReadProgram: every value index of a value, list,
// call argument, input and output, and every segment index is in range (a method whose indexes
// are not carries a `fault` and nothing else); operator, delegate, move, free and jump-condition
// indexes are as written (the release model checks them as each release does: OperatorOf,
// DelegateOf), and every string_view points into the mapped
// file, which the ProgramView keeps alive. Stored flat (one vector per kind, with begin/count
// indices) so that reading a 300k-value program costs a handful of allocations, not one per value;
// the variable-length integer vectors (sizes, list items, arguments) are not copied at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>


namespace etmem::pte {

enum class ValueKind : uint8_t {
  kNone, kNull, kInt, kBool, kDouble, kTensor, kString, kIntList, kDoubleList, kBoolList,
  kTensorList, kOptionalTensorList,
};
const char* ValueKindName(ValueKind k);

enum class Dynamism : uint8_t { kStatic = 0, kDynamicBound = 1, kDynamicUnbound = 2 };

struct TensorView {
  int8_t dtype = 0;                 // ExecuTorch ScalarType code
  Dynamism dynamism = Dynamism::kStatic;
  bool planned = false;             // has a memory-plan placement
  bool external = false;            // extra info says the data lives in a .ptd
  uint32_t rank = 0;                // number of sizes (the dim order has as many entries)
  uint32_t sizes_begin = 0;         // into MethodView::words
  uint32_t data_index = 0;          // constant / mutable-state buffer index, 0 = none
  uint32_t memory_id = 0;           // 1-based planned buffer id
  uint32_t fqn_index = 0;           // external key: MethodView::fqns[fqn_index - 1]; 0 = none
  uint64_t offset = 0;              // planned offset (low | high << 32)
};
// 32 bytes: a large program has hundreds of thousands, and every page of them is a fault.
static_assert(sizeof(TensorView) == 32);

struct ValueView {
  ValueKind kind = ValueKind::kNone;
  // tensor: into tensors; int and tensor lists: into words; string: 1 when the String table has
  // no string (absent), else 0; Int: low bits of its value; Bool: its value (0 or 1)
  uint32_t index = 0;
  uint32_t count = 0;  // list length or string length; Int: high bits
  // An Int's value (kernels' scalar arguments, e.g. topk's dim).
  int64_t int_value() const {
    return static_cast<int64_t>(static_cast<uint64_t>(count) << 32 | index);
  }
  // A Bool's value (e.g. quantized_matmul's transposed).
  bool bool_value() const { return index != 0; }
};

// A list's value indices, read where the flatbuffer holds them: 64-bit for an IntList (which
// may sit 4 bytes off 8-byte alignment, so each is copied out, never loaded in place), 32-bit
// for the tensor lists.
class ListItems {
 public:
  ListItems(const int32_t* words, uint32_t count, bool wide)
      : words_(words), count_(count), wide_(wide) {}
  size_t size() const { return count_; }
  int64_t operator[](size_t i) const {
    if (!wide_) return words_[i];
    int64_t item;
    std::memcpy(&item, words_ + 2 * i, sizeof item);
    return item;
  }
  class iterator {
   public:
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const ListItems* list, size_t i) : list_(list), i_(i) {}
    int64_t operator*() const { return (*list_)[i_]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { iterator old = *this; ++i_; return old; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const ListItems* list_ = nullptr;
    size_t i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, count_}; }

 private:
  const int32_t* words_;
  uint32_t count_;
  bool wide_;
};

enum class InstructionKind : uint8_t { kNone, kKernelCall, kDelegateCall, kMove, kJumpFalse, kFree };
const char* InstructionKindName(InstructionKind k);

struct InstructionView {
  InstructionKind kind = InstructionKind::kNone;
  int32_t target = 0;      // op_index, delegate_index, move source, jump condition, freed value
  int32_t second = 0;      // move destination, jump destination
  uint32_t args_begin = 0; // into MethodView::words (kernel and delegate calls)
  uint32_t args_count = 0;
};

struct ChainView {
  uint32_t instructions_begin = 0;  // into MethodView::instructions
  uint32_t instructions_count = 0;
};

struct OperatorView {
  std::string_view name;
  std::string_view overload;
};

enum class BlobLocation : uint8_t { kInline, kSegment };

struct DelegateView {
  std::string_view backend;       // registered backend id, e.g. "XnnpackBackend"
  bool has_compile_specs = false; // the vector is present (absent crashes runtimes before 1.3)
  uint32_t compile_specs = 0;
  BlobLocation location = BlobLocation::kInline;
  uint32_t blob_index = 0;
  uint64_t blob_bytes = 0;
  uint64_t blob_file_offset = 0;  // where the blob's bytes start in the file
  bool has_backend = true;        // the id is written (absent: refused from 0.2, a crash in 0.1)
};

struct MethodView {
  std::string_view name;
  std::vector<ValueView> values;
  std::vector<TensorView> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<ChainView> chains;
  std::vector<InstructionView> instructions;
  // Tensor sizes, list items and call arguments are not copied: they are the flatbuffer's own
  // vectors, which the verifier has found 4-byte aligned, read in place. `words` is the
  // flatbuffer as 32-bit words (a view made in memory points it at `own_words`).
  std::span<const int32_t> words;
  std::shared_ptr<const std::vector<int32_t>> own_words;
  std::vector<OperatorView> operators;
  std::vector<DelegateView> delegates;
  bool has_delegates_vector = true;  // false: Method.delegates is absent (not even empty)
  // Method.non_const_buffer_sizes / inputs / outputs are present (maybe empty): a release's
  // Program::method_meta refuses a plan without them (runtime/load_plan.cpp).
  bool has_planned_buffer_sizes_vector = true;
  bool has_inputs_vector = true;
  bool has_outputs_vector = true;
  std::vector<int64_t> planned_buffer_sizes;  // as stored: index 0 is the reserved placeholder
  // The first negative entry of Method.non_const_buffer_sizes after the reserved one (stored
  // index, size as written); every negative entry is stored as 0 in planned_buffer_sizes. Not the reader's to refuse: what the runner and
  // the release do with it is modelled in runtime/load_plan.cpp.
  std::optional<std::pair<uint32_t, int64_t>> negative_planned_buffer;
  // Non-empty: the reader found this method unreadable (the text says where and why), and the
  // view holds only its name. Other methods are read as usual: a fault in one method never
  // blocks another, as in the runtime, which loads each method on its own.
  std::string fault;
  std::vector<std::string_view> fqns;         // external keys (TensorView::fqn_index)
  // (tensor index, Tensor.storage_offset) of the tensors whose storage_offset is not 0, in
  // tensor order (exporters always write 0; the runtime refuses any other).
  std::vector<std::pair<uint32_t, int32_t>> storage_offsets;
  // The tensors (by index) whose dim_order repeats an entry (not a permutation), in order.
  std::vector<uint32_t> repeated_dim_orders;
  // The tensors (by index) with a dim_order entry at or above their rank, in order.
  std::vector<uint32_t> dim_orders_past_rank;
  // Every kernel/delegate call argument and every input and output names one of the method's
  // values. Not the reader's to refuse (runtime/load_plan.cpp models what each release does);
  // an analysis that follows these indexes checks HasValue, or this, first.
  bool value_references_in_range = true;

  // A view made in memory (tests): `w` becomes its words, kept alive by the view and its copies.
  void OwnWords(std::vector<int32_t> w) {
    own_words = std::make_shared<const std::vector<int32_t>>(std::move(w));
    words = *own_words;
  }
  std::string_view FqnOf(const TensorView& t) const {
    return t.fqn_index == 0 ? std::string_view() : fqns[t.fqn_index - 1];
  }
  std::span<const int32_t> SizesOf(const TensorView& t) const {
    return words.subspan(t.sizes_begin, t.rank);
  }
  // Of an IntList, TensorList or OptionalTensorList value.
  ListItems ItemsOf(const ValueView& v) const {
    return {words.data() + v.index, v.count, v.kind == ValueKind::kIntList};
  }
  std::span<const int32_t> ArgsOf(const InstructionView& i) const {
    return words.subspan(i.args_begin, i.args_count);
  }
  // The operator a kernel call names / the delegate a delegate call names, or null when its
  // index is not the method's: the reader leaves those to the release model (a release may
  // load such a method: no Method::init checks a delegate index).
  const OperatorView* OperatorOf(const InstructionView& i) const {
    return i.target >= 0 && static_cast<size_t>(i.target) < operators.size()
               ? &operators[static_cast<size_t>(i.target)]
               : nullptr;
  }
  const DelegateView* DelegateOf(const InstructionView& i) const {
    return i.target >= 0 && static_cast<size_t>(i.target) < delegates.size()
               ? &delegates[static_cast<size_t>(i.target)]
               : nullptr;
  }
  bool HasValue(int64_t value_index) const {
    return value_index >= 0 && static_cast<uint64_t>(value_index) < values.size();
  }
  // Null for a value that is not a tensor, or no value of the method.
  const TensorView* TensorAt(int64_t value_index) const {
    if (!HasValue(value_index)) return nullptr;
    const ValueView& v = values[static_cast<size_t>(value_index)];
    return v.kind == ValueKind::kTensor ? &tensors[v.index] : nullptr;
  }
  // Tensor values whose data comes from a .ptd (external, not planned): the runtime's n_ext.
  uint32_t external_constants() const;
};

struct ExtendedHeader {
  uint32_t length = 0;  // 24 (writers up to 0.7) or 32 (1.0+)
  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  std::optional<uint64_t> segment_data_size;  // only in 32-byte headers
};

struct SegmentView {
  uint64_t offset = 0;  // relative to segment_base_offset
  uint64_t size = 0;
};

// Where the bytes of constant data index i start in the file, and how many bytes the storage
// holds from there (inline: the buffer's length; segment: up to the segment's end).
struct ConstantBytes {
  uint64_t file_offset = 0;
  uint64_t available = 0;
  uint64_t segment_offset = 0;  // segment: the offset as written (it may lie past the end)
};

class MappedFile;

struct ProgramView {
  std::string path;
  uint64_t file_size = 0;
  uint64_t flatbuffer_bytes = 0;          // program_size: what Program::load keeps resident
  std::optional<ExtendedHeader> header;
  std::vector<MethodView> methods;
  std::vector<SegmentView> segments;
  uint64_t inline_constant_bytes = 0;      // legacy constant_buffer storage, summed
  uint32_t inline_constant_buffers = 0;    // entries, including the reserved one
  bool has_inline_constant_vector = false; // Program.constant_buffer is present (maybe empty)
  std::optional<uint32_t> constant_segment;  // segment index, when constants are in a segment
  uint32_t constant_offsets = 0;           // entries in constant_segment.offsets
  uint64_t constant_segment_bytes = 0;
  uint32_t named_data = 0;                 // entries in Program.named_data
  bool has_named_data_vector = false;      // Program.named_data is present (maybe empty)
  bool has_segments_vector = false;        // Program.segments is present (maybe empty)
  uint32_t mutable_segments = 0;
  bool has_mutable_segments_vector = false;  // Program.mutable_data_segments is present
  // Its first entry, the one the runtime copies mutable state from: whether it has an offsets
  // vector, and the offsets (by data index).
  bool first_mutable_has_offsets = false;
  std::vector<uint64_t> first_mutable_offsets;
  // Indexed by a tensor's data_index (entry 0 reserved, as stored): inline buffers, or the
  // constant segment's offsets when there is a constant segment.
  std::vector<ConstantBytes> constants;
  // The bytes of each Program.constant_buffer entry (0 for one without bytes), whether or not
  // the program also has a constant segment: a release that does not load the segment reads
  // its constants here.
  std::vector<uint64_t> inline_constant_sizes;
  std::vector<uint32_t> mutable_segment_indices;  // segment of each mutable_segments entry
  std::vector<uint32_t> named_data_segments;      // segment of each named_data entry
  std::shared_ptr<const MappedFile> file;  // keeps the string_views alive

  const MethodView* FindMethod(std::string_view name) const;
};

}  // namespace etmem::pte
