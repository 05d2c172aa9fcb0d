// Owns: small helpers the scenario files share: a bump planner for planned-tensor offsets,
// deterministic fake weights and byte sizes of tensors.
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

// Adds a float (or `dtype`) planned tensor with room taken from `planner`.
int PlannedTensor(MethodBuilder& m, BumpPlanner& planner, std::vector<int32_t> sizes,
                  int8_t dtype = kFloat32);
// Adds a constant tensor filled with CounterBytes.
int ConstantTensor(MethodBuilder& m, std::vector<int32_t> sizes, int8_t dtype = kFloat32);

}  // namespace etmem::testing
