// Owns: verifying a program's flatbuffer before anything reads it: exactly what the generated
// fb::VerifyProgramBuffer verifies. On a large program the tables of the methods' values -
// most of its tables - are verified on a second thread while this one verifies the rest: the
// verifier was half the time of reading a large program.
// Not: the checks of meaning (indices in range, ranks, ...): read_program.cpp makes those.
#pragma once

#include <cstddef>
#include <cstdint>

#include <flatbuffers/verifier.h>

namespace etmem::pte {

// True when the `size` bytes at `data` are a valid Program flatbuffer with identifier "ET12".
// Buffers of at least `parallel_from_bytes` use two threads; each thread's verifier is held to
// `options`, so a shared-table file can make at most twice options.max_tables table visits.
bool VerifyProgramFlatbuffer(const uint8_t* data, size_t size,
                             const flatbuffers::Verifier::Options& options,
                             uint64_t parallel_from_bytes);

}  // namespace etmem::pte
