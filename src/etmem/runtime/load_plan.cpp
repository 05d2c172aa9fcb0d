// Owns: PlanMethodLoad, the allocation sequence of Method::load / Method::init (spec §3).
// The order here is the runtime's order; every condition is a trait of the release.
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/ptd_check.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/fb/program_generated.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/scalar_type.h"
#include "etmem/pte/vela_payload.h"

namespace etmem::runtime {

abi::SizeAlign RuntimeModel::Layout(std::string_view type) const {
  return traits_->types.SizeAlignOfType(type, abi_, &cache_);  // unknown names abort there
}

namespace {

using pte::InstructionKind;
using pte::ValueKind;

// TensorImpl's element count (compute_numel: the sizes multiplied in order, in ssize_t) and
// TensorImpl::nbytes() (that count times the element size, in size_t), in the target's widths.
// A product past the type wraps at every release but 1.1, which ET_CHECKs both (the flags say
// where: the count past SSIZE_MAX, else the bytes past SIZE_MAX). Empty for a dtype no release
// knows (the tensor parser or TensorImpl refuses it first where the release checks).
struct TensorImplBytes {
  uint64_t nbytes = 0;        // as the runtime computes it, wrapped to the target's size_t
  bool numel_overflows = false;
  bool nbytes_overflows = false;
};
std::optional<TensorImplBytes> RuntimeNbytes(std::span<const int32_t> sizes, int8_t dtype,
                                             uint64_t max_size_t) {
  const std::optional<uint32_t> element = pte::ScalarTypeBytes(dtype);
  if (!element) return std::nullopt;
  const uint64_t max_ssize_t = max_size_t >> 1;
  TensorImplBytes r;
  uint64_t numel = 1;  // the true count until it first overflows, then the wrapped one
  for (int32_t s : sizes) {
    const uint64_t size = static_cast<uint64_t>(static_cast<uint32_t>(s));  // s >= 0 (reader)
    if (!r.numel_overflows && numel != 0 && size > max_ssize_t / numel) r.numel_overflows = true;
    numel = (numel * size) & max_size_t;
  }
  r.nbytes_overflows = !r.numel_overflows && numel > max_size_t / *element;
  r.nbytes = (numel * *element) & max_size_t;
  return r;
}

class Planner {
 public:
  Planner(const pte::ProgramView& program, const pte::MethodView& method, const RuntimeModel& model,
          const LoadOptions& options, LoadPlan& out, RequestSink& sink)
      : program_(program),
        m_(method),
        model_(model),
        t_(model.traits()),
        options_(options),
        max_size_t_(MaxUnsigned(model.abi().size_type.size)),
        plan_(out),
        sink_(sink) {}

  void Run() {
    plan_.backend_types.clear();
    plan_.unknowns.clear();
    plan_.refusal.reset();
    plan_.metadata = {};
    // Program::load refused (both constant storages, then the segment it names): no method loads
    if (!ProgramLoads() || !ConstantSegmentLoads()) return Flush();
    if (options_.ptd && !PtdAllows(-1)) return Flush();  // the runner's data map load
    // What the runner does before load_method: method_meta, then the planned buffers.
    if (!MethodMetaAllows() || !PlannedBuffersAllocate()) return Flush();
    if (!m_.fault.empty()) {
      Refuse("unknown", "etmem's reader cannot read this method (" + m_.fault +
                            "); what the release does with it is not modelled");
      return Flush();
    }
    if (t_.platform_allocator_when_no_temp && !options_.temp_allocator)
      Instance(Site::kPlatformAllocator);
    if (ParseValues() && InitDelegates() && InitChains() && InputsOutputsRead()) {}
    Flush();
  }

 private:
  // Requests leave in batches small enough to stay in L1 while the sink reads them. A batch is
  // handed over only when the next request needs room, so the last request made is always here
  // for the few sites that amend it.
  static constexpr size_t kBatch = 256;
  AllocationRequest& Push() {
    if (batch_size_ == kBatch) Flush();
    return batch_[batch_size_++];
  }
  AllocationRequest& Last() {
    ETMEM_CHECK(batch_size_ > 0);
    return batch_[batch_size_ - 1];
  }
  void Flush() {
    if (batch_size_ > 0) sink_.Take({batch_.data(), batch_size_});
    batch_size_ = 0;
  }

  // allocateList<T>(n): one request of n * sizeof(T) bytes at alignof(T), T the site's element.
  // Inlined into every call site, Emit too: a call per request was an eighth of a pair.
  [[gnu::always_inline]] void List(Site site, uint64_t n, int64_t subject = -1,
                                   int64_t detail = -1, PoolKind pool = PoolKind::kMethod) {
    const SiteShape& shape = ShapeOf(site);
    Emit(shape.request, shape.element_size, nullptr, n, subject, detail, pool);
  }
  void Instance(Site site, int64_t subject = -1) { List(site, 1, subject); }

  // `proto` carries the site, alignment and failure behaviour; the rest is this call's. `type`
  // names the element in a message (null: the site's element type).
  [[gnu::always_inline]] void Emit(const AllocationRequest& proto, uint64_t element_size,
                                   const char* type, uint64_t n, int64_t subject,
                                   int64_t detail = -1, PoolKind pool = PoolKind::kMethod) {
    // Counts come from flatbuffer vectors and indices from a verified view: all fit 32 bits.
    if (Refused()) return;  // nothing is allocated after the load has failed
    AllocationRequest& r = Push();
    r = proto;
    r.pool = pool;
    r.count = static_cast<uint32_t>(n);
    r.size = n * element_size;  // n < 2^32 and sizes are small: cannot overflow 64 bits
    r.subject = static_cast<int32_t>(subject);
    r.detail = static_cast<int32_t>(detail);
    // n * sizeof(T) is computed in the target's size_t; a wrap is reported, never modelled.
    if (r.size > max_size_t_) [[unlikely]]
      RefuseOverflow(n, type ? type : SiteElementType(r.site));
  }
  // Out of line: Emit runs once per request of a large program and must stay small.
  [[gnu::noinline]] void RefuseOverflow(uint64_t n, const char* type) {
    plan_.refusal = Refusal{"MemoryAllocationFailed", "a list of " + std::to_string(n) + " " +
                                                          type + " overflows the target's size_t"};
  }

  AllocationRequest Proto(Site site, abi::SizeAlign layout) const {
    AllocationRequest r;
    r.site = site;
    r.on_failure = t_.failure(site);
    r.align = static_cast<uint16_t>(layout.align);
    return r;
  }

  // A backend whose init() reads the Vela payload's blocks refuses one it does not know.
  bool InitReadsPayload(const BackendModel& backend, const pte::DelegateView& del, size_t d) {
    if (backend.init_reads_blocks.empty() || !program_.file) return true;
    const std::span<const uint8_t> file = program_.file->bytes();
    if (del.blob_file_offset > file.size() || del.blob_bytes > file.size() - del.blob_file_offset)
      return true;  // not in the file: its bytes are the data loader's business
    auto payload = pte::ReadVelaPayload(file.subspan(del.blob_file_offset, del.blob_bytes));
    if (!payload) return true;  // not a Vela stream: etmem does not model what init() does then
    for (const std::string& block : payload->blocks) {
      const bool known = std::any_of(
          backend.init_reads_blocks.begin(), backend.init_reads_blocks.end(),
          [&](const std::string& k) { return block.compare(0, k.size(), k) == 0; });
      if (known) continue;
      Refuse("InvalidProgram",
             "delegate " + std::to_string(d) + " (" + Printable(del.backend) +
                 "): its Vela payload has a '" + Printable(block) +
                 "' block, which this release's init() does not read");
      plan_.refusal->log = "Invalid block name or malformed binary";
      return false;
    }
    return true;
  }

  // What a modelled backend's init() allocates: one instance of its type.
  void BackendInit(const BackendModel& backend, size_t delegate) {
    if (plan_.backend_types.size() <= delegate) plan_.backend_types.resize(delegate + 1);
    plan_.backend_types[delegate] = backend.type;
    const abi::SizeAlign layout = model_.Layout(backend.type);
    Emit(Proto(Site::kBackendInit, layout), layout.size, backend.type.c_str(), 1,
         static_cast<int64_t>(delegate));
    if (!Refused()) Last().on_failure = backend.on_failure;
  }

  // A request whose size the user declared (a backend etmem does not model).
  void Raw(Site site, const DeclaredBackendInit& d, int64_t subject) {
    AllocationRequest& r = Push();
    r = AllocationRequest{};
    r.site = site;
    r.on_failure = t_.failure(site);
    r.align = static_cast<uint16_t>(d.align);
    r.size = d.bytes;
    r.subject = static_cast<int32_t>(subject);
    r.declared = true;
  }

  // Each site allocates one type, laid out once per plan: no string is built per allocation.
  struct SiteShape {
    bool ready = false;
    uint64_t element_size = 0;
    AllocationRequest request;  // site, alignment and failure behaviour filled in
  };
  const SiteShape& ShapeOf(Site site) {
    SiteShape& shape = shapes_[static_cast<size_t>(site)];
    if (!shape.ready) {
      const abi::SizeAlign layout = model_.Layout(SiteElementType(site));
      shape = {true, layout.size, Proto(site, layout)};
    }
    return shape;
  }

  // Program::load's constant segment (0.2+), loaded when constant_segment.offsets has at least
  // constant_segment_min_offsets entries: the program must have segments and the index must
  // name one. The exporter's layout for no constants ({segment 0, offsets [0]}, no segments)
  // passes at 0.4+ and is refused at 0.2-0.3 (docs/acceptance.md).
  bool ConstantSegmentLoads() {
    if (!t_.constant_segment || program_.constant_offsets == 0 ||
        program_.constant_offsets < t_.constant_segment_min_offsets ||
        program_.constant_segment || !program_.file)
      return true;  // no segment to load, or the reader found the one it names
    // The reader keeps the index only when it names a segment: read it from the file.
    const auto* p = fb::GetProgram(program_.file->bytes().data());
    const uint32_t index = p->constant_segment()->segment_index();
    const size_t n = program_.segments.size();
    if (!p->segments()) {
      Refuse("InvalidProgram", "the program keeps constants in segment " + std::to_string(index) +
                                   " (" + std::to_string(program_.constant_offsets) +
                                   " constant offsets) and has no segments");
      plan_.refusal->log = "No segments in program";
      plan_.refusal->program_load = true;
      return false;
    }
    Refuse("InvalidProgram", "the constant segment index " + std::to_string(index) +
                                 " names no segment (the program has " + std::to_string(n) + ")");
    plan_.refusal->log = "Constant segment index " + std::to_string(index) +
                         " invalid for program segments range " + std::to_string(n);
    plan_.refusal->program_load = true;
    return false;
  }

  // The first refusal ends the load; nothing after it happens.
  bool Refuse(std::string error, std::string reason) {
    if (!plan_.refusal) plan_.refusal = Refusal{std::move(error), std::move(reason)};
    return false;
  }
  bool Refused() const { return plan_.refusal.has_value(); }

  // Program::load's refusals of a program etmem's reader accepts (issue 26): then no method is
  // loaded, and every method reports the program's refusal with nothing allocated.
  bool ProgramLoads() {
    // 0.6+: a Program.named_data vector (even an empty one) makes Program::load build the
    // program's named data map over Program.segments, which it requires (PteDataMap::create).
    if (t_.named_data_map_needs_segments && program_.has_named_data_vector &&
        !program_.has_segments_vector) {
      Refuse("InvalidArgument", "Program::load refuses the program: it has a Program.named_data "
                                "vector and no Program.segments vector");
      plan_.refusal->log = "PteDataMap loader, named_data or segments is null; most likely the "
                           "program does not have any named_data segments";
      plan_.refusal->program_load = true;
      return false;
    }
    // Constants in a loaded constant segment and in Program.constant_buffer at once.
    if (t_.constant_segment && program_.constant_offsets >= t_.constant_segment_min_offsets &&
        program_.constant_offsets > 0 && program_.inline_constant_buffers > 0) {
      Refuse("InvalidProgram",
             "Program::load refuses the program: it keeps constants both in a constant segment (" +
                 std::to_string(program_.constant_offsets) + " offsets) and in "
                 "Program.constant_buffer (" + std::to_string(program_.inline_constant_buffers) +
                 " entries)");
      plan_.refusal->log = "constant_buffer contains " +
                           std::to_string(program_.inline_constant_buffers) +
                           " items, constant_segment.offsets contains " +
                           std::to_string(program_.constant_offsets) +
                           " items. Only one should be used.";
      plan_.refusal->program_load = true;
      return false;
    }
    return true;
  }
  bool MethodMetaAllows();
  bool PlannedBuffersAllocate();
  bool ParseValues();
  // .ptd checks (issue 13 item 4): false once the release has refused the given .ptd, at the
  // point of the load where it does: before anything (the runner's data map load; next_value
  // -1), before value 0 (parse_external_constants), or after a planned external tensor's
  // TensorImpl (the tensor parser), i.e. before the next value.
  bool PtdAllows(int64_t next_value);
  std::optional<PtdOutcome> ptd_outcome_;
  int64_t FirstNoneValue() const {
    for (size_t i = 0; i < m_.values.size(); ++i)
      if (m_.values[i].kind == ValueKind::kNone) return static_cast<int64_t>(i);
    return -1;
  }
  bool HasNoneValue() const { return FirstNoneValue() >= 0; }
  bool ParseTensor(const pte::TensorView& t, uint32_t tensor, int64_t value);
  size_t next_storage_offset_ = 0;     // into MethodView::storage_offsets
  size_t next_repeated_dim_order_ = 0;  // into MethodView::repeated_dim_orders
  size_t next_past_rank_dim_order_ = 0;  // into MethodView::dim_orders_past_rank
  // The tensor being parsed: TensorImpl::nbytes() as the runtime computes it (wrapped to the
  // target's size_t), which its data lookups use; empty for a dtype no release knows.
  std::optional<uint64_t> nbytes_;
  bool ResolveData(const pte::TensorView& t, int64_t value);
  bool PlannedLookup(const pte::TensorView& t, int64_t value);
  bool LoadMutableState(const pte::TensorView& t, int64_t value);
  bool ResolveConstant(const pte::TensorView& t, int64_t value);
  void ParseList(const pte::ValueView& v, int64_t value);
  bool ListItemsAllowed(const pte::ValueView& v, int64_t value);
  bool InitDelegates();
  bool InitChains();
  void ResolveOperator(const pte::InstructionView& ins, int64_t instruction);
  bool OperatorNameFits(const pte::InstructionView& ins, int64_t instruction);
  bool ValueIndexesChecked(const pte::InstructionView& ins, size_t chain, uint32_t i);
  bool CallArgsAllowed(const pte::InstructionView& ins, size_t chain, uint32_t i);
  bool InputsOutputsRead();
  bool resolve_error_ = false;  // the refusal ResolveOperator made was returned, not a crash
  void ResolveOperatorMetadata(const pte::InstructionView& ins, int64_t instruction);

  const pte::ProgramView& program_;
  const pte::MethodView& m_;
  const RuntimeModel& model_;
  const RuntimeTraits& t_;
  const LoadOptions& options_;
  const uint64_t max_size_t_;  // the target's SIZE_MAX
  LoadPlan& plan_;
  RequestSink& sink_;
  std::array<SiteShape, static_cast<size_t>(Site::kCount)> shapes_{};
  // By value: a tensor's rank, else kNotATensor. Filled as the values are parsed and read per
  // kernel argument: a compact array that stays in cache, where the tensor records the
  // arguments name are scattered (their cache misses were a third of planning a large program).
  static constexpr uint32_t kNotATensor = UINT32_MAX;
  std::vector<uint32_t> tensor_rank_;
  std::array<AllocationRequest, kBatch> batch_;
  size_t batch_size_ = 0;
};

bool Planner::PtdAllows(int64_t next_value) {
  using Where = PtdOutcome::Where;
  if (next_value < 0) {
    ptd_outcome_ = CheckExternalData(program_, m_, *options_.ptd, t_);
    if (!ptd_outcome_ || ptd_outcome_->where != Where::kMapLoad) return true;
  } else if (!ptd_outcome_ || ptd_outcome_->where == Where::kMerge ||
             (ptd_outcome_->where == Where::kExternalConstants && next_value != 0) ||
             (ptd_outcome_->where == Where::kPlannedValue &&
              next_value != std::min<int64_t>(ptd_outcome_->value + 1,
                                              static_cast<int64_t>(m_.values.size()) - 1))) {
    return true;
  }
  if (!plan_.refusal) plan_.refusal = ptd_outcome_->refusal;
  return false;
}

// Program::method_meta, which every runner calls before load_method (to size the planned
// buffers): the plan's fields its accessors read unchecked.
bool Planner::MethodMetaAllows() {
  struct Field {
    bool present;
    const char* name;
  };
  for (const Field& f : {Field{m_.has_planned_buffer_sizes_vector, "non_const_buffer_sizes"},
                         Field{m_.has_inputs_vector, "inputs"},
                         Field{m_.has_outputs_vector, "outputs"}}) {
    if (f.present) continue;
    if (t_.method_meta_checks_fields) {
      Refuse("InvalidProgram", std::string("Program::method_meta refuses the method: it has no ") +
                                   f.name + " field");
      plan_.refusal->log = std::string("Missing ") + f.name + " field";
      plan_.refusal->method_meta = true;
      return false;
    }
    // 0.1: method_meta checks nothing; the runner's num_memory_planned_buffers() reads the absent
    // non_const_buffer_sizes through null. (Absent inputs/outputs are read later, in load_method.)
    if (f.name == std::string_view("non_const_buffer_sizes")) {
      Refuse("crash (null dereference)",
             "the method has no non_const_buffer_sizes field, which MethodMeta::"
             "num_memory_planned_buffers reads unchecked at this release (the runner calls it "
             "before load_method)");
      plan_.refusal->method_meta = true;
      return false;
    }
  }
  return true;
}

// The runner's planned buffers: one per Method.non_const_buffer_sizes entry after the first, of
// the size MethodMeta::memory_planned_buffer_size returns.
bool Planner::PlannedBuffersAllocate() {
  if (!m_.negative_planned_buffer) return true;
  const auto [stored, size] = *m_.negative_planned_buffer;  // never the reserved entry 0
  const std::string index = std::to_string(stored - 1);  // MethodMeta hides entry 0
  if (t_.planned_buffer_size_negative_checked) {
    Refuse("abort (ET_CHECK)",
           "planned buffer " + index + " has the negative size " + std::to_string(size) +
               ": MethodMeta::memory_planned_buffer_size returns InvalidProgram, and the "
               "runner's .get() of it aborts (ET_CHECK in Result::get)");
    plan_.refusal->log = "memory_planned_buffer_size(" + index +
                         ") has invalid negative size: " + std::to_string(size);
  } else {
    Refuse("abort (std::bad_alloc)",
           "planned buffer " + index + " has the negative size " + std::to_string(size) +
               ", which MethodMeta::memory_planned_buffer_size returns as it is; the runner "
               "casts it to size_t (" + std::to_string(static_cast<uint64_t>(size) & max_size_t_) +
               " bytes) and cannot allocate that (new[] throws std::bad_alloc: an abort)");
  }
  plan_.refusal->planned_buffers = true;
  return false;
}

bool Planner::ParseValues() {
  List(Site::kValues, m_.values.size());
  if (Refused()) return false;
  if (t_.input_set_array && !m_.inputs.empty()) List(Site::kInputSet, m_.inputs.size());
  if (t_.null_values_prescanned && HasNoneValue())
    return Refuse("InvalidProgram", "value " + std::to_string(FirstNoneValue()) + " has no type");
  uint32_t n_external = t_.external_constants ? m_.external_constants() : 0;
  if (n_external > 0) {
    List(Site::kExternalConstants, n_external);
    // parse_external_constants refuses a keyless constant where it meets it, before its lookup
    // (with a .ptd, CheckExternalData places it among the lookups; without one, the lookups
    // before it are taken to succeed). Without a map, a release that does not check for one
    // (0.6) still reaches the key check of a keyless first constant before it dereferences.
    const bool reaches_keys = options_.external_data_map ? !options_.ptd
                                                         : !t_.external_map_null_checked;
    for (int64_t v = FirstExternalConstant(m_);
         reaches_keys && v >= 0 && v < static_cast<int64_t>(m_.values.size()); ++v) {
      const pte::TensorView* tensor = m_.TensorAt(v);
      if (!tensor || !tensor->external || tensor->planned) continue;
      if (tensor->fqn_index == 0) {
        if (!plan_.refusal) plan_.refusal = KeylessExternalConstant(v);
        return false;
      }
      if (!options_.external_data_map) break;  // its lookup in the null map comes first
    }
    if (!options_.external_data_map) {
      Refuse(t_.external_map_null_checked ? "InvalidState" : "crash (null dereference)",
             std::to_string(n_external) +
                 " tensors take their data from a .ptd file, and no data map was passed "
                 "to load_method (use --external-data)");
      plan_.refusal->log = t_.external_map_null_log;
      return false;
    }
  }
  tensor_rank_.resize(m_.values.size());
  for (size_t i = 0; i < m_.values.size(); ++i) {
    if (options_.ptd && !PtdAllows(static_cast<int64_t>(i))) return false;
    const pte::ValueView& v = m_.values[i];
    tensor_rank_[i] = v.kind == ValueKind::kTensor ? m_.tensors[v.index].rank : kNotATensor;
    if (v.kind == ValueKind::kNone)
      return Refuse(t_.none_value_is_invalid_program ? "InvalidProgram" : "abort (ET_CHECK)",
                    "value " + std::to_string(i) + " has no type");
    if (v.kind == ValueKind::kString && v.index != 0) {
      Refuse(t_.absent_string_checked ? "InvalidProgram" : "crash (null dereference)",
             "value " + std::to_string(i) + " is a String without its string");
      if (t_.absent_string_checked) plan_.refusal->log = "Missing string at index " + std::to_string(i);
      return false;
    }
    if (v.kind == ValueKind::kTensor) {
      if (!ParseTensor(m_.tensors[v.index], v.index, static_cast<int64_t>(i))) return false;
    } else {
      ParseList(v, static_cast<int64_t>(i));
    }
    if (Refused()) return false;
  }
  return !Refused();
}

bool Planner::ParseTensor(const pte::TensorView& t, uint32_t tensor, int64_t value) {
  auto where = [value] { return "value " + std::to_string(value); };  // only on refusal
  // The parser's first check, at every release: Tensor.storage_offset must be 0.
  const auto& offsets = m_.storage_offsets;
  while (next_storage_offset_ < offsets.size() && offsets[next_storage_offset_].first < tensor)
    ++next_storage_offset_;
  if (next_storage_offset_ < offsets.size() && offsets[next_storage_offset_].first == tensor) {
    const int32_t so = offsets[next_storage_offset_].second;
    Refuse("NotSupported", where() + " is a tensor with storage offset " + std::to_string(so) +
                               ", which the runtime does not support");
    plan_.refusal->log = "Non-zero storage offset " + std::to_string(so) + " not supported";
    return false;
  }
  // Then the dtype.
  const bool known_dtype = t.dtype >= 0 && t.dtype < 64 && (t_.parser_scalar_types >> t.dtype) & 1;
  if (t_.parser_scalar_types != 0 && !known_dtype) {
    Refuse("InvalidProgram", where() + " is a tensor of ScalarType " + std::to_string(t.dtype) +
                                 ", which this release's tensor parser does not accept");
    plan_.refusal->log = "Invalid or unsupported ScalarType " + std::to_string(t.dtype);
    return false;
  }
  if (t.dynamism == pte::Dynamism::kDynamicUnbound)
    return Refuse("NotSupported", where() + " is a DYNAMIC_UNBOUND tensor, which the portable "
                                            "runtime does not support");
  if (t_.max_tensor_rank != 0 && t.rank > t_.max_tensor_rank)
    return Refuse("InvalidProgram", where() + " has rank " + std::to_string(t.rank) +
                                            ", above the runtime's limit of " +
                                            std::to_string(t_.max_tensor_rank));
  // Static tensors point sizes and dim_order into the flatbuffer (spec trap 3).
  if (t.dynamism == pte::Dynamism::kDynamicBound) {
    List(Site::kTensorSizes, t.rank, value);
    List(Site::kTensorDimOrder, t.rank, value);
  }
  List(Site::kTensorStrides, t.rank, value);
  // dim_order_to_stride validates the order (every release): an entry at or above the rank is
  // InvalidArgument there, which the parser returns as Internal ("dim_order_to_stride returned
  // invalid status"); the first line logged is dim_order_to_stride's, worded per release.
  const auto& past_rank = m_.dim_orders_past_rank;
  while (next_past_rank_dim_order_ < past_rank.size() && past_rank[next_past_rank_dim_order_] < tensor)
    ++next_past_rank_dim_order_;
  if (!Refused() && next_past_rank_dim_order_ < past_rank.size() &&
      past_rank[next_past_rank_dim_order_] == tensor) {
    const std::string rank = std::to_string(t.rank);
    Refuse("Internal", where() + "'s dim order has an entry at or above its rank " + rank);
    plan_.refusal->log =
        t_.dim_order_permutation_checked
            ? "Invalid dim order: values must be a permutation of [0, " + rank + ")"
            : "Invalid dim order. One of the value is larger than the number of dims " + rank;
    return false;
  }
  if (t_.dim_order_permutation_checked && !Refused()) {
    const auto& repeated = m_.repeated_dim_orders;
    while (next_repeated_dim_order_ < repeated.size() && repeated[next_repeated_dim_order_] < tensor)
      ++next_repeated_dim_order_;
    if (next_repeated_dim_order_ < repeated.size() && repeated[next_repeated_dim_order_] == tensor) {
      Refuse("Internal", where() + "'s dim order repeats an entry (not a permutation of its " +
                             std::to_string(t.rank) + " dimensions)");
      plan_.refusal->log = "Invalid dim order: values must be a permutation of [0, " +
                           std::to_string(t.rank) + ")";
      return false;
    }
  }
  Instance(Site::kTensorImpl, value);
  // TensorImpl's constructor counts the elements (1.1: ET_CHECK "numel overflowed").
  const std::optional<TensorImplBytes> bytes = RuntimeNbytes(m_.SizesOf(t), t.dtype, max_size_t_);
  if (t_.tensor_impl_overflow_checked && bytes && bytes->numel_overflows && !Refused()) {
    Refuse("abort (ET_CHECK)", where() + "'s element count overflows the target's ssize_t");
    plan_.refusal->log = "numel overflowed";
    return false;
  }
  if (t_.tensor_impl_scalar_types != 0 && !Refused() &&
      !(t.dtype >= 0 && t.dtype < 64 && (t_.tensor_impl_scalar_types >> t.dtype) & 1)) {
    Refuse("abort (ET_CHECK)", where() + " is a tensor of ScalarType " + std::to_string(t.dtype) +
                                   ", whose size this release's TensorImpl does not know");
    // Half, the complex types, BFloat16 and Undefined fail the first check; the rest of the
    // codes the switch over the enum's types.
    const bool first_check = t.dtype == 5 || (t.dtype >= 8 && t.dtype <= 10) || t.dtype == 15 ||
                             t.dtype == 23;
    plan_.refusal->log = std::string(first_check ? "Invalid or unsupported ScalarType "
                                                 : "Invalid input ScalarType ") +
                         std::to_string(t.dtype);
    return false;
  }
  if (Refused()) return false;
  // Then the parser asks it for its bytes (TensorImpl::nbytes; 1.1: ET_CHECK "nbytes
  // overflowed") to find its data.
  if (t_.tensor_impl_overflow_checked && bytes && bytes->nbytes_overflows) {
    Refuse("abort (ET_CHECK)", where() + "'s size in bytes overflows the target's size_t");
    plan_.refusal->log = "nbytes overflowed";
    return false;
  }
  nbytes_ = bytes ? std::optional<uint64_t>(bytes->nbytes) : std::nullopt;
  return ResolveData(t, value);
}

// The data pointer (deserialization::getTensorDataPtr), after the TensorImpl was allocated.
bool Planner::ResolveData(const pte::TensorView& t, int64_t value) {
  auto where = [value] { return "value " + std::to_string(value); };  // only on refusal
  // 0.6+ read the data location first: an EXTERNAL tensor takes its data from the data map.
  // (Earlier releases ignore it: the tensor is an ordinary planned or data-less tensor.)
  if (t.external && t_.external_constants) {
    if (!t.planned) return true;  // an external constant: resolved before the values (R3)
    if (t.fqn_index == 0) {
      Refuse("InvalidExternalData", where() + " is an external tensor without a key");
      plan_.refusal->log = "Fully qualified name of external tensor is null";
      return false;
    }
    // The map's contents are not modelled here; the tensor's planned memory is looked up
    // after the map gave its layout.
    if (options_.external_data_map) return PlannedLookup(t, value);
    const std::string key(RuntimeKey(m_.FqnOf(t)));
    const std::string reason =
        where() + " is a planned tensor whose initial value is loaded from a .ptd file (key '" +
        key + "'), and no data map was passed to load_method (use --external-data)";
    if (!t_.external_planned_map_null_checked) return Refuse("crash (null dereference)", reason);
    Refuse("InvalidExternalData", reason);
    plan_.refusal->log = "Cannot retrieve external tensor with fqn: " + key +
                         ". The named_data_map is null; most likely no external .ptd file was "
                         "provided.";
    return false;
  }
  // Planned without an initial value: its planned memory; no data: nothing to resolve (an
  // input, an unplanned output).
  if (t.data_index == 0) return !t.planned || PlannedLookup(t, value);
  // Mutable state (planned, with an initial value in the program) is copied from the
  // program's first mutable data segment (Program::load_mutable_subsegment_into), into its
  // planned memory, looked up first.
  if (t_.copies_mutable_state_at_load && t.planned) {
    if (!PlannedLookup(t, value)) return false;
    const bool no_segments = !program_.header || program_.header->segment_base_offset == 0;
    if (no_segments || !program_.has_mutable_segments_vector) {
      Refuse("NotFound", where() + " is mutable state with an initial value (data index " +
                             std::to_string(t.data_index) + "), and the program has no " +
                             (no_segments ? "segments" : "mutable data segment") +
                             " to copy it from");
      plan_.refusal->log = no_segments ? "No segments in program"
                                       : "No mutable data segments in program";
      return false;
    }
    return LoadMutableState(t, value);
  }
  return ResolveConstant(t, value);
}

// HierarchicalAllocator::get_offset_address over the runner's planned buffers: one per entry of
// Method.planned_buffer_sizes after the reserved first, each as large as the entry says.
bool Planner::PlannedLookup(const pte::TensorView& t, int64_t value) {
  auto where = [value] { return "value " + std::to_string(value); };  // only on refusal
  if (!nbytes_) return true;  // a dtype no release knows: refused before, where it is checked
  const uint64_t nbytes = *nbytes_;
  const bool size_t_32_bit = max_size_t_ <= UINT32_MAX;
  uint64_t offset = t_.planned_offset_high_read &&
                            !(size_t_32_bit && t_.planned_offset_high_dropped_where_size_t_is_32_bit)
                        ? t.offset
                        : (t.offset & 0xFFFFFFFFu);
  const uint32_t high = static_cast<uint32_t>(offset >> 32);
  if (high != 0 && size_t_32_bit) {
    char words[40];
    std::snprintf(words, sizeof words, t_.planned_offset_words_dotted ? "0x%08x.%08x" : "0x%08x%08x",
                  high, static_cast<uint32_t>(offset));
    Refuse("NotSupported", where() + " is planned at offset " + std::to_string(offset) +
                               ", which the target's 32-bit size_t cannot hold");
    plan_.refusal->log = std::string("size_t cannot hold memory offset ") + words;
    return false;
  }
  // The runtime's id is the stored one minus 1, in uint32_t (0 wraps to 4294967295).
  const uint32_t id = t.memory_id - 1;
  const uint64_t n_buffers =
      m_.planned_buffer_sizes.empty() ? 0 : m_.planned_buffer_sizes.size() - 1;
  // offset + size in the target's size_t.
  const bool wraps = nbytes > max_size_t_ - offset;
  const uint64_t end = wraps ? nbytes - (max_size_t_ - offset) - 1 : offset + nbytes;
  if (wraps && t_.planned_lookup_overflow_checked) {
    Refuse("InvalidArgument", where() + ": its planned offset " + std::to_string(offset) +
                                  " + its " + std::to_string(nbytes) + " bytes overflow");
    plan_.refusal->log = "Integer overflow in offset_bytes (" + std::to_string(offset) +
                         ") + size_bytes (" + std::to_string(nbytes) + ")";
    return false;
  }
  if (id >= n_buffers) {
    Refuse("InvalidArgument",
           where() + " is planned in buffer " + std::to_string(t.memory_id) +
               ", and the method plans " + std::to_string(n_buffers) + " buffer" +
               (n_buffers == 1 ? "" : "s") + " (ids 1 to " + std::to_string(n_buffers) + ")");
    plan_.refusal->log = "id " + std::to_string(id) + " >= " + std::to_string(n_buffers);
    return false;
  }
  const uint64_t size = static_cast<uint64_t>(m_.planned_buffer_sizes[id + 1]);
  if (end <= size) return true;
  Refuse("MemoryAllocationFailed",
         where() + ": its " + std::to_string(nbytes) + " bytes at offset " +
             std::to_string(offset) + " end past planned buffer " + std::to_string(t.memory_id) +
             " (" + std::to_string(size) + " bytes), where the runner's buffer ends");
  plan_.refusal->log = "offset_bytes (" + std::to_string(offset) + ") + size_bytes (" +
                       std::to_string(nbytes) + ") >= allocator size (" + std::to_string(size) +
                       ") for memory_id " + std::to_string(id);
  return false;
}

// Program::load_mutable_subsegment_into(0, data index, nbytes): the rest of its checks, once the
// program has segments and a mutable_data_segments vector.
bool Planner::LoadMutableState(const pte::TensorView& t, int64_t value) {
  auto where = [value] { return "value " + std::to_string(value); };  // only on refusal
  auto refuse = [&](const char* error, const std::string& why, std::string log) {
    Refuse(error, where() + " is mutable state with an initial value (data index " +
                      std::to_string(t.data_index) + "): " + why);
    plan_.refusal->log = std::move(log);
    return false;
  };
  if (program_.mutable_segments == 0)
    return refuse("NotFound", "the program's mutable data segment list is empty",
                  "mutable_data_segments_index 0 out of range >= 0");
  if (!program_.first_mutable_has_offsets)
    return refuse("NotFound", "the first mutable data segment has no offsets",
                  "No offsets in mutable data segment");
  const auto& offsets = program_.first_mutable_offsets;
  if (t.data_index >= offsets.size())
    return refuse("NotFound",
                  "the first mutable data segment has " + std::to_string(offsets.size()) +
                      " offsets",
                  "offset index " + std::to_string(t.data_index) + " out of range >= " +
                      std::to_string(offsets.size()));
  const uint32_t segment = program_.mutable_segment_indices.empty()
                               ? UINT32_MAX
                               : program_.mutable_segment_indices[0];
  if (segment >= program_.segments.size())
    return refuse("NotFound",
                  "its segment " + std::to_string(segment) + " does not exist (the program has " +
                      std::to_string(program_.segments.size()) + ")",
                  "Segment index " + std::to_string(segment) + " out of range (>= " +
                      std::to_string(program_.segments.size()) + ")");
  const uint64_t nbytes = nbytes_.value_or(0);
  // The runtime reads the 64-bit offset into a size_t (`size_t offset = offsets()->Get(i)`): a
  // 32-bit target keeps its low word.
  const uint64_t offset = offsets[t.data_index] & max_size_t_;
  const uint64_t size = program_.segments[segment].size;
  const bool wraps = nbytes > max_size_t_ - offset;
  if (wraps && t_.mutable_subsegment_overflow_checked)
    return refuse("InvalidProgram", "its offset plus its size overflows",
                  "offset " + std::to_string(offset) + " + size " + std::to_string(nbytes) +
                      " overflows");
  const uint64_t end = wraps ? nbytes - (max_size_t_ - offset) - 1 : offset + nbytes;
  if (end > size)
    return refuse("InvalidArgument",
                  "its " + std::to_string(nbytes) + " bytes at offset " + std::to_string(offset) +
                      " run past the end of the mutable data segment (" + std::to_string(size) +
                      " bytes)",
                  "offset " + std::to_string(offset) + " + size " + std::to_string(nbytes) +
                      " out of range > " + std::to_string(size));
  return true;
}

// Program::get_constant_buffer_data: a data index names an entry of the constant segment when
// Program::load loaded one, else an entry of the inline Program.constant_buffer.
bool Planner::ResolveConstant(const pte::TensorView& t, int64_t value) {
  auto where = [value] { return "value " + std::to_string(value); };  // only on refusal
  auto index = [&t] { return std::to_string(t.data_index); };
  if (!t_.constant_segment) {
    // 0.1 looks every data index up in Program.constant_buffer, checking only the index.
    if (t.data_index < program_.inline_constant_buffers) return true;
    Refuse(program_.has_inline_constant_vector ? "InvalidArgument" : "crash (null dereference)",
           where() + ": data index " + index() + " is looked up in Program.constant_buffer (" +
               std::to_string(program_.inline_constant_buffers) + " entries)" +
               (program_.constant_segment
                    ? "; this release does not know Program.constant_segment, where "
                      "the program keeps its constants"
                    : ""));
    if (program_.has_inline_constant_vector)
      plan_.refusal->log = "Constant buffer " + index() + " out of program buffer range " +
                           std::to_string(program_.inline_constant_buffers);
    return false;
  }
  const uint64_t nbytes = nbytes_.value_or(0);
  if (program_.constant_segment && program_.constant_offsets >= t_.constant_segment_min_offsets) {
    const uint32_t n = program_.constant_offsets;
    if (t.data_index >= n) {
      Refuse("InvalidArgument", where() + ": data index " + index() + " is beyond the constant "
                                        "segment's " + std::to_string(n) + " entries");
      plan_.refusal->log = "Constant segment buffer index " + index() +
                           " invalid for program constant segment range " + std::to_string(n);
      return false;
    }
    if (t.data_index >= program_.constants.size()) return true;  // a view made without them
    // The offset as written (uint64_t in every release); 1.3+ check it against the segment's
    // size first, before that offset + nbytes is summed in uint64_t and may wrap (a wrapped
    // end passes the check and the tensor's data pointer lands outside the segment).
    const uint64_t offset = program_.constants[t.data_index].segment_offset;
    const uint64_t size = program_.constant_segment_bytes;
    const bool fits = t_.constant_offset_checked_first ? offset <= size && nbytes <= size - offset
                                                       : offset + nbytes <= size;
    if (fits) return true;
    Refuse("InvalidArgument", where() + ": its " + std::to_string(nbytes) + " bytes at data index " +
                                  index() + " run past the end of the constant segment");
    plan_.refusal->log = "Constant segment offset " + std::to_string(offset) + " + size_bytes " +
                         std::to_string(nbytes) + " invalid for program constant segment size " +
                         std::to_string(size);
    return false;
  }
  // The inline path.
  if (!program_.has_inline_constant_vector && !t_.inline_constant_vector_null_checked)
    return Refuse("crash (null dereference)",
                  where() + ": data index " + index() + " is looked up in Program.constant_buffer, "
                          "which the program does not have and this release reads unchecked");
  const uint32_t n = program_.inline_constant_buffers;
  if (t.data_index >= n) {
    Refuse("InvalidArgument", where() + ": data index " + index() + " is beyond Program.constant_"
                                      "buffer's " + std::to_string(n) + " entries");
    plan_.refusal->log = "Constant buffer index " + index() +
                         " invalid for program constant buffer range " + std::to_string(n);
    return false;
  }
  // (Also where the program has a constant segment this release does not load.)
  if (t.data_index >= program_.inline_constant_sizes.size()) return true;  // a view made without
  const uint64_t storage = program_.inline_constant_sizes[t.data_index];
  if (t_.inline_constant_covers_tensor ? nbytes <= storage : storage <= nbytes) return true;
  Refuse("InvalidArgument", where() + ": its inline constant (data index " + index() + ") has " +
                                std::to_string(storage) + " bytes, the tensor " +
                                std::to_string(nbytes));
  plan_.refusal->log = t_.inline_constant_covers_tensor
                           ? "Requested nbytes " + std::to_string(nbytes) +
                                 " exceeds constant buffer storage size " + std::to_string(storage)
                           : "Constant buffer size " + std::to_string(storage) +
                                 " larger than allocated nbytes " + std::to_string(nbytes);
  return false;
}

void Planner::ParseList(const pte::ValueView& v, int64_t value) {
  const bool boxed = t_.boxed_lists;
  switch (v.kind) {
    case ValueKind::kIntList:
      List(Site::kIntListPointers, v.count, value);
      List(Site::kIntListValues, v.count, value);
      if (!ListItemsAllowed(v, value)) return;
      if (boxed) Instance(Site::kIntListBox, value);
      break;
    case ValueKind::kBoolList:
      if (boxed) Instance(Site::kBoolList, value);
      break;
    case ValueKind::kDoubleList:
      if (boxed) Instance(Site::kDoubleList, value);
      break;
    case ValueKind::kString:
      if (boxed) Instance(Site::kString, value);
      break;
    case ValueKind::kTensorList:
      List(Site::kTensorListTensors, v.count, value);
      List(Site::kTensorListPointers, v.count, value);
      if (!ListItemsAllowed(v, value)) return;
      if (boxed) Instance(Site::kTensorListBox, value);
      break;
    case ValueKind::kOptionalTensorList:
      // Pointers first here, unlike TensorList (spec trap 8).
      List(Site::kOptionalListPointers, v.count, value);
      List(Site::kOptionalListValues, v.count, value);
      if (!ListItemsAllowed(v, value)) return;
      if (boxed) Instance(Site::kOptionalListBox, value);
      break;
    default:
      break;  // None, Null, Int, Bool, Double live inside the EValue
  }
}

// A list's items as parse_values meets them, after the list's arrays were allocated (the
// reader leaves them unjudged): the index first, then (tensor lists) the item's type.
bool Planner::ListItemsAllowed(const pte::ValueView& v, int64_t value) {
  if (Refused()) return false;
  const bool int_list = v.kind == ValueKind::kIntList;
  const bool optional = v.kind == ValueKind::kOptionalTensorList;
  const char* list_name = int_list ? "IntList" : optional ? "ListOptional" : "TensorList";
  const std::string where = "value " + std::to_string(value) + " (" +
                            pte::ValueKindName(v.kind) + ")";
  const size_t n = m_.values.size();
  // A view made in memory without its items (tests): nothing to judge.
  if (uint64_t{v.index} + uint64_t{v.count} * (int_list ? 2 : 1) > m_.words.size()) return true;
  const pte::ListItems items = m_.ItemsOf(v);
  for (size_t j = 0; j < items.size(); ++j) {
    const int64_t item = items[j];
    if (optional && item == -1) continue;  // None
    if (item < 0 || static_cast<uint64_t>(item) >= n) {
      const std::string what = where + ": item " + std::to_string(j) + " names value " +
                               std::to_string(item) + " of the method's " + std::to_string(n);
      if (t_.list_item_indexes_checked) {
        Refuse("InvalidProgram", what);
        plan_.refusal->log = "Invalid value index " + std::to_string(item) + " for " + list_name +
                             (int_list ? " " + std::to_string(value) + " index " + std::to_string(j)
                                       : std::string());
        return false;
      }
      // An IntList only takes the item's address (&values_[X]); nothing is read at load.
      if (int_list) continue;
      return Refuse("undefined behaviour",
                    what + ": this release reads values[" + std::to_string(item) +
                        "] unchecked, outside the values array");
    }
    if (int_list) continue;
    // An item parsed after the list (or the list itself): parse_values has not constructed its
    // EValue yet, and the release reads its tag from the method pool's bytes. Every runner's
    // pool (a static array; etmem measure's calloc) is zero there: tag 0, None (an optional
    // list's item is None and the method loads). Other bytes there would be undefined behaviour.
    const bool unparsed = item >= value;
    const ValueKind k = unparsed ? ValueKind::kNull : m_.values[static_cast<size_t>(item)].kind;
    if (k == ValueKind::kTensor || (optional && k == ValueKind::kNull)) continue;
    const std::string what =
        where + ": item " + std::to_string(j) + " is value " + std::to_string(item) +
        (unparsed ? std::string(", parsed after the list: its EValue is not constructed yet, and "
                                "the release reads its tag from the method pool, zero in a "
                                "runner's zero-initialised pool (None; other bytes there are "
                                "undefined behaviour), not a tensor")
                  : std::string(", a ") + pte::ValueKindName(k) + ", not a tensor") +
        (optional ? " nor None" : "");
    if (t_.tensor_list_item_types_checked) {
      Refuse("InvalidType", what);
      plan_.refusal->log = std::string("Failed parsing ") + (optional ? "optional " : "") +
                           "tensor list at index " + std::to_string(value) + ": 0x13";
      return false;
    }
    return Refuse("abort (ET_CHECK)", what + " (toTensor: \"EValue is not a Tensor.\")");
  }
  return true;
}

bool Planner::InitDelegates() {
  if (!m_.has_delegates_vector) {
    Refuse(t_.delegates_vector_checked ? "InvalidProgram" : "abort (ET_CHECK)",
           "the method has no delegates vector (not even an empty one)");
    if (t_.delegates_vector_checked) plan_.refusal->log = "Missing delegates field";
    return false;
  }
  List(Site::kDelegates, m_.delegates.size());
  if (Refused()) return false;
  // The program's PteDataMap exists whenever Program.named_data is present, even empty.
  const bool both_maps = options_.external_data_map && program_.has_named_data_vector;
  if (both_maps && t_.refuses_external_map_with_named_data) {
    Refuse("NotSupported", "a .ptd data map was passed and the program has named data; "
                           "this release cannot merge them");
    plan_.refusal->log = "NamedDataMap merge not supported; both pte_data_map and named_data_map "
                         "are non-empty. If you see this error please file an issue at "
                         "https://github.com/pytorch/executorch/issues";
    return false;
  }
  if (both_maps && t_.merged_data_map) {
    // MergedDataMap::load, then the merged map's instance.
    if (ptd_outcome_ && ptd_outcome_->where == PtdOutcome::Where::kMerge) {
      if (!plan_.refusal) plan_.refusal = ptd_outcome_->refusal;
      return false;
    }
    Instance(Site::kMergedDataMap);
  }
  for (size_t d = 0; d < m_.delegates.size(); ++d) {
    const pte::DelegateView& del = m_.delegates[d];
    const auto subject = static_cast<int64_t>(d);
    // BackendDelegate::Init: the id first, then the backend, its data and its compile specs.
    if (!del.has_backend) {
      Refuse(t_.delegate_id_checked ? "InvalidProgram" : "crash (null dereference)",
             "delegate " + std::to_string(d) + " has no backend id");
      if (t_.delegate_id_checked) plan_.refusal->log = "Missing backend id";
      return false;
    }
    if (del.has_compile_specs) {
      List(Site::kCompileSpecs, del.compile_specs, subject);
    } else if (!t_.null_compile_specs_skipped) {
      return Refuse("InvalidProgram", "delegate " + std::to_string(d) +
                                          " has no compile_specs vector, which this release "
                                          "dereferences unconditionally (a crash)");
    }
    if (auto declared = options_.declared_backends.find(del.backend);
        declared != options_.declared_backends.end()) {
      if (declared->second.bytes > 0) Raw(Site::kBackendInit, declared->second, subject);
      continue;
    }
    auto backend = t_.backends.find(std::string(del.backend));
    if (backend == t_.backends.end()) {
      plan_.unknowns.push_back({subject, std::string(del.backend),
                                "etmem has no model of what backend '" + Printable(del.backend) +
                                    "' allocates in init(); the total is a lower bound"});
      continue;
    }
    if (!backend->second.unknown_because.empty()) {
      plan_.unknowns.push_back({subject, std::string(del.backend),
                                backend->second.name + " " + backend->second.unknown_because +
                                    "; the total is a lower bound"});
      continue;
    }
    if (!InitReadsPayload(backend->second, del, d)) return false;
    if (!backend->second.type.empty()) BackendInit(backend->second, d);
  }
  return true;
}

bool Planner::InitChains() {
  if (m_.chains.empty()) {
    if (t_.empty_chains_refused_first) return Refuse("InvalidProgram", "the method has no chains");
    List(Site::kChains, 0);  // checked only at the end of Method::init
    return Refuse("Internal", "the method has no chains");
  }
  List(Site::kChains, m_.chains.size());
  // resolve_operator's returned errors wait for the end of the loop, each kernel call's result
  // replacing the last (Method::init's delayed_error; RuntimeTraits::op_index_checked).
  std::optional<Refusal> delayed;
  for (size_t c = 0; c < m_.chains.size(); ++c) {
    const pte::ChainView& chain = m_.chains[c];
    List(Site::kChainKernels, chain.instructions_count, static_cast<int64_t>(c));
    List(Site::kChainArgLists, chain.instructions_count, static_cast<int64_t>(c));
    for (uint32_t i = 0; i < chain.instructions_count; ++i) {
      const uint32_t index = chain.instructions_begin + i;
      const pte::InstructionView& ins = m_.instructions[index];
      if (ins.kind != InstructionKind::kKernelCall && ins.kind != InstructionKind::kDelegateCall) {
        // Jumps, moves and frees take no argument list; some releases check their indexes.
        if (!ValueIndexesChecked(ins, c, i)) return false;
        continue;
      }
      List(Site::kInstructionArgs, ins.args_count, index);
      if (!CallArgsAllowed(ins, c, i)) return false;  // returned at once: `delayed` is dropped
      if (ins.kind == InstructionKind::kKernelCall) {
        resolve_error_ = false;
        ResolveOperator(ins, index);
        if (resolve_error_ && t_.op_index_checked) {  // returned: delayed, the last one stands
          delayed = std::move(plan_.refusal);
          plan_.refusal.reset();
        } else if (t_.op_index_checked && !Refused()) {
          delayed.reset();  // delayed_error = Ok
        }
      }
      if (Refused()) return false;
    }
  }
  if (delayed) plan_.refusal = std::move(delayed);
  return !Refused();
}

// Method::init's index checks of the instructions without arguments (ET_CHECK_VALID_VALUE_INDEX
// from 1.3; the jump's own check from 0.2), where the loop meets them.
bool Planner::ValueIndexesChecked(const pte::InstructionView& ins, size_t chain, uint32_t i) {
  const bool checked = ins.kind == InstructionKind::kJumpFalse ? t_.jump_false_index_checked
                       : ins.kind == InstructionKind::kMove || ins.kind == InstructionKind::kFree
                           ? t_.move_free_indexes_checked
                           : false;
  if (!checked) return true;
  const size_t n = m_.values.size();
  for (int32_t index : {ins.target, ins.kind == InstructionKind::kMove ? ins.second : 0}) {
    if (index >= 0 && static_cast<size_t>(index) < n) continue;
    Refuse("InvalidProgram", "chain " + std::to_string(chain) + ", instruction " +
                                 std::to_string(i) + " (" + pte::InstructionKindName(ins.kind) +
                                 ") names value " + std::to_string(index) + " of " +
                                 std::to_string(n));
    plan_.refusal->log = "Index " + std::to_string(index) + " negative or >= " + std::to_string(n);
    return false;
  }
  return true;
}

// gen_instruction_arguments, after the call's EValue* array: each argument against the values
// (0.2+). 0.1 takes the addresses only; its resolve_operator reads a kernel call's arguments
// (ResolveOperatorMetadata).
bool Planner::CallArgsAllowed(const pte::InstructionView& ins, size_t chain, uint32_t i) {
  if (Refused()) return false;
  if (m_.value_references_in_range || !t_.call_arg_indexes_checked) return true;
  const size_t n = m_.values.size();
  for (int32_t a : m_.ArgsOf(ins)) {
    if (m_.HasValue(a)) continue;
    Refuse("InvalidProgram", "chain " + std::to_string(chain) + ", instruction " +
                                 std::to_string(i) + " (" + pte::InstructionKindName(ins.kind) +
                                 ") has an argument naming value " + std::to_string(a) +
                                 " of the method's " + std::to_string(n));
    plan_.refusal->log = "Arg index " + std::to_string(a) + " >= " + std::to_string(n);
    return false;
  }
  return true;
}

// After the chain loop, 0.1-0.3 read the inputs' and then the outputs' values (whether a tensor
// input or output has its data already): 0.2-0.3 check each index first; 0.1 reads them
// unchecked, stopping at the first tensor. 0.1 also reads the inputs and outputs vectors
// unchecked (inputs_size()), which method_meta did not check at that release.
bool Planner::InputsOutputsRead() {
  if (!t_.inputs_outputs_read_at_init) return true;
  const size_t n = m_.values.size();
  struct Io {
    const std::vector<int32_t>& values;
    bool present;
    const char* name;  // as the runtime's message has it
  };
  for (const Io& io : {Io{m_.inputs, m_.has_inputs_vector, "Input"},
                       Io{m_.outputs, m_.has_outputs_vector, "output"}}) {
    const std::string which = io.name[0] == 'I' ? "input" : "output";
    if (!io.present && !t_.method_meta_checks_fields)
      return Refuse("crash (null dereference)",
                    "the method has no " + which + "s field, which Method::init reads unchecked "
                    "at this release (" + which + "s_size())");
    for (size_t k = 0; k < io.values.size(); ++k) {
      const int32_t v = io.values[k];
      if (m_.HasValue(v)) {
        if (!t_.inputs_outputs_indexes_checked && m_.values[static_cast<size_t>(v)].kind ==
                                                      ValueKind::kTensor)
          break;  // 0.1: the loop ends at the first tensor
        continue;
      }
      const std::string what = which + " " + std::to_string(k) + " names value " +
                               std::to_string(v) + " of the method's " + std::to_string(n);
      if (!t_.inputs_outputs_indexes_checked)
        return Refuse("undefined behaviour",
                      what + ": Method::init reads values_[" + std::to_string(v) +
                          "] unchecked at this release, outside the values array");
      Refuse("InvalidProgram", what);
      plan_.refusal->log = std::string(io.name) + " index " +
                           std::to_string(static_cast<uint64_t>(int64_t{v}) & max_size_t_) +
                           " >= " + std::to_string(n);
      return false;
    }
  }
  return true;
}

// TensorMeta for every argument, then a dim-order array per Tensor argument (spec trap 4).
// From 1.0 these go to the user's temp allocator, reset when resolve_operator returns.
void Planner::ResolveOperator(const pte::InstructionView& ins, int64_t instruction) {
  // The op index first (0.2+; 0.1 reads the operator unchecked), then the operator's name,
  // written into a 100-byte buffer (populate_operator_name).
  if (ins.target < 0 || static_cast<size_t>(ins.target) >= m_.operators.size()) {
    const std::string what = "instruction " + std::to_string(instruction) + " calls operator " +
                             std::to_string(ins.target) + " of the method's " +
                             std::to_string(m_.operators.size());
    if (!t_.op_index_checked) {
      Refuse("undefined behaviour", what + ": resolve_operator reads ops->Get(" +
                                        std::to_string(ins.target) +
                                        ") unchecked at this release, past the operators vector");
      return;
    }
    Refuse("InvalidProgram", what);
    plan_.refusal->log = "Op index " + std::to_string(static_cast<uint32_t>(ins.target)) +
                         " out of range";
    resolve_error_ = true;
    return;
  }
  if (!OperatorNameFits(ins, instruction)) {
    // Returned (0.2+: InvalidProgram, Internal); 0.1 aborts or crashes here.
    resolve_error_ = t_.operator_name_checked;
    return;
  }
  ResolveOperatorMetadata(ins, instruction);
}

bool Planner::OperatorNameFits(const pte::InstructionView& ins, int64_t instruction) {
  const pte::OperatorView& op = m_.operators[static_cast<size_t>(ins.target)];
  auto where = [&] {
    return "instruction " + std::to_string(instruction) + " calls operator " +
           std::to_string(ins.target);
  };
  if (op.name.data() == nullptr) {
    Refuse(t_.operator_name_checked ? "InvalidProgram" : "crash (null dereference)",
           where() + ", which has no name");
    if (t_.operator_name_checked) plan_.refusal->log = "Missing operator name";
    return false;
  }
  constexpr size_t kNameBuffer = 100;  // kTempBufferSizeForName
  if (op.name.size() + 1 + op.overload.size() < kNameBuffer) return true;  // no string built
  // (%s stops at a NUL byte.)
  auto c_str = [](std::string_view s) { return std::string(s.substr(0, s.find('\0'))); };
  const std::string full = c_str(op.name) + (op.overload.empty() ? "" : ".") + c_str(op.overload);
  if (full.size() >= kNameBuffer) {
    Refuse(t_.operator_name_checked ? "Internal" : "abort (ET_CHECK)",
           where() + ", whose name '" + Printable(full, 120) + "' has " + std::to_string(full.size()) +
               " characters; the runtime's buffer holds 99");
    plan_.refusal->log = std::string(t_.operator_name_checked ? "" : "Aborting. ") +
                         "Operator name " + Printable(full, SIZE_MAX) + " with length " +
                         std::to_string(full.size()) + " truncated to " +
                         std::to_string(kNameBuffer) + " due to internal buffer limit.";
    return false;
  }
  return true;
}

void Planner::ResolveOperatorMetadata(const pte::InstructionView& ins, int64_t instruction) {
  PoolKind pool = t_.operator_metadata_on_user_temp && options_.temp_allocator
                      ? PoolKind::kTemp
                      : PoolKind::kMethod;
  // 1.0.0 on: an empty temp allocator (size() == 0) is passed over for the method allocator.
  const bool empty_temp = options_.temp_pool_bytes && *options_.temp_pool_bytes == 0;
  if (pool == PoolKind::kTemp && t_.operator_metadata_skips_empty_temp && empty_temp) {
    pool = PoolKind::kMethod;
    ++plan_.metadata.fell_back;
  }
  if (t_.operator_metadata_temp_fallback_dims > 0 && options_.temp_allocator) {
    // main: the temp allocator only if its capacity covers the instruction's worst case.
    const uint64_t worst = uint64_t{ins.args_count} *
                           (model_.Layout("TensorMeta").size +
                            uint64_t{t_.operator_metadata_temp_fallback_dims} *
                                model_.Layout("DimOrderType").size);
    plan_.metadata.temp_bytes_for_all = std::max(plan_.metadata.temp_bytes_for_all, worst);
    // (A temp allocator of size 0 is never used, even for an instruction without arguments.)
    if (pool == PoolKind::kTemp && options_.temp_pool_bytes &&
        (*options_.temp_pool_bytes == 0 || *options_.temp_pool_bytes < worst)) {
      pool = PoolKind::kMethod;
      ++plan_.metadata.fell_back;
    }
    if (pool == PoolKind::kTemp)
      plan_.metadata.temp_floor_bytes = std::max(plan_.metadata.temp_floor_bytes, worst);
  }
  ++(pool == PoolKind::kTemp ? plan_.metadata.on_temp : plan_.metadata.on_method);
  List(Site::kTensorMeta, ins.args_count, instruction, -1, pool);
  auto args = m_.ArgsOf(ins);
  for (size_t a = 0; a < args.size(); ++a) {
    if (!m_.HasValue(args[a])) {  // 0.1 only: later releases refused it in CallArgsAllowed
      Refuse("undefined behaviour",
             "instruction " + std::to_string(instruction) + ": argument " + std::to_string(a) +
                 " names value " + std::to_string(args[a]) + " of the method's " +
                 std::to_string(m_.values.size()) + ", and resolve_operator reads values_[" +
                 std::to_string(args[a]) + "] unchecked at this release, outside the values "
                 "array");
      return;
    }
    if (const uint32_t rank = tensor_rank_[static_cast<size_t>(args[a])]; rank != kNotATensor)
      List(Site::kTensorMetaDimOrder, rank, instruction, static_cast<int64_t>(a), pool);
  }
  if (pool == PoolKind::kTemp && !Refused()) Last().reset_temp_after = true;
}

// The sink that keeps every request: LoadPlan::requests.
class KeepRequests final : public RequestSink {
 public:
  explicit KeepRequests(std::vector<AllocationRequest>& out) : out_(out) {}
  void Take(std::span<const AllocationRequest> batch) override {
    out_.insert(out_.end(), batch.begin(), batch.end());
  }

 private:
  std::vector<AllocationRequest>& out_;
};

}  // namespace

size_t EstimatedRequests(const pte::MethodView& method) {
  size_t args = 0;
  for (const pte::InstructionView& i : method.instructions) args += i.args_count;
  return method.values.size() + 2 * method.tensors.size() + 4 * method.instructions.size() +
         args + 8;
}

namespace {

}  // namespace

void StreamMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                      const RuntimeModel& model, const LoadOptions& options, LoadPlan& out,
                      RequestSink& sink) {
  Planner(program, method, model, options, out, sink).Run();
}

void PlanMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                    const RuntimeModel& model, const LoadOptions& options, LoadPlan& out) {
  std::vector<AllocationRequest> requests = std::move(out.requests);  // keeps a reused capacity
  requests.clear();
  requests.reserve(EstimatedRequests(method));
  KeepRequests keep(requests);
  StreamMethodLoad(program, method, model, options, out, keep);
  out.requests = std::move(requests);
}

LoadPlan PlanMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                        const RuntimeModel& model, const LoadOptions& options) {
  LoadPlan plan;
  PlanMethodLoad(program, method, model, options, plan);
  return plan;
}

}  // namespace etmem::runtime
