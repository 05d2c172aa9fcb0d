// Owns: handing batches from one thread to another as they are made: a ring of fixed-size slots
// between one producer and one consumer (the planner and the simulation of a large method).
// Waiting spins, then yields: both sides are meant to be running at once on their own CPUs
// (RunAtOnce), where a hand-over costs a few hundred nanoseconds and a sleep and wake-up tens
// of microseconds.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <thread>

#include "etmem/base/cpu_pause.h"
#include "etmem/base/large_blocks.h"

namespace etmem {

template <typename T>
class BatchRing {
 public:
  static constexpr size_t kBatch = 256;   // items per slot
  static constexpr uint32_t kSlots = 16;  // slots in flight: enough to ride out a stall

  BatchRing() : items_(size_t{kSlots} * kBatch) {}
  BatchRing(const BatchRing&) = delete;
  BatchRing& operator=(const BatchRing&) = delete;

  // Producer: copies `batch` into free slots, waiting while all are full. Once the consumer has
  // stopped (Drain ended, by an exception too), batches are dropped: nobody will read them.
  void Push(std::span<const T> batch) {
    while (!batch.empty()) {
      const uint32_t w = written_.load(std::memory_order_relaxed);
      WaitUntil([&] {
        return w - read_.load(std::memory_order_acquire) < kSlots ||
               abandoned_.load(std::memory_order_acquire);
      });
      if (abandoned_.load(std::memory_order_acquire)) return;
      const size_t n = std::min(batch.size(), kBatch);
      std::copy_n(batch.begin(), n, Slot(w));
      sizes_[w % kSlots] = static_cast<uint32_t>(n);
      written_.store(w + 1, std::memory_order_release);
      batch = batch.subspan(n);
    }
  }

  // Producer: closes the ring when it goes out of scope, however the producer ends, so that
  // Drain returns.
  class Closer {
   public:
    explicit Closer(BatchRing& ring) : ring_(ring) {}
    ~Closer() { ring_.closed_.store(true, std::memory_order_release); }
    Closer(const Closer&) = delete;
    Closer& operator=(const Closer&) = delete;

   private:
    BatchRing& ring_;
  };

  // Consumer: take(batch) for every batch in order, until the ring is closed and empty.
  template <typename Take>
  void Drain(Take&& take) {
    struct Abandon {
      BatchRing& ring;
      ~Abandon() { ring.abandoned_.store(true, std::memory_order_release); }
    } abandon{*this};
    for (uint32_t r = read_.load(std::memory_order_relaxed);; ++r) {
      WaitUntil([&] {
        return written_.load(std::memory_order_acquire) != r ||
               closed_.load(std::memory_order_acquire);
      });
      // Closed is stored after the last batch is written: seen closed, `written` is final.
      if (written_.load(std::memory_order_acquire) == r) return;
      take(std::span<const T>(Slot(r), sizes_[r % kSlots]));
      read_.store(r + 1, std::memory_order_release);
    }
  }

 private:
  T* Slot(uint32_t n) { return items_.data() + size_t{n % kSlots} * kBatch; }

  template <typename Ready>
  static void WaitUntil(Ready ready) {
    for (uint32_t spins = 0; !ready(); ++spins) {
      if (spins < 1024) {
        CpuPause();
      } else {
        std::this_thread::yield();  // the other side is not running: let it
      }
    }
  }

  LargeArray<T> items_;  // kSlots slots of kBatch items
  uint32_t sizes_[kSlots] = {};
  // Counters of batches, on cache lines of their own: each is written by one side only.
  alignas(64) std::atomic<uint32_t> written_{0};
  alignas(64) std::atomic<uint32_t> read_{0};
  alignas(64) std::atomic<bool> closed_{false};
  std::atomic<bool> abandoned_{false};
};

}  // namespace etmem
