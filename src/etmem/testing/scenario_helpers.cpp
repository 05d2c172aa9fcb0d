// Owns: the scenario helpers (see scenario_helpers.h).
#include "etmem/testing/scenario_helpers.h"

#include <algorithm>

namespace etmem::testing {

uint64_t ElementSize(int8_t dtype) {
  switch (dtype) {
    case kByte:
    case 1:  // Char (int8): the Cortex-M scenarios
    case kBool:
      return 1;
    case kInt32:
    case kFloat32:
      return 4;
    case kInt64:
    case kFloat64:
      return 8;
    default:
      ETMEM_CHECK(!"ElementSize: dtype not used by the scenarios");
  }
  return 0;
}

uint64_t TensorBytes(int8_t dtype, const std::vector<int32_t>& sizes) {
  uint64_t n = ElementSize(dtype);
  for (int32_t s : sizes) n *= static_cast<uint64_t>(s);
  return n;
}

std::vector<uint8_t> CounterBytes(uint64_t size) {
  std::vector<uint8_t> out(size);
  for (uint64_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(i * 31 + 7);
  return out;
}

namespace {

std::string TreeNode(const std::string& type, const std::string& context,
                     const std::vector<std::string>& children) {
  std::string out = "{\"type\": " + type + ", \"context\": " + context + ", \"children_spec\": [";
  for (size_t i = 0; i < children.size(); ++i) out += (i ? ", " : "") + children[i];
  return out + "]}";
}

std::string Leaf() { return TreeNode("null", "null", {}); }

}  // namespace

std::string PositionalArgsTreeSpec(int n) {
  std::string args =
      TreeNode("\"builtins.tuple\"", "\"null\"", std::vector<std::string>(n, Leaf()));
  std::string kwargs = TreeNode("\"builtins.dict\"", "\"[]\"", {});
  return "[1, " + TreeNode("\"builtins.tuple\"", "\"null\"", {args, kwargs}) + "]";
}

std::string SingleTensorTreeSpec() { return "[1, " + Leaf() + "]"; }

Placement BumpPlanner::Take(uint64_t bytes) {
  Placement p{.memory_id = 1, .offset = cursor_};
  cursor_ += (bytes + 15) / 16 * 16;
  high_water_ = std::max(high_water_, cursor_);
  return p;
}

int PlannedTensor(MethodBuilder& m, BumpPlanner& planner, std::vector<int32_t> sizes,
                  int8_t dtype) {
  Placement p = planner.Take(TensorBytes(dtype, sizes));
  return m.Tensor({.dtype = dtype, .sizes = std::move(sizes), .placement = p});
}

int ConstantTensor(MethodBuilder& m, std::vector<int32_t> sizes, int8_t dtype) {
  ConstantData data{.bytes = CounterBytes(TensorBytes(dtype, sizes))};
  return m.Tensor({.dtype = dtype, .sizes = std::move(sizes), .constant = std::move(data)});
}

}  // namespace etmem::testing
