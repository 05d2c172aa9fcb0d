// Owns: finding constant tensors whose stored bytes are identical (same dtype, same byte size,
// same contents) under different data indices of the program's constant storage (the constant
// segment, or the legacy inline buffers), so the program carries one copy per duplicate. Each
// group names the values that read a copy, the instructions that use them, and the bytes that
// keeping one copy would save, computed from the stored sizes. Candidates are grouped by a
// SHA-256 of their bytes and then compared byte for byte.
// Not: constants in a .ptd or inside delegate blobs (their storage is not the program's
// constant table), planned-memory advisories (advise.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/pte/program_view.h"

namespace etmem::plan {

// One tensor value that reads a copy.
struct ConstantUse {
  size_t method = 0;                  // index into ProgramView::methods
  int32_t value = 0;
  uint32_t data_index = 0;            // the copy it reads
  std::vector<int64_t> instructions;  // instructions naming it (directly or in a tensor list)
};

struct DuplicateConstants {
  int8_t dtype = 0;
  uint64_t bytes = 0;                  // each copy's data size (numel x element size)
  std::vector<uint32_t> data_indices;  // the identical copies, ascending; the first is kept
  std::vector<ConstantUse> uses;
  // Flash the program would not hold with one copy: the data of every other copy (padding the
  // constant segment puts between entries not counted).
  uint64_t flash_saving() const { return bytes * (data_indices.size() - 1); }
};

// Needs the program's mapped file (the constants' bytes). Groups come in order of their first
// data index.
std::vector<DuplicateConstants> FindDuplicateConstants(const pte::ProgramView& program);

// What to change at export time, and what the saving means for RAM (none when the loader reads
// constants in place).
std::string DuplicateConstantsChange();
std::string DuplicateConstantsRam();

}  // namespace etmem::plan
