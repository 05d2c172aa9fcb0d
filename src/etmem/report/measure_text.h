// Owns: the text of `etmem measure` (measure/measure.h's MeasureRun), part by part as the verb
// prints it while it builds and runs: the tree and the release compared with, the harness
// built, each method's measured calls beside etmem's, the kept logs. In etmem_search_report
// (what the web page does not build). Not: measuring (measure/, api/measure.cpp).
#pragma once

#include <string>

#include "etmem/measure/measure.h"

namespace etmem::report {

std::string MeasureSetupText(const measure::MeasureSetup& s);
std::string MeasureBuildText(const measure::MeasureBuild& b);
// `brief`: without the call-by-call table.
std::string MeasureMethodText(const measure::MethodMeasurement& m, bool brief);
std::string MeasureLogsText(const std::string& work);
// Every part, in order.
std::string MeasureText(const measure::MeasureRun& run, bool brief);

}  // namespace etmem::report
