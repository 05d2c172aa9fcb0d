// Owns: the search's text (see search_text.h).
#include "etmem/report/search_text.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "etmem/analysis/assumptions.h"
#include "etmem/sim/simulate.h"

namespace etmem::report {
namespace {

std::string TempText(bool temp) { return temp ? "a temp allocator" : "no temp allocator"; }

}  // namespace

std::string JoinOr(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

std::string DescribeAssumptions(const check::ModelConfig& c, std::optional<uint64_t> pool) {
  Assumptions a;
  a.runtime = c.release->version;
  a.target = c.target.name;
  if (c.runner) a.runner = "runner " + c.runner->Name();
  a.pool_align = c.pool_align;
  a.temp_allocator = c.temp_allocator;
  return AssumptionSentence(a, SearchWording(pool));
}

std::string DescribeNearest(const check::NearestConfig& n) {
  if (n.pool)
    return DescribeAssumptions(n.config, n.pool) + " logs " +
           sim::FailureLog(n.requested, n.available);
  return DescribeAssumptions(n.config, std::nullopt) + ": the closest request is " +
         std::to_string(n.closest.bytes) + " B with its padding (" + n.closest.what +
         "), the log's is " + std::to_string(n.requested) + " B";
}

std::string DescribeSpace(const check::SearchSpace& space, const device::DeviceLog& log) {
  std::string s;
  if (space.releases.size() == 1)
    s = "ExecuTorch " + space.releases.front()->version;
  else
    s = "ExecuTorch " + space.releases.front()->version + " to " + space.releases.back()->version +
        " (" + std::to_string(space.releases.size()) + " releases)";
  std::vector<std::string> targets;
  for (const abi::Abi& t : space.targets) targets.push_back(t.name);
  s += ", " + JoinOr(targets);
  if (!space.runners.empty()) {
    std::vector<std::string> runners;
    for (const runner::RunnerSelection& r : space.runners) runners.push_back(check::SelectionName(r));
    s += ", runner " + JoinOr(runners);
  }
  std::set<uint32_t> aligns(space.pool_aligns.begin(), space.pool_aligns.end());
  if (aligns.empty()) {
    aligns = {4, 8, 16};
    for (const abi::Abi& t : space.targets) aligns.insert(t.malloc_align);
  }
  std::vector<std::string> a;
  for (uint32_t v : aligns) a.push_back(std::to_string(v));
  s += ", pool base aligned to " + JoinOr(a) + " B";
  if (!space.runners.empty() && space.pool_aligns.empty())
    s += " (a runner's pool: at least the alignment it is declared with)";
  const bool profiled = std::any_of(space.runners.begin(), space.runners.end(),
                                    [](const runner::RunnerSelection& r) { return !r.empty(); });
  const bool portable = space.runners.empty() ||
                        std::any_of(space.runners.begin(), space.runners.end(),
                                    [](const runner::RunnerSelection& r) { return r.empty(); });
  if (profiled) s += ", each runner profile's own temp allocator";
  if (portable) {
    if (profiled) s += " (for the portable executor_runner";
    if (space.temps.empty())
      s += ", with and without a temp allocator";
    else if (space.temps.front() == check::TempChoice::kRunner)
      s += ", the temp allocator each release's executor_runner passes";
    else
      s += ", " + TempText(space.temps.front() == check::TempChoice::kNonNull);
    if (profiled) s += ")";
  }
  if (space.pool)
    s += ", a " + std::to_string(*space.pool) + " B pool";
  else if (!log.failures.empty())
    s += ", the pool size derived from the failure line";
  return s;
}

std::vector<std::string> GroupedLines(const check::SearchResult& r, size_t per_line_pools) {
  // 1. Per configuration (target, release, alignment, temp): its pools, ascending.
  std::vector<std::string> targets;
  std::vector<const runtime::RuntimeTraits*> releases;
  auto index = [](auto& list, const auto& item) {
    const auto it = std::find(list.begin(), list.end(), item);
    if (it != list.end()) return static_cast<size_t>(it - list.begin());
    list.push_back(item);
    return list.size() - 1;
  };
  struct Found {
    std::vector<uint64_t> pools;
    uint64_t minimum = 0;
    bool exact = true;
    bool operator==(const Found&) const = default;
  };
  std::vector<std::string> runners{""};  // "" = no runner dimension
  std::map<std::tuple<size_t, size_t, size_t, uint32_t, bool>, Found> per_config;
  for (const check::Reproduction& x : r.reproductions) {
    const size_t runner = index(runners, x.config.runner ? x.config.runner->Name() : "");
    Found& f = per_config[{index(targets, x.config.target.name), runner,
                           index(releases, x.config.release), x.config.pool_align,
                           x.config.temp_allocator}];
    f.pools = x.pools;
    f.minimum = x.minimum_pool;
    f.exact = x.exact;
  }
  // 2. Both temp allocators alike: one entry; then alignments alike: one entry.
  struct Entry {
    size_t target = 0, runner = 0, release = 0;
    std::vector<std::string> aligns;
    std::string temp;
    Found found;
  };
  std::vector<Entry> entries;
  for (const auto& [k, f] : per_config) {
    const auto& [t, runner, v, align, temp] = k;
    const auto other = per_config.find({t, runner, v, align, !temp});
    std::string phrase = TempText(temp);
    if (other != per_config.end() && other->second == f) {
      if (temp) continue;  // told with the entry without
      phrase = "with or without a temp allocator";
    }
    // A loop, not find_if with a lambda: clang 14 (the fuzz build) cannot capture the bindings.
    auto same = entries.begin();
    while (same != entries.end() && !(same->target == t && same->runner == runner &&
                                      same->release == v && same->temp == phrase && same->found == f))
      ++same;
    if (same != entries.end())
      same->aligns.push_back(std::to_string(align));
    else
      entries.push_back({t, runner, v, {std::to_string(align)}, phrase, f});
  }
  // 3. The text after the release; releases with the same text share a line.
  std::vector<std::pair<std::pair<size_t, std::string>, std::vector<std::string>>> lines_by_text;
  for (const Entry& e : entries) {
    std::string text = ", " + targets[e.target] +
                       (runners[e.runner].empty() ? "" : ", runner " + runners[e.runner]) +
                       ", pool base aligned to " + JoinOr(e.aligns) + " B, " + e.temp;
    std::vector<std::string> pools;
    for (size_t i = 0; i < e.found.pools.size() && i <= per_line_pools; ++i)
      pools.push_back(std::to_string(e.found.pools[i]));
    if (pools.size() > per_line_pools) {
      const size_t more = e.found.pools.size() - per_line_pools;
      pools.resize(per_line_pools);
      std::string listed;
      for (const std::string& p : pools) listed += (listed.empty() ? "" : ", ") + p;
      text += ", a " + listed + " B pool or " + std::to_string(more) + " other sizes";
    } else if (!pools.empty()) {
      text += ", a " + JoinOr(pools) + " B pool";
    }
    text += " -> minimum " + std::to_string(e.found.minimum) + " B" +
            (e.found.exact ? "" : " or more (a backend etmem cannot size)") +
            " under these assumptions";
    const std::pair<size_t, std::string> key{e.target, text};
    auto it = std::find_if(lines_by_text.begin(), lines_by_text.end(),
                           [&](const auto& l) { return l.first == key; });
    if (it == lines_by_text.end())
      lines_by_text.push_back({key, {releases[e.release]->version}});
    else if (it->second.back() != releases[e.release]->version)
      it->second.push_back(releases[e.release]->version);
  }
  std::stable_sort(lines_by_text.begin(), lines_by_text.end(),
                   [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
  std::vector<std::string> lines;
  for (const auto& [key, versions] : lines_by_text)
    lines.push_back("ExecuTorch " + JoinOr(versions) + key.second);
  return lines;
}

}  // namespace etmem::report
