// Owns: memory for the few large arrays that a big program's view and plan hold. Filling them
// faulted in thousands of 4 KiB pages, each fault (zeroing, accounting, on a VM a trap) costing
// more than the data it held. Blocks of 128 KiB or more (and smaller ones once a chunk exists)
// are carved one after another from chunks on 2 MiB boundaries advised to use transparent
// huge pages, so that the arrays of one program share huge pages: one fault per 2 MiB where
// the kernel allows it. (Each array on its own huge page cost as much as the 4 KiB faults:
// the first write to a huge page zeroes all of it.)
//
//   LargeArray<ValueView> values;  // a std::vector whose large buffers come from here
#pragma once

#include <cstddef>
#include <vector>

namespace etmem {

// Blocks from this size start a chunk of huge pages. A program whose arrays are all smaller
// writes less than a huge page costs to zero: its blocks come from operator new.
inline constexpr size_t kArenaBlockBytes = size_t{128} << 10;
// Blocks from this size up to kArenaBlockBytes join a chunk if one has been started (its huge
// page is already paid for), else come from operator new.
inline constexpr size_t kArenaJoinBytes = size_t{16} << 10;

// Under AddressSanitizer every block comes from operator new, so that overflows stay detected.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kMapsLargeBlocks = false;
#else
inline constexpr bool kMapsLargeBlocks = true;
#endif

// Like operator new / delete (throws std::bad_alloc), for blocks of any size.
void* AllocateBlock(size_t bytes);
void FreeBlock(void* block, size_t bytes);

template <typename T>
struct LargeBlockAllocator {
  using value_type = T;
  LargeBlockAllocator() = default;
  template <typename U>
  LargeBlockAllocator(const LargeBlockAllocator<U>&) {}  // NOLINT: allocators convert
  T* allocate(size_t n) { return static_cast<T*>(AllocateBlock(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { FreeBlock(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const LargeBlockAllocator<U>&) const { return true; }
};

template <typename T>
using LargeArray = std::vector<T, LargeBlockAllocator<T>>;

}  // namespace etmem
