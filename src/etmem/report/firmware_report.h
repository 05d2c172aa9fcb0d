// Owns: the text and JSON of what `etmem firmware` answers (api::FirmwareReport, a value of the
// public header include/etmem/etmem.h: a linked image checked against what its embedded program
// needs: the target read from the ELF header, the runner found by its pool symbols, each pool's
// size, address and alignment as facts, a verdict per pool, flash and RAM by component).
// Not: reading the ELF (elf/), finding the facts (firmware/) or judging them
// (analysis/firmware_verdict.h); this file only prints them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/analysis/firmware_verdict.h"

namespace etmem::report {

// The value (api::FirmwareReport) and its verdict: analysis/firmware_verdict.h.

std::string RenderFirmwareText(const FirmwareReport& r);
std::string RenderFirmwareJson(const FirmwareReport& r);  // one JSON object, with a final newline
nlohmann::json FirmwareDom(const FirmwareReport& r);      // the same as a DOM (api::ToJsonValue)

}  // namespace etmem::report
