// Owns: the temp memory a method needs at run time where the program reveals it: the Arm
// Ethos-U scratch of each delegate's Vela payload (pte/vela_payload.h reads it). What kernels
// take from the temp allocator is not in the program, so it stays unknown here (kernels/).
// Not: load-time allocations (runtime/), the planned buffers (lifetimes.h).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"
#include "etmem/pte/vela_payload.h"

namespace etmem::plan {

using pte::ReadVelaScratch;
using pte::ScratchKind;
using pte::VelaScratch;

// An id some modelled release registers the Arm Ethos-U backend under (RuntimeTraits::
// ethosu_backend: "ArmBackend" until 0.5, "EthosUBackend" from 0.6).
bool IsEthosUBackend(std::string_view backend_id);

struct RunTimeTemp {
  uint32_t ethosu_delegates = 0;  // Ethos-U delegates the method calls
  uint64_t temp_bytes = 0;        // the largest scratch_size one of them takes from the temp allocator
  uint64_t in_blob_bytes = 0;     // the largest scratch that sits inside a blob instead
  uint32_t unreadable = 0;        // Ethos-U payloads without a readable scratch block
  bool other_calls = false;       // kernel calls or other delegates: their temp use is unknown
};

// Needs the program's mapped file (the blobs' bytes).
RunTimeTemp ComputeRunTimeTemp(const pte::ProgramView& program, const pte::MethodView& method);

}  // namespace etmem::plan
