// Owns: memory for the few large arrays that a big program's view and plan hold. Filling them
// faulted in thousands of 4 KiB pages, each fault (zeroing, accounting, on a VM a trap) costing
// more than the data it held. Blocks of 2 MiB or more are mapped on a 2 MiB boundary and
// advised to use transparent huge pages: one fault per 2 MiB where the kernel allows it.
//
//   LargeArray<ValueView> values;  // a std::vector whose large buffers come from here
#pragma once

#include <cstddef>
#include <vector>

namespace etmem {

// Blocks below this come from operator new: huge pages need 2 MiB of aligned address space.
inline constexpr size_t kLargeBlockBytes = size_t{2} << 20;

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
