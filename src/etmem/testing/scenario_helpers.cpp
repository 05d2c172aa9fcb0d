// Owns: the scenario helpers (see scenario_helpers.h).
#include "etmem/testing/scenario_helpers.h"

#include <algorithm>

namespace etmem::testing {

uint64_t ElementSize(int8_t dtype) {
  switch (dtype) {
    case kByte:
    case kChar:
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

namespace {

void LittleEndian32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void VelaBlock(std::vector<uint8_t>& out, const std::string& name, std::vector<uint8_t> data) {
  std::vector<uint8_t> header(32, 0);
  std::copy(name.begin(), name.end(), header.begin());
  std::vector<uint8_t> size;
  LittleEndian32(size, static_cast<uint32_t>(data.size()));
  std::copy(size.begin(), size.end(), header.begin() + 16);
  out.insert(out.end(), header.begin(), header.end());
  data.resize((data.size() + 15) / 16 * 16, 0);
  out.insert(out.end(), data.begin(), data.end());
}

std::vector<uint8_t> VelaIos(const std::vector<VelaIo>& ios) {
  std::vector<uint8_t> out;
  LittleEndian32(out, static_cast<uint32_t>(ios.size()));
  for (const VelaIo& io : ios) {
    for (size_t d = 0; d < 6; ++d)
      LittleEndian32(out, static_cast<uint32_t>(d < io.shape.size() ? io.shape[d] : 1));
    for (int32_t v : {io.elem_size, io.offset, io.region})
      LittleEndian32(out, static_cast<uint32_t>(v));
  }
  return out;
}

}  // namespace

std::vector<uint8_t> VelaPayload(const std::string& scratch_block, uint32_t scratch_bytes,
                                 const std::vector<VelaIo>& inputs,
                                 const std::vector<VelaIo>& outputs) {
  std::vector<uint8_t> p;
  VelaBlock(p, "vela_bin_stream", {});
  VelaBlock(p, "cmd_data", {'C', 'O', 'P', '1', 1, 2, 3});
  VelaBlock(p, "weight_data", std::vector<uint8_t>(40, 7));
  std::vector<uint8_t> scratch;
  if (scratch_block == "scratch_size") LittleEndian32(scratch, scratch_bytes);
  else scratch.assign(scratch_bytes, 0);
  VelaBlock(p, scratch_block, scratch);
  VelaBlock(p, "inputs", VelaIos(inputs));
  VelaBlock(p, "outputs", VelaIos(outputs));
  VelaBlock(p, "vela_end_stream", {});
  return p;
}

void AddReluPair(MethodBuilder& m, Placement where, int64_t buffer, int32_t storage_offset,
                 std::vector<int32_t> h_sizes) {
  int x = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 0}});
  int h = m.Tensor({.sizes = std::move(h_sizes), .placement = where,
                    .storage_offset = storage_offset});
  int y = m.Tensor({.sizes = {1, 4}, .placement = Placement{1, 32}});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({buffer});
  int relu = m.Operator("aten::relu", "out");
  m.KernelCall(relu, {x, h});
  m.KernelCall(relu, {h, y});
}

}  // namespace etmem::testing
