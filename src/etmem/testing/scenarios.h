// Owns: the named test programs. Each covers one feature the real programs in ../shared lack
// (or rebuilds one of them without its weights), so tests, examples and benchmarks share them.
// Not: the builder itself (program_builder.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/testing/program_builder.h"

namespace etmem::testing {

// The motivating report's CNN (cnn_trained_2025-04-04_34b7e8d.pte): same 66 values, 15 kernel
// calls, placements and constant layout (24-byte header, 13440-byte constant segment); fake
// weights.
ProgramBuilder MotivatingCnn();
// The same program with its four weights' bytes from `weights` (called with each weight's size).
using WeightBytes = std::vector<uint8_t> (*)(uint64_t size);
ProgramBuilder MotivatingCnnWithWeights(WeightBytes weights);

// Every value kind (Null, Int, Bool, Double, String, Tensor of ranks 0-2, every list kind) in
// kernel and delegate calls, with 2 inputs: the shape of the spec's worked example.
ProgramBuilder ProgramWithEveryValueKind();

// Tensors with DYNAMIC_BOUND and DYNAMIC_UNBOUND shapes of ranks 0-4 beside static ones.
ProgramBuilder ProgramWithDynamicShapes();

// A delegate of `backend_id` with two compile specs and its processed blob inline
// (Program.inline_blobs) or in a segment of its own.
ProgramBuilder ProgramWithDelegate(const std::string& backend_id, bool blob_in_segment = false);

// Two methods ("forward", "encode") with their own constants, operators and planned buffers.
ProgramBuilder ProgramWithTwoMethods();

// Move, jump-if-false and free instructions spread over three chains.
ProgramBuilder ProgramWithControlFlow();

// External (.ptd) constants, two sharing one fully qualified name, plus a planned external.
ProgramBuilder ProgramWithExternalData();

// A stacked LSTM for benchmarks: `scale` unrolled layers, each 98 kernel calls and 290 values
// (1 + 290 * scale values in all; scale 1 is the size of the real lstm programs, 296 values).
ProgramBuilder LstmLike(int scale);

// A CNN for benchmarks: `scale` units of 49 conv+relu pairs, each 98 kernel calls and 302
// values (1 + 302 * scale in all).
ProgramBuilder ScaledCnn(int scale);

// A tiny program whose constant segment holds one `weight_bytes` zero-filled weight. Write it
// with WriteFile (or WriteProgramWithSparseSegment), which leaves the weight as a file hole.
// weight_bytes must fit in an int32 or be a multiple of 1 MiB.
ProgramBuilder ProgramWithSparseSegment(uint64_t weight_bytes);
Status WriteProgramWithSparseSegment(const std::string& path, uint64_t weight_bytes);

// The bundled examples (build/examples/NAME.pte, written by etmem-examples), by name: the
// programs the real runtime was measured on (tests/measured/) under the same names.
struct NamedScenario {
  const char* name;  // "cnn", "cnn_inline_constants", "every_value_kind", ...
  ProgramBuilder (*make)();
};
std::span<const NamedScenario> NamedScenarios();
// Programs some release refuses to load, one per refusal class (scenario_refusals.cpp), kept
// apart from NamedScenarios so the bundled examples stay those every release loads.
std::span<const NamedScenario> RefusalScenarios();
// Issue 39: a good method ("forward") beside a bad one ("broken"), one class of fault each, the
// plans Program::method_meta refuses, and two plans of one name (scenario_methods.cpp).
std::span<const NamedScenario> MethodScenarios();
// Programs the real portable kernels can execute with finite, varied outputs (coherent shapes,
// real-valued weights; scenario_executable.cpp), kept apart for the same reason: the programs
// whose computed outputs tests/measured/ compares across `replan` and `fit`.
std::span<const NamedScenario> ExecutableScenarios();
// Programs laid out as ExecuTorch's exporter lays them out that a strict reader could call
// invalid: no constants (constant segment {0, [0]}, no segments), that with a delegate segment,
// constants only inline (scenario_acceptance.cpp; docs/acceptance.md).
std::span<const NamedScenario> AcceptanceScenarios();
// Programs whose kernels ask the temp allocator for memory while running (scenario_temp.cpp):
// "topk", three portable topk.values calls.
std::span<const NamedScenario> TempScenarios();
// The scenario called `name`; aborts on an unknown name (callers name their own table entries).
ProgramBuilder NamedScenarioProgram(std::string_view name);

}  // namespace etmem::testing
