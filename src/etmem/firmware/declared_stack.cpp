// Owns: reading the stack size an image's linker script declares (declared_stack.h).
#include "etmem/firmware/declared_stack.h"

#include <fmt/format.h>

#include <map>
#include <string>

namespace etmem::firmware {
namespace {

// A convention: a region (top - bottom) or one absolute size symbol, and what it means.
struct Convention {
  const char* top;      // the region's end (higher address), or the size symbol
  const char* bottom;   // the region's start; nullptr: `top` is a size
  const char* meaning;
};

constexpr Convention kConventions[] = {
    {"__StackTop", "__StackLimit",
     "CMSIS linker scripts (the Arm runner's Corstone ones): .stack runs from __StackTop, the "
     "initial sp, down to __StackLimit; below it lies the heap"},
    {"_estack", "_sstack",
     "Microchip/Atmel ASF linker scripts: .stack runs from _sstack up to _estack, the initial sp"},
    {"__STACK_SIZE", nullptr,
     "CMSIS linker scripts (the Arm runner's): the size given to .stack"},
    {"__stack_size", nullptr,
     "RISC-V linker scripts (SiFive's freedom-metal and others): the size given to .stack"},
    {"_Min_Stack_Size", nullptr,
     "STM32CubeIDE linker scripts: the least stack the link leaves free below _estack after .bss "
     "and the heap (._user_heap_stack); the stack may find more RAM, the link promises this much"},
};

}  // namespace

std::optional<api::FirmwareDeclaredStack> DeclaredStack(const elf::ObjectFile& elf) {
  // Defined symbols by name (the first definition of each: a global one wins).
  std::map<std::string, const elf::Symbol*> defined;
  for (const elf::Symbol& s : elf.symbols) {
    if (s.section == 0 || s.name.empty()) continue;
    auto [it, fresh] = defined.emplace(s.name, &s);
    if (!fresh && it->second->binding == 0 && s.binding != 0) it->second = &s;
  }
  std::optional<api::FirmwareDeclaredStack> out;
  for (const Convention& c : kConventions) {
    const auto top = defined.find(c.top);
    if (top == defined.end()) continue;
    uint64_t bytes = top->second->value;
    std::string symbols = fmt::format("{} = {:#x}", c.top, top->second->value);
    if (c.bottom) {
      const auto bottom = defined.find(c.bottom);
      if (bottom == defined.end()) continue;
      if (bottom->second->value >= top->second->value) continue;  // not a region
      bytes = top->second->value - bottom->second->value;
      symbols = fmt::format("{} - {} = {:#x} - {:#x}", c.top, c.bottom, top->second->value,
                            bottom->second->value);
    }
    if (!out) {
      out = api::FirmwareDeclaredStack{bytes, symbols, c.meaning, {}};
    } else {
      out->others.push_back(fmt::format("{} B ({})", bytes, symbols));
    }
  }
  return out;
}

}  // namespace etmem::firmware
