// Owns: `etmem list`'s text and JSON, rendered from the values of the public header's
// ReleaseInfo, TargetInfo, RunnerInfo and (as ListBoard) Board, which api/list.cpp fills.
// Not: the tables themselves (runtime/, abi/, runner/, board/).
#pragma once

#include <string>
#include <vector>

#include "etmem/etmem.h"

namespace etmem::report {

// A board as `list boards` shows it (api::Board's values: the report library does not call
// into the API's implementation).
struct ListBoard {
  std::string name, description, file;
  std::string core, core_m_extension;  // "" when the board does not say
  std::vector<api::BoardRegion> regions;
};

// Text: one line per entry, its details indented below. JSON: an array, one object per entry.
std::string ListReleases(const std::vector<api::ReleaseInfo>& releases, bool json);
std::string ListTargets(const std::vector<api::TargetInfo>& targets, bool json);
std::string ListRunners(const std::vector<api::RunnerInfo>& runners, bool json);
std::string ListBoards(const std::vector<ListBoard>& boards, bool json);

}  // namespace etmem::report
