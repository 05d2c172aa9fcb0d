// Both halves run, and a failure on either side reaches the caller instead of terminating.
#include "etmem/base/two_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>

#include <sched.h>

namespace etmem {
namespace {

TEST(RunBoth, RunsBothHalvesTheSecondOnAnotherThread) {
  const std::thread::id me = std::this_thread::get_id();
  std::thread::id here, there;
  RunBoth([&] { here = std::this_thread::get_id(); }, [&] { there = std::this_thread::get_id(); });
  EXPECT_EQ(here, me);
  EXPECT_NE(there, std::thread::id());
}

TEST(RunBoth, AFailureOnEitherSideReachesTheCaller) {
  bool ran = false;
  EXPECT_THROW(RunBoth([] {}, [] { throw std::runtime_error("there"); }), std::runtime_error);
  EXPECT_THROW(RunBoth([] { throw std::logic_error("here"); }, [&] { ran = true; }),
               std::logic_error);
  EXPECT_TRUE(ran);  // the other half still ran to its end before the failure was passed on
  // Both fail: this thread's failure is the one reported.
  EXPECT_THROW(RunBoth([] { throw std::logic_error("here"); },
                       [] { throw std::runtime_error("there"); }),
               std::logic_error);
}

TEST(RunBoth, ANestedCallRunsBothItsHalvesOnTheCallingThread) {
  std::thread::id outer_there, inner_here, inner_there;
  RunBoth([] {}, [&] {
    outer_there = std::this_thread::get_id();
    RunBoth([&] { inner_here = std::this_thread::get_id(); },
            [&] { inner_there = std::this_thread::get_id(); });
  });
  EXPECT_EQ(inner_here, outer_there);
  EXPECT_EQ(inner_there, outer_there);
  // Once the outer call is over, a new call splits again (where two CPUs are allowed).
  std::thread::id there;
  RunBoth([] {}, [&] { there = std::this_thread::get_id(); });
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) >= 2) EXPECT_NE(there, std::this_thread::get_id());
}

TEST(RunBoth, CallersOnSeveralThreadsShareTheHelper) {
  std::atomic<int> halves{0};
  auto caller = [&] {
    for (int i = 0; i < 500; ++i) RunBoth([&] { ++halves; }, [&] { ++halves; });
  };
  std::thread a(caller), b(caller);
  caller();
  a.join();
  b.join();
  EXPECT_EQ(halves.load(), 3 * 500 * 2);  // each split ran both halves, on the helper or in turn
}

TEST(RunAtOnce, InsideAnotherSplitItRunsNeitherHalf) {
  bool outer = false, ran = false;
  RunBoth([] {}, [&] {
    outer = RunAtOnce([&] { ran = true; }, [&] { ran = true; });
  });
  EXPECT_FALSE(outer);
  EXPECT_FALSE(ran);
}

// With one CPU the helper could only run when this thread waits: the halves run here, in turn.
TEST(RunBoth, OnOneAllowedCpuBothHalvesRunHereInTurn) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  std::thread::id there;
  RunBoth([] {}, [&] { there = std::this_thread::get_id(); });
  const bool at_once = RunAtOnce([] {}, [] {});
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(there, std::this_thread::get_id());
  EXPECT_FALSE(at_once);
}

TEST(RunAtOnce, RunsTheHalvesOnTwoThreadsWhereTwoCpusAreAllowed) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "one CPU allowed: RunAtOnce declines";
  std::thread::id here, there;
  EXPECT_TRUE(RunAtOnce([&] { here = std::this_thread::get_id(); },
                        [&] { there = std::this_thread::get_id(); }));
  EXPECT_EQ(here, std::this_thread::get_id());
  EXPECT_NE(there, here);
  EXPECT_NE(there, std::thread::id());
}

// Left to the scheduler, the second thread waited on its creator's CPU (two_threads.cpp).
TEST(RunBoth, TheSecondHalfMayRunOnEveryAllowedCpuButTheCallers) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "one CPU allowed: both halves share it";
  cpu_set_t theirs;
  CPU_ZERO(&theirs);
  RunBoth([] {}, [&] { sched_getaffinity(0, sizeof theirs, &theirs); });
  EXPECT_EQ(CPU_COUNT(&theirs), CPU_COUNT(&allowed) - 1);
  cpu_set_t both;
  CPU_AND(&both, &theirs, &allowed);
  EXPECT_TRUE(CPU_EQUAL(&both, &theirs));  // a subset of what this thread may use
}

// Setting the second thread's mask after starting it pinned the caller instead whenever the
// second half had already finished (its thread id was then 0, which means the caller).
TEST(RunBoth, TheCallersOwnCpusAreLeftAsTheyWere) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  for (int i = 0; i < 100; ++i) {
    // This thread busy, so that a new thread on its CPU preempts it (as in `etmem analyze`).
    volatile uint64_t spin = 0;
    while (spin < 100000) spin = spin + 1;
    RunBoth([] {}, [] {});  // a second half that is over at once
    cpu_set_t after;
    ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
    ASSERT_TRUE(CPU_EQUAL(&before, &after)) << "after call " << i;
  }
}

}  // namespace
}  // namespace etmem
