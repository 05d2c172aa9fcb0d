// etmem/recording_allocator.h: confirms etmem's prediction on the device. A drop-in
// MemoryAllocator that reports every allocate() call (or only the totals) as short text lines
// through a callback you supply; `etmem check PROGRAM.pte DEVICE.log` compares them with the
// prediction. Header-only, no heap, no libc; compiled against your ExecuTorch (0.3 to 1.4).
// Format and use: docs/recording-allocator.md.
//
//   static void PrintLine(void*, const char* line) { ET_LOG(Info, "%s", line); }
//   etmem::RecordingAllocator method_allocator(sizeof(pool), pool, PrintLine, nullptr);
//   MemoryManager memory_manager(&method_allocator, &planned_memory);
//   auto method = program->load_method("forward", &memory_manager);
//   method_allocator.ReportTotals();
//
// The lines (no newline; any logger prefix before "ETMEM" is fine):
//   ETMEM P <pool_bytes> <base_align>         before the first call: the pool
//   ETMEM A <index> <size> <align> <offset>   one per allocate(): offset from the pool base
//   ETMEM A <index> <size> <align> FAIL       allocate() returned null
//   ETMEM T <used_bytes> <calls>              ReportTotals(): high-water mark and call count
//
// ExecuTorch 0.3 declares MemoryAllocator in torch::executor, later releases in
// executorch::runtime (with torch::executor kept as an alias). The class is found in either;
// define ETMEM_EXECUTORCH_NAMESPACE (e.g. to ::executorch::runtime) to name it yourself.
#ifndef ETMEM_RECORDING_ALLOCATOR_H_
#define ETMEM_RECORDING_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#include <executorch/runtime/core/memory_allocator.h>

#ifndef ETMEM_EXECUTORCH_NAMESPACE
// Declaring both namespaces is harmless; looking the class up through both finds the one that
// exists (or the same class twice, through the alias), so no release check is needed.
namespace executorch {
namespace runtime {}
}  // namespace executorch
namespace torch {
namespace executor {}
}  // namespace torch
namespace etmem {
namespace executorch_lookup {
using namespace ::executorch::runtime;  // NOLINT(build/namespaces)
using namespace ::torch::executor;      // NOLINT(build/namespaces)
}  // namespace executorch_lookup
}  // namespace etmem
#define ETMEM_EXECUTORCH_NAMESPACE ::etmem::executorch_lookup
#endif

namespace etmem {

// Receives one line, NUL-terminated, without a newline. `context` is yours.
typedef void (*LogLineFn)(void* context, const char* line);

class RecordingAllocator : public ETMEM_EXECUTORCH_NAMESPACE::MemoryAllocator {
 public:
  typedef ETMEM_EXECUTORCH_NAMESPACE::MemoryAllocator Base;

  enum Mode {
    kEveryCall,   // a P line, then an A line per allocate(); T on ReportTotals()
    kTotalsOnly,  // a P line and a T line, on ReportTotals() only
  };

  RecordingAllocator(uint32_t size, uint8_t* base_address, LogLineFn log, void* context,
                     Mode mode = kEveryCall)
      : Base(size, base_address), log_(log), context_(context), mode_(mode), calls_(0),
        used_(0), pool_reported_(false) {}

  void* allocate(size_t size, size_t alignment = Base::kDefaultAlignment) override {
    void* p = Base::allocate(size, alignment);
    const uint64_t index = calls_++;
    if (p != NULL) {
      const uint64_t end = Offset(p) + size;
      if (end > used_) used_ = end;
    }
    if (mode_ == kEveryCall) ReportCall(index, size, alignment, p);
    return p;
  }

  // Forgets the calls: the next allocate() starts a new log (with its own P line).
  void reset() override {
    Base::reset();
    calls_ = 0;
    used_ = 0;
    pool_reported_ = false;
  }

  // Writes the T line (and the P line if none was written yet). Call after load_method.
  void ReportTotals() {
    ReportPool();
    Line line("T");
    line.Number(used_);
    line.Number(calls_);
    Emit(line);
  }

  uint64_t calls() const { return calls_; }
  uint64_t used_bytes() const { return used_; }  // high-water mark, from the pool base

 private:
  // A fixed buffer with room for the longest line (5 numbers of at most 20 digits).
  class Line {
   public:
    explicit Line(const char* kind) : length_(0) {
      Text("ETMEM ");
      Text(kind);
    }
    void Number(uint64_t v) {
      char digits[20];
      int n = 0;
      do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v != 0);
      text_[length_++] = ' ';
      while (n > 0) text_[length_++] = digits[--n];
      text_[length_] = '\0';
    }
    void Text(const char* s) {
      while (*s != '\0') text_[length_++] = *s++;
      text_[length_] = '\0';
    }
    const char* c_str() const { return text_; }

   private:
    char text_[128];
    size_t length_;
  };

  uint64_t Offset(const void* p) const {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p) -
                                 reinterpret_cast<uintptr_t>(Base::base_address()));
  }

  // The largest power of two (up to 4096) that divides the base address.
  uint64_t BaseAlignment() const {
    const uintptr_t base = reinterpret_cast<uintptr_t>(Base::base_address());
    uint64_t align = 1;
    while (align < 4096 && (base & align) == 0) align <<= 1;
    return align;
  }

  void ReportPool() {
    if (pool_reported_) return;
    pool_reported_ = true;
    Line line("P");
    line.Number(Base::size());
    line.Number(BaseAlignment());
    Emit(line);
  }

  void ReportCall(uint64_t index, size_t size, size_t alignment, const void* p) {
    ReportPool();
    Line line("A");
    line.Number(index);
    line.Number(size);
    line.Number(alignment);
    if (p != NULL) {
      line.Number(Offset(p));
    } else {
      line.Text(" FAIL");
    }
    Emit(line);
  }

  void Emit(const Line& line) {
    if (log_ != NULL) log_(context_, line.c_str());
  }

  LogLineFn log_;
  void* context_;
  Mode mode_;
  uint64_t calls_;
  uint64_t used_;
  bool pool_reported_;
};

}  // namespace etmem

#endif  // ETMEM_RECORDING_ALLOCATOR_H_
