// Owns: CheckJson, `etmem check --format json` (see check_report.h): the same facts as the text,
// as numbers and names.
#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

#include "etmem/report/check_render.h"
#include "etmem/report/search_text.h"

namespace etmem::report {
namespace {

using nlohmann::json;

json Optional(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

json ConfigJson(const check::ModelConfig& c) {
  return {{"runtime", c.release->version},
          {"target", c.target.name},
          {"pool_align", c.pool_align},
          {"temp_allocator", c.temp_allocator},
          {"runner", c.runner ? json(c.runner->Name()) : json(nullptr)}};
}

json FigureJson(const CheckFigure& f) {
  return {{"line", f.line},         {"name", f.name},
          {"label", f.label},       {"bytes", f.bytes},
          {"predicted", Optional(f.predicted)},
          {"meaning", f.meaning},
          {"verdict", f.matches() ? "as predicted" : f.differs() ? "differs" : "not predicted"}};
}

json ComparisonJson(const CheckComparison& c) {
  json j;
  j["matches"] = !c.difference;
  if (c.difference) {
    const device::Difference& d = *c.difference;
    j["difference"] = {{"line", d.line},
                       {"call", d.call ? json(*d.call) : json(nullptr)},
                       {"device", d.got},
                       {"etmem", d.predicted},
                       {"call_is", c.differing_call ? json(*c.differing_call) : json(nullptr)}};
  }
  if (c.config) {
    j["assumptions"] = ConfigJson(*c.config);
    j["assuming"] = DescribeAssumptions(*c.config, c.pool);
  } else {
    j["assumptions"] = {{"runtime", c.assumptions->runtime},
                        {"target", c.assumptions->target},
                        {"pool_align", c.assumptions->pool_align},
                        {"temp_allocator", c.assumptions->temp_allocator}};
    j["assuming"] = AssumptionSentence(*c.assumptions, CheckWording(c.pool));
  }
  j["pool"] = Optional(c.pool);
  if (c.failure)
    j["failure"] = {{"call", c.failure->call},
                    {"what", c.failure->what},
                    {"runner_lines", c.failure->runner_lines}};
  if (c.device_pool_align) j["device_pool_align"] = *c.device_pool_align;
  json unknowns = json::array();
  for (const runtime::UnknownPart& u : c.unknowns)
    unknowns.push_back({{"delegate", u.delegate}, {"backend", u.backend}, {"why", u.why}});
  j["lower_bound"] = unknowns;
  if (c.bookkeeping)
    j["bookkeeping"] = {{"figure", c.bookkeeping->figure}, {"taken", c.bookkeeping->taken}};
  json figures = json::array();
  for (const CheckFigure& f : c.figures) figures.push_back(FigureJson(f));
  j["figures"] = figures;
  if (c.minimum_pool_title)
    j["minimum"] = {{"pool", *c.minimum_pool_title}, {"bytes", c.minimum}};
  return j;
}

json SearchJson(const CheckReport& r) {
  const CheckSearch& s = *r.search;
  json j;
  json attempts = json::array();
  for (const CheckSearch::Attempt& a : s.attempts)
    attempts.push_back({{"searched", DescribeSpace(a.space, r.log)},
                        {"combinations", a.found.configs_tried},
                        {"nothing_predicted", a.found.nothing_predicted}});
  j["attempts"] = attempts;
  j["complete"] = s.complete;
  if (s.attempts.empty()) return j;
  const check::SearchResult& found = s.attempts.back().found;
  json reproductions = json::array();
  for (size_t i = 0; i < found.reproductions.size(); ++i) {
    const check::Reproduction& x = found.reproductions[i];
    json one = ConfigJson(x.config);
    one["pools"] = x.pools;
    one["minimum_pool"] = x.minimum_pool;
    one["exact"] = x.exact;
    one["yours"] = std::find(s.matching.begin(), s.matching.end(), i) != s.matching.end();
    reproductions.push_back(std::move(one));
  }
  j["reproductions"] = reproductions;
  j["lines"] = GroupedLines(found);
  if (found.nearest) j["nearest"] = DescribeNearest(*found.nearest);
  j["yours_reproduce"] = !s.matching.empty();
  return j;
}

}  // namespace

std::string CheckJson(const CheckReport& r) {
  json j;
  j["log"] = r.log_path;
  j["method"] = r.method;
  j["pool"] = Optional(r.pool);
  j["records"] = {{"calls", r.log.calls.size()},
                  {"failure_lines", r.log.failures.size()},
                  {"runner_figures", r.log.runner_figures.size()},
                  {"totals", r.log.totals ? json{{"used_bytes", r.log.totals->used_bytes},
                                                 {"calls", r.log.totals->calls}}
                                          : json(nullptr)}};
  j["comparison"] = r.comparison ? ComparisonJson(*r.comparison) : json(nullptr);
  if (r.run_time) {
    const CheckRunTime& c = *r.run_time;
    j["run_time"] = {{"step_line", c.step_line},
                     {"step_text", c.step_text},
                     {"requested", c.requested},
                     {"available", c.available},
                     {"candidate_pools", c.candidate_pools},
                     {"temp_pool", Optional(c.pool)},
                     {"failing", c.failing_what},
                     {"predicted", c.predicted},
                     {"load_peak_bytes", c.load_peak_bytes},
                     {"run_peak_bytes", c.run_peak_bytes},
                     {"run_exact", c.run_known},
                     {"run_summary", c.run_summary}};
  } else {
    j["run_time"] = nullptr;
  }
  j["search"] = r.search ? SearchJson(r) : json(nullptr);
  j["reproduced"] = r.reproduced;
  j["error"] = r.error.empty() ? json(nullptr) : json(r.error);
  j.update(VerdictMembers(OutcomeVerdict(
      r.reproduced, "the device log against the prediction",
      "the prediction for the given assumptions does not reproduce the log", r.error)));
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
