// Owns: the declaration of HeapInHugePages, called first by main (huge_pages.cpp says why).
#pragma once

namespace etmem::cli {

// Marks the process's heap for transparent huge pages from its fifth MiB on, where no limit
// on the address space or data segment is set. The command line only: never the library.
void HeapInHugePages();

}  // namespace etmem::cli
