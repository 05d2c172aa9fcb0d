// Owns: the hint a spinning thread gives the CPU between two looks at a flag another thread
// will set (x86 `pause`: less power, and no memory-order flush when the wait ends).
#pragma once

namespace etmem {

inline void CpuPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace etmem
