// Owns: HeapInHugePages (huge_pages.h): the command line's heap in transparent huge pages.
#include "huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>

namespace etmem::cli {

// The heap in transparent huge pages, as GLIBC_TUNABLES=glibc.malloc.hugetlb=1 would ask of
// glibc, for this process only. On a large program much of a verb's time went to first touches
// of fresh 4 KiB pages (the builder's LSTM unrolled 1,000 times: 27,600 page faults in `etmem
// replan`, about a third of its time; bench/RESULTS.md); a 2 MiB huge page costs about what 30
// small ones do. So: every block from the heap (none mapped on its own), the heap grown once by
// a reservation of address space (untouched, it costs no memory) that is never given back, and
// marked for huge pages from its fifth MiB on (a small program's run stays in small pages and
// zeroes no 2 MiB page it would not fill). Skipped under a limit on the address space or the
// data segment (ulimit -v, -d), where the reservation would take room the program needs; when
// the reservation fails, glibc's default limits are set back.
void HeapInHugePages() {
  constexpr size_t kReserve = size_t{1} << 30;
  constexpr uintptr_t kSmall = uintptr_t{4} << 20, kHuge = uintptr_t{2} << 20;
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur != RLIM_INFINITY) return;
  }
  if (mallopt(M_MMAP_MAX, 0) != 1) return;
  void* block = std::malloc(kReserve);
  if (block == nullptr) {
    mallopt(M_MMAP_MAX, 65536);  // glibc's DEFAULT_MMAP_MAX
    return;
  }
  mallopt(M_TRIM_THRESHOLD, INT_MAX);  // before the free: the reservation stays
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + kSmall + kHuge - 1) & ~(kHuge - 1);
  std::free(block);
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace etmem::cli
