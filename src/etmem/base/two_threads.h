// Owns: running two halves of one piece of work at once, the second on the process's helper
// thread (one, made on first use and kept), for the places where a large program's work splits
// (verifying, reading, planning, many pairs). Where the helper cannot be had (none could be
// made, or another thread's split holds it) the second half runs here, after the first: the
// same result.
#pragma once

#include <functional>

namespace etmem {

// Runs `here` on this thread and `there` on the helper, and returns once both are done. An
// exception from either reaches the caller (this thread's first), never std::terminate. Called
// from inside either half, it runs both of its own halves here, in turn.
void RunBoth(const std::function<void()>& here, const std::function<void()>& there);

// Like RunBoth, but returns false, having run neither, where the halves cannot run at once
// (nested, one CPU allowed, no thread to be had): for halves that wait for each other.
bool RunAtOnce(const std::function<void()>& here, const std::function<void()>& there);

}  // namespace etmem
