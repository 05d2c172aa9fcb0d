// Owns: the issue-39 programs: a file with a good method ("forward") and a bad one, one class of
// fault each, and the plans Program::method_meta refuses (MethodScenarios). The runtime loads
// each method on its own, so "forward" loads wherever the file loads; what each release does
// with the bad method is in docs/refusals.md and tests/measured/x86_64_methods.json.
// Not: the refusal classes measured at every tag (scenario_refusals.cpp).
#include "etmem/testing/scenarios.h"
#include "etmem/testing/scenario_helpers.h"

namespace etmem::testing {
namespace {

// "forward" (AddReluPair, scenario_helpers.h), then "broken" as `edit` leaves it.
template <typename Edit>
ProgramBuilder GoodAndBroken(Edit edit) {
  ProgramBuilder program;
  AddReluPair(program.Method("forward"));
  edit(program.Method("broken"));
  return program;
}

constexpr NamedScenario kMethods[] = {
    // The second method's last kernel call names operator 5 of 1: resolve_operator's "Op index 5
    // out of range" (InvalidProgram, 0.2+) is the last kernel call's result, so it stands.
    {"second_method_bad_op_index", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         int x = 0, y = 2;
         m.KernelCall(5, {x, y});
       });
     }},
    // An op index past the operators followed by a good kernel call: the good call's Ok
    // overwrites Method::init's delayed_error, so 0.2+ load the method (0.1: undefined behaviour).
    {"second_method_bad_op_index_then_good", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.KernelCall(5, {0, 2});
         m.KernelCall(m.Operator("aten::relu", "out"), {0, 2});
       });
     }},
    // A move and a free naming value 9 of 3: Method::init checks them from 1.3 (InvalidProgram
    // "Index 9 negative or >= 3"); before, the method loads.
    {"second_method_bad_move_index", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.Move(0, 9);
       });
     }},
    {"second_method_bad_free_index", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.Free(9);
       });
     }},
    // A jump-if-false on value 9 of 3: checked from 0.2.
    {"second_method_bad_jump_index", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.JumpFalse(9, 0);
       });
     }},
    // A negative planned buffer (the second of two): the runner cannot allocate it.
    {"second_method_negative_planned_buffer", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.PlannedBufferSizes({48, -16});
       });
     }},
    // An IntList naming value 99 of 5.
    {"second_method_bad_list_item", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.IntList({99});
       });
     }},
    // A negative IntList item: 0.6+ InvalidProgram; before, only its address is taken.
    {"second_method_negative_list_item", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.IntList({-2});
       });
     }},
    // A TensorList naming value 99 of 4: 0.6+ InvalidProgram ("Invalid value index 99 for
    // TensorList"); before, parseTensorList reads values_[99] (undefined behaviour).
    {"second_method_bad_tensor_list_item", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.TensorList({0, 99});
       });
     }},
    // An OptionalTensorList naming value 99 of 4 after a None (-1).
    {"second_method_bad_optional_list_item", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.OptionalTensorList({-1, 99});
       });
     }},
    // A TensorList whose item is an Int: 1.3+ InvalidType (tryToTensor); before, toTensor()
    // ET_CHECKs (abort).
    {"second_method_tensor_list_of_int", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.TensorList({0, m.Int(7)});
       });
     }},
    // A TensorList (value 3) naming value 4, a tensor parsed after it: parse_values reads value
    // 4's EValue before constructing it, from the zeroed method pool (tag None): 1.3+
    // InvalidType, before toTensor() ET_CHECKs (abort).
    {"second_method_tensor_list_of_later_value", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.TensorList({0, 4});
         m.Tensor({.sizes = {1, 4}});
       });
     }},
    // The same item in an OptionalTensorList: the unconstructed EValue reads as None, and the
    // method loads at every release (in a zeroed pool).
    {"second_method_optional_list_of_later_value", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.OptionalTensorList({-1, 4});
         m.Tensor({.sizes = {1, 4}});
       });
     }},
    // A dim order [0, 2] for a rank-2 tensor: dim_order_to_stride refuses it at every release
    // (Internal), after the strides were allocated.
    {"second_method_dim_order_past_rank", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.Tensor({.sizes = {1, 4}, .dim_order = std::vector<uint8_t>{0, 2}});
       });
     }},
    // A delegate call naming delegate 3 of none.
    {"second_method_bad_delegate_index", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.DelegateCall(3, {0, 2});
       });
     }},
    // A kernel call naming value 9 of 3: gen_instruction_arguments refuses it (0.2+, InvalidProgram
    // "Arg index 9 >= 3"); 0.1's resolve_operator reads values_[9] (undefined behaviour). (After a
    // bad op index the argument's error is returned at once, the op index's dropped: held in
    // tests/model/method_isolation_test.cpp, not measured here, as the runtime logs both lines.)
    {"second_method_bad_kernel_arg", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.KernelCall(m.Operator("aten::relu", "out"), {0, 9});
       });
     }},
    // A delegate call (delegate 0 of none: never checked at load) naming value 9 of 3: 0.2+ refuse
    // the argument; 0.1 takes its address only, and the method loads.
    {"second_method_bad_delegate_arg", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.DelegateCall(0, {0, 9});
       });
     }},
    // An input naming value 9 of 3, and an output naming value -1: 0.2-0.3 check them after the
    // chain loop (InvalidProgram "Input index 9 >= 3", "output index 18446744073709551615 >= 3"),
    // 0.4+ do not read them at load (the method loads), 0.1 reads values_[X] (undefined
    // behaviour).
    {"second_method_bad_input", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.Inputs({9});
       });
     }},
    {"second_method_negative_output", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.Outputs({-1});
       });
     }},
    // Plans without the fields Program::method_meta checks (InvalidProgram "Missing ... field",
    // 0.2+), beside a good method.
    {"method_meta_without_planned_sizes", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.OmitPlannedBufferSizesVector();
       });
     }},
    {"method_meta_without_inputs", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.OmitInputsVector();
       });
     }},
    {"method_meta_without_outputs", [] {
       return GoodAndBroken([](MethodBuilder& m) {
         AddReluPair(m);
         m.OmitOutputsVector();
       });
     }},
    // Two plans named "forward", the second planning h past its buffer's end:
    // Program::get_execution_plan finds the first, which loads.
    {"duplicate_method_names", [] {
       ProgramBuilder program;
       AddReluPair(program.Method("forward"));
       MethodBuilder& second = program.Method("shadowed");
       AddReluPair(second, Placement{1, 40});
       second.Rename("forward");
       return program;
     }},
};

}  // namespace

std::span<const NamedScenario> MethodScenarios() { return kMethods; }

}  // namespace etmem::testing
