// Owns: the declarations of `etmem list`'s text (list_text.cpp) and JSON (list_json.cpp), rendered
// from the values of the public header's
// ReleaseInfo, TargetInfo, RunnerInfo, (as ListBoard) Board and (as ListKernelLibrary) the
// kernel and delegate libraries, which api/list.cpp fills, and the table of formats (formats.h).
// Not: the tables themselves (runtime/, abi/, runner/, board/).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/report/formats.h"

namespace etmem::report {

// A board as `list boards` shows it (api::Board's values: the report library does not call
// into the API's implementation).
struct ListBoard {
  std::string name, description, file;
  std::string core, core_m_extension;  // "" when the board does not say
  std::vector<api::BoardRegion> regions;
};

// A kernel library (or a delegate library: its backends) as `list kernels` shows it, its
// releases grouped where what it registers does not change. An entry is an operator (a backend
// id) and what its kernel takes while the method runs: "none", "temp" (asks the temp allocator),
// "unknown" (asks, with a size etmem does not model), "malloc" (takes it from the C heap),
// "other_library" (the library registers another library's kernel for it, whose rule answers).
struct ListKernelLibrary {
  std::string name;
  bool delegates = false;  // a delegate library: its entries are backend ids
  bool always = false;     // in every runner, whatever --kernels says (the prim ops)
  bool is_default = false; // what --kernels means when neither it nor the runner names one
  std::vector<std::string> namespaces;  // custom namespaces whose operators select it
  std::string other_library;            // whose kernels its "other_library" entries are
  struct Span {
    std::string first, last;  // inclusive, as etmem spells releases
    std::vector<std::pair<std::string, std::string>> entries;  // sorted by name
    // Delegates: backend id -> what it takes outside every ExecuTorch pool, in words (its
    // bytes per delegate where modelled, else "unknown"); backends with nothing are absent.
    std::map<std::string, std::string> outside;
    bool operator==(const Span&) const = default;
  };
  std::vector<Span> spans;  // oldest first; a release where it registers nothing has none
};

// Text (list_text.cpp): one line per entry, its details indented below.
std::string ListReleases(const std::vector<api::ReleaseInfo>& releases);
std::string ListTargets(const std::vector<api::TargetInfo>& targets);
std::string ListRunners(const std::vector<api::RunnerInfo>& runners);
std::string ListBoards(const std::vector<ListBoard>& boards);
// Per library, each span: the operators it registers (the first span in full, later ones as
// what was added and removed) and those whose kernel takes memory while running.
std::string ListKernels(const std::vector<ListKernelLibrary>& libraries);
// `etmem list formats`: the table of output formats (formats.h), one line per (result, format)
// with the file that renders it.
std::string ListFormats(const std::vector<FormatRow>& rows);

// JSON (list_json.cpp): the rows, an array with one object per entry (every operator of every
// release for the kernels), and `etmem list WHAT --format json`'s document around them:
// {"schema": N, WHAT: the rows} (docs/json.md).
nlohmann::ordered_json ListReleasesJson(const std::vector<api::ReleaseInfo>& releases);
nlohmann::ordered_json ListTargetsJson(const std::vector<api::TargetInfo>& targets);
nlohmann::ordered_json ListRunnersJson(const std::vector<api::RunnerInfo>& runners);
nlohmann::ordered_json ListBoardsJson(const std::vector<ListBoard>& boards);
nlohmann::ordered_json ListKernelsJson(const std::vector<ListKernelLibrary>& libraries);
nlohmann::ordered_json ListFormatsJson(const std::vector<FormatRow>& rows);
std::string ListJson(const std::string& what, const nlohmann::ordered_json& rows);

}  // namespace etmem::report
