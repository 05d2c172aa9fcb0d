// Owns: AllocateBlock / FreeBlock (see large_blocks.h).
#include "etmem/base/large_blocks.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace etmem {
namespace {

bool Mapped(size_t bytes) { return kMapsLargeBlocks && bytes >= kLargeBlockBytes; }

size_t RoundUp(size_t bytes) { return (bytes + kLargeBlockBytes - 1) & ~(kLargeBlockBytes - 1); }

}  // namespace

void* AllocateBlock(size_t bytes) {
  if (!Mapped(bytes)) return ::operator new(bytes);
  // Map one huge page more than needed, then unmap the unaligned head and the tail.
  const size_t size = RoundUp(bytes);
  void* p = ::mmap(nullptr, size + kLargeBlockBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (start + kLargeBlockBytes - 1) & ~(kLargeBlockBytes - 1);
  if (aligned > start) ::munmap(p, aligned - start);
  const uintptr_t tail = aligned + size, end = start + size + kLargeBlockBytes;
  if (end > tail) ::munmap(reinterpret_cast<void*>(tail), end - tail);
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // a hint; may be refused
#endif
  return reinterpret_cast<void*>(aligned);
}

void FreeBlock(void* block, size_t bytes) {
  if (!Mapped(bytes)) return ::operator delete(block);
  ::munmap(block, RoundUp(bytes));
}

}  // namespace etmem
