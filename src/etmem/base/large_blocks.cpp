// Owns: AllocateBlock / FreeBlock (see large_blocks.h): the arena of huge-page chunks.
#include "etmem/base/large_blocks.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

namespace etmem {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kChunkBytes = size_t{64} << 20;  // address space; only what is written is memory
constexpr size_t kBlockAlign = 64;                // a cache line

size_t RoundUp(size_t bytes, size_t to) { return (bytes + to - 1) & ~(to - 1); }

// `bytes` of fresh memory on a 2 MiB boundary, advised to use huge pages.
uint8_t* MapHugePageAligned(size_t bytes) {
  // Map one huge page more than needed, then unmap the unaligned head and the tail.
  void* p = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = RoundUp(start, kHugePage);
  if (aligned > start) ::munmap(p, aligned - start);
  const uintptr_t tail = aligned + bytes, end = start + bytes + kHugePage;
  if (end > tail) ::munmap(reinterpret_cast<void*>(tail), end - tail);
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // a hint; may be refused
#endif
  return reinterpret_cast<uint8_t*>(aligned);
}

// Blocks carved in order from a chunk; a chunk is reused once all its blocks are freed, and the
// last block carved gives its bytes back when it is freed first (the usual order of a
// temporary array).
struct Chunk {
  uint8_t* base = nullptr;
  size_t top = 0;   // bytes carved
  size_t live = 0;  // blocks not yet freed
};

class Arena {
 public:
  // A block from the chunk being carved, starting a new chunk if `may_start` and it is full
  // (or there is none); else null.
  void* Allocate(size_t bytes, bool may_start) {
    const size_t size = RoundUp(bytes, kBlockAlign);
    std::lock_guard<std::mutex> lock(mutex_);
    if (chunks_.empty() || chunks_.back().top + size > kChunkBytes) {
      if (!may_start) return nullptr;
      chunks_.push_back({MapHugePageAligned(kChunkBytes), 0, 0});
    }
    Chunk& c = chunks_.back();
    uint8_t* block = c.base + c.top;
    c.top += size;
    ++c.live;
    return block;
  }

  // False when `block` is not in any chunk (a middle-sized block from operator new).
  bool Free(void* block, size_t bytes) {
    auto* p = static_cast<uint8_t*>(block);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find_if(chunks_.begin(), chunks_.end(), [&](const Chunk& c) {
      return p >= c.base && p < c.base + kChunkBytes;
    });
    if (it == chunks_.end()) return false;
    if (p + RoundUp(bytes, kBlockAlign) == it->base + it->top) it->top = p - it->base;
    if (--it->live > 0) return true;
    it->top = 0;
    // An empty chunk is kept for the next blocks only if it is the one being carved.
    if (it + 1 != chunks_.end()) {
      ::munmap(it->base, kChunkBytes);
      chunks_.erase(it);
    }
    return true;
  }

 private:
  std::mutex mutex_;
  std::vector<Chunk> chunks_;
};

Arena& TheArena() {
  static Arena* arena = new Arena();  // never destroyed: static arrays may outlive any order
  return *arena;
}

// Middle-sized blocks join a chunk that a large block has started (its huge page is paid
// for), else come from operator new.
enum class Source { kOperatorNew, kJoinArena, kArena, kOwnMapping };

Source SourceOf(size_t bytes) {
  if (!kMapsLargeBlocks || bytes < kArenaJoinBytes) return Source::kOperatorNew;
  if (bytes < kArenaBlockBytes) return Source::kJoinArena;
  return bytes <= kChunkBytes / 4 ? Source::kArena : Source::kOwnMapping;
}

}  // namespace

void* AllocateBlock(size_t bytes) {
  switch (SourceOf(bytes)) {
    case Source::kOperatorNew: return ::operator new(bytes);
    case Source::kJoinArena:
      if (void* p = TheArena().Allocate(bytes, /*may_start=*/false)) return p;
      return ::operator new(bytes);
    case Source::kArena: return TheArena().Allocate(bytes, /*may_start=*/true);
    case Source::kOwnMapping: return MapHugePageAligned(RoundUp(bytes, kHugePage));
  }
  return nullptr;
}

void FreeBlock(void* block, size_t bytes) {
  switch (SourceOf(bytes)) {
    case Source::kOperatorNew: return ::operator delete(block);
    case Source::kJoinArena:
      if (!TheArena().Free(block, bytes)) ::operator delete(block);
      return;
    case Source::kArena: TheArena().Free(block, bytes); return;
    case Source::kOwnMapping: ::munmap(block, RoundUp(bytes, kHugePage)); return;
  }
}

}  // namespace etmem
