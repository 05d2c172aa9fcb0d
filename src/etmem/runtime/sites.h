// Owns: the names of the runtime's load-time allocation sites and the category each rolls up
// into. Names follow the runtime's own (values, chains, delegates, tensor_meta, ...) so every
// report row can be traced back to the allocation study (spec §3, steps R0-R29).
#pragma once

#include <cstdint>

namespace etmem::runtime {

enum class Site : uint8_t {
  kPlatformAllocator,    // R0  PlatformMemoryAllocator, when the runner passes no temp allocator
  kValues,               // R1  EValue[n_values]
  kInputSet,             // R2  bool[n_inputs]
  kExternalConstants,    // R3  NamedData[n_external]
  kTensorSizes,          // R4  SizesType[dim]       (dynamic shapes only)
  kTensorDimOrder,       // R5  DimOrderType[dim]    (dynamic shapes only)
  kTensorStrides,        // R6  StridesType[dim]
  kTensorImpl,           // R7  TensorImpl
  kIntListPointers,      // R8  EValue*[n]
  kIntListValues,        // R9  int64_t[n]
  kIntListBox,           // R10 BoxedEvalueList<int64_t>
  kBoolList,             // R11 ArrayRef<bool>
  kDoubleList,           // R12 ArrayRef<double>
  kString,               // R13 ArrayRef<char>
  kTensorListTensors,    // R14 Tensor[n]
  kTensorListPointers,   // R15 EValue*[n]
  kTensorListBox,        // R16 BoxedEvalueList<Tensor>
  kOptionalListPointers, // R17 EValue*[n]
  kOptionalListValues,   // R18 optional<Tensor>[n]
  kOptionalListBox,      // R19 BoxedEvalueList<optional<Tensor>>
  kDelegates,            // R20 BackendDelegate[n_delegates]
  kMergedDataMap,        // R21 MergedDataMap
  kCompileSpecs,         // R22 CompileSpec[n_specs]
  kBackendInit,          // R23 whatever the backend's init() takes from the runtime allocator
  kChains,               // R24 Chain[n_chains]
  kChainKernels,         // R25 OpFunction[n_instructions]
  kChainArgLists,        // R26 InstructionArgs[n_instructions]
  kInstructionArgs,      // R27 EValue*[n_args]
  kTensorMeta,           // R28 TensorMeta[n_args]
  kTensorMetaDimOrder,   // R29 DimOrderType[dim] per tensor argument
  kCount,
};

enum class Category : uint8_t {
  kRuntime, kValues, kTensors, kLists, kDelegates, kChains, kOperatorResolution, kCount,
};

const char* SiteName(Site s);          // e.g. "tensor_impl"
const char* SiteStep(Site s);          // e.g. "R7"
Category SiteCategory(Site s);
// The type-table name of the element a site allocates, e.g. "TensorImpl" or "EValue*"; "" for
// kBackendInit, whose type is the backend's (LoadPlan::backend_types).
const char* SiteElementType(Site s);
const char* CategoryName(Category c);  // e.g. "operator resolution"

// What the runtime does when a site's allocation returns null.
enum class OnFailure : uint8_t {
  kError,           // load_method returns MemoryAllocationFailed
  kErrorUnlessEmpty,// as kError, but a failed zero-size request is ignored and loading goes on
  kUnchecked,       // the result is not checked: the runtime goes on with a null pointer
  kAbort,           // a constructor ET_CHECKs the pointer: the runtime aborts
};

}  // namespace etmem::runtime
