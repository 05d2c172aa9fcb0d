// Owns: the load model. Given a verified method, a release and an ABI, it lists in order every
// allocate(size, alignment) call that Program::load_method makes, and on which allocator: the
// method allocator, or (1.0+) the user's temp allocator, which is reset after each operator.
// Not: the arithmetic of placing them (sim/), nor their text (labels.h).
//
//   RuntimeModel model(*FindRelease("1.4"), cortex_m);
//   LoadPlan plan = PlanMethodLoad(program, program.methods[0], model, {.temp_allocator = true});
//   StreamMethodLoad(program, program.methods[0], model, options, plan, sink);  // not kept
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/pte/program_view.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/runtime/release.h"

namespace etmem::runtime {

// A release laid out on one ABI. Layouts are computed on first use and kept, so a model costs
// only the types a program actually makes the runtime allocate.
class RuntimeModel {
 public:
  RuntimeModel(const RuntimeTraits& traits, const abi::Abi& abi) : traits_(&traits), abi_(abi) {}
  const RuntimeTraits& traits() const { return *traits_; }
  const abi::Abi& abi() const { return abi_; }
  abi::SizeAlign Layout(std::string_view type) const;  // by type-table name

 private:
  const RuntimeTraits* traits_;
  abi::Abi abi_;
  mutable abi::LayoutMemo cache_;
};

// What a backend etmem does not model takes in init(), as declared by the user (--backend).
struct DeclaredBackendInit {
  uint64_t bytes = 0;  // 0: the backend takes nothing from the method allocator
  uint32_t align = 8;
  bool operator==(const DeclaredBackendInit&) const = default;
};

// What the runner hands to load_method.
struct LoadOptions {
  bool temp_allocator = false;     // MemoryManager gets a non-null temp allocator
  bool external_data_map = false;  // a NamedDataMap (.ptd) is passed to load_method
  // The .ptd itself, when given (implies external_data_map): checked as the release's data map
  // and load_method would (ptd_check.h).
  std::shared_ptr<const pte::PtdFile> ptd;
  // The temp allocator's size in bytes (its size(), the capacity), when the release's choice of
  // allocator depends on it (RuntimeTraits::operator_metadata_temp_fallback_dims, and
  // operator_metadata_skips_empty_temp: 0 B). Unset: a temp allocator that is not empty and, on
  // a release that falls back, no fallback modelled; callers say which size they assume
  // (report/ does).
  std::optional<uint64_t> temp_pool_bytes;
  // Declared init allocations by backend id; they take precedence over etmem's own models.
  std::map<std::string, DeclaredBackendInit, std::less<>> declared_backends;
  bool operator==(const LoadOptions&) const = default;
};

enum class PoolKind : uint8_t { kMethod, kTemp };

// One allocate() call. Kept to 24 bytes: a large program makes millions of them. What is
// allocated is SiteElementType(site) (for backend init, LoadPlan::backend_types).
struct AllocationRequest {
  uint64_t size = 0;
  uint32_t count = 1;      // elements (1 for an instance)
  int32_t subject = -1;    // value / delegate / chain / instruction index, by site
  int32_t detail = -1;     // kernel-call argument position, for R29
  uint16_t align = 1;
  Site site = Site::kValues;
  PoolKind pool : 1 = PoolKind::kMethod;
  bool reset_temp_after : 1 = false;  // the temp allocator is reset after this request
  OnFailure on_failure : 3 = OnFailure::kError;
  bool declared : 1 = false;          // a size the user declared (--backend), not a type
};
static_assert(sizeof(AllocationRequest) <= 24);

// Backend inits etmem cannot size: the total is then a lower bound, and reports say so. With
// delegate -1, a part of the load that is not about a backend (e.g. a .ptd that is not checked).
struct UnknownPart {
  int64_t delegate = -1;
  std::string backend;
  std::string why;
};

// The runtime would refuse the method after making `requests` (allocations made before the
// refusal still happened).
struct Refusal {
  std::string error;   // the runtime's Error name, e.g. "NotSupported"
  std::string reason;  // what in the program triggers it
  std::string log;     // the runtime's own log line (its message text), where modelled
  // Program::load refuses the file (no method reaches load_method); etmem measure's harness
  // reports it as "Program::load <error>".
  bool program_load = false;
  // The runner's steps before load_method refuse the method: Program::method_meta
  // (`method_meta`), or the runner's planned buffers (`planned_buffers`, a size it cannot
  // allocate). etmem measure's harness reports the first as "method_meta <error>".
  bool method_meta = false;
  bool planned_buffers = false;
};

// Where each kernel call's operator metadata (R28/R29) went.
struct MetadataPlacement {
  uint32_t on_temp = 0;     // kernel calls whose metadata went to the temp allocator
  uint32_t on_method = 0;   // ... to the method allocator
  uint32_t fell_back = 0;   // of on_method: a temp allocator was passed but was too small (or empty)
  // The temp pool size at and above which no kernel call falls back: the largest worst case
  // (0 when the release has no fallback).
  uint64_t temp_bytes_for_all = 0;
  // The smallest temp pool at which every call whose metadata went to the temp allocator still
  // goes there (main: the largest worst case among them; 0 where the size does not matter): a
  // temp pool below it moves metadata to the method pool, so no temp pool minimum is below it.
  uint64_t temp_floor_bytes = 0;
  bool operator==(const MetadataPlacement&) const = default;
};

struct LoadPlan {
  std::vector<AllocationRequest> requests;  // empty when the requests were streamed to a sink
  // By delegate index: the type its backend's init() allocates (backend models outlive plans).
  std::vector<std::string_view> backend_types;
  std::vector<UnknownPart> unknowns;
  std::optional<Refusal> refusal;
  MetadataPlacement metadata;
  bool exact() const { return unknowns.empty(); }
};

// Receives a load's requests in order, a batch at a time, as the planner makes them: a caller
// that needs only what they add up to never holds them all (a large program makes millions).
class RequestSink {
 public:
  virtual ~RequestSink() = default;
  virtual void Take(std::span<const AllocationRequest> batch) = 0;
};

LoadPlan PlanMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                        const RuntimeModel& model, const LoadOptions& options);
// About how many requests a load of `method` makes (for reserving; may be over or under).
size_t EstimatedRequests(const pte::MethodView& method);
// The same into `out`, reusing its buffers: many pairs planned in turn touch the memory of one.
void PlanMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                    const RuntimeModel& model, const LoadOptions& options, LoadPlan& out);
// The same, the requests handed to `sink` instead of kept (out.requests is not touched).
void StreamMethodLoad(const pte::ProgramView& program, const pte::MethodView& method,
                      const RuntimeModel& model, const LoadOptions& options, LoadPlan& out,
                      RequestSink& sink);

}  // namespace etmem::runtime
