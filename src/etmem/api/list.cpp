// Owns: api::List, `etmem list`'s value for each table (releases, targets, runner profiles,
// boards, kernel and delegate libraries, output formats), rendered by report/list_report;
// api::OutputFormats and api::FormatNames over the table of formats (report/formats.h). Not: the
// tables (runtime/, abi/, runner/, board/, kernels/, report/formats.cpp).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/kernels/library.h"
#include "etmem/report/json_report.h"
#include "etmem/report/list_report.h"

namespace etmem::api {
namespace {

// What a kernel's rule takes while the method runs, in list_report.h's words.
const char* Takes(kernels::TempRule r) {
  using kernels::TempRule;
  switch (r) {
    case TempRule::kNone: return "none";
    case TempRule::kUnknownSize: return "unknown";
    case TempRule::kOtherLibrary: return "other_library";
    case TempRule::kHifiMeanMalloc:
    case TempRule::kHifiPowMalloc:
    case TempRule::kHifiWhereMalloc:
    case TempRule::kG3LayerNormMalloc: return "malloc";
    default: return "temp";
  }
}

const char* Takes(kernels::DelegateRule r) {
  switch (r) {
    case kernels::DelegateRule::kNone: return "none";
    case kernels::DelegateRule::kEthosUScratch: return "temp";
    case kernels::DelegateRule::kEthosUScratchInBlob: return "none: its scratch is in the blob";
    case kernels::DelegateRule::kUnknownSize: return "unknown";
  }
  return "unknown";
}

// Every kernel and delegate library at every modelled release, then the snapshots of main,
// consecutive releases with the same entries grouped.
std::vector<report::ListKernelLibrary> KernelLibraries() {
  std::vector<const runtime::RuntimeTraits*> releases;
  for (const runtime::RuntimeTraits& r : runtime::AllReleases()) releases.push_back(&r);
  for (const runtime::RuntimeTraits* s : runtime::AllSnapshots()) releases.push_back(s);
  std::vector<report::ListKernelLibrary> out;
  const std::vector<std::string>& names = kernels::KernelLibraryNames();
  for (size_t i = 0; i < names.size(); ++i) {
    report::ListKernelLibrary l;
    l.name = names[i];
    l.is_default = names[i] == kernels::kDefaultKernelLibrary;
    std::string previous;  // the release before, where the library's entries were the last span's
    for (const runtime::RuntimeTraits* r : releases) {
      const kernels::KernelLibrary& lib = kernels::AllLibrariesAt(*r).at(i);
      l.always = lib.always;
      l.namespaces = lib.namespaces;
      l.other_library = lib.other_library;
      std::vector<std::pair<std::string, std::string>> entries;
      for (const auto& [op, rule] : lib.ops) entries.emplace_back(op, Takes(rule));
      if (entries.empty()) {
        previous.clear();
        continue;
      }
      if (!l.spans.empty() && !previous.empty() && l.spans.back().entries == entries)
        l.spans.back().last = r->version;
      else
        l.spans.push_back({r->version, r->version, std::move(entries), {}});
      previous = r->version;
    }
    bool other = false;
    for (const auto& s : l.spans)
      for (const auto& e : s.entries) other |= e.second == std::string("other_library");
    if (!other) l.other_library.clear();
    out.push_back(std::move(l));
  }
  const size_t delegates = kernels::DelegateLibrariesAt(*releases.front()).size();
  for (size_t i = 0; i < delegates; ++i) {
    report::ListKernelLibrary l;
    l.delegates = true;
    std::string previous;
    for (const runtime::RuntimeTraits* r : releases) {
      const kernels::DelegateLibrary& lib = kernels::DelegateLibrariesAt(*r).at(i);
      l.name = lib.name;
      report::ListKernelLibrary::Span span{r->version, r->version, {}, {}};
      for (const auto& [id, rule] : lib.backends) span.entries.emplace_back(id, Takes(rule));
      for (const auto& [id, o] : lib.outside) {
        if (o.what.empty()) continue;
        span.outside[id] =
            o.unknown ? o.brief + " (unknown)"
                      : o.brief + " on the C heap, " +
                            (o.pointer_words ? std::to_string(o.pointer_words) + " pointer(s)" : "") +
                            (o.pointer_words && o.size_words ? " and " : "") +
                            (o.size_words ? std::to_string(o.size_words) + " size_t" : "") +
                            " per delegate";
      }
      if (span.entries.empty()) {
        previous.clear();
        continue;
      }
      if (!l.spans.empty() && !previous.empty() &&
          l.spans.back().entries == span.entries && l.spans.back().outside == span.outside) {
        l.spans.back().last = r->version;
      } else {
        l.spans.push_back(std::move(span));
      }
      previous = r->version;
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

namespace {
std::string Table(const std::string& what, Format format);
}  // namespace

std::vector<OutputFormat> OutputFormats() {
  std::vector<OutputFormat> out;
  for (const report::FormatRow& r : report::FormatTable())
    out.push_back({r.result, r.verb, r.format, r.renderer});
  return out;
}

std::vector<std::string> FormatNames(const std::string& verb) {
  std::vector<std::string> out;
  for (const report::FormatRow& r : report::FormatTable())
    if (r.verb == verb && std::find(out.begin(), out.end(), r.format) == out.end())
      out.push_back(r.format);
  if (out.empty())
    throw Error(ErrorKind::kInvalidArgument, "no verb '" + Printable(verb) + "' renders a result");
  return out;
}

// JSON: one object, {"schema": N, WHAT: [the table's rows]} (docs/json.md).
std::string List(const std::string& what, Format format) { return Table(what, format); }

namespace {
// The text or the JSON of one kind, each from its own renderer (report/list_text.cpp,
// report/list_json.cpp).
template <typename Rows, typename Text, typename Json>
std::string Rendered(const std::string& what, bool json, const Rows& rows, Text text, Json as_json) {
  return json ? report::ListJson(what, as_json(rows)) : text(rows);
}

std::string Table(const std::string& what, Format format) {
  if (format == Format::kCsv || format == Format::kMarkdown)
    throw Error(ErrorKind::kInvalidArgument, "etmem list renders text or JSON, not CSV or Markdown");
  const bool json = format == Format::kJson;
  if (what == "runtimes")
    return Rendered(what, json, Releases(), report::ListReleases, report::ListReleasesJson);
  if (what == "targets")
    return Rendered(what, json, Targets(), report::ListTargets, report::ListTargetsJson);
  if (what == "runners")
    return Rendered(what, json, Runners(), report::ListRunners, report::ListRunnersJson);
  if (what == "boards") {
    std::vector<report::ListBoard> boards;
    for (const Board& b : Boards())
      boards.push_back({b.name(), b.description(), b.file(), b.core(), b.core_m_extension(),
                        b.regions()});
    return Rendered(what, json, boards, report::ListBoards, report::ListBoardsJson);
  }
  if (what == "kernels")
    return Rendered(what, json, KernelLibraries(), report::ListKernels, report::ListKernelsJson);
  if (what == "formats")
    return Rendered(what, json, report::FormatTable(), report::ListFormats,
                    report::ListFormatsJson);
  throw Error(ErrorKind::kInvalidArgument,
              "etmem list: '" + Printable(what) +
                  "' is not one of runtimes, targets, runners, boards, kernels, formats");
}
}  // namespace

}  // namespace etmem::api
