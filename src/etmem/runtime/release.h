// Owns: what distinguishes one ExecuTorch release from another, as data (RuntimeTraits), and the
// registry of releases. Each release lives in its own file under releases/, written as a small
// named delta on the release before it; the registry applies the chain. Adding a release means
// adding one file there (CMake picks it up). Nothing outside releases/ compares version numbers:
// the load model asks about capabilities.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "etmem/abi/layout.h"
#include "etmem/base/result.h"
#include "etmem/runtime/sites.h"

namespace etmem::runtime {

// What a delegate's backend takes from the method allocator in init() (spec §5).
struct BackendModel {
  std::string name;       // a readable name, e.g. "XNNPACK"
  std::string type;       // type allocated once per delegate (in the release's type table);
                          // empty: the backend takes nothing from the method allocator
  // Non-empty when the amount cannot be known from the program: reports then say "unknown"
  // and give the total as a lower bound.
  std::string unknown_because;
  OnFailure on_failure = OnFailure::kError;
  // The backend keeps the processed blob the runtime hands to init() and reads it in execute(),
  // so with a zero-copy data loader the blob stays where it is (flash). Otherwise what init()
  // copies out of the blob is the backend's business and not in the program.
  bool reads_blob_in_place = false;
  // Non-empty: init() reads the Vela payload's blocks (the Arm Ethos-U backend from main's
  // snapshot: vela_bin_read) and refuses the delegate, InvalidProgram, at a block whose name
  // starts with none of these ("Invalid block name or malformed binary"); load_method then fails
  // with the runtime's "Init failed for backend ..." line.
  std::vector<std::string> init_reads_blocks;
};

struct RuntimeTraits {
  std::string version;  // "1.4.1", or a snapshot's name: "main-20260822-cff6f4dd"
  std::string summary;  // one line: what this release changed, for `etmem list runtimes`
  // A snapshot of a branch (main), not a published release: the commit it models and that
  // commit's date (YYYY-MM-DD). Empty for releases. Snapshots are never a default and are not
  // in "all" (--runtime all means every published release).
  std::string commit;
  std::string commit_date;
  bool is_snapshot() const { return !commit.empty(); }

  // ---- Method::load / Method::init sequence (spec §3) ----
  bool platform_allocator_when_no_temp = false;  // R0
  // ---- While the method runs (kernels/run_temp.h) ----
  // KernelRuntimeContext carries the temp allocator (allocate_temp exists), and the backend
  // context of a delegate call does too.
  bool kernels_reach_temp_allocator = false;
  // Method::step resets the temp allocator after every instruction: the run-time need is a peak
  // over instructions, not a sum.
  bool temp_reset_each_instruction = false;
  // PlatformMemoryAllocator::allocate asks et_pal_allocate for sizeof(AllocationNode) + size +
  // alignment - 1 bytes (true) or + alignment (false).
  bool platform_allocator_slack_minus_one = false;
  bool input_set_array = false;                  // R2
  bool external_constants = false;               // R3 and the .ptd lookups
  bool merged_data_map = false;                  // R21 (else: both maps given -> NotSupported)
  bool refuses_external_map_with_named_data = false;  // 0.7: NotSupported instead of merging
  bool boxed_lists = false;                      // R10-R13, R16, R19: EValue holds pointers
  bool operator_metadata_on_user_temp = false;   // R28/R29 go to a non-empty user temp allocator
  // R28/R29 go to the method allocator when the temp allocator passed is empty: 1.0.0 on,
  // Method::resolve_operator takes the method allocator when the temp allocator is null or its
  // size() is 0 (so a 0 B temp pool is a size the load depends on, not "no temp allocator").
  bool operator_metadata_skips_empty_temp = false;
  // R28/R29 fall back to the method allocator when the temp allocator's size() is below the
  // instruction's worst case, n_args x (sizeof(TensorMeta) + this many DimOrderType): this is
  // kTensorDimensionLimit; 0 = no such fallback (the temp allocator is used whatever its size).
  uint32_t operator_metadata_temp_fallback_dims = 0;
  // The temp pool of the release's examples/portable/executor_runner, in bytes (0: unknown):
  // what a fallback release assumes when neither --temp-pool nor a runner gives the size.
  uint64_t portable_runner_temp_pool_bytes = 0;
  bool null_compile_specs_skipped = false;       // R22 skipped when compile_specs is absent
  bool runner_passes_temp = false;               // what examples/portable/executor_runner does
  bool null_values_prescanned = false;           // a NONE value fails before R3, not at its index
  bool external_map_null_checked = false;        // else a missing .ptd map is a null dereference
  // 0.2+: a NONE value is InvalidProgram ("Null value at index"); 0.1's switch ET_CHECKs (abort).
  bool none_value_is_invalid_program = false;
  // 0.2+: a method without chains is InvalidProgram before R24; 0.1 allocates Chain[0] and fails
  // at the end of Method::init (Internal).
  bool empty_chains_refused_first = false;
  // ExecuTorch's own CMake compiles the inline constant_buffer path out
  // (ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0): such builds refuse programs without a constant
  // segment in Program::load.
  bool cmake_build_drops_inline_constants = false;
  uint32_t max_tensor_rank = 0;                  // 0: no limit checked at load
  // The ScalarType codes the tensor parser accepts: bit c for code c (isValid() of the
  // release's enum, minus the types its parser has no support for); a tensor of another code is
  // InvalidProgram, "Invalid or unsupported ScalarType c". 0: the parser checks nothing (0.1).
  uint64_t parser_scalar_types = 0;
  // 0.1: the parser checks nothing, but TensorImpl's constructor (sizeof_scalar_type) aborts
  // (ET_CHECK) on a code outside this mask, after the TensorImpl was allocated. 0: no such check.
  uint64_t tensor_impl_scalar_types = 0;
  std::array<OnFailure, static_cast<size_t>(Site::kCount)> on_failure{};

  // ---- Types: field lists, laid out per ABI by abi::TypeTable ----
  abi::TypeTable types;

  // ---- Backends that allocate in init(), by the id the backend registers under ----
  std::map<std::string, BackendModel> backends;
  // The id the Arm Ethos-U backend registers under (a key of `backends`; renamed in 0.6).
  std::string ethosu_backend;

  // ---- Program::load (flash / resident program) ----
  // 0.2+: Program.constant_segment is loaded and constant tensors point into it. Before, a
  // tensor's data index always names an entry of the inline Program.constant_buffer.
  bool constant_segment = false;
  uint32_t constant_segment_min_offsets = 1;  // constant segment loaded when offsets > this - 1
  // A planned tensor with data (data_index > 0) gets its initial bytes copied from the
  // program's first mutable data segment into its planned memory (DataLoader::load_into).
  // Else the release points such a tensor at the constant storage.
  bool copies_mutable_state_at_load = false;
  // Program.named_data segments are served to backends through the program's named data map.
  bool named_data_for_backends = false;
  // 0.6+: Program::load builds that map whenever Program.named_data is present (even empty) and
  // refuses a program without Program.segments: InvalidArgument "PteDataMap loader, named_data
  // or segments is null; ...", before the constant storage checks.
  bool named_data_map_needs_segments = false;

  // Refusals (issue 13 item 4): how the tensor parser and Program::get_constant_buffer_data
  // refuse data they cannot resolve (tests/measured/x86_64_refusals.json).
  // 0.6+: a missing Program.constant_buffer vector reads as empty; before, it is dereferenced
  // (a crash) when a data index takes the inline path.
  bool inline_constant_vector_null_checked = false;
  // 1.2+: an inline constant must hold at least the tensor's nbytes ("Requested nbytes N
  // exceeds constant buffer storage size S"); 0.2-1.1: at most ("Constant buffer size S larger
  // than allocated nbytes N"). 0.1 checks neither.
  bool inline_constant_covers_tensor = false;
  // The line Method::parse_external_constants logs when external constants meet no data map
  // (with external_map_null_checked; the variable's name changed in 1.0).
  std::string external_map_null_log;
  // 1.0+: a planned EXTERNAL tensor (initial value loaded from the data map into planned
  // memory) without a data map is InvalidExternalData; 0.6/0.7 call through the null map.
  bool external_planned_map_null_checked = false;
  // The planned-memory lookup (HierarchicalAllocator::get_offset_address, issue 26): every
  // planned tensor's bytes are looked up in the runner's planned buffers (one per
  // Method.planned_buffer_sizes entry after the reserved first, each as large as it says), after
  // its TensorImpl was allocated. An id beyond them is InvalidArgument "id I >= N", bytes past
  // the buffer's end MemoryAllocationFailed "offset_bytes (O) + size_bytes (S) >= allocator size
  // (B) for memory_id I" (every release). 1.1+: the sum is first checked for overflow
  // (InvalidArgument "Integer overflow in offset_bytes (O) + size_bytes (S)"); before, it wraps.
  bool planned_lookup_overflow_checked = false;
  // 0.2+: the offset's high word (offset_high) is read; 0.1 reads a 32-bit offset only.
  bool planned_offset_high_read = false;
  // Where size_t has 32 bits, a non-zero high word is NotSupported "size_t cannot hold memory
  // offset 0xHHHHHHHH.LLLLLLLL" (0.2+); 1.1+ prints the two words without the dot.
  bool planned_offset_words_dotted = true;
  // 0.6-1.0: getMemPlannedPtr only looks at the high word under `sizeof(size_t) >
  // sizeof(uint32_t) && high > 0`, so where size_t has 32 bits the NotSupported check is never
  // reached: the high word is dropped and the tensor is looked up at the offset's low word
  // (measured with g++ -m32). 0.2-0.5 and 1.1+ refuse it.
  bool planned_offset_high_dropped_where_size_t_is_32_bit = false;
  // populate_operator_name: an operator without a name is InvalidProgram ("Missing operator
  // name"), and "name.overload" of 100 characters or more does not fit the runtime's buffer:
  // Internal "Operator name N with length L truncated to 100 due to internal buffer limit."
  // (0.2+); 0.1 reads the absent name through a null pointer and ET_CHECKs the length (abort).
  bool operator_name_checked = false;
  // 0.2+: a String value without its string is InvalidProgram ("Missing string at index I");
  // 0.1 reads through the null pointer (a crash).
  bool absent_string_checked = false;
  // 1.2+: dim_order_to_stride refuses a dim order that is not a permutation (an entry repeated)
  // with "Invalid dim order: values must be a permutation of [0, N)", after the strides were
  // allocated; the tensor parser returns Internal. Before, the strides are computed anyway.
  bool dim_order_permutation_checked = false;
  // 1.1 only: TensorImpl ET_CHECKs its element count (compute_numel: "numel overflowed", past
  // SSIZE_MAX) and its bytes (nbytes(): "nbytes overflowed", past SIZE_MAX), aborting. Every
  // other release lets both products wrap in the target's ssize_t / size_t, and the tensor's
  // data is looked up with the wrapped byte count (1.3+ check only when resizing).
  bool tensor_impl_overflow_checked = false;
  // 0.2+: a delegate without a backend id is InvalidProgram ("Missing backend id") before its
  // backend is looked up; 0.1 reads the absent id through a null pointer (a crash).
  bool delegate_id_checked = false;
  // 1.3+: Program::load_mutable_subsegment_into checks offset + size for overflow
  // (InvalidProgram "offset O + size S overflows"); before, the sum wraps.
  bool mutable_subsegment_overflow_checked = false;
  // 1.3+: Program::get_constant_buffer_data checks a constant's segment offset against the
  // segment's size before its bytes (offset <= size && nbytes <= size - offset); before, it
  // checks offset + nbytes <= size in uint64_t, which wraps for an offset near 2^64 (the check
  // passes and the constant loads). Either way InvalidArgument "Constant segment offset O +
  // size_bytes N invalid for program constant segment size S".
  bool constant_offset_checked_first = false;
  // 0.2+: a method without a delegates vector is InvalidProgram ("Missing delegates field")
  // after its values were parsed; 0.1 ET_CHECKs it (abort).
  bool delegates_vector_checked = false;

  // ---- What a runner reads before load_method (issue 39) ----
  // 0.2+: Program::method_meta refuses a plan without its name, non_const_buffer_sizes, inputs
  // or outputs field: InvalidProgram "Missing X field" (in that order). 0.1 checks nothing, and
  // num_memory_planned_buffers() reads an absent non_const_buffer_sizes through null (a crash).
  bool method_meta_checks_fields = false;
  // 1.3+: MethodMeta::memory_planned_buffer_size refuses a negative size (InvalidProgram
  // "memory_planned_buffer_size(I) has invalid negative size: S"), and the runner's .get() of
  // the failed Result aborts (ET_CHECK in Result::get). Before, the size is returned and the
  // runner casts it to size_t: allocating that many bytes fails (new[] throws std::bad_alloc,
  // an abort).
  bool planned_buffer_size_negative_checked = false;

  // ---- Method::init's chain loop (issue 39) ----
  // 0.2+: resolve_operator checks the op index ("Op index N out of range", InvalidProgram), and
  // the chain loop keeps each kernel call's error in delayed_error, which the next kernel call's
  // result overwrites (an Ok included), returned after the loop: the last kernel call's error
  // stands. 0.1 reads ops->Get(op_index) unchecked (undefined behaviour past the vector).
  bool op_index_checked = false;
  // 0.2+: a JumpFalseCall's condition index is checked ("Index I negative or >= N",
  // InvalidProgram) where the loop meets it; 0.1 does not.
  bool jump_false_index_checked = false;
  // 1.3+: the same check for a MoveCall's two indexes and a FreeCall's; before, not checked.
  bool move_free_indexes_checked = false;
  // (No release checks a DelegateCall's delegate index in Method::init: Method::execute reads
  // delegates_[index] unchecked.)
  // 0.2+: gen_instruction_arguments checks every argument of a kernel or delegate call against
  // the values, after the call's EValue* array was allocated and before resolve_operator:
  // InvalidProgram "Arg index X >= N", returned at once (an earlier kernel call's delayed error
  // is dropped). 0.1 only takes &values[X]; resolve_operator then reads each kernel argument's
  // EValue (isTensor) after its TensorMeta array: undefined behaviour past the values. A
  // delegate call's arguments are not read at load (the method loads, as an IntList's items).
  bool call_arg_indexes_checked = false;
  // 0.1-0.3: Method::init reads the inputs' and then the outputs' values after the chain loop
  // (pre_allocated_input_ / pre_allocated_output_). 0.4+ do not read them at load (the method
  // loads; method_meta's input_tag checks them from 1.0, which the runner calls after load).
  bool inputs_outputs_read_at_init = true;
  // 0.2-0.3: each index is checked first: InvalidProgram "Input index X >= N" / "output index X
  // >= N" (X as size_t: a negative index prints as 2^64 + X). 0.1 reads values_[X] unchecked
  // until the first tensor input (output): undefined behaviour past the values.
  bool inputs_outputs_indexes_checked = false;

  // ---- Method::parse_values' lists (issue 39) ----
  // 0.6+: every list item is checked against the values, after the list's two arrays were
  // allocated: InvalidProgram "Invalid value index X for IntList V index J" (IntList), "... for
  // TensorList" (parseTensorList), "... for ListOptional" (parseListOptionalType; -1 is None).
  // Before, an IntList only takes the item's address (&values_[X]: nothing is read, the method
  // loads), and the tensor lists read values_[X] unchecked (undefined behaviour past the array).
  bool list_item_indexes_checked = false;
  // 1.3+: a tensor list's item that is not a tensor (nor None, in an optional list) is
  // InvalidType (tryToTensor / tryToOptional), logged by parse_values as "Failed parsing
  // [optional ]tensor list at index V: 0x13". Before, toTensor() ET_CHECKs (abort).
  bool tensor_list_item_types_checked = false;

  OnFailure& failure(Site s) { return on_failure[static_cast<size_t>(s)]; }
  OnFailure failure(Site s) const { return on_failure[static_cast<size_t>(s)]; }
  void SetFailure(std::initializer_list<Site> sites, OnFailure f) {
    for (Site s : sites) failure(s) = f;
  }

  // .ptd checks (issue 13 item 4): how the release's FlatTensorDataMap reads a .ptd and checks
  // the program's external tensors against it (runtime/ptd_check.h).
  bool ptd_data_map = false;  // the release reads a .ptd at all (FlatTensorDataMap, 0.6+)
  // The .ptd's entries as the release's schema has them. false (0.6): tensor entries, each with
  // its key, its layout fields inline, a segment index and an offset in the segment; keys
  // compared whole (strcmp); no list is checked at load. true (0.7+): named blobs, each a key, a
  // segment index and an optional tensor layout; the named data and segment lists are checked
  // non-null when the map loads, and a blob's segment by its bounds.
  bool ptd_named_blobs = false;
  // Method::parse_external_constants logs "Failed to get metadata for key K" after any failed
  // layout lookup (0.7+).
  bool ptd_logs_missing_metadata = false;
  bool ptd_header_error_wrapped = false;  // any header failure: InvalidExternalData (1.0+)
  bool ptd_file_size_checked = false;     // segment base + data size <= file size (1.0+)
  bool ptd_key_exact = false;             // keys compared whole (1.0+; 0.7: file key's length)
  bool ptd_segment_end_checks_size = false;      // offset + size <= end (1.0+; 0.7: offset < end)
  bool ptd_segment_end_overflow_checked = false;  // offset + size may not wrap (1.3+)
  bool ptd_dim_order_size_checked = false;        // validateTensorLayout checks its length (1.3+)
  bool ptd_layout_overflow_checked = false;       // TensorLayout::create checks nbytes (1.3+)
  // ---- The kernel registry in a linked image (the firmware's worst-case stack) ----
  // runtime/kernel/operator_registry.h's struct Kernel {name_, kernel_key_, op_}, in
  // pointer-sized words: where op_ lies and the record's size. KernelKey is a const char* and,
  // before 0.7.0, a bool is_fallback_ too (padded to a word).
  uint32_t kernel_record_op_word = 2;
  uint32_t kernel_record_words = 3;
};

// One file in releases/ defines one of these: the version, the release it edits, and the edit.
struct ReleaseDelta {
  std::string version;
  std::string based_on;  // empty for the first modelled release
  std::function<void(RuntimeTraits&)> edit;
};

// All modelled published releases, oldest first (snapshots of main are not among them).
const std::vector<RuntimeTraits>& AllReleases();
// Their versions, oldest first, without building them.
const std::vector<std::string>& ReleaseVersions();
// The modelled snapshots of main, oldest first (after every release).
std::vector<const RuntimeTraits*> AllSnapshots();

// "1.4", "1.4.1", "v1.4.1": the newest patch release of that minor, or that exact release;
// "main": the newest modelled snapshot of main; "main-20260822-cff6f4dd": that snapshot.
// Unknown versions are an error that lists the known ones; never the nearest.
Result<const RuntimeTraits*> FindRelease(const std::string& version);

}  // namespace etmem::runtime
