// Owns: the placement search and the buffer splitter of fit.h.
// Not: what the pieces are (the caller sizes them from a report).
#include "etmem/board/fit.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "etmem/base/checked_math.h"
#include "etmem/plan/meeting_buffers.h"

namespace etmem::board {
namespace {

constexpr uint64_t kMaxEnumerated = 20000;  // assignments tried exhaustively
constexpr uint64_t kMaxSplitTries = 64;     // assignments of the pools tried with splitting

struct Item {
  uint64_t bytes;
  uint32_t align;
  size_t key;  // caller's index, for the stable order
};

uint64_t Sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

// Lays `items` out from a base aligned to `base_align`; fills offsets/paddings (by position in
// `items`) and returns the cursor at the end.
uint64_t Layout(uint32_t base_align, const std::vector<Item>& items, std::vector<uint64_t>* offsets,
                std::vector<uint64_t>* paddings) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (items[a].align != items[b].align) return items[a].align > items[b].align;
    if (items[a].bytes != items[b].bytes) return items[a].bytes > items[b].bytes;
    return items[a].key < items[b].key;
  });
  if (offsets) offsets->assign(items.size(), 0);
  if (paddings) paddings->assign(items.size(), 0);
  uint64_t cursor = 0;
  for (size_t i : order) {
    const uint64_t a = std::min<uint64_t>(items[i].align, base_align);
    uint64_t pad = (cursor > UINT64_MAX - a) ? 0 : AlignUp(cursor, a) - cursor;
    if (items[i].align > base_align) pad += items[i].align - base_align;
    const uint64_t at = Sat(cursor, pad);
    if (offsets) (*offsets)[i] = at;
    if (paddings) (*paddings)[i] = pad;
    cursor = Sat(at, items[i].bytes);
  }
  return cursor;
}

// Peak over instructions of the live storage bytes.
uint64_t PeakLive(const std::vector<StorageItem>& storage) {
  std::map<int64_t, int64_t> delta;  // signed sums of bytes; bytes fit int64 (read from files)
  for (const StorageItem& s : storage) {
    if (!s.used) continue;
    delta[s.first] += static_cast<int64_t>(s.bytes);
    delta[s.last + 1] -= static_cast<int64_t>(s.bytes);
  }
  int64_t live = 0, peak = 0;
  for (const auto& [at, d] : delta) {
    live += d;
    peak = std::max(peak, live);
  }
  return static_cast<uint64_t>(peak);
}

bool Conflict(const StorageItem& a, const StorageItem& b) {
  return a.used && b.used && a.first <= b.last && b.first <= a.last;
}

// A region's pieces so far: whole pieces and parts, as layout items plus what they stand for.
struct Content {
  std::vector<Item> items;
  std::vector<std::pair<size_t, size_t>> what;  // (piece, part)
};

struct State {
  std::vector<Content> regions;
  std::vector<Split> splits;
};

Placement Finish(const std::vector<RegionSpace>& regions, State state) {
  Placement p;
  p.used.assign(regions.size(), 0);
  for (size_t r = 0; r < regions.size(); ++r) {
    std::vector<uint64_t> offsets, paddings;
    p.used[r] = Layout(regions[r].base_align, state.regions[r].items, &offsets, &paddings);
    for (size_t i = 0; i < state.regions[r].items.size(); ++i) {
      const auto [piece, part] = state.regions[r].what[i];
      p.placed.push_back({piece, part, r, offsets[i], paddings[i], state.regions[r].items[i].bytes,
                          state.regions[r].items[i].align});
    }
    if (p.used[r] > regions[r].free)
      p.short_bytes = Sat(p.short_bytes, p.used[r] - regions[r].free);
  }
  std::sort(p.placed.begin(), p.placed.end(), [](const Placed& a, const Placed& b) {
    return a.piece != b.piece ? a.piece < b.piece : a.part < b.part;
  });
  p.splits = std::move(state.splits);
  return p;
}

// The largest X with a piece of X bytes (aligned kPlannedAlign) still within the region.
uint64_t Capacity(const RegionSpace& region, const Content& content) {
  auto cost = [&](uint64_t x) {
    std::vector<Item> items = content.items;
    items.push_back({x, static_cast<uint32_t>(kPlannedAlign), SIZE_MAX});
    return Layout(region.base_align, items, nullptr, nullptr);
  };
  if (cost(0) > region.free) return 0;
  uint64_t lo = 0, hi = region.free;  // cost(lo) fits; find the largest
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (cost(mid) <= region.free)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// Splits `piece`'s storage over the regions' remaining capacity (greedy by size, lowest
// offset, regions with more room first); what fits nowhere goes where there is most room.
// An item's lowest offset in a bin looks only at the items placed there whose ranges meet its
// own: O(n log n) plus the meeting pairs, never all pairs.
Split SplitBuffer(size_t piece_index, const Piece& piece, const std::vector<uint64_t>& capacity,
                  std::vector<size_t>* part_region) {
  std::vector<size_t> bins;
  for (size_t r = 0; r < capacity.size(); ++r) bins.push_back(r);
  std::stable_sort(bins.begin(), bins.end(),
                   [&](size_t a, size_t b) { return capacity[a] > capacity[b]; });
  const std::vector<StorageItem>& s = piece.storage;
  std::vector<size_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (s[a].used != s[b].used) return s[a].used;
    return s[a].bytes > s[b].bytes;
  });
  std::vector<std::vector<size_t>> in_bin(bins.size());
  std::vector<size_t> bin_of(s.size(), 0);
  std::vector<uint64_t> offset(s.size(), 0), end(bins.size(), 0);
  // The used items as buffers: only they conflict, and only with each other; the items in a
  // bin that an item meets are found without looking at the others (plan::MeetingBuffers).
  std::vector<plan::Buffer> used;
  std::vector<size_t> used_index(s.size(), SIZE_MAX), item_of;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i].used) {
      used_index[i] = used.size();
      used.push_back({s[i].bytes, s[i].first, s[i].last});
      item_of.push_back(i);
    }
  const plan::MeetingBuffers meeting(used);
  std::vector<size_t> placed_bin(used.size(), SIZE_MAX);  // by used index
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  auto lowest = [&](size_t bin, size_t item) -> uint64_t {
    if (!s[item].used || s[item].bytes == 0) return 0;  // conflicts with nothing / fits at 0
    taken.clear();
    meeting.ForEachMeeting(
        used_index[item], [&](size_t j) { return placed_bin[j] == bin; },
        [&](size_t j) {
          const size_t other = item_of[j];
          taken.emplace_back(offset[other], offset[other] + s[other].bytes);
        });
    std::sort(taken.begin(), taken.end());
    uint64_t at = 0;
    for (const auto& [lo, hi] : taken) {
      if (at + s[item].bytes <= lo) break;
      if (hi > at) at = AlignUp(hi, kPlannedAlign);
    }
    return at;
  };
  for (size_t item : order) {
    bool placed = false;
    for (size_t b = 0; b < bins.size() && !placed; ++b) {
      const uint64_t at = lowest(b, item);
      if (at + s[item].bytes <= capacity[bins[b]]) {
        offset[item] = at;
        bin_of[item] = b;
        placed = true;
      }
    }
    if (!placed) {  // overflows: where the most room is
      offset[item] = lowest(0, item);
      bin_of[item] = 0;
    }
    in_bin[bin_of[item]].push_back(item);
    if (s[item].used) placed_bin[used_index[item]] = bin_of[item];
    end[bin_of[item]] = std::max(end[bin_of[item]], offset[item] + s[item].bytes);
  }
  // Parts: the bins that hold anything, in bin order.
  Split split;
  split.piece = piece_index;
  std::vector<size_t> part_of_bin(bins.size(), SIZE_MAX);
  for (size_t b = 0; b < bins.size(); ++b) {
    if (in_bin[b].empty()) continue;
    part_of_bin[b] = split.part_bytes.size();
    split.part_bytes.push_back(end[b]);
    part_region->push_back(bins[b]);
  }
  // A buffer no tensor lives in (a plan may declare one): one empty part where the most room
  // is, so the rewritten program still declares the buffer, with 0 bytes.
  if (split.part_bytes.empty() && !bins.empty()) {
    split.part_bytes.push_back(0);
    part_region->push_back(bins[0]);
  }
  split.part_of.resize(s.size());
  split.offset_of = offset;
  for (size_t i = 0; i < s.size(); ++i) split.part_of[i] = part_of_bin[bin_of[i]];
  return split;
}

// Enumerates assignments of `which` pieces to regions in lexicographic order (piece order as
// given, regions in board order); `visit` returns true to stop.
template <typename Visit>
void Enumerate(size_t regions, size_t count, uint64_t limit, Visit visit) {
  std::vector<size_t> a(count, 0);
  for (uint64_t n = 0; n < limit; ++n) {
    if (visit(a)) return;
    size_t i = count;
    while (i > 0) {
      --i;
      if (++a[i] < regions) break;
      a[i] = 0;
      if (i == 0) return;
    }
    if (count == 0) return;
  }
}

uint64_t Power(uint64_t base, size_t exp) {
  uint64_t r = 1;
  for (size_t i = 0; i < exp; ++i) {
    if (r > UINT64_MAX / std::max<uint64_t>(base, 1)) return UINT64_MAX;
    r *= base;
  }
  return r;
}

Placement WholeGreedy(const std::vector<RegionSpace>& regions, const std::vector<Piece>& pieces,
                      const std::vector<size_t>& order) {
  State st;
  st.regions.resize(regions.size());
  for (size_t p : order) {
    size_t chosen = SIZE_MAX, roomiest = 0;
    uint64_t most = 0;
    for (size_t r = 0; r < regions.size(); ++r) {
      Content c = st.regions[r];
      c.items.push_back({pieces[p].bytes, pieces[p].align, p});
      const uint64_t cost = Layout(regions[r].base_align, c.items, nullptr, nullptr);
      if (cost <= regions[r].free && chosen == SIZE_MAX) chosen = r;
      const uint64_t room = regions[r].free > cost ? regions[r].free - cost : 0;
      if (room > most) {
        most = room;
        roomiest = r;
      }
    }
    if (chosen == SIZE_MAX) chosen = roomiest;
    st.regions[chosen].items.push_back({pieces[p].bytes, pieces[p].align, p});
    st.regions[chosen].what.emplace_back(p, 0);
  }
  return Finish(regions, std::move(st));
}

}  // namespace

uint64_t RegionCost(uint32_t base_align, const std::vector<std::pair<uint64_t, uint32_t>>& pieces) {
  std::vector<Item> items;
  for (size_t i = 0; i < pieces.size(); ++i)
    items.push_back({pieces[i].first, pieces[i].second, i});
  return Layout(base_align, items, nullptr, nullptr);
}

LowerBound ComputeLowerBound(const std::vector<RegionSpace>& regions,
                             const std::vector<Piece>& pieces) {
  LowerBound lb;
  uint64_t largest = 0, total_free = 0;
  for (const RegionSpace& r : regions) {
    largest = std::max(largest, r.free);
    total_free = Sat(total_free, r.free);
  }
  uint64_t needed = 0;
  for (const Piece& p : pieces) {
    if (p.splittable) {
      needed = Sat(needed, std::min(p.bytes, PeakLive(p.storage)));
      for (const StorageItem& s : p.storage) {
        const uint64_t b = std::min(s.bytes, p.bytes);
        if (b > largest && b - largest > lb.short_bytes) {
          lb.short_bytes = b - largest;
          lb.reason = "a tensor of " + p.name + " needs " + std::to_string(b) +
                      " B in one piece; the largest region has " + std::to_string(largest) +
                      " B free";
        }
      }
    } else {
      needed = Sat(needed, p.bytes);
      if (p.bytes > largest && p.bytes - largest > lb.short_bytes) {
        lb.short_bytes = p.bytes - largest;
        lb.reason = p.name + " needs " + std::to_string(p.bytes) +
                    " B in one region; the largest has " + std::to_string(largest) + " B free";
      }
    }
  }
  if (needed > total_free && needed - total_free > lb.short_bytes) {
    lb.short_bytes = needed - total_free;
    lb.reason = "everything together needs at least " + std::to_string(needed) +
                " B (planned buffers at their peak of live bytes); the regions have " +
                std::to_string(total_free) + " B free";
  }
  return lb;
}

FitResult Fit(const std::vector<RegionSpace>& regions, const std::vector<Piece>& pieces) {
  FitResult out;
  out.bound = ComputeLowerBound(regions, pieces);
  const size_t m = regions.size();
  // Pieces in decreasing size (ties: input order): the enumeration's and the greedy's order.
  std::vector<size_t> order(pieces.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return pieces[a].bytes > pieces[b].bytes; });
  auto place_whole = [&](const std::vector<size_t>& which, const std::vector<size_t>& assign,
                         State& st) {
    for (size_t k = 0; k < which.size(); ++k) {
      const size_t p = which[k];
      st.regions[assign[k]].items.push_back({pieces[p].bytes, pieces[p].align, p});
      st.regions[assign[k]].what.emplace_back(p, 0);
    }
  };
  // A: every piece whole.
  bool have = false;
  if (Power(m, order.size()) <= kMaxEnumerated) {
    Enumerate(m, order.size(), kMaxEnumerated, [&](const std::vector<size_t>& assign) {
      State st;
      st.regions.resize(m);
      place_whole(order, assign, st);
      Placement p = Finish(regions, std::move(st));
      if (!have || p.short_bytes < out.best.short_bytes) {
        out.best = std::move(p);
        have = true;
      }
      return out.best.fits();
    });
  } else {
    out.best = WholeGreedy(regions, pieces, order);
    have = true;
  }
  if (out.best.fits()) return out;
  // B: the pools whole, the planned buffers whole where they fit, else split.
  std::vector<size_t> fixed, buffers;
  for (size_t p : order) (pieces[p].splittable ? buffers : fixed).push_back(p);
  if (buffers.empty()) return out;
  std::sort(buffers.begin(), buffers.end(),
            [&](size_t a, size_t b) { return pieces[a].memory_id < pieces[b].memory_id; });
  uint64_t tries = 0;
  const uint64_t limit = std::min<uint64_t>(Power(m, fixed.size()), kMaxEnumerated);
  Enumerate(m, fixed.size(), limit, [&](const std::vector<size_t>& assign) {
    State st;
    st.regions.resize(m);
    place_whole(fixed, assign, st);
    bool pools_fit = true;
    for (size_t r = 0; r < m; ++r)
      if (Layout(regions[r].base_align, st.regions[r].items, nullptr, nullptr) > regions[r].free)
        pools_fit = false;
    if (!pools_fit && tries > 0) return false;  // try the pools' placements that fit first
    ++tries;
    for (size_t p : buffers) {
      size_t whole = SIZE_MAX;
      for (size_t r = 0; r < m && whole == SIZE_MAX; ++r) {
        std::vector<Item> items = st.regions[r].items;
        items.push_back({pieces[p].bytes, pieces[p].align, p});
        if (Layout(regions[r].base_align, items, nullptr, nullptr) <= regions[r].free) whole = r;
      }
      if (whole != SIZE_MAX) {
        st.regions[whole].items.push_back({pieces[p].bytes, pieces[p].align, p});
        st.regions[whole].what.emplace_back(p, 0);
        continue;
      }
      std::vector<uint64_t> capacity(m);
      for (size_t r = 0; r < m; ++r) capacity[r] = Capacity(regions[r], st.regions[r]);
      std::vector<size_t> part_region;
      Split split = SplitBuffer(p, pieces[p], capacity, &part_region);
      for (size_t part = 0; part < split.part_bytes.size(); ++part) {
        st.regions[part_region[part]].items.push_back(
            {split.part_bytes[part], static_cast<uint32_t>(kPlannedAlign), p});
        st.regions[part_region[part]].what.emplace_back(p, part);
      }
      st.splits.push_back(std::move(split));
    }
    Placement placement = Finish(regions, std::move(st));
    if (placement.short_bytes < out.best.short_bytes) out.best = std::move(placement);
    return out.best.fits() || tries >= kMaxSplitTries;
  });
  return out;
}

}  // namespace etmem::board
