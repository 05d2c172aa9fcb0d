// Owns: api::List, `etmem list`'s value for each table (releases, targets, runner profiles,
// boards), rendered by report/list_report. Not: the tables (runtime/, abi/, runner/, board/).
#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/report/list_report.h"

namespace etmem::api {

std::string List(const std::string& what, Format format) {
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

}  // namespace etmem::api
