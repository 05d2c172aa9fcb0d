// Owns: writing a type table as C++ source ("mirror header") whose static_asserts let a real
// compiler for the target check the layout engine: each type becomes a struct or union built
// from the same field list, followed by its computed size, alignment and field offsets.
// Not: running any compiler (tests/model/abi_layouts_compile_test.cpp does), nor the layout rules (layout.h).
//
// The mirror part uses only built-in types (`void*`, `__SIZE_TYPE__`, `long long`, ...) and no
// #include, so it compiles on bare-metal toolchains without a C++ library. Types whose
// cxx_spelling names a real type (`std::optional<Tensor>`, `int32_t`, ...) are also checked
// against that type, instantiated on the mirror element types; that part includes <cstddef>,
// <cstdint> and the std headers it needs, and is left out when ETMEM_MIRROR_NO_STD is defined.
//
//   std::string src = EmitMirrorHeader(release.types, cortex_m, "v1_4_1_");
//   // arm-none-eabi-g++ -std=c++20 -mcpu=cortex-m4 -mthumb -fsyntax-only accepts it iff etmem
//   // and the compiler agree on every layout.
#pragma once

#include <string>
#include <string_view>

#include "etmem/abi/abi.h"
#include "etmem/abi/layout.h"

namespace etmem::abi {

// Every identifier the source declares starts with `prefix` (made identifier-safe), so mirrors
// of several tables can share one translation unit.
std::string EmitMirrorHeader(const TypeTable& table, const Abi& abi, std::string_view prefix);

}  // namespace etmem::abi
