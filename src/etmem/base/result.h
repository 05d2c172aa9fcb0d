// Owns: etmem's error type and Result<T>, the one way fallible library code reports failure.
// Not: exit codes or printing (tools/etmem decides those).
//
// Result<T> has the shape of C++23 std::expected so it can become an alias later. The library
// never lets an exception escape; a broken internal invariant is a bug and aborts (ETMEM_CHECK).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace etmem {

enum class ErrorCode {
  kIo,              // the file could not be opened, mapped or read
  kInvalidProgram,  // the bytes are not a well-formed ExecuTorch program
  kUnsupported,     // well-formed, but the modelled runtime would refuse to load it
  kInvalidArgument, // a bad option value or a bad auxiliary file (target description, ...)
};

struct Error {
  ErrorCode code = ErrorCode::kInvalidProgram;
  std::string message;  // one line, says what is wrong and where
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}             // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}         // NOLINT: implicit by design

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// A Result<void> stand-in: success carries nothing.
struct Ok {};
using Status = Result<Ok>;

inline Error MakeError(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

[[noreturn]] inline void CheckFailed(const char* file, int line, const char* what) {
  std::fprintf(stderr, "etmem internal error at %s:%d: %s\n", file, line, what);
  std::abort();
}

}  // namespace etmem

// Broken invariants are bugs, never input errors: abort loudly with the place.
#define ETMEM_CHECK(cond) \
  do { if (!(cond)) ::etmem::CheckFailed(__FILE__, __LINE__, #cond); } while (0)

// Early-return helper: `ETMEM_TRY(auto x, Expr());` propagates the error of a Result.
#define ETMEM_CONCAT_INNER(a, b) a##b
#define ETMEM_CONCAT(a, b) ETMEM_CONCAT_INNER(a, b)
#define ETMEM_TRY(decl, expr) ETMEM_TRY_IMPL(ETMEM_CONCAT(etmem_try_, __LINE__), decl, expr)
#define ETMEM_TRY_IMPL(tmp, decl, expr) \
  auto tmp = (expr);                    \
  if (!tmp) return tmp.error();         \
  decl = std::move(tmp).value()
