#include "etmem/runtime/sites.h"

#include <cstddef>

namespace etmem::runtime {
namespace {

struct SiteInfo {
  const char* name;
  const char* step;
  Category category;
  const char* element;  // type-table name of what is allocated ("" : it depends on the backend)
};

constexpr SiteInfo kSites[] = {
    {"platform_allocator", "R0", Category::kRuntime, "PlatformMemoryAllocator"},
    {"values", "R1", Category::kValues, "EValue"},
    {"input_set", "R2", Category::kValues, "bool"},
    {"external_constants", "R3", Category::kValues, "NamedData"},
    {"tensor_sizes", "R4", Category::kTensors, "SizesType"},
    {"tensor_dim_order", "R5", Category::kTensors, "DimOrderType"},
    {"tensor_strides", "R6", Category::kTensors, "StridesType"},
    {"tensor_impl", "R7", Category::kTensors, "TensorImpl"},
    {"int_list_pointers", "R8", Category::kLists, "EValue*"},
    {"int_list_values", "R9", Category::kLists, "int64_t"},
    {"int_list_box", "R10", Category::kLists, "BoxedEvalueList"},
    {"bool_list", "R11", Category::kLists, "ArrayRef"},
    {"double_list", "R12", Category::kLists, "ArrayRef"},
    {"string", "R13", Category::kLists, "ArrayRef"},
    {"tensor_list_tensors", "R14", Category::kLists, "Tensor"},
    {"tensor_list_pointers", "R15", Category::kLists, "EValue*"},
    {"tensor_list_box", "R16", Category::kLists, "BoxedEvalueList"},
    {"optional_tensor_list_pointers", "R17", Category::kLists, "EValue*"},
    {"optional_tensor_list_values", "R18", Category::kLists, "optional<Tensor>"},
    {"optional_tensor_list_box", "R19", Category::kLists, "BoxedEvalueList"},
    {"delegates", "R20", Category::kDelegates, "BackendDelegate"},
    {"merged_data_map", "R21", Category::kDelegates, "MergedDataMap"},
    {"compile_specs", "R22", Category::kDelegates, "CompileSpec"},
    {"backend_init", "R23", Category::kDelegates, ""},
    {"chains", "R24", Category::kChains, "Chain"},
    {"chain_kernels", "R25", Category::kChains, "OpFunction"},
    {"chain_arg_lists", "R26", Category::kChains, "InstructionArgs"},
    {"instruction_args", "R27", Category::kChains, "EValue*"},
    {"tensor_meta", "R28", Category::kOperatorResolution, "TensorMeta"},
    {"tensor_meta_dim_order", "R29", Category::kOperatorResolution, "DimOrderType"},
};
static_assert(sizeof(kSites) / sizeof(kSites[0]) == static_cast<size_t>(Site::kCount));

}  // namespace

const char* SiteName(Site s) { return kSites[static_cast<size_t>(s)].name; }
const char* SiteStep(Site s) { return kSites[static_cast<size_t>(s)].step; }
Category SiteCategory(Site s) { return kSites[static_cast<size_t>(s)].category; }
const char* SiteElementType(Site s) { return kSites[static_cast<size_t>(s)].element; }

const char* CategoryName(Category c) {
  switch (c) {
    case Category::kRuntime: return "runtime";
    case Category::kValues: return "values";
    case Category::kTensors: return "tensors";
    case Category::kLists: return "lists";
    case Category::kDelegates: return "delegates";
    case Category::kChains: return "chains/instructions";
    case Category::kOperatorResolution: return "operator resolution";
    case Category::kCount: break;
  }
  return "?";
}

}  // namespace etmem::runtime
