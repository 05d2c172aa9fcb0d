// Owns: placing a program's pools and planned buffers in a board's regions, as plain numbers:
// which region each piece goes to, at which offset, the free bytes left, the shortfall of the
// best placement found, and a lower bound that proves when no placement can exist; and, when a
// planned buffer fits no region whole, splitting its storage (alias groups with live ranges)
// into several buffers, each within one region's free space.
// Not: reading boards (board.h), sizing the pools (report/), rewriting programs (plan/rewrite.h).
//
// The model. A region offers `free` bytes (size minus reservations) from a base aligned to
// `base_align` and not more. Its pieces are laid out from the base in a fixed order (larger
// alignment first, then larger size, then input order); a piece whose alignment exceeds the
// base's pays the worst-case padding (align - base_align) in addition to the cursor's own.
// Planned storage is placed at multiples of kPlannedAlign inside its buffer; a buffer is a
// piece aligned to kPlannedAlign. The search is deterministic: exhaustive over the whole pieces
// when regions^pieces is small, first-fit decreasing otherwise; splitting is greedy by size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etmem::board {

constexpr uint64_t kPlannedAlign = 16;

struct RegionSpace {
  std::string name;
  uint64_t free = 0;
  uint32_t base_align = 8;
};

// One piece of planned storage in a splittable buffer (an alias group as a whole).
struct StorageItem {
  uint64_t bytes = 0;
  bool used = false;  // live somewhere; an unused one conflicts with nothing live
  int64_t first = 0, last = 0;
};

struct Piece {
  std::string name;  // what the report calls it
  uint64_t bytes = 0;
  uint32_t align = 8;
  uint32_t memory_id = 0;            // a planned buffer's id (0: a pool)
  bool splittable = false;           // a planned buffer whose storage may be re-planned
  std::vector<StorageItem> storage;  // splittable: its storage
};

// Where a piece (or one part of a split buffer) went.
struct Placed {
  size_t piece = 0;      // index into the pieces
  size_t part = 0;       // 0 for a whole piece; split buffers: 0, 1, ...
  size_t region = 0;     // index into the regions
  uint64_t offset = 0;   // from the region's base (padding before it included in `padding`)
  uint64_t padding = 0;  // worst-case bytes skipped before it
  uint64_t bytes = 0;
  uint32_t align = 8;
};

// A split buffer: its storage's new part and offset, and each part's size.
struct Split {
  size_t piece = 0;
  std::vector<size_t> part_of;       // per StorageItem
  std::vector<uint64_t> offset_of;   // per StorageItem, within its part
  std::vector<uint64_t> part_bytes;  // each part's size
};

struct LowerBound {
  uint64_t short_bytes = 0;  // 0: the bound does not rule a placement out
  std::string reason;        // why, in words (empty when 0)
};

struct Placement {
  std::vector<Placed> placed;
  std::vector<Split> splits;
  std::vector<uint64_t> used;  // per region: bytes taken (padding included)
  uint64_t short_bytes = 0;    // sum over regions of what exceeds their free bytes
  bool fits() const { return short_bytes == 0; }
};

struct FitResult {
  Placement best;
  LowerBound bound;
};

// The necessary conditions: every whole piece and every storage item fits the largest free
// region; all of them together (splittable buffers at their peak of live bytes) fit the sum.
LowerBound ComputeLowerBound(const std::vector<RegionSpace>& regions,
                             const std::vector<Piece>& pieces);

FitResult Fit(const std::vector<RegionSpace>& regions, const std::vector<Piece>& pieces);

// What a region's layout costs: the cursor after laying out `pieces` (bytes, align) in order.
uint64_t RegionCost(uint32_t base_align, const std::vector<std::pair<uint64_t, uint32_t>>& pieces);

}  // namespace etmem::board
