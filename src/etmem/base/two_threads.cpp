// Owns: RunBoth (see two_threads.h).
#include "etmem/base/two_threads.h"

#include <exception>
#include <system_error>
#include <thread>

namespace etmem {

void RunBoth(const std::function<void()>& here, const std::function<void()>& there) {
  std::exception_ptr their_failure;
  std::thread thread;
  try {
    thread = std::thread([&] {
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
