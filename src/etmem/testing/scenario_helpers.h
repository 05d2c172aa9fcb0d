// Owns: small helpers the scenario files share: a bump planner for planned-tensor offsets,
// deterministic fake weights, byte sizes of tensors, and Vela payloads for Ethos-U delegates.
// Not: any scenario (scenarios.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/testing/program_builder.h"

namespace etmem::testing {

// Bytes per element of the ScalarType codes the scenarios use.
uint64_t ElementSize(int8_t dtype);
uint64_t TensorBytes(int8_t dtype, const std::vector<int32_t>& sizes);

// Deterministic stand-in for weights: byte i is (i * 31 + 7) mod 256.
std::vector<uint8_t> CounterBytes(uint64_t size);

// Hands out offsets in planned buffer 1, aligned to 16 bytes, never reusing memory.
class BumpPlanner {
 public:
  Placement Take(uint64_t bytes);
  // Continues from `offset` (to lay out a region that overlaps an earlier one).
  void Rewind(uint64_t offset) { cursor_ = offset; }
  uint64_t cursor() const { return cursor_; }
  int64_t high_water() const { return static_cast<int64_t>(high_water_); }

 private:
  uint64_t cursor_ = 0;
  uint64_t high_water_ = 0;
};

// Treespecs in torch.utils._pytree's JSON format (protocol 1), as exporters store them: the
// inputs of a method called with `n` positional tensors and no keyword arguments, and a single
// tensor output.
std::string PositionalArgsTreeSpec(int n);
std::string SingleTensorTreeSpec();

// One input or output of a Vela payload (the backend's VelaIO: shape[6], elem_size, offset in the
// scratch, region).
struct VelaIo {
  std::vector<int32_t> shape;  // up to 6; the rest are written as 1
  int32_t elem_size = 1;
  int32_t offset = 0;
  int32_t region = 1;
};
// A Vela payload as arm_vela.py lays it out: 32-byte block headers (name, unpadded size), data
// padded to 16, in the order vela_bin_stream, cmd_data ("COP1" then a few bytes), weight_data,
// the scratch block, inputs, outputs, vela_end_stream. `scratch_block` is "scratch_size" (new
// payloads: a uint32 size, the scratch comes from the temp allocator) or "scratch_data" (old
// ones: that many zero bytes carried in the blob).
std::vector<uint8_t> VelaPayload(const std::string& scratch_block, uint32_t scratch_bytes,
                                 const std::vector<VelaIo>& inputs = {},
                                 const std::vector<VelaIo>& outputs = {});

// Adds a float (or `dtype`) planned tensor with room taken from `planner`.
int PlannedTensor(MethodBuilder& m, BumpPlanner& planner, std::vector<int32_t> sizes,
                  int8_t dtype = kFloat32);
// Adds a constant tensor filled with CounterBytes.
int ConstantTensor(MethodBuilder& m, std::vector<int32_t> sizes, int8_t dtype = kFloat32);

// x -> relu -> h -> relu -> y, all planned [1, 4] floats (16 bytes each) in one buffer of 48
// bytes (x at 0, y at 32), except that `h` is placed by `where` (by default at 16) and the
// buffer's size is `buffer`; `h_sizes` are h's sizes. The good method of the issue-26 refusal
// scenarios and of the issue-39 method scenarios (scenario_refusals.cpp, scenario_methods.cpp).
void AddReluPair(MethodBuilder& m, Placement where = Placement{1, 16}, int64_t buffer = 48,
                 int32_t storage_offset = 0, std::vector<int32_t> h_sizes = {1, 4});

}  // namespace etmem::testing
