// Owns: api::Probe, `etmem probe` through the public API: measure::Probe's structured value and
// its text (report/probe_text.h). Not: probing (measure/probe.h).
#include <memory>

#include "etmem/api/internal.h"
#include "etmem/measure/probe.h"
#include "etmem/report/probe_text.h"

namespace etmem::api {

ProbeResult Probe(const ProbeOptions& options) {
  measure::ProbeOptions o;
  o.executorch = options.executorch;
  o.cxx = options.cxx;
  o.cxxflags = options.cxxflags;
  o.release = options.release;
  o.output = options.output;
  o.name = options.name;
  o.keep = options.keep;
  if (options.format == Format::kCsv || options.format == Format::kMarkdown)
    throw Error(ErrorKind::kInvalidArgument,
                "etmem probe renders text or JSON, not CSV or Markdown");
  auto run = measure::Probe(o);
  if (!run) Throw(run.error());
  ProbeResult result;
  result.output = options.format == Format::kJson ? report::ProbeJson(*run)
                                                  : report::ProbeText(*run);
  result.value = std::make_shared<const measure::ProbeRun>(std::move(*run));
  return result;
}

}  // namespace etmem::api
