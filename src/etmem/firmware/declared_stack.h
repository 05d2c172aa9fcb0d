// Owns: the stack size a linked image declares, read from the symbols its linker script defines
// (the conventions below, each with its meaning), so that the worst-case stack can be judged
// against it. Not: the bound itself (stack_entries.h), the verdict (analysis/firmware_verdict.h).
//
//   std::optional<api::FirmwareDeclaredStack> d = firmware::DeclaredStack(image.elf);
#pragma once

#include <optional>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"

namespace etmem::firmware {

// The first convention whose symbols the image has (in this order):
//   CMSIS (the Arm runner's Corstone linker scripts, CMSIS gcc_arm.ld): the .stack section runs
//     from __StackTop (the initial sp) down to __StackLimit: the stack is their difference;
//   _sstack/_estack (Microchip/Atmel ASF scripts): .stack from _sstack up to _estack;
//   __STACK_SIZE (CMSIS, the Arm runner: the size given to .stack) or __stack_size (SiFive's
//     freedom-metal and other RISC-V scripts: `. += __stack_size` in .stack): an absolute symbol;
//   _Min_Stack_Size (STM32CubeIDE): the least the link leaves free below _estack after .bss
//     and the heap (._user_heap_stack); the stack may find more RAM, the link promises this.
// Every other declaration found is listed beside it. nullopt: the image declares none.
std::optional<api::FirmwareDeclaredStack> DeclaredStack(const elf::ObjectFile& elf);

}  // namespace etmem::firmware
