// Owns: MeetingBuffers, which finds the buffers whose instruction ranges meet a given buffer's
// without comparing all pairs (the planners' first-fit, replan.cpp, and fit's buffer splitter,
// board/fit.cpp, use it). Not: placing anything.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "etmem/plan/replan.h"

namespace etmem::plan {

// The buffers whose ranges meet a buffer's, found without looking at the others: a buffer
// meets [f, l] when it holds instruction f (a stabbing query: a segment tree over the distinct
// first instructions keeps each buffer at the O(log n) nodes covering its range, the root-to-
// leaf walk for f finds them) or starts after f and at most at l (a run of the buffers sorted
// by first instruction). The two cases are disjoint, so each is found once. Built once for a
// set of buffers (flat arrays) and shared by every first-fit over it; a query visits every
// buffer that meets, and reports those the caller keeps (the placed ones, say).
class MeetingBuffers {
 public:
  explicit MeetingBuffers(std::span<const Buffer> b) : b_(b) {
    for (const Buffer& x : b) points_.push_back(x.first);
    std::sort(points_.begin(), points_.end());
    points_.erase(std::unique(points_.begin(), points_.end()), points_.end());
    while (leaves_ < points_.size()) leaves_ *= 2;
    // Two passes over each buffer's canonical nodes: count, then fill (compressed rows).
    node_begin_.assign(2 * leaves_ + 1, 0);
    for (size_t i = 0; i < b.size(); ++i) Canonical(i, [&](size_t n) { ++node_begin_[n + 1]; });
    for (size_t n = 0; n < 2 * leaves_; ++n) node_begin_[n + 1] += node_begin_[n];
    node_items_.resize(node_begin_.back());
    std::vector<uint32_t> fill(node_begin_.begin(), node_begin_.end() - 1);
    for (size_t i = 0; i < b.size(); ++i)
      Canonical(i, [&](size_t n) { node_items_[fill[n]++] = static_cast<uint32_t>(i); });
    by_first_.resize(b.size());
    std::iota(by_first_.begin(), by_first_.end(), uint32_t{0});
    std::stable_sort(by_first_.begin(), by_first_.end(),
                     [&](uint32_t x, uint32_t y) { return b[x].first < b[y].first; });
    for (uint32_t i : by_first_) firsts_.push_back(b[i].first);
  }

  // Calls f(j) for every buffer j whose range meets buffer i's (i itself included) for which
  // keep(j) holds.
  template <typename Keep, typename F>
  void ForEachMeeting(size_t i, Keep&& keep, F&& f) const {
    for (size_t n = Leaf(b_[i].first) + leaves_; n >= 1; n /= 2)
      for (uint32_t k = node_begin_[n]; k < node_begin_[n + 1]; ++k)
        if (keep(static_cast<size_t>(node_items_[k]))) f(static_cast<size_t>(node_items_[k]));
    const auto lo = std::upper_bound(firsts_.begin(), firsts_.end(), b_[i].first) - firsts_.begin();
    const auto hi = std::upper_bound(firsts_.begin() + lo, firsts_.end(), b_[i].last) - firsts_.begin();
    for (auto k = lo; k < hi; ++k)
      if (keep(static_cast<size_t>(by_first_[static_cast<size_t>(k)]))) f(static_cast<size_t>(by_first_[static_cast<size_t>(k)]));
  }

 private:
  size_t Leaf(int64_t first) const {
    return static_cast<size_t>(std::lower_bound(points_.begin(), points_.end(), first) -
                               points_.begin());
  }
  // The nodes that together cover exactly the leaves buffer i's range holds.
  template <typename F>
  void Canonical(size_t i, F&& f) const {
    size_t lo = Leaf(b_[i].first) + leaves_;
    size_t hi = static_cast<size_t>(std::upper_bound(points_.begin(), points_.end(), b_[i].last) -
                                    points_.begin()) + leaves_;
    for (; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) f(lo++);
      if (hi & 1) f(--hi);
    }
  }

  std::span<const Buffer> b_;
  std::vector<int64_t> points_;  // distinct first instructions, ascending
  size_t leaves_ = 1;
  std::vector<uint32_t> node_begin_, node_items_;
  std::vector<uint32_t> by_first_;
  std::vector<int64_t> firsts_;  // first instruction of by_first_[k]
};

}  // namespace etmem::plan
