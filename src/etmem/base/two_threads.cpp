// Owns: RunBoth and RunAtOnce (see two_threads.h), and the one helper thread they share.
//
// Why one long-lived helper: a thread made per split cost about 95 us on this 2-core VM (55 to
// create it, 40 for the joiner to wake when it ended), three times in every large analysis,
// against halves of 200-500 us. The helper is made once, on the first split; between splits it
// spins briefly, then sleeps, so that a split soon after the last starts at once.
#include "etmem/base/two_threads.h"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>

#include "etmem/base/cpu_pause.h"

namespace etmem {
namespace {

// Set on the helper and, during a split, on its caller: work already split in two splits no
// further (the pairs of a table are split, and each pair's planning would split again).
thread_local bool splitting = false;

// Marks this thread as inside a split for one scope.
class Splitting {
 public:
  Splitting() : was_(splitting) { splitting = true; }
  ~Splitting() { splitting = was_; }
  Splitting(const Splitting&) = delete;
  Splitting& operator=(const Splitting&) = delete;

 private:
  bool was_;
};

// Waits until `counter` differs from `old`: spinning for a while first (the other side is
// running on its own CPU and about to get there; the next split of an analysis often comes
// within that time), then sleeping. Longer spins measured no faster, and a spinning thread
// holds a CPU that other work may want.
void AwaitChange(const std::atomic<uint32_t>& counter, uint32_t old) {
  constexpr auto kSpin = std::chrono::microseconds(200);
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t spins = 1;; ++spins) {
    if (counter.load(std::memory_order_acquire) != old) return;
    CpuPause();
    if (spins % 256 == 0 && std::chrono::steady_clock::now() - start > kSpin) break;
  }
  while (counter.load(std::memory_order_acquire) == old) counter.wait(old, std::memory_order_acquire);
}

// The CPUs this thread may run on but `cpu`; false when that leaves none.
bool AllowedBut(int cpu, cpu_set_t& out) {
  if (sched_getaffinity(0, sizeof out, &out) != 0 || cpu < 0 || CPU_COUNT(&out) < 2 ||
      !CPU_ISSET(cpu, &out))
    return false;
  CPU_CLR(cpu, &out);
  return true;
}

// Runs `work`, returning what it threw (null when nothing).
std::exception_ptr Catching(const std::function<void()>& work) {
  try {
    work();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// Both halves ran to their end: this thread's failure first, then the other's.
void PassOn(const std::exception_ptr& mine, const std::exception_ptr& theirs) {
  if (mine) std::rethrow_exception(mine);
  if (theirs) std::rethrow_exception(theirs);
}

// One second thread for the whole process, running one half at a time.
class Helper {
 public:
  // The process's helper, made on first use; null when no thread can be had.
  static Helper* Get() {
    static Helper* const helper = Make();  // never destroyed: it may be spinning at exit
    return helper;
  }

  // Takes the helper for one split; false when another thread's split holds it.
  bool TryClaim() { return !claimed_.exchange(true, std::memory_order_acquire); }

  // Runs `work` there while the caller runs its own half; Finish() waits for it.
  void Start(const std::function<void()>& work) {
    KeepOffCallersCpu();
    work_ = &work;
    failure_ = nullptr;
    posted_.fetch_add(1, std::memory_order_release);
    posted_.notify_one();
  }

  // Waits for the posted half, releases the helper and returns what the half threw.
  std::exception_ptr Finish() {
    AwaitChange(finished_, finished_seen_);
    finished_seen_ = finished_.load(std::memory_order_acquire);
    std::exception_ptr failure = failure_;
    claimed_.store(false, std::memory_order_release);
    return failure;
  }

 private:
  static Helper* Make() {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return nullptr;
    auto* helper = new Helper;
    // Born off its creator's CPU: a new thread queued on its creator's CPU preempted the
    // creator until the other CPU, idle, pulled one of them over (300 us lost here). A mask
    // set after creation could also reach a thread that has already ended (id 0: the caller).
    cpu_set_t others;
    if (const int cpu = sched_getcpu();
        AllowedBut(cpu, others) && pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0)
      helper->kept_off_ = cpu;
    pthread_t thread;
    const bool started = pthread_create(&thread, &attr, Loop, helper) == 0;
    pthread_attr_destroy(&attr);
    if (!started) {
      delete helper;
      return nullptr;
    }
    pthread_detach(thread);
    helper->thread_ = thread;
    return helper;
  }

  static void* Loop(void* arg) {
    auto* self = static_cast<Helper*>(arg);
    splitting = true;  // whatever runs here runs its own splits in turn
    for (uint32_t seen = 0;;) {
      AwaitChange(self->posted_, seen);
      seen = self->posted_.load(std::memory_order_acquire);
      self->failure_ = Catching(*self->work_);
      self->finished_.fetch_add(1, std::memory_order_release);
      self->finished_.notify_one();
    }
    return nullptr;
  }

  // The caller may have moved since the helper was made: keep the two on different CPUs.
  // (The helper lives on, so its mask can be changed at any time.)
  void KeepOffCallersCpu() {
    const int cpu = sched_getcpu();
    cpu_set_t others;
    if (cpu == kept_off_ || !AllowedBut(cpu, others)) return;
    if (pthread_setaffinity_np(thread_, sizeof others, &others) == 0) kept_off_ = cpu;
  }

  pthread_t thread_{};
  int kept_off_ = -1;  // the CPU the helper's mask leaves out
  const std::function<void()>* work_ = nullptr;
  std::exception_ptr failure_;
  std::atomic<bool> claimed_{false};
  uint32_t finished_seen_ = 0;  // finished_ as of the last Finish (the claimer's only)
  alignas(64) std::atomic<uint32_t> posted_{0};
  alignas(64) std::atomic<uint32_t> finished_{0};
};

bool TwoCpusAllowed() {
  cpu_set_t allowed;
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) >= 2;
}

// The halves at once, the second on the helper; false, having run neither, when they cannot
// run at once: nested in another split, fewer than two CPUs allowed (the helper would wait for
// this thread's CPU), no helper to be had, or another thread's split holding it.
bool OnTwoThreads(const std::function<void()>& here, const std::function<void()>& there) {
  Helper* helper = splitting || !TwoCpusAllowed() ? nullptr : Helper::Get();
  if (!helper || !helper->TryClaim()) return false;
  helper->Start(there);
  Splitting mark;
  const std::exception_ptr mine = Catching(here);
  PassOn(mine, helper->Finish());
  return true;
}

}  // namespace

bool RunAtOnce(const std::function<void()>& here, const std::function<void()>& there) {
  return OnTwoThreads(here, there);
}

void RunBoth(const std::function<void()>& here, const std::function<void()>& there) {
  if (OnTwoThreads(here, there)) return;
  const std::exception_ptr mine = Catching(here);  // they cannot run at once: here, in turn
  PassOn(mine, Catching(there));
}

}  // namespace etmem
