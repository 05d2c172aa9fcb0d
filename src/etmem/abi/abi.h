// Owns: what a target ABI is, as data (primitive sizes and alignments), and the built-in targets.
// Not: any ExecuTorch type (runtime/ builds those from field lists on top of this).
//
// Sizes of runtime structs are never typed in per target: they follow from these few numbers
// through the layout engine (layout.h). 32-bit ABIs disagree on the alignment of int64_t and
// double inside structs (AAPCS and RISC-V ilp32 use 8, i386 System V uses 4), which is why those
// belong in the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::abi {

struct SizeAlign {
  uint32_t size = 0;
  uint32_t align = 1;
  bool operator==(const SizeAlign&) const = default;
};

// The Arm M-profile extensions of the core, as CMSIS-NN's arm_nn_math_types.h sees them
// (ARM_MATH_DSP from __ARM_FEATURE_DSP, ARM_MATH_MVEI from __ARM_FEATURE_MVE): kNone for
// Cortex-M0/M0+/M3 and for any core that is not Arm M-profile (CMSIS-NN's plain C paths), kDsp for
// Cortex-M4/M7/M33/M35P, kMve for Cortex-M55/M85 (which have DSP as well).
enum class MExtension : uint8_t { kNone, kDsp, kMve };
const char* MExtensionName(MExtension e);  // "none", "dsp", "mve"
std::optional<MExtension> MExtensionNamed(std::string_view name);  // MExtensionName's inverse

struct Abi {
  std::string name;         // the --target value
  std::string description;  // one line for `etmem list targets`
  SizeAlign pointer;        // data and function pointers
  SizeAlign size_type;      // size_t / ssize_t
  SizeAlign int64;          // int64_t / uint64_t as a struct member
  SizeAlign float64;        // double as a struct member
  uint32_t max_align = 8;    // alignof(std::max_align_t)
  uint32_t malloc_align = 8; // what malloc / a static pool usually gives: default --pool-align
  std::string compiler;      // the compiler whose layout this row describes (for reports)
  // What the CMSIS-NN kernels (the Cortex-M backend's run-time scratch) were built for: the
  // core's extensions, and whether by Arm Compiler 6 (armclang defines __ARMCC_VERSION, which two
  // of CMSIS-NN's buffer sizes test). `m_extension_assumed` non-empty: the target does not say,
  // and this is why the value was chosen (reports say so when a figure depends on it).
  MExtension m_extension = MExtension::kNone;
  std::string m_extension_assumed;
  // Set where a board's core gave m_extension (board::TargetOnBoard): which board and core.
  std::string m_extension_from;
  bool armclang = false;
  std::string armclang_assumed;
};

// The built-in targets, in the order `--target all` visits them.
const std::vector<Abi>& BuiltinTargets();

// A built-in target by name, or an error listing the known names.
Result<Abi> FindBuiltinTarget(const std::string& name);

// Reads a target-description file (JSON), e.g.
//   {"name": "i386", "pointer": [4, 4], "size_t": [4, 4], "int64": [8, 4], "double": [8, 4],
//    "max_align": 16, "malloc_align": 16}
// and, for the Cortex-M backend's CMSIS-NN scratch, "m_extension": "none" | "dsp" | "mve" and
// "armclang": true | false (the core's extensions and the compiler CMSIS-NN was built with).
// Every number is checked (power-of-two alignments, sizes 1..16).
Result<Abi> ReadTargetFile(const std::string& path);
// The same from text held in memory; `path` names it in messages.
Result<Abi> ReadTargetText(const std::string& text, const std::string& path);

// --target value: a built-in name or a path to a target-description file.
Result<Abi> ResolveTarget(const std::string& name_or_path);

}  // namespace etmem::abi
