// Both halves run, and a failure on either side reaches the caller instead of terminating.
#include "etmem/base/two_threads.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

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

}  // namespace
}  // namespace etmem
