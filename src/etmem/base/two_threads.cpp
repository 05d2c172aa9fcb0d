// Owns: RunBoth (see two_threads.h).
#include "etmem/base/two_threads.h"

#include <exception>
#include <system_error>
#include <thread>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace etmem {
namespace {

// Keeps the second thread off this thread's CPU. Left to itself, Linux queues a new thread on
// its creator's CPU and moves it to an idle one only at the next load balance, which a short
// process never reaches: the "second" half then ran after the first (measured on this 2-core
// VM: a helper started 40 us after creation when kept away, 700 us - the creator's whole
// half - when not). Best effort: where it fails, the halves are still correct.
void KeepOffThisCpu(std::thread& thread) {
#ifdef __linux__
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const int here = sched_getcpu();
  if (here < 0 || CPU_COUNT(&allowed) < 2 || !CPU_ISSET(here, &allowed)) return;
  CPU_CLR(here, &allowed);
  pthread_setaffinity_np(thread.native_handle(), sizeof allowed, &allowed);
#else
  (void)thread;
#endif
}

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

}  // namespace

void RunBoth(const std::function<void()>& here, const std::function<void()>& there) {
  if (splitting) {
    here();  // nested: in turn, on this thread
    there();
    return;
  }
  Splitting mark;
  std::exception_ptr their_failure;
  std::thread thread;
  try {
    thread = std::thread([&] {
      Splitting theirs;
      try {
        there();
      } catch (...) {
        their_failure = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    here();  // no thread to be had: both halves here, in turn
    there();
    return;
  }
  KeepOffThisCpu(thread);
  std::exception_ptr my_failure;
  try {
    here();
  } catch (...) {
    my_failure = std::current_exception();
  }
  thread.join();
  if (my_failure) std::rethrow_exception(my_failure);
  if (their_failure) std::rethrow_exception(their_failure);
}

}  // namespace etmem
