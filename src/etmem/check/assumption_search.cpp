// Owns: Search and its helpers (see assumption_search.h).
#include "etmem/check/assumption_search.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "etmem/runtime/labels.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {
namespace {

bool TempOf(TempChoice t, const runtime::RuntimeTraits& release) {
  return t == TempChoice::kRunner ? release.runner_passes_temp : t == TempChoice::kNonNull;
}

std::string JoinOr(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

std::string TempText(bool temp) { return temp ? "a temp allocator" : "no temp allocator"; }

bool LogShowsAFailure(const device::DeviceLog& log) {
  if (!log.failures.empty()) return true;
  return std::any_of(log.calls.begin(), log.calls.end(), [](const auto& c) { return !c.offset; });
}

// A pool at which request `request` of the method pool is the first to fail with the log's
// first failure line: its padding + size must be `requested`, and the pool is what was used
// before it plus `available`.
struct Candidate {
  size_t request = 0;
  size_t call = 0;  // its index among the method pool's calls
  uint64_t pool = 0;
};

std::vector<Candidate> DerivedPools(std::span<const runtime::AllocationRequest> requests,
                                    const sim::SimResult& unbounded,
                                    const device::FailureLine& line) {
  std::vector<Candidate> out;
  if (line.requested <= line.available) return out;  // not a failure the runtime can log
  size_t call = 0;
  for (size_t i = 0; i < unbounded.placements.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    const sim::Placement& p = unbounded.placements[i];
    const uint64_t pool = p.offset - p.padding + line.available;
    // MemoryAllocator's size is a uint32_t.
    if (p.consumed(requests[i].size) == line.requested && pool <= UINT32_MAX)
      out.push_back({i, call, pool});
    ++call;
  }
  // The method pool's cursor only grows, so the pools ascend with the requests (and differ).
  return out;
}

// Requests simulated per search before verifying a derived pool takes the unbounded run's
// prefix instead of simulating it again (PredictFromFailure): a failure line of a common size in
// a program of a million requests has hundreds of thousands of candidate pools.
constexpr uint64_t kSimulationBudget = uint64_t{1} << 23;

struct Nearest {
  uint64_t distance = UINT64_MAX;
  std::string text;
};

// How near a configuration comes to the log's first failure line, when none reproduces it.
// `at_pool`: the prediction at the given pool (when one was given).
void UpdateNearest(const ModelConfig& c, const runtime::LoadPlan& plan,
                   const pte::MethodView& method, const sim::SimResult& unbounded,
                   const device::DeviceLog& log, std::optional<uint64_t> pool,
                   const MethodPrediction* at_pool, Nearest& nearest) {
  if (log.failures.empty()) return;
  const device::FailureLine& want = log.failures.front();
  if (pool) {
    if (!at_pool || at_pool->prediction.failures.empty()) return;
    const MethodPrediction& p = *at_pool;
    const device::PredictedFailure& f = p.prediction.failures.front();
    const uint64_t d = (f.requested > want.requested ? f.requested - want.requested
                                                     : want.requested - f.requested) +
                       (f.available > want.available ? f.available - want.available
                                                     : want.available - f.available);
    if (d < nearest.distance)
      nearest = {
          d, DescribeAssumptions(c, pool) + " logs " + sim::FailureLog(f.requested, f.available)};
    return;
  }
  for (size_t i = 0; i < unbounded.placements.size(); ++i) {
    const runtime::AllocationRequest& r = plan.requests[i];
    if (r.pool != runtime::PoolKind::kMethod) continue;
    const uint64_t consumed = unbounded.placements[i].consumed(r.size);
    const uint64_t d =
        consumed > want.requested ? consumed - want.requested : want.requested - consumed;
    if (d < nearest.distance)
      nearest = {d, DescribeAssumptions(c, std::nullopt) + ": the closest request is " +
                        std::to_string(consumed) + " B with its padding (" +
                        runtime::DescribeRequest(r, plan, method) + "), the log's is " +
                        std::to_string(want.requested) + " B"};
  }
}

}  // namespace

std::vector<ModelConfig> CandidateConfigs(const SearchSpace& space) {
  // A runner dimension: one more loop here (over the runner profiles the user left open), a
  // field in ModelConfig, and PlanConfig applying the runner's allocations around load_method.
  std::vector<ModelConfig> out;
  const std::vector<TempChoice> temps =
      space.temps.empty() ? std::vector{TempChoice::kNull, TempChoice::kNonNull} : space.temps;
  for (const abi::Abi& target : space.targets) {
    std::vector<uint32_t> aligns = space.pool_aligns;
    if (aligns.empty()) aligns = {4, 8, 16, target.malloc_align};
    std::sort(aligns.begin(), aligns.end());
    aligns.erase(std::unique(aligns.begin(), aligns.end()), aligns.end());
    for (const runtime::RuntimeTraits* release : space.releases) {
      std::vector<bool> seen;
      for (TempChoice t : temps) {
        const bool temp = TempOf(t, *release);
        if (std::find(seen.begin(), seen.end(), temp) != seen.end()) continue;
        seen.push_back(temp);
        for (uint32_t a : aligns) out.push_back({release, target, a, temp});
      }
    }
  }
  return out;
}

Result<std::vector<const runtime::RuntimeTraits*>> MatchingReleases(const std::string& spec) {
  std::vector<const runtime::RuntimeTraits*> out;
  if (spec == "all") {
    for (const runtime::RuntimeTraits& r : runtime::AllReleases()) out.push_back(&r);
    return out;
  }
  ETMEM_TRY(const runtime::RuntimeTraits* newest, runtime::FindRelease(spec));
  const std::string want = spec.starts_with("v") ? spec.substr(1) : spec;
  if (std::count(want.begin(), want.end(), '.') >= 2) return std::vector{newest};
  for (const runtime::RuntimeTraits& r : runtime::AllReleases())
    if (r.version.starts_with(want + ".")) out.push_back(&r);
  if (out.empty()) out.push_back(newest);
  return out;
}

ConfigPlan PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::LoadOptions& load) {
  ConfigPlan out;
  PlanConfig(program, method, config, load, out);
  return out;
}

void PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                const ModelConfig& config, const runtime::LoadOptions& load, ConfigPlan& out) {
  // A runner dimension: the runner's own allocations before and after load_method go around
  // these requests here, in the runner's order.
  runtime::LoadOptions o = load;
  o.temp_allocator = config.temp_allocator;
  const runtime::RuntimeModel model(*config.release, config.target);
  runtime::PlanMethodLoad(program, method, model, o, out.plan);
}

MethodPrediction PredictMethodPool(std::span<const runtime::AllocationRequest> requests,
                                   uint32_t pool_align, std::optional<uint64_t> pool,
                                   sim::SimResult* scratch) {
  sim::SimResult local;
  sim::SimResult& s = scratch ? *scratch : local;
  sim::Simulate(requests, {pool_align, pool}, {pool_align, std::nullopt}, s);
  MethodPrediction out;
  std::vector<size_t> call_of_request(requests.size(), 0);
  for (size_t i = 0; i < s.placements.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    call_of_request[i] = out.prediction.calls.size();
    out.request_of_call.push_back(i);
    const sim::Placement& p = s.placements[i];
    out.prediction.calls.push_back({requests[i].size, requests[i].align, p.offset, p.failed});
  }
  for (const sim::AllocationFailure& f : s.failures)
    if (requests[f.request].pool == runtime::PoolKind::kMethod)
      out.prediction.failures.push_back({f.requested, f.available, call_of_request[f.request]});
  out.prediction.used_bytes = s.method_bytes;
  return out;
}

std::optional<MethodPrediction> PredictFromFailure(
    std::span<const runtime::AllocationRequest> requests, const sim::SimResult& unbounded,
    size_t failing, size_t failing_call, uint32_t pool_align, uint64_t pool, bool with_calls,
    sim::SimResult* scratch) {
  const runtime::AllocationRequest& r = requests[failing];
  // A failed zero-size request the runtime ignores: the whole rest of the load follows.
  if (r.on_failure == runtime::OnFailure::kErrorUnlessEmpty && r.size == 0) return std::nullopt;
  const sim::Placement& at = unbounded.placements[failing];
  const uint64_t used_before = at.offset - at.padding;
  // At this pool every request before `failing` fits as in the unbounded run (the method
  // cursor only grows and never passes the pool) and leaves the cursor at `used_before`. So the
  // simulator is run on one request that moves the cursor there (align 1: no padding), then
  // `failing` and the two after it: after a failure the runtime makes at most one more request
  // (an unchecked pair), and the simulator decides which.
  std::array<runtime::AllocationRequest, 4> buffer{};
  buffer[0].size = used_before;
  buffer[0].align = 1;
  const size_t n = std::min<size_t>(requests.size() - failing, 3);
  std::copy_n(requests.begin() + static_cast<std::ptrdiff_t>(failing), n, buffer.begin() + 1);
  const std::span<const runtime::AllocationRequest> tail(buffer.data(), n + 1);
  sim::SimResult local;
  sim::SimResult& s = scratch ? *scratch : local;
  sim::Simulate(tail, {pool_align, pool}, {pool_align, std::nullopt}, s);
  MethodPrediction out;
  for (size_t i = 0; with_calls && i < failing; ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    out.request_of_call.push_back(i);
    out.prediction.calls.push_back(
        {requests[i].size, requests[i].align, unbounded.placements[i].offset, false});
  }
  size_t call = failing_call;
  std::vector<size_t> call_of_tail(tail.size(), 0);
  for (size_t k = 1; k < s.placements.size(); ++k) {
    const runtime::AllocationRequest& q = tail[k];
    if (q.pool != runtime::PoolKind::kMethod) continue;
    call_of_tail[k] = call++;
    if (!with_calls) continue;
    out.request_of_call.push_back(failing + k - 1);
    out.prediction.calls.push_back(
        {q.size, q.align, s.placements[k].offset, s.placements[k].failed});
  }
  for (const sim::AllocationFailure& f : s.failures)
    if (tail[f.request].pool == runtime::PoolKind::kMethod)
      out.prediction.failures.push_back({f.requested, f.available, call_of_tail[f.request]});
  out.prediction.used_bytes = s.method_bytes;
  return out;
}

bool Reproduces(const device::DeviceLog& log, const MethodPrediction& p) {
  if (device::Compare(log, p.prediction)) return false;
  return !device::FirstDifferingFigure(log,
                                       device::LoadMethodFigures(log, p.prediction.used_bytes));
}

bool HasPredictedEvidence(const device::DeviceLog& log) {
  if (!log.calls.empty() || log.totals || !log.failures.empty()) return true;
  return !device::LoadMethodFigures(log, 0).empty();
}

Result<SearchResult> Search(const pte::ProgramView& program, const pte::MethodView& method,
                            const device::DeviceLog& log, const SearchSpace& space) {
  SearchResult out;
  if (!HasPredictedEvidence(log)) {
    out.nothing_predicted = true;
    return out;
  }
  const bool derive = !space.pool && LogShowsAFailure(log);
  if (derive && log.failures.empty())
    return MakeError(ErrorCode::kInvalidArgument,
                     log.path +
                         ": the log shows a failed allocation but no 'Memory allocation "
                         "failed' line to derive the pool from; give the pool size with "
                         "--pool (or log the ETMEM P record)");
  const std::vector<ModelConfig> configs = CandidateConfigs(space);
  out.configs_tried = configs.size();
  Nearest nearest;
  uint64_t simulated = 0;  // requests simulated to verify derived pools
  // Buffers reused from one simulation to the next (a large program's are megabytes).
  sim::SimResult unbounded, scratch;
  // Configurations that differ only in the pool alignment share one plan.
  std::optional<ConfigPlan> plan = ConfigPlan{};  // its buffers reused by each plan
  std::optional<MethodPrediction> at_pool;
  const ModelConfig* planned_for = nullptr;
  for (const ModelConfig& c : configs) {
    if (!planned_for || planned_for->release != c.release ||
        planned_for->target.name != c.target.name ||
        planned_for->temp_allocator != c.temp_allocator) {
      PlanConfig(program, method, c, space.load, *plan);
      planned_for = &c;
    }
    const auto& requests = plan->plan.requests;
    const sim::PoolConfig temp{c.pool_align, std::nullopt};
    sim::Simulate(requests, {c.pool_align, std::nullopt}, temp, unbounded);
    const uint64_t minimum = sim::MinimumPool(requests, c.pool_align, temp, unbounded);
    Reproduction found{c, {}, minimum, plan->plan.exact()};
    bool any = false;
    if (!derive) {
      at_pool = PredictMethodPool(requests, c.pool_align, space.pool, &scratch);
      any = Reproduces(log, *at_pool);
      if (space.pool) found.pools.push_back(*space.pool);
    } else {
      const bool need_calls = !log.calls.empty() || log.totals;
      for (const Candidate& k : DerivedPools(requests, unbounded, log.failures.front())) {
        // Verify: the whole load at this pool, the whole log compared.
        std::optional<MethodPrediction> p;
        if (simulated + requests.size() > kSimulationBudget)
          p = PredictFromFailure(requests, unbounded, k.request, k.call, c.pool_align, k.pool,
                                 need_calls, &scratch);
        if (!p) {
          simulated += requests.size();
          p = PredictMethodPool(requests, c.pool_align, k.pool, &scratch);
        }
        const bool reproduces = Reproduces(log, *p);
        if (reproduces) found.pools.push_back(k.pool);
      }
      any = !found.pools.empty();
    }
    if (any) out.reproductions.push_back(std::move(found));
    if (!any)
      UpdateNearest(c, plan->plan, method, unbounded, log, space.pool,
                    at_pool ? &*at_pool : nullptr, nearest);
  }
  if (out.reproductions.empty()) out.nearest = nearest.text;
  return out;
}

std::string DescribeAssumptions(const ModelConfig& c, std::optional<uint64_t> pool) {
  std::string s = "ExecuTorch " + c.release->version + ", " + c.target.name +
                  ", pool base aligned to " + std::to_string(c.pool_align) + " B, " +
                  TempText(c.temp_allocator);
  return pool ? s + ", a " + std::to_string(*pool) + " B pool" : s;
}

std::string DescribeSpace(const SearchSpace& space, const device::DeviceLog& log) {
  std::string s;
  if (space.releases.size() == 1)
    s = "ExecuTorch " + space.releases.front()->version;
  else
    s = "ExecuTorch " + space.releases.front()->version + " to " + space.releases.back()->version +
        " (" + std::to_string(space.releases.size()) + " releases)";
  std::vector<std::string> targets;
  for (const abi::Abi& t : space.targets) targets.push_back(t.name);
  s += ", " + JoinOr(targets);
  std::set<uint32_t> aligns(space.pool_aligns.begin(), space.pool_aligns.end());
  if (aligns.empty()) {
    aligns = {4, 8, 16};
    for (const abi::Abi& t : space.targets) aligns.insert(t.malloc_align);
  }
  std::vector<std::string> a;
  for (uint32_t v : aligns) a.push_back(std::to_string(v));
  s += ", pool base aligned to " + JoinOr(a) + " B";
  if (space.temps.empty())
    s += ", with and without a temp allocator";
  else if (space.temps.front() == TempChoice::kRunner)
    s += ", the temp allocator each release's executor_runner passes";
  else
    s += ", " + TempText(space.temps.front() == TempChoice::kNonNull);
  if (space.pool)
    s += ", a " + std::to_string(*space.pool) + " B pool";
  else if (!log.failures.empty())
    s += ", the pool size derived from the failure line";
  return s;
}

std::vector<std::string> GroupedLines(const SearchResult& r, size_t per_line_pools) {
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
  std::map<std::tuple<size_t, size_t, uint32_t, bool>, Found> per_config;
  for (const Reproduction& x : r.reproductions) {
    Found& f = per_config[{index(targets, x.config.target.name), index(releases, x.config.release),
                           x.config.pool_align, x.config.temp_allocator}];
    f.pools = x.pools;
    f.minimum = x.minimum_pool;
    f.exact = x.exact;
  }
  // 2. Both temp allocators alike: one entry; then alignments alike: one entry.
  struct Entry {
    size_t target = 0, release = 0;
    std::vector<std::string> aligns;
    std::string temp;
    Found found;
  };
  std::vector<Entry> entries;
  for (const auto& [k, f] : per_config) {
    const auto& [t, v, align, temp] = k;
    const auto other = per_config.find({t, v, align, !temp});
    std::string phrase = TempText(temp);
    if (other != per_config.end() && other->second == f) {
      if (temp) continue;  // told with the entry without
      phrase = "with or without a temp allocator";
    }
    auto same = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
      return e.target == t && e.release == v && e.temp == phrase && e.found == f;
    });
    if (same != entries.end())
      same->aligns.push_back(std::to_string(align));
    else
      entries.push_back({t, v, {std::to_string(align)}, phrase, f});
  }
  // 3. The text after the release; releases with the same text share a line.
  std::vector<std::pair<std::pair<size_t, std::string>, std::vector<std::string>>> lines_by_text;
  for (const Entry& e : entries) {
    std::string text =
        ", " + targets[e.target] + ", pool base aligned to " + JoinOr(e.aligns) + " B, " + e.temp;
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

bool SeveralPools(const SearchResult& r) {
  return std::any_of(r.reproductions.begin(), r.reproductions.end(),
                     [](const Reproduction& x) { return x.pools.size() > 1; });
}

std::vector<std::string> ReproducingReleases(const SearchResult& r) {
  std::vector<std::string> out;
  for (const Reproduction& x : r.reproductions)
    if (std::find(out.begin(), out.end(), x.config.release->version) == out.end())
      out.push_back(x.config.release->version);
  return out;
}

std::vector<const Reproduction*> Matching(const SearchResult& r, const Given& g) {
  std::vector<const Reproduction*> out;
  for (const Reproduction& x : r.reproductions) {
    const ModelConfig& c = x.config;
    if ((!g.release || g.release == c.release) && (!g.target || *g.target == c.target.name) &&
        g.pool_align.value_or(c.target.malloc_align) == c.pool_align &&
        TempOf(g.temp, *c.release) == c.temp_allocator &&
        (!g.pool || x.pools.empty() || std::binary_search(x.pools.begin(), x.pools.end(), *g.pool)))
      out.push_back(&x);
  }
  return out;
}

}  // namespace etmem::check
