#include "etmem/runtime/sites.h"

#include <cstddef>

namespace etmem::runtime {
namespace {

struct SiteInfo {
  const char* name;
  const char* step;
  Category category;
};

constexpr SiteInfo kSites[] = {
    {"platform_allocator", "R0", Category::kRuntime},
    {"values", "R1", Category::kValues},
    {"input_set", "R2", Category::kValues},
    {"external_constants", "R3", Category::kValues},
    {"tensor_sizes", "R4", Category::kTensors},
    {"tensor_dim_order", "R5", Category::kTensors},
    {"tensor_strides", "R6", Category::kTensors},
    {"tensor_impl", "R7", Category::kTensors},
    {"int_list_pointers", "R8", Category::kLists},
    {"int_list_values", "R9", Category::kLists},
    {"int_list_box", "R10", Category::kLists},
    {"bool_list", "R11", Category::kLists},
    {"double_list", "R12", Category::kLists},
    {"string", "R13", Category::kLists},
    {"tensor_list_tensors", "R14", Category::kLists},
    {"tensor_list_pointers", "R15", Category::kLists},
    {"tensor_list_box", "R16", Category::kLists},
    {"optional_tensor_list_pointers", "R17", Category::kLists},
    {"optional_tensor_list_values", "R18", Category::kLists},
    {"optional_tensor_list_box", "R19", Category::kLists},
    {"delegates", "R20", Category::kDelegates},
    {"merged_data_map", "R21", Category::kDelegates},
    {"compile_specs", "R22", Category::kDelegates},
    {"backend_init", "R23", Category::kDelegates},
    {"chains", "R24", Category::kChains},
    {"chain_kernels", "R25", Category::kChains},
    {"chain_arg_lists", "R26", Category::kChains},
    {"instruction_args", "R27", Category::kChains},
    {"tensor_meta", "R28", Category::kOperatorResolution},
    {"tensor_meta_dim_order", "R29", Category::kOperatorResolution},
};
static_assert(sizeof(kSites) / sizeof(kSites[0]) == static_cast<size_t>(Site::kCount));

}  // namespace

const char* SiteName(Site s) { return kSites[static_cast<size_t>(s)].name; }
const char* SiteStep(Site s) { return kSites[static_cast<size_t>(s)].step; }
Category SiteCategory(Site s) { return kSites[static_cast<size_t>(s)].category; }

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
