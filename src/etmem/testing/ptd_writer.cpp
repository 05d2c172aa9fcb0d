// Owns: laying out a .ptd file from a PtdFileSpec (see ptd_writer.h).
// Not: the scenarios (ptd_scenarios.cpp).
//
// File layout written (both layouts; the format as read at v0.6.0 ... main,
// extension/flat_tensor/serialize/flat_tensor_header.h):
//   [0,4) root offset  [4,8) identifier  [8,48) header  [48,56) zero padding
//   [56, 48 + flatbuffer size) the rest of the flatbuffer
//   segment base = (48 + flatbuffer size) rounded up to 128; blobs' segments follow it, each
//   starting at a multiple of 16 from the base, the last one unpadded.
#include "etmem/testing/ptd_writer.h"
#include "etmem/testing/writer_bytes.h"

#include <flatbuffers/flatbuffers.h>

#include <cstring>

#include "etmem/fb/flat_tensor_generated.h"

namespace etmem::testing {
namespace {

constexpr size_t kHeaderAt = 8;
constexpr size_t kPaddedHeader = 48;  // 40 header bytes rounded up to 16
constexpr uint64_t kSegmentAlign = 128;
constexpr uint64_t kBlobAlign = 16;


uint64_t BlobBytes(const PtdBlob& b) {
  if (b.bytes != 0 || !b.shape) return b.bytes;
  uint64_t n = 4;
  for (int32_t s : b.shape->sizes) n *= static_cast<uint64_t>(s);
  return n;
}

std::vector<uint8_t> DimOrder(const PtdShape& s) {
  if (!s.dim_order.empty()) return s.dim_order;
  std::vector<uint8_t> d(s.sizes.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(i);
  return d;
}

}  // namespace

std::vector<uint8_t> WritePtd(const PtdFileSpec& spec) {
  // Segment offsets (relative to the segment base): one segment per blob, in order.
  std::vector<uint64_t> offsets;
  uint64_t data_size = 0;
  for (size_t i = 0; i < spec.blobs.size(); ++i) {
    offsets.push_back(data_size);
    const uint64_t n = BlobBytes(spec.blobs[i]);
    data_size += i + 1 == spec.blobs.size() ? n : AlignUp(n, kBlobAlign);
  }

  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<ptd::Segment>> segments;
  for (size_t i = 0; i < spec.blobs.size(); ++i)
    segments.push_back(ptd::CreateSegment(
        fbb, offsets[i],
        static_cast<uint64_t>(static_cast<int64_t>(BlobBytes(spec.blobs[i])) +
                              spec.blobs[i].extra_segment_size)));
  auto segment_index = [&](size_t i) {
    return static_cast<uint32_t>(spec.blobs[i].segment < 0 ? static_cast<int64_t>(i)
                                                           : spec.blobs[i].segment);
  };
  if (spec.layout06) {
    std::vector<flatbuffers::Offset<ptd::TensorEntry06>> tensors;
    for (size_t i = 0; i < spec.blobs.size(); ++i) {
      const PtdBlob& b = spec.blobs[i];
      const PtdShape shape = b.shape.value_or(PtdShape{});
      const std::vector<uint8_t> order = DimOrder(shape);
      tensors.push_back(ptd::CreateTensorEntry06(fbb, fbb.CreateString(b.key), shape.dtype,
                                                 fbb.CreateVector(shape.sizes),
                                                 fbb.CreateVector(order), segment_index(i), 0));
    }
    std::vector<flatbuffers::Offset<ptd::Blob06>> none;
    auto root = ptd::CreateLayout06(fbb, 0, static_cast<uint32_t>(kBlobAlign),
                                    fbb.CreateVector(tensors), fbb.CreateVector(segments),
                                    fbb.CreateVector(none));
    fbb.Finish(root, spec.identifier.c_str());
  } else {
    std::vector<flatbuffers::Offset<ptd::Blob>> blobs;
    for (size_t i = 0; i < spec.blobs.size(); ++i) {
      const PtdBlob& b = spec.blobs[i];
      flatbuffers::Offset<ptd::TensorShape> shape = 0;
      if (b.shape)
        shape = ptd::CreateTensorShape(fbb, b.shape->dtype, fbb.CreateVector(b.shape->sizes),
                                       fbb.CreateVector(DimOrder(*b.shape)));
      blobs.push_back(ptd::CreateBlob(fbb, b.keyless ? 0 : fbb.CreateString(b.key), segment_index(i), shape));
    }
    auto root = ptd::CreateLayout07(fbb, 0, fbb.CreateVector(segments), fbb.CreateVector(blobs));
    fbb.Finish(root, spec.identifier.c_str());
  }
  const uint8_t* fb = fbb.GetBufferPointer();
  const size_t fb_size = fbb.GetSize();

  const uint64_t base = AlignUp(fb_size + kPaddedHeader, kSegmentAlign);
  std::vector<uint8_t> out(base + data_size, 0);
  uint32_t root;
  std::memcpy(&root, fb, 4);
  StoreU32(out.data(), root + static_cast<uint32_t>(kPaddedHeader));
  std::memcpy(out.data() + 4, fb + 4, 4);
  uint8_t* h = out.data() + kHeaderAt;
  std::memcpy(h, spec.header_magic.data(), 4);
  StoreU32(h + 4, spec.header_length);
  StoreU64(h + 8, kPaddedHeader);
  StoreU64(h + 16, fb_size);
  StoreU64(h + 24, base);
  StoreU64(h + 32, data_size);
  std::memcpy(out.data() + kHeaderAt + kPaddedHeader, fb + kHeaderAt, fb_size - kHeaderAt);
  // Blob bytes: a recognisable pattern (index and position), never all zero.
  for (size_t i = 0; i < spec.blobs.size(); ++i)
    for (uint64_t k = 0; k < BlobBytes(spec.blobs[i]); ++k)
      out[base + offsets[i] + k] = static_cast<uint8_t>(i * 31 + k + 1);
  out.resize(out.size() - std::min<uint64_t>(spec.truncate_by, out.size()));
  return out;
}

}  // namespace etmem::testing
