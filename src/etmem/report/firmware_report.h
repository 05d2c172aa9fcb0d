// Owns: the text and JSON of what `etmem firmware` answers (api::FirmwareReport, a value of the
// public header include/etmem/etmem.h: a linked image checked against what its embedded program
// needs: the target read from the ELF header, the runner found by its pool symbols, each pool's
// size, address and alignment as facts, a verdict per pool, flash and RAM by component).
// Not: reading the ELF (elf/) or deciding the verdicts (firmware/); this file only prints them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/report/verdict.h"

namespace etmem::report {

// The value is the public header's (api::FirmwareReport): one definition, rendered here.
using api::FirmwareComponent;
using api::FirmwareComponents;
using api::FirmwareMethod;
using api::FirmwareMethodNotJudged;
using api::FirmwarePool;
using api::FirmwareProgram;
using api::FirmwareRegionTotal;
using api::FirmwareReport;

// The image's verdict: a refused method is refused; a pool too small does not fit (its failing
// step and logged lines); a temp pool that holds the known peaks while some run-time requests are
// unknown is unknown; with a stack the image declares, each judged method's worst-case stack over
// it does not fit, an exact bound within it fits, a lower bound within it (or none) is unknown.
Verdict JudgeFirmware(const FirmwareReport& r);

std::string RenderFirmwareText(const FirmwareReport& r);
std::string RenderFirmwareJson(const FirmwareReport& r);  // one JSON object, with a final newline
nlohmann::json FirmwareDom(const FirmwareReport& r);      // the same as a DOM (api::ToJsonValue)

}  // namespace etmem::report
