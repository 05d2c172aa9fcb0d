// Tests measure/execute.h without ExecuTorch: finding a kernel and spelling its declaration in a
// small tree written here (not ExecuTorch code: a kernels/portable layout with made-up
// operators), the one-line refusals (an operator no portable kernel registers, a type the
// generated wrapper does not support, a custom namespace), and reading the harness's trace.
#include "etmem/measure/execute.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace etmem::measure {
namespace execute_test {

namespace fs = std::filesystem;

class FakeTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("etmem-execute-test-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    Write("kernels/portable/functions.yaml",
          "- op: scale.out\n  kernels:\n    - arg_meta: null\n      kernel_name: torch::executor::scale_out\n"
          "- op: pick.values\n  kernels:\n    - arg_meta: null\n      kernel_name: torch::executor::pick_values\n"
          "- op: odd.out\n  kernels:\n    - arg_meta: null\n      kernel_name: torch::executor::odd_out\n");
    Write("kernels/portable/cpu/util/helper.h", "#pragma once\nint helper();\n");
    Write("kernels/portable/cpu/util/helper.cpp",
          "#include <executorch/kernels/portable/cpu/util/helper.h>\nint helper() { return 1; }\n");
    Write("kernels/portable/cpu/op_scale.cpp",
          "#include <executorch/kernels/portable/cpu/util/helper.h>\n"
          "namespace torch { namespace executor { namespace native {\n"
          "// scale_out(ctx) is documented here, not defined\n"
          "Tensor& scale_out(\n    KernelRuntimeContext& ctx,\n    const Tensor& in,\n"
          "    const optional<ScalarType> dtype,\n    exec_aten::IntArrayRef dims,\n"
          "    double factor,\n    Tensor& out) {\n  return out;\n}\n}}}\n");
    Write("kernels/portable/cpu/op_pick.cpp",
          "namespace torch { namespace executor { namespace native {\n"
          "std::tuple<Tensor&, Tensor&> pick_values(KernelRuntimeContext& ctx ET_UNUSED, "
          "const Tensor& in, int64_t k, bool largest, Tensor& values, Tensor& indices) {\n"
          "  return {values, indices};\n}\n}}}\n");
    Write("kernels/portable/cpu/op_odd.cpp",
          "namespace torch { namespace executor { namespace native {\n"
          "Tensor& odd_out(KernelRuntimeContext& ctx, std::string_view mode, Tensor& out) {\n"
          "  return out;\n}\n}}}\n");
    Write("kernels/prim_ops/register_prim_ops.cpp",
          "static Kernel prim_ops[] = { Kernel(\"executorch_prim::et_view.default\", f) };\n");
    tree_.root = root_.string();
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
  Tree tree_;
};

TEST_F(FakeTree, FindsTheDefinitionAndSpellsItsDeclaration) {
  auto set = FindRealKernels(tree_, {"aten::pick.values", "aten::scale.out",
                                     "executorch_prim::et_view.default"});
  ASSERT_TRUE(set.has_value()) << set.error().message;
  ASSERT_EQ(set->kernels.size(), 3u);
  EXPECT_EQ(set->kernels[0].function, "::torch::executor::native::pick_values");
  EXPECT_EQ(set->kernels[0].source, "kernels/portable/cpu/op_pick.cpp");
  EXPECT_EQ(set->kernels[0].declaration,
            "std::tuple<exec_aten::Tensor&, exec_aten::Tensor&> pick_values(EtmemContext&, "
            "const exec_aten::Tensor&, int64_t, bool, exec_aten::Tensor&, exec_aten::Tensor&);");
  // The comment mentioning scale_out( is not taken for its definition.
  EXPECT_EQ(set->kernels[1].declaration,
            "exec_aten::Tensor& scale_out(EtmemContext&, const exec_aten::Tensor&, "
            "const exec_aten::optional<exec_aten::ScalarType>, exec_aten::ArrayRef<int64_t>, "
            "double, exec_aten::Tensor&);");
  EXPECT_TRUE(set->kernels[2].prim);
  // The op files, the util source their includes need, the prim ops.
  EXPECT_EQ(set->sources,
            (std::vector<std::string>{"kernels/portable/cpu/op_pick.cpp",
                                      "kernels/portable/cpu/op_scale.cpp",
                                      "kernels/portable/cpu/util/helper.cpp",
                                      "kernels/prim_ops/register_prim_ops.cpp"}));
  EXPECT_NE(set->registration.find("Kernel(\"aten::scale.out\", &etmem_kernel_1)"), std::string::npos);
  EXPECT_EQ(set->registration.find("et_view"), std::string::npos);  // the prim ops register themselves
}

TEST_F(FakeTree, RefusesWithOneLineNamingTheOperator) {
  auto unsupported = FindRealKernels(tree_, {"aten::odd.out"});
  ASSERT_FALSE(unsupported.has_value());
  EXPECT_EQ(unsupported.error().message,
            "operator aten::odd.out: argument type 'std::string_view' of kernel "
            "::torch::executor::native::odd_out (kernels/portable/cpu/op_odd.cpp) is not supported "
            "by etmem measure --execute");
  auto missing = FindRealKernels(tree_, {"aten::nothing.out"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message,
            "operator aten::nothing.out: not in the tree's kernels/portable/functions.yaml (etmem "
            "measure --execute runs the portable kernels)");
  auto custom = FindRealKernels(tree_, {"cadence::quantized_conv.out"});
  ASSERT_FALSE(custom.has_value());
  EXPECT_NE(custom.error().message.find("operator cadence::quantized_conv.out:"), std::string::npos);
  EXPECT_EQ(custom.error().message.find('\n'), std::string::npos);
}

TEST(ReadExecution, AttributesEachRequestToItsCallAndReadsTheLog) {
  const ExecutionTrace t = ReadExecution(
      "measure: temp_alloc 64 8 0\n"  // during the load: not the execution's
      "measure: input 0 filled 60 0\n"
      "measure: execute_begin\n"
      "measure: temp_reset\n"
      "measure: call kernel aten::topk.values\n"
      "measure: temp_alloc 80 8 0\n"
      "measure: temp_reset\n"
      "measure: call kernel aten::topk.values\n"
      "measure: temp_alloc 640 8 FAIL\n"
      "E executorch:memory_allocator.h:105] Memory allocation failed: 640B requested\n"
      "measure: heap 663 NULL\n"
      "measure: temp_reset\n"
      "measure: execute 33\n"
      "measure: temp_alloc 1 1 0\n");
  ASSERT_TRUE(t.ran);
  EXPECT_EQ(t.error, 33);
  ASSERT_EQ(t.calls.size(), 2u);
  EXPECT_EQ(t.calls[0].pool_bytes, 80u);
  ASSERT_EQ(t.calls[1].temp.size(), 1u);
  EXPECT_FALSE(t.calls[1].temp[0].offset.has_value());
  ASSERT_EQ(t.calls[1].heap.size(), 1u);
  EXPECT_FALSE(t.calls[1].heap[0].second);
  EXPECT_EQ(t.error_lines, std::vector<std::string>{"Memory allocation failed: 640B requested"});
  EXPECT_EQ(t.resets, 3u);
  EXPECT_EQ(t.notes, std::vector<std::string>{"input 0 filled 60 0"});
}

}  // namespace execute_test
}  // namespace etmem::measure
