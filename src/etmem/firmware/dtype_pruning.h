// Owns: pruning a method's execute bound by the program's dtypes: which C++ types (as
// __cxa_demangle writes them, on an image whose `long` has the ELF's width) are ExecuTorch's
// ScalarTypes (ScalarTypeToCppType), which names are the kernel libraries' code (data below),
// and which call edges below each kernel go into an instantiation whose template arguments
// show only dtypes that kernel's calls cannot have, inside a dtype switch (its caller calls the
// same template for another dtype too). Every other edge stays; what stays though it shows a
// dtype (a name that cannot be read, a type not mapped, no switch seen) is named.
// Not: the call graph or the bound (stack/), which functions are kernels (stack_entries.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/pte/program_view.h"
#include "etmem/stack/call_graph.h"

namespace etmem::firmware {

// How a template argument reads: a dtype's C++ type (its ScalarType codes), no scalar type at
// all (a literal, a class, a function pointer type), or a type that may be a dtype etmem does
// not map (then the instantiation is kept).
enum class ArgumentKind { kDtype, kNeutral, kUnsure };
ArgumentKind ClassifyArgument(const std::string& type, unsigned long_bits, std::vector<int8_t>& dtypes);

// The dtypes one operator's calls can have (ScalarType codes). `compute`: the C++ types its
// kernel may instantiate its work on: its tensor arguments' dtypes (tensor lists' too), float32
// where float16 or bfloat16 are among them (the portable kernels compute those in float:
// get_compute_type), complex64 where complex32 is, float32 for a double argument (a floating
// Scalar promotes an integer tensor to float), int64 for an integer argument with a bool tensor
// (promote_type_with_scalar). `scalars`: the C++ types of its Scalar arguments (int64 for an
// Int value, float64 for a Double, bool for a Bool: the .pte does not tell a Scalar from an
// int), which only the templates that read a Scalar into its own type take (kScalarTemplates).
struct CallDtypes {
  std::vector<int8_t> compute;
  std::vector<int8_t> scalars;
};

// By operator index of `method`: the union over the operator's calls. nullopt: not known (a
// call with an argument that is no value of the method, a dtype code no release knows, an
// operator no call names, or calls with no tensor).
std::vector<std::optional<CallDtypes>> OperatorDtypes(const pte::MethodView& method);

// One kernel the entry reaches and the dtypes its calls can have (ScalarType codes; nullopt:
// not known, so nothing below this kernel is pruned).
struct KernelDtypes {
  std::string op;         // "aten::convolution.out"
  uint64_t function = 0;  // the kernel's address
  std::optional<CallDtypes> dtypes;
};

struct DtypePruning {
  stack::EdgeSet dropped;           // for stack::WorstCase
  std::vector<std::string> pruned;  // "caller -> callee: its template arguments show only ..."
  std::vector<std::string> kept;    // edges into a dtype's instantiation that stay, and why
};

// The edges below `kernels` (reached from `entries` through `resolution`) that cannot run. A
// function the entries reach without passing a kernel (the runtime's own code) is never pruned
// below; one reached from several kernels has the union of their dtypes.
DtypePruning PruneByDtypes(const stack::CallGraph& graph, const std::vector<size_t>& entries,
                           const stack::Resolution& resolution,
                           const std::vector<KernelDtypes>& kernels, unsigned long_bits);

}  // namespace etmem::firmware
