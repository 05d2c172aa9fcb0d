// etmem: how much memory an ExecuTorch program needs on a given target and release.
// Thin by design: parse, run the chosen verb, map its outcome to an exit code.
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "commands.h"
#include "model_options.h"
#include "usage.h"
#include "etmem/base/printable.h"

namespace etmem::cli {
extern const Verb kFirmwareVerb;  // firmware_command.cpp
}  // namespace etmem::cli

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  using namespace etmem::cli;
  HeapInHugePages();
  // Named, so that help reads "Usage: etmem analyze [OPTIONS] program".
  CLI::App app{"etmem: exact memory requirements of ExecuTorch programs (.pte), computed offline",
               "etmem"};
  app.set_version_flag("--version", std::string("etmem ") + ETMEM_VERSION);
  app.require_subcommand(1);
  app.failure_message(UsageFailure);  // every usage error: one line, "etmem: ..."
  const Verb* verbs[] = {&kAnalyzeVerb, &kListVerb,  &kPlanVerb,  &kReplanVerb,  &kSummaryVerb,
                         &kHeaderVerb,  &kDiffVerb,  &kProbeVerb, &kCheckVerb,   &kMeasureVerb,
                         &kFitVerb,     &kFirmwareVerb};
  // Defining every verb costs more than analysing a small program: when the first argument
  // names a verb, only that one is defined; otherwise all of them, for help and for the error.
  const Verb* named = nullptr;
  for (const Verb* verb : verbs)
    if (argc > 1 && std::strcmp(argv[1], verb->name) == 0) named = verb;
  Run run;
  for (const Verb* verb : verbs) {
    if (named && verb != named) continue;
    CLI::App* cmd = app.add_subcommand(verb->name, verb->about);
    if (verb == named) run = verb->define(cmd);
  }
  try {
    app.parse(ParseArgs(argc, argv));  // "--external-data FILE.ptd" rewritten first
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help / version / the usage error
    return code == 0 ? kExitOk : kExitInvalid;
  }
  if (!run) return kExitInvalid;
  // Memory is linear in the file, yet a huge program can exhaust a small machine: say so.
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::string command;
    for (int i = 1; i < argc; ++i) command += std::string(i > 1 ? " " : "") + argv[i];
    std::fprintf(stderr, "etmem %s: out of memory (the program is too large for this machine's "
                         "memory or address-space limit)\n", etmem::Printable(command, 400).c_str());
    return kExitInvalid;
  }
}
