// Owns: the text of `etmem measure` (measure/measure.h's MeasureRun), part by part as the verb
// prints it while it builds and runs: the tree and the release compared with, the harness
// built, each method's measured calls beside etmem's, with --execute the run-time temp trace of
// the real kernels beside etmem's (measure/execute.h's ExecutionRun), the kept logs. In
// etmem_search_report (what the web page does not build). Not: measuring or comparing
// (measure/, api/measure.cpp).
#pragma once

#include <string>

#include "etmem/measure/measure.h"

namespace etmem::report {

std::string MeasureSetupText(const measure::MeasureSetup& s);
std::string MeasureBuildText(const measure::MeasureBuild& b);
// `brief`: without the call-by-call table.
std::string MeasureMethodText(const measure::MethodMeasurement& m, bool brief);
// --execute: the real kernels, the temp allocator (or heap) and each method executed; one
// method's comparison alone (ExecutionComparisonText: from "  real kernels:" to its failure).
std::string MeasureExecutionText(const measure::ExecutionRun& run);
std::string ExecutionComparisonText(const measure::ExecutionComparison& c);
std::string MeasureLogsText(const std::string& work);
// Every part, in order.
std::string MeasureText(const measure::MeasureRun& run, bool brief);

}  // namespace etmem::report
