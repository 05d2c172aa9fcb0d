// Owns: the candidate configurations of the assumption search (candidates.h): CandidateConfigs
// (THE one place that enumerates assumptions), the runners `check --runner all` tries, the
// releases a --runtime value selects. Not: predicting a configuration (prediction.cpp,
// runner_prediction.cpp), the search (search.cpp).
#include <algorithm>

#include "etmem/check/candidates.h"
#include "etmem/runtime/release_range.h"

namespace etmem::check {

bool TempAllocatorOf(TempChoice t, const runtime::RuntimeTraits& release) {
  return t == TempChoice::kRunner ? release.runner_passes_temp : t == TempChoice::kNonNull;
}

std::vector<ModelConfig> CandidateConfigs(const SearchSpace& space) {
  std::vector<ModelConfig> out;
  const std::vector<TempChoice> temps =
      space.temps.empty() ? std::vector{TempChoice::kNull, TempChoice::kNonNull} : space.temps;
  for (const abi::Abi& target : space.targets) {
    std::vector<uint32_t> aligns = space.pool_aligns;
    if (aligns.empty()) aligns = {4, 8, 16, target.malloc_align};
    std::sort(aligns.begin(), aligns.end());
    aligns.erase(std::unique(aligns.begin(), aligns.end()), aligns.end());
    for (const runtime::RuntimeTraits* release : space.releases) {
      // load_method alone in its pool: each temp allocator, each alignment.
      auto alone = [&](const std::optional<ConfigRunner>& runner) {
        std::vector<bool> seen;
        for (TempChoice t : temps) {
          const bool temp = TempAllocatorOf(t, *release);
          if (std::find(seen.begin(), seen.end(), temp) != seen.end()) continue;
          seen.push_back(temp);
          for (uint32_t a : aligns) out.push_back({release, target, a, temp, runner});
        }
      };
      if (space.runners.empty()) {
        alone(std::nullopt);
        continue;
      }
      for (const runner::RunnerSelection& selection : space.runners) {
        if (selection.empty()) {
          alone(ConfigRunner{});
          continue;
        }
        // A runner profiled for this release: its temp allocator; its pool's declared alignment
        // or more (unless the alignment was pinned).
        auto found = runner::ProfileFor(selection, release->version);
        if (!found) continue;
        const runner::Profile& profile = **found;
        const runner::StepSpec& load = profile.LoadStep();
        const uint32_t declared =
            selection.pool_align.value_or(profile.FindPool(load.pool)->base_align);
        std::vector<uint32_t> runner_aligns;
        for (uint32_t a : aligns)
          if (!space.pool_aligns.empty() || a >= declared) runner_aligns.push_back(a);
        if (runner_aligns.empty()) runner_aligns.push_back(declared);
        for (uint32_t a : runner_aligns)
          out.push_back({release, target, a, !load.temp_pool.empty(),
                         ConfigRunner{&profile, selection.options}});
      }
    }
  }
  return out;
}

std::string ConfigRunner::Name() const {
  if (!profile) return "portable";
  std::string s = profile->name;
  for (const std::string& o : options) s += "+" + o;
  return s;
}

std::string SelectionName(const runner::RunnerSelection& s) {
  if (s.empty()) return "portable";
  std::string name = s.candidates.front()->name;
  for (const std::string& o : s.options) name += "+" + o;
  return name;
}

std::vector<runner::RunnerSelection> AllRunners() {
  std::vector<runner::RunnerSelection> out{runner::RunnerSelection{}};
  const auto& all = runner::BuiltinProfiles();  // in name order
  for (size_t i = 0; i < all.size();) {
    runner::RunnerSelection s;
    size_t k = i;
    for (; k < all.size() && all[k]->name == all[i]->name; ++k) s.candidates.push_back(all[k]);
    i = k;
    // The options that add allocations to the pool load_method uses (others change nothing
    // check can see).
    std::vector<std::string> options;
    for (const auto& p : s.candidates) {
      const std::string& method_pool = p->LoadStep().pool;
      for (const runner::StepSpec& step : p->steps)
        // (A step that runs without an option, "!OPTION", adds nothing the option would.)
        if (!step.when.empty() && !step.when.starts_with('!') && step.pool == method_pool &&
            std::find(options.begin(), options.end(), step.when) == options.end())
          options.push_back(step.when);
    }
    const size_t n = std::min<size_t>(options.size(), 4);
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      runner::RunnerSelection with = s;
      for (size_t b = 0; b < n; ++b)
        if (mask & (1u << b)) with.options.push_back(options[b]);
      out.push_back(std::move(with));
    }
  }
  return out;
}

Result<std::vector<const runtime::RuntimeTraits*>> MatchingReleases(const std::string& spec) {
  return runtime::ReleasesIn(spec);
}
}  // namespace etmem::check
