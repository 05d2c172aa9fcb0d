// Owns: ComputeFlashLoad: each part of the file labelled with what a BufferDataLoader firmware's
// runtime does with it (Program::load, load_method, Method::init of the modelled release):
//   - Program::load takes the flatbuffer and the constant segment with load(): pointers into the
//     image, so metadata and constants are read in place;
//   - the initial bytes of stateful planned tensors are copied with load_into() into their
//     planned memory (releases that do so);
//   - delegate blobs and Program.named_data are handed to backends as pointers into the image:
//     a backend that keeps the blob (Ethos-U) reads it in place, what any other backend copies
//     is up to it and not in the program;
//   - everything else (padding, segments nothing refers to) is never read.
// Not: the plain size breakdown (ComputeFlash in build_report.cpp).
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/pte/scalar_type.h"
#include "etmem/analysis/report.h"

namespace etmem::report {
namespace {

using pte::BlobLocation;

// The part a delegate blob becomes, by its backend.
FlashPart BlobPart(std::string what, uint64_t bytes, std::string_view backend,
                   const runtime::RuntimeTraits& t) {
  const auto it = t.backends.find(std::string(backend));
  if (it != t.backends.end() && it->second.reads_blob_in_place)
    return {std::move(what), bytes, FlashUse::kReadInPlace, 0,
            fmt::format("{} keeps the blob the runtime hands to init() and reads it in execute()",
                        it->second.name)};
  return {std::move(what), bytes, FlashUse::kBackendDependent, 0,
          fmt::format("the runtime hands backend '{}' a pointer to these bytes; what its init() "
                      "copies into RAM is up to the backend and not in the program (unknown)",
                      Printable(backend))};
}

// Bytes load_method copies into planned memory: the initial state of stateful planned tensors.
uint64_t MutableStateBytes(const pte::ProgramView& p) {
  uint64_t total = 0;
  for (const pte::MethodView& m : p.methods)
    for (const pte::TensorView& t : m.tensors)
      if (t.planned && t.data_index > 0 && !t.external)
        total += pte::TensorDataBytes(m, t).value_or(0);
  return total;
}

void AddInlineBlobs(const pte::ProgramView& p, const runtime::RuntimeTraits& t,
                    std::vector<FlashPart>& parts, uint64_t& inline_blob_bytes) {
  std::set<uint32_t> seen;
  for (const pte::MethodView& m : p.methods)
    for (const pte::DelegateView& d : m.delegates) {
      if (d.location != BlobLocation::kInline || !seen.insert(d.blob_index).second) continue;
      parts.push_back(BlobPart(fmt::format("inline delegate blob {} ({})", d.blob_index,
                                           Printable(d.backend)),
                               d.blob_bytes, d.backend, t));
      inline_blob_bytes += d.blob_bytes;
    }
}

// What refers to each segment: the first role found wins.
FlashPart SegmentPart(const pte::ProgramView& p, const runtime::RuntimeTraits& t, uint32_t index) {
  const uint64_t bytes = p.segments[index].size;
  if (p.constant_segment && *p.constant_segment == index) {
    if (!t.constant_segment)
      return {fmt::format("constant segment (segment {})", index), bytes, FlashUse::kNotRead, 0,
              "this release does not know Program.constant_segment"};
    if (p.constant_offsets >= t.constant_segment_min_offsets)
      return {fmt::format("constant segment (segment {})", index), bytes, FlashUse::kReadInPlace,
              0, "Program::load loads it once; constant tensors point into it"};
    return {fmt::format("constant segment (segment {})", index), bytes, FlashUse::kNotRead, 0,
            "too few offsets for this release to load it"};
  }
  for (const pte::MethodView& m : p.methods)
    for (const pte::DelegateView& d : m.delegates)
      if (d.location == BlobLocation::kSegment && d.blob_index == index)
        return BlobPart(fmt::format("delegate blob (segment {}, {})", index,
                                    Printable(d.backend)),
                        bytes, d.backend, t);
  if (!p.mutable_segment_indices.empty() && p.mutable_segment_indices.front() == index) {
    if (t.copies_mutable_state_at_load)
      return {fmt::format("mutable data segment (segment {})", index), bytes,
              FlashUse::kCopiedToRam, MutableStateBytes(p),
              "load_method copies each stateful planned tensor's initial bytes into its planned "
              "buffer (inside the planned buffers: no RAM beyond them)"};
    return {fmt::format("mutable data segment (segment {})", index), bytes, FlashUse::kNotRead, 0,
            "this release points stateful tensors at the constant storage instead"};
  }
  for (uint32_t s : p.named_data_segments)
    if (s == index) {
      if (t.named_data_for_backends)
        return {fmt::format("named data (segment {})", index), bytes,
                FlashUse::kBackendDependent, 0,
                "served to backends as pointers into the image; what they copy is up to them "
                "(unknown)"};
      return {fmt::format("named data (segment {})", index), bytes, FlashUse::kNotRead, 0,
              "this release does not read Program.named_data"};
    }
  return {fmt::format("segment {}", index), bytes, FlashUse::kNotRead, 0,
          "nothing in the program refers to it"};
}

void AddExternalNotes(const pte::ProgramView& p, const runtime::RuntimeTraits& t,
                      std::vector<std::string>& notes) {
  if (!t.external_constants) return;
  uint64_t constants = 0, copied = 0;
  for (const pte::MethodView& m : p.methods)
    for (const pte::TensorView& tv : m.tensors) {
      if (!tv.external) continue;
      const uint64_t bytes = pte::TensorDataBytes(m, tv).value_or(0);
      (tv.planned ? copied : constants) += bytes;
    }
  if (constants > 0)
    notes.push_back(fmt::format("{} B of constants come from a .ptd, not this file: read in "
                                "place only if the .ptd's data loader is zero-copy too",
                                constants));
  if (copied > 0)
    notes.push_back(fmt::format("{} B of initial state come from a .ptd: load_method copies them "
                                "into the planned buffers",
                                copied));
}

}  // namespace

const char* const kBufferDataLoaderAssumption =
    "assuming the firmware loads the program from its flash image with a BufferDataLoader "
    "(load() returns pointers into the image, load_into() copies)";

std::string BackendDependentPhrase(const FlashLoad& load) {
  const uint64_t bytes = load.bytes(FlashUse::kBackendDependent);
  return bytes == 0 ? "no backend-dependent bytes"
                    : fmt::format("{} B backend-dependent: unknown", bytes);
}

const char* FlashUseName(FlashUse u) {
  switch (u) {
    case FlashUse::kReadInPlace: return "read-in-place";
    case FlashUse::kCopiedToRam: return "copied-to-ram";
    case FlashUse::kBackendDependent: return "backend-dependent";
    case FlashUse::kNotRead: return "not-read";
  }
  return "?";
}

FlashLoad ComputeFlashLoad(const pte::ProgramView& p, const runtime::RuntimeTraits& t) {
  FlashLoad out;
  uint64_t inline_blobs = 0;
  std::vector<FlashPart> blobs;
  AddInlineBlobs(p, t, blobs, inline_blobs);
  out.parts.push_back({"program flatbuffer (metadata, inline constants)",
                       p.flatbuffer_bytes - std::min(p.flatbuffer_bytes, inline_blobs),
                       FlashUse::kReadInPlace, 0,
                       "Program::load keeps a pointer to it; inline constants are used where "
                       "they are"});
  out.parts.insert(out.parts.end(), blobs.begin(), blobs.end());
  uint64_t in_segments = 0;
  for (uint32_t i = 0; i < p.segments.size(); ++i) {
    out.parts.push_back(SegmentPart(p, t, i));
    in_segments += p.segments[i].size;
  }
  const uint64_t counted = p.flatbuffer_bytes + in_segments;
  if (p.file_size > counted)
    out.parts.push_back({"padding", p.file_size - counted, FlashUse::kNotRead, 0,
                         "alignment between the program and its segments"});
  AddExternalNotes(p, t, out.notes);
  return out;
}

}  // namespace etmem::report
