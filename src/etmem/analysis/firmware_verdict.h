// Owns: the verdict of a checked firmware image (api::FirmwareReport, a value of the public header
// include/etmem/etmem.h): per pool, per method and for the stack the image declares. Not: finding
// the facts (firmware/), printing them (report/firmware_report.h).
#pragma once

#include <optional>

#include "etmem/analysis/verdict.h"
#include "etmem/etmem.h"

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
// The judged method's stack against the stack the image declares (nullopt: nothing declared, or
// the stack left out): over it does not fit; an exact bound within it fits; else unknown.
std::optional<Verdict> StackVerdict(const FirmwareReport& r, const api::FirmwareRam& ram);

}  // namespace etmem::report
