// Owns: RunBoth and RunAtOnce (see two_threads.h).
#include "etmem/base/two_threads.h"

#include <pthread.h>

#include <exception>

#ifdef __linux__
#include <sched.h>
#endif

namespace etmem {
namespace {

// Set on both threads of a RunBoth: work already split in two splits no further (the pairs of
// a table are split, and each pair's planning would split again), as two cores are assumed.
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

// The second half and what it threw.
struct SecondHalf {
  const std::function<void()>& work;
  std::exception_ptr failure;
};

void* RunSecondHalf(void* arg) {
  auto* half = static_cast<SecondHalf*>(arg);
  Splitting mark;
  try {
    half->work();
  } catch (...) {
    half->failure = std::current_exception();
  }
  return nullptr;
}

// A thread attribute that keeps the new thread off this thread's CPU. Left to itself, Linux
// queues a new thread on its creator's CPU, where it preempts the creator until the other CPU,
// idle, pulls one of them over: the halves then ran one after the other (measured on this
// 2-core VM: the creator lost 300 us, a whole half, at each split). Born with the mask, the
// thread starts on the idle CPU. (Setting the mask after creation races with a thread that has
// already finished: its id is then 0, which means the caller.)
void KeepOffThisCpu(pthread_attr_t& attr) {
#ifdef __linux__
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const int here = sched_getcpu();
  if (here < 0 || CPU_COUNT(&allowed) < 2 || !CPU_ISSET(here, &allowed)) return;
  CPU_CLR(here, &allowed);
  pthread_attr_setaffinity_np(&attr, sizeof allowed, &allowed);
#else
  (void)attr;
#endif
}

// Starts the second half on a thread of its own; false when no thread can be had.
bool Start(SecondHalf& half, pthread_t& thread) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  KeepOffThisCpu(attr);
  const bool started = pthread_create(&thread, &attr, RunSecondHalf, &half) == 0;
  pthread_attr_destroy(&attr);
  return started;
}

bool TwoCpusAllowed() {
#ifdef __linux__
  cpu_set_t allowed;
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) >= 2;
#else
  return true;
#endif
}

// The halves on two threads; false, having run neither, when no thread can be had.
bool OnTwoThreads(const std::function<void()>& here, const std::function<void()>& there) {
  SecondHalf second{there, nullptr};
  pthread_t thread;
  if (!Start(second, thread)) return false;
  Splitting mark;
  std::exception_ptr my_failure;
  try {
    here();
  } catch (...) {
    my_failure = std::current_exception();
  }
  pthread_join(thread, nullptr);
  if (my_failure) std::rethrow_exception(my_failure);
  if (second.failure) std::rethrow_exception(second.failure);
  return true;
}

}  // namespace

bool RunAtOnce(const std::function<void()>& here, const std::function<void()>& there) {
  return !splitting && TwoCpusAllowed() && OnTwoThreads(here, there);
}

void RunBoth(const std::function<void()>& here, const std::function<void()>& there) {
  if (!splitting && OnTwoThreads(here, there)) return;
  here();  // nested, or no thread to be had: both halves here, in turn
  there();
}

}  // namespace etmem
