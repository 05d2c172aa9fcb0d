// Owns: the firmware's stack section (api::FirmwareStack): which of the image's functions are
// ExecuTorch's entries (Program::load and Program::load_method: "load"; Method::execute:
// "execute"; the runner's main), found by their demangled names in the namespaces the releases
// use (torch::executor before 0.4, executorch::runtime after: data below, not ifs); the kernel
// registry's records read from the image's initialised data (struct Kernel {name_, kernel_key_,
// op_}, its layout per release: RuntimeTraits::kernel_record_*), so that the kernel calls of
// Method::execute_instruction / step / execute reach the kernels of the method's operators; and
// each entry's bound from the stack stage (stack/), with GCC's frame sizes when given (for an
// image whose code is not read, from GCC's files alone); the stack the image declares
// (declared_stack.h).
// Not: disassembly or the call graph (stack/), rendering (report/firmware_report.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/firmware/dtype_pruning.h"
#include "etmem/runtime/release.h"

namespace etmem::firmware {

// A method the runner executes and the operators it calls ("aten::add.out": name.overload),
// each with the dtypes its calls can have (ScalarType codes; nullopt: not known, nothing pruned
// below its kernel; dtype_pruning.h). `dtypes` may be shorter than `operators` (unknown).
struct MethodOperators {
  std::string method;
  std::vector<std::string> operators;
  std::vector<std::optional<CallDtypes>> dtypes;
};

// The stack section: "load", one "execute" per method (its kernel calls resolved through the
// image's kernel registry records to the method's operators' kernels), "main". `release`: the
// kernel record's layout (nullptr: the kernel calls stay unresolved). Throws api::Error (kIo /
// kInvalidArgument) for an unreadable or bad --stack-usage file.
api::FirmwareStack StackOf(const elf::Executable& image, const std::vector<MethodOperators>& methods,
                           const runtime::RuntimeTraits* release, const std::string& stack_usage_dir);

// The stack line of one method's RAM total (ram.stack_bytes, stack_exact, stack_source): the
// deepest of the entries that run for it (load, its execute, the runner's main when found). A
// bound that is not exact makes the line, and so the total, a lower bound.
void StackLine(api::FirmwareRam& ram, const api::FirmwareStack& stack);

}  // namespace etmem::firmware
