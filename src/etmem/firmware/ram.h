// Owns: the one RAM total of the ExecuTorch part of a linked image (`etmem firmware`), per judged
// method, each line with its source: the runner's pools as the image's symbols size them, the
// planned buffers the runner takes from none of them, the program when it lies in RAM, the
// runtime's, kernels' and backends' .data/.bss (the component table, components.h), the
// worst-case stack (a slot the stack stage fills; "not computed" until then), the heap the
// kernels and backends take (kernels/ and their library data); with --board, the total by
// region. Not: the verdicts (firmware.h), the component table itself, rendering (report/).
#pragma once

#include <optional>
#include <vector>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/analysis/firmware_verdict.h"
#include "etmem/analysis/report.h"

namespace etmem::firmware {

// The lines one judged method's analysis gives: each pool in `fm.pools` (the image's sizes),
// the planned buffers outside them (or inside, shown and not added), and the heap of the
// kernels and of each backend the method delegates to (from its run-time temp model).
api::FirmwareRam MethodRam(const report::FirmwareMethod& fm, const report::MethodReport& m);

// The lines the image gives (the program when in RAM, the .data/.bss of the runtime, kernels and
// backends from report.components; unknown without the table), the stack line, each line's
// board region (with a board), and the totals.
void AddImageLines(api::FirmwareRam& ram, const report::FirmwareReport& report,
                   const elf::Executable& image, const std::optional<api::Board>& board);

// (Re)makes the stack line from ram.stack_bytes / stack_source and the totals (known_bytes,
// complete, regions): what the stack stage calls after setting the stack.
void TotalRam(api::FirmwareRam& ram, const std::optional<api::Board>& board);

}  // namespace etmem::firmware
