// Owns: what a release does with a given .ptd (issue 13 item 4): its FlatTensorDataMap::load
// (run by the runner before load_method) and the lookups load_method makes for the program's
// external tensors (Method::parse_external_constants, then the tensor parser for planned ones),
// emulated on the file's bytes as the release's own unverified reader reads them, so a file in
// another release's layout is misread exactly as the release misreads it. The first failure,
// with the release's error code, its first error-level log line and where in the load it happens.
// Not: the allocations (load_plan.cpp places the refusal in its sequence), nor reading the file
// (pte/ptd_file.h).
//
// Assumptions: the runner reads the .ptd through a BufferDataLoader (the whole file in memory;
// a FileDataLoader words its out-of-range line differently and names the path). When the program
// has named data of its own, 1.0+ merge it with the .ptd (MergedDataMap::load, in Method::init
// after the values) and hand the merged map to the delegates only: the tensors look their keys
// up in the .ptd alone, and the merge refuses nothing (its duplicate scan asks the program's map,
// which answers NotImplemented) but crashes on a keyless .ptd entry. A planned external tensor
// that is the method's last value is refused before its TensorImpl (the runtime after it).
#pragma once

#include <cstdint>
#include <optional>

#include "etmem/pte/program_view.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"

namespace etmem::runtime {

struct PtdOutcome {
  enum class Where : uint8_t {
    kMapLoad,            // FlatTensorDataMap::load, before load_method: nothing allocated
    kExternalConstants,  // parse_external_constants: after the values and external arrays
    kPlannedValue,       // the tensor parser, after value `value`'s TensorImpl
    kMerge,              // MergedDataMap::load (1.0+), after the delegates list
  };
  Where where = Where::kMapLoad;
  int64_t value = -1;
  Refusal refusal;
};

// Method::parse_external_constants refuses an external constant without a key (no
// extra_tensor_info.fully_qualified_name) when it reaches it, before it looks that value up in
// the data map: InvalidExternalData, at every release with external constants (0.6+). It needs a
// data map to be reached (0.7+ check for one first; 0.6 dereferences a null one only at the
// first lookup, so a keyless first constant is refused there too).
Refusal KeylessExternalConstant(int64_t value);

// The external constant (an external tensor, not planned) that parse_external_constants meets
// first in value order, -1 when there is none.
int64_t FirstExternalConstant(const pte::MethodView& method);

// A tensor's key as every release uses it: the runtime takes fully_qualified_name()->c_str(), so
// the key ends at its first NUL (the lookups, the de-duplication and the log lines all see that).
std::string_view RuntimeKey(std::string_view fqn);

// The first failure, or nothing when the release loads the method with this .ptd.
std::optional<PtdOutcome> CheckExternalData(const pte::ProgramView& program,
                                            const pte::MethodView& method,
                                            const pte::PtdFile& ptd, const RuntimeTraits& t);

}  // namespace etmem::runtime
