// Owns: api::List, `etmem list`'s value for each table (releases, targets, runner profiles,
// boards), rendered by report/list_report. Not: the tables (runtime/, abi/, runner/, board/).
#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/report/json_report.h"
#include "etmem/report/list_report.h"

namespace etmem::api {

namespace {
std::string Table(const std::string& what, Format format);
}  // namespace

// JSON: one object, {"schema": N, WHAT: [the table's rows]} (docs/json.md).
std::string List(const std::string& what, Format format) {
  const std::string out = Table(what, format);
  if (format != Format::kJson) return out;
  nlohmann::ordered_json j;
  j["schema"] = report::kJsonSchema;
  j[what] = nlohmann::ordered_json::parse(out);
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {
std::string Table(const std::string& what, Format format) {
  if (format == Format::kCsv || format == Format::kMarkdown)
    throw Error(ErrorKind::kInvalidArgument, "etmem list renders text or JSON, not CSV or Markdown");
  const bool json = format == Format::kJson;
  if (what == "runtimes") return report::ListReleases(Releases(), json);
  if (what == "targets") return report::ListTargets(Targets(), json);
  if (what == "runners") return report::ListRunners(Runners(), json);
  if (what == "boards") {
    std::vector<report::ListBoard> boards;
    for (const Board& b : Boards())
      boards.push_back({b.name(), b.description(), b.file(), b.core(), b.core_m_extension(),
                        b.regions()});
    return report::ListBoards(boards, json);
  }
  throw Error(ErrorKind::kInvalidArgument,
              "etmem list: '" + Printable(what) + "' is not one of runtimes, targets, runners, boards");
}
}  // namespace

}  // namespace etmem::api
