// Owns: asking the kernel for transparent huge pages under a large buffer about to be filled.
// Writing a large program's view faults in thousands of 4 KiB pages, and each fault (zeroing,
// accounting, on a VM a trap) cost more than the data it held: a 2 MiB page is one fault.
#pragma once

#include <cstddef>

namespace etmem {

// Advises the 2 MiB-aligned part of [data, data + bytes) to use huge pages (a hint: without
// THP, or for less than 2 MiB, nothing changes). Pages never written stay unallocated, so at
// most 2 MiB per buffer is allocated beyond what is written.
void AdviseHugePages(const void* data, size_t bytes);

}  // namespace etmem
