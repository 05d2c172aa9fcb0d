// Owns: the unit tests of reading demangled names as template instantiations (instantiations.h),
// on names shaped as GCC writes ExecuTorch's portable kernels' (arm-none-eabi-g++ 12, v1.0.0's
// op_convolution.cpp, op_add.cpp, op_softmax.cpp: the shapes, not their code).
#include "etmem/stack/instantiations.h"

#include <gtest/gtest.h>

namespace etmem::stack {
namespace {

TEST(TemplateName, AFunctionTemplatesArgumentsNotItsParameters) {
  const TemplateName t = ReadTemplateName(
      "void ns::native::(anonymous namespace)::wrapper<long long, long long (*)(void const*)>("
      "rt::Tensor const&, rt::ArrayRef<long long>, long long, rt::Tensor&)");
  ASSERT_TRUE(t.parsed) << t.problem;
  EXPECT_EQ(t.arguments, (std::vector<std::string>{"long long", "long long (*)(void const*)"}));
  EXPECT_EQ(t.key, "ns::native::(anonymous namespace)::wrapper");
}

TEST(TemplateName, ClonesAndReturnTypesAreNotInTheKey) {
  const TemplateName a =
      ReadTemplateName("signed char ns::utils::load_and_convert<signed char, c10::Half>(void const*) "
                       "[clone .isra.0] [clone .constprop.0]");
  const TemplateName b = ReadTemplateName("signed char ns::utils::load_and_convert<signed char, float>(void const*)");
  ASSERT_TRUE(a.parsed && b.parsed);
  EXPECT_EQ(a.arguments, (std::vector<std::string>{"signed char", "c10::Half"}));
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.key, "ns::utils::load_and_convert");
  EXPECT_EQ(ReadTemplateName("bool ns::utils::load_and_convert<bool, float>(void const*)").key, a.key);
  EXPECT_EQ(ReadTemplateName("c10::complex<float> ns::f<c10::complex<float> >(int)").key, "ns::f");
  // A conversion operator's space is its name's.
  EXPECT_EQ(ReadTemplateName("ns::A<float>::operator float() const").key, "ns::A::operator float");
}

TEST(TemplateName, LambdasAndNestedArguments) {
  // A dtype switch's case lambdas show no type: no arguments (the enclosing function's
  // parameters and the braces are not read as template arguments).
  const TemplateName cases = ReadTemplateName(
      "ns::softmax_out(rt::Context&, rt::Tensor const&, long long, bool, rt::Tensor&)::{lambda()#1}"
      "::operator()() const::{lambda()#2}::operator()() const");
  ASSERT_TRUE(cases.parsed) << cases.problem;
  EXPECT_TRUE(cases.arguments.empty());
  // A generic lambda's call operator for float.
  const TemplateName generic =
      ReadTemplateName("ns::f(int)::{lambda(auto:1)#1}::operator()<float>(float) const");
  ASSERT_TRUE(generic.parsed);
  EXPECT_EQ(generic.arguments, std::vector<std::string>{"float"});
  EXPECT_EQ(generic.key, "ns::f(int)::{lambda(auto:1)#1}::operator()");
  // A class template's arguments, nested ones kept whole.
  const TemplateName nested = ReadTemplateName("ns::A<ns::B<float, 2>, 3>::run(ns::C<double>) const");
  ASSERT_TRUE(nested.parsed);
  EXPECT_EQ(nested.arguments, (std::vector<std::string>{"ns::B<float, 2>", "3"}));
  EXPECT_EQ(nested.key, "ns::A::run");
}

TEST(TemplateName, WhatCannotBeReadSaysWhy) {
  const TemplateName op = ReadTemplateName("ns::Less<long long>::operator<(ns::Less<long long> const&) const");
  EXPECT_FALSE(op.parsed);
  EXPECT_NE(op.problem.find("operator<"), std::string::npos) << op.problem;
  EXPECT_FALSE(ReadTemplateName("ns::Less<long long>::operator->() const").parsed);
  const TemplateName open = ReadTemplateName("ns::f<int(");
  EXPECT_FALSE(open.parsed);
  EXPECT_NE(open.problem.find("never closed"), std::string::npos) << open.problem;
  EXPECT_FALSE(ReadTemplateName("ns::f<int)>()").parsed);
  // A plain function: read, no arguments.
  const TemplateName plain = ReadTemplateName("main");
  EXPECT_TRUE(plain.parsed);
  EXPECT_TRUE(plain.arguments.empty());
  EXPECT_EQ(plain.key, "main");
}

}  // namespace
}  // namespace etmem::stack
