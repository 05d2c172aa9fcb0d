// Owns: the scenarios whose kernels ask the temp allocator for memory while the method runs
// (TempScenarios): `topk`, three portable topk.values calls of different sizes and dtypes, the
// largest in the middle, for the run-time temp figure and its measurement with the real kernel
// (tests/measured/x86_64_run_temp.json); `hifi_matmul`, the aten mm.out and bmm.out calls the
// Cadence HiFi kernels answer (a Float mm, a Float bmm, a Long mm that takes the portable path),
// for --kernels cadence_hifi and its measurement with the real HiFi kernels
// (tests/measured/x86_64_run_temp_hifi.json); `hifi_softmax`, three Float _softmax.out calls
// (over the first dim, the last, and the middle of three) for the HiFi softmax's transposes.
// Not: the builder (program_builder.h).
#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::testing {
namespace {

// topk.values(in, k, dim, largest, sorted, *, values, indices) -> (values, indices): the out
// variant's arguments, then what it returns.
int Topk(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int32_t> out_sizes,
          int8_t dtype, int64_t k, int64_t dim) {
  const int values = PlannedTensor(m, planner, out_sizes, dtype);
  const int indices = PlannedTensor(m, planner, out_sizes, kInt64);
  const int k_value = m.Int(k);
  const int dim_value = m.Int(dim);
  const int largest = m.Bool(true);
  const int sorted = m.Bool(true);
  const int returned = m.TensorList({values, indices});
  m.KernelCall(op, {in, k_value, dim_value, largest, sorted, values, indices, returned});
  return values;
}

ProgramBuilder ProgramWithTopk() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});                  // float, topk over 5
  const int b = PlannedTensor(m, planner, {40, 2}, kFloat64);       // double, topk over 40
  const int c = PlannedTensor(m, planner, {7}, kInt64);             // long, topk over 7
  m.Inputs({a, b, c});
  const int topk = m.Operator("aten::topk", "values");
  const int x = Topk(m, planner, topk, a, {3, 2}, kFloat32, 2, 1);
  const int y = Topk(m, planner, topk, b, {3, 2}, kFloat64, 3, 0);
  const int z = Topk(m, planner, topk, c, {4}, kInt64, 4, -1);
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// mm.out(self, mat2, *, out) and bmm.out(self, mat2, *, out): the out variant's arguments, then
// what it returns.
int Matmul(MethodBuilder& m, BumpPlanner& planner, int op, int a, int b,
           std::vector<int32_t> out_sizes, int8_t dtype) {
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {a, b, out, out});
  return out;
}

ProgramBuilder ProgramWithHifiMatmul() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});           // mm: m 3, n 5
  const int b = PlannedTensor(m, planner, {5, 4});           //     p 4
  const int c = PlannedTensor(m, planner, {2, 3, 5});        // bmm: batch 2, m 3, n 5
  const int d = PlannedTensor(m, planner, {2, 5, 4});        //      p 4
  const int e = PlannedTensor(m, planner, {6, 7}, kInt64);   // a Long mm: the portable path
  const int f = PlannedTensor(m, planner, {7, 2}, kInt64);
  m.Inputs({a, b, c, d, e, f});
  const int mm = m.Operator("aten::mm", "out");
  const int bmm = m.Operator("aten::bmm", "out");
  const int x = Matmul(m, planner, mm, a, b, {3, 4}, kFloat32);
  const int y = Matmul(m, planner, bmm, c, d, {2, 3, 4}, kFloat32);
  const int z = Matmul(m, planner, mm, e, f, {6, 2}, kInt64);
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// _softmax.out(self, dim, half_to_float, *, out): the out variant's arguments, then what it
// returns.
int Softmax(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int32_t> sizes,
            int64_t dim) {
  const int out = PlannedTensor(m, planner, sizes);
  m.KernelCall(op, {in, m.Int(dim), m.Bool(false), out, out});
  return out;
}

ProgramBuilder ProgramWithHifiSoftmax() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});
  const int b = PlannedTensor(m, planner, {2, 4, 6});
  m.Inputs({a, b});
  const int softmax = m.Operator("aten::_softmax", "out");
  const int x = Softmax(m, planner, softmax, a, {3, 5}, 0);      // the first dim: transposed
  const int y = Softmax(m, planner, softmax, a, {3, 5}, -1);     // the last: not from 1.0.0
  const int z = Softmax(m, planner, softmax, b, {2, 4, 6}, 1);   // the middle of three
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

constexpr NamedScenario kTemp[] = {
    {"topk", ProgramWithTopk},
    {"hifi_matmul", ProgramWithHifiMatmul},
    {"hifi_softmax", ProgramWithHifiSoftmax},
};

}  // namespace

std::span<const NamedScenario> TempScenarios() { return kTemp; }

}  // namespace etmem::testing
