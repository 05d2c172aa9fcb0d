// Owns: VerifyProgramFlatbuffer (see verify_program.h).
//
// The generated Program::Verify and Method::Verify are written out here field for field, with
// one change: the elements of each method's values and chains vectors are not verified where
// the vector is, but afterwards: the value tables split between two threads, the chains on
// this one. Every other table is verified by its
// generated Verify. Verification is a conjunction of independent checks on a read-only buffer,
// so the order does not change the answer; a test holds it to fb::VerifyProgramBuffer on
// every builder program and thousands of corrupted ones.
#include "etmem/pte/verify_program.h"

#include <vector>

#include "etmem/base/two_threads.h"
#include "etmem/fb/program_generated.h"

namespace etmem::pte {
namespace {

using flatbuffers::soffset_t;  // FLATBUFFERS_MIN_BUFFER_SIZE names these unqualified
using flatbuffers::uoffset_t;
using flatbuffers::Verifier;
using Values = flatbuffers::Vector<flatbuffers::Offset<fb::Value>>;
using Chains = flatbuffers::Vector<flatbuffers::Offset<fb::Chain>>;

// The generated tables inherit Table privately; their Verify casts the same way.
const flatbuffers::Table& AsTable(const void* table) {
  return *reinterpret_cast<const flatbuffers::Table*>(table);
}

// A run of value tables verified after the vector that holds them.
struct ValueRun {
  const Values* values;
  flatbuffers::uoffset_t begin, end;
};

// The tables verified after the shallow pass: value tables on both threads, chains here.
class Deferred {
 public:
  // Always true, to sit in the chains of && below.
  bool Add(const Values* values) {
    if (values) vectors_.push_back(values);
    return true;
  }
  bool Add(const Chains* chains) {
    if (chains) chains_.push_back(chains);
    return true;
  }
  bool VerifyChains(Verifier& v) const {
    for (const Chains* c : chains_)
      if (!v.VerifyVectorOfTables(c)) return false;
    return true;
  }
  // Each values vector's first `share` eighths for the other thread, the rest for this one,
  // which also verifies the chains: value tables are about two thirds of a method's tables,
  // the chains' most of the rest.
  void Split(unsigned share, std::vector<ValueRun>& other, std::vector<ValueRun>& mine) const {
    for (const Values* v : vectors_) {
      const auto cut = static_cast<flatbuffers::uoffset_t>(uint64_t{v->size()} * share / 8);
      other.push_back({v, 0, cut});
      mine.push_back({v, cut, v->size()});
    }
  }

 private:
  std::vector<const Values*> vectors_;
  std::vector<const Chains*> chains_;
};

bool VerifyRuns(const std::vector<ValueRun>& runs, Verifier& v) {
  for (const ValueRun& run : runs)
    for (auto i = run.begin; i < run.end; ++i)
      if (!run.values->Get(i)->Verify(v)) return false;
  return true;
}

// fb::Method::Verify, the value and chain tables left to `later`.
bool VerifyMethodShallow(const fb::Method& m, Verifier& v, Deferred& later) {
  using M = fb::Method;
  const flatbuffers::Table& t = AsTable(&m);
  return t.VerifyTableStart(v) &&
         t.VerifyOffset(v, M::VT_NAME) && v.VerifyString(m.name()) &&
         t.VerifyOffset(v, M::VT_PYTREE) && v.VerifyTable(m.pytree()) &&
         t.VerifyOffset(v, M::VT_VALUES) && v.VerifyVector(m.values()) && later.Add(m.values()) &&
         t.VerifyOffset(v, M::VT_INPUTS) && v.VerifyVector(m.inputs()) &&
         t.VerifyOffset(v, M::VT_OUTPUTS) && v.VerifyVector(m.outputs()) &&
         t.VerifyOffset(v, M::VT_CHAINS) && v.VerifyVector(m.chains()) && later.Add(m.chains()) &&
         t.VerifyOffset(v, M::VT_OPERATORS) && v.VerifyVector(m.operators()) &&
         v.VerifyVectorOfTables(m.operators()) &&
         t.VerifyOffset(v, M::VT_DELEGATES) && v.VerifyVector(m.delegates()) &&
         v.VerifyVectorOfTables(m.delegates()) &&
         t.VerifyOffset(v, M::VT_PLANNED_BUFFER_SIZES) &&
         v.VerifyVector(m.planned_buffer_sizes()) &&
         t.VerifyOffset(v, M::VT_PLANNED_BUFFER_DEVICES) &&
         v.VerifyVector(m.planned_buffer_devices()) &&
         v.VerifyVectorOfTables(m.planned_buffer_devices()) &&
         v.EndTable();
}

bool VerifyMethodsShallow(const fb::Program& p, Verifier& v, Deferred& later) {
  if (!p.methods()) return true;
  for (flatbuffers::uoffset_t i = 0; i < p.methods()->size(); ++i)
    if (!VerifyMethodShallow(*p.methods()->Get(i), v, later)) return false;
  return true;
}

// fb::Program::Verify, each method's value and chain tables left to `later`.
bool VerifyProgramShallow(const fb::Program& p, Verifier& v, Deferred& later) {
  using P = fb::Program;
  const flatbuffers::Table& t = AsTable(&p);
  return t.VerifyTableStart(v) &&
         t.VerifyField<uint32_t>(v, P::VT_VERSION, 4) &&
         t.VerifyOffset(v, P::VT_METHODS) && v.VerifyVector(p.methods()) &&
         VerifyMethodsShallow(p, v, later) &&
         t.VerifyOffset(v, P::VT_INLINE_CONSTANTS) && v.VerifyVector(p.inline_constants()) &&
         v.VerifyVectorOfTables(p.inline_constants()) &&
         t.VerifyOffset(v, P::VT_INLINE_BLOBS) && v.VerifyVector(p.inline_blobs()) &&
         v.VerifyVectorOfTables(p.inline_blobs()) &&
         t.VerifyOffset(v, P::VT_SEGMENTS) && v.VerifyVector(p.segments()) &&
         v.VerifyVectorOfTables(p.segments()) &&
         t.VerifyOffset(v, P::VT_CONSTANT_SEGMENT) && v.VerifyTable(p.constant_segment()) &&
         t.VerifyOffset(v, P::VT_MUTABLE_SEGMENTS) && v.VerifyVector(p.mutable_segments()) &&
         v.VerifyVectorOfTables(p.mutable_segments()) &&
         t.VerifyOffset(v, P::VT_NAMED_DATA) && v.VerifyVector(p.named_data()) &&
         v.VerifyVectorOfTables(p.named_data()) &&
         v.EndTable();
}

// Verifier::VerifyBuffer<fb::Program>: size, identifier and root offset, then the root table.
bool VerifyShallow(const uint8_t* data, size_t size, Verifier& v, Deferred& later) {
  if (size < FLATBUFFERS_MIN_BUFFER_SIZE || size < 2 * sizeof(flatbuffers::uoffset_t) ||
      !flatbuffers::BufferHasIdentifier(data, fb::ProgramIdentifier()))
    return false;
  const flatbuffers::uoffset_t root = v.VerifyOffset(0);
  return root != 0 &&
         VerifyProgramShallow(*reinterpret_cast<const fb::Program*>(data + root), v, later);
}

constexpr unsigned kOtherThreadShare = 5;  // eighths of each values vector

}  // namespace

bool VerifyProgramFlatbuffer(const uint8_t* data, size_t size, const Verifier::Options& options,
                             uint64_t parallel_from_bytes) {
  Verifier v(data, size, options);
  if (size < parallel_from_bytes) return fb::VerifyProgramBuffer(v);
  Deferred later;
  if (!VerifyShallow(data, size, v, later)) return false;
  std::vector<ValueRun> other, mine;
  later.Split(kOtherThreadShare, other, mine);
  bool mine_ok = false, other_ok = false;
  RunBoth([&] { mine_ok = later.VerifyChains(v) && VerifyRuns(mine, v); },
          [&] {
            Verifier w(data, size, options);
            other_ok = VerifyRuns(other, w);
          });
  return mine_ok && other_ok;
}

}  // namespace etmem::pte
