// Owns: ReadPtd (see ptd_file.h).
// Not: the releases' reading of the file (runtime/ptd_check.cpp).
#include "etmem/pte/ptd_file.h"

#include <flatbuffers/flatbuffers.h>

#include <cstring>

#include "etmem/base/printable.h"
#include "etmem/fb/flat_tensor_generated.h"
#include "etmem/pte/mapped_file.h"

namespace etmem::pte {
namespace {

constexpr size_t kHeadBytes = 64;  // what every release reads first
constexpr size_t kHeaderAt = 8;
constexpr uint32_t kHeaderLength = 40;

uint32_t U32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t U64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

Error Bad(const std::string& name, const std::string& what) {
  return MakeError(ErrorCode::kInvalidArgument,
                   Printable(name, kShownPathBytes) + ": not a readable .ptd file: " + what);
}

// The number of field slots in the root table's vtable (0 when it cannot be read).
size_t RootFieldSlots(std::span<const uint8_t> fb) {
  if (fb.size() < 8) return 0;
  const uint64_t table = U32(fb.data());
  if (table + 4 > fb.size()) return 0;
  const int64_t vtable = static_cast<int64_t>(table) - static_cast<int32_t>(U32(fb.data() + table));
  if (vtable < 0 || static_cast<uint64_t>(vtable) + 2 > fb.size()) return 0;
  uint16_t vsize;
  std::memcpy(&vsize, fb.data() + vtable, 2);
  return vsize < 4 ? 0 : (vsize - 4) / 2;
}

template <typename V>
std::vector<V> Copy(const flatbuffers::Vector<V>* v) {
  return v ? std::vector<V>(v->begin(), v->end()) : std::vector<V>{};
}

void ReadSegments(const flatbuffers::Vector<flatbuffers::Offset<ptd::Segment>>* v, PtdFile& f) {
  if (!v) return;
  for (const ptd::Segment* s : *v) f.segments.push_back({s->offset(), s->size()});
}

}  // namespace

std::span<const uint8_t> PtdFile::bytes() const { return file->bytes(); }

const char* PtdLayoutName(PtdLayout layout) {
  switch (layout) {
    case PtdLayout::k06: return "0.6 layout";
    case PtdLayout::k07: return "0.7+ layout";
    default: return "unread";
  }
}

namespace {

Result<std::shared_ptr<const PtdFile>> Read(std::shared_ptr<const MappedFile> file,
                                            const std::string& name) {
  auto f = std::make_shared<PtdFile>();
  f->name = name;
  f->file = std::move(file);
  const std::span<const uint8_t> bytes = f->file->bytes();
  if (bytes.size() < kHeadBytes)
    return Bad(name, std::to_string(bytes.size()) + " bytes, shorter than the " +
                         std::to_string(kHeadBytes) + "-byte head every release reads");
  const uint8_t* h = bytes.data() + kHeaderAt;
  std::memcpy(f->header.magic, h, 4);
  std::memcpy(f->identifier, bytes.data() + 4, 4);
  if (std::memcmp(f->header.magic, "FH", 2) != 0 && std::memcmp(f->identifier, "FT", 2) != 0)
    return Bad(name, "neither a FlatTensor header (\"FH..\" at byte 8) nor its identifier "
                     "(\"FT..\" at byte 4)");
  f->header.length = U32(h + 4);
  f->header.flatbuffer_offset = U64(h + 8);
  f->header.flatbuffer_size = U64(h + 16);
  f->header.segment_base_offset = U64(h + 24);
  f->header.segment_data_size = U64(h + 32);
  const uint64_t fb_end = f->header.flatbuffer_offset + f->header.flatbuffer_size;
  const bool header_ok = std::memcmp(f->header.magic, "FH01", 4) == 0 &&
                         f->header.length >= kHeaderLength && fb_end >= f->header.flatbuffer_offset &&
                         fb_end <= bytes.size() && fb_end >= 8;
  if (!header_ok || std::memcmp(f->identifier, "FT01", 4) != 0)
    return std::shared_ptr<const PtdFile>(f);  // the release refuses

  const std::span<const uint8_t> fb = bytes.first(fb_end);
  // The two layouts share the identifier; 0.6's root table has five fields, later ones three.
  const bool layout06 = RootFieldSlots(fb) > 3;
  flatbuffers::Verifier::Options vo;
  vo.max_depth = 16;
  vo.max_tables = 4'000'000;
  flatbuffers::Verifier verifier(fb.data(), fb.size(), vo);
  if (layout06) {
    if (!verifier.VerifyBuffer<ptd::Layout06>("FT01"))
      return Bad(name, "its flatbuffer does not verify in the 0.6 layout (tensor entries)");
    const auto* root = flatbuffers::GetRoot<ptd::Layout06>(fb.data());
    ReadSegments(root->segments(), *f);
    if (root->tensors())
      for (const ptd::TensorEntry06* t : *root->tensors())
        f->entries.push_back({t->key() ? t->key()->str() : "", t->segment(), t->offset(),
                              PtdTensorLayout{t->dtype(), Copy(t->sizes()), Copy(t->dim_order())}});
    f->layout = PtdLayout::k06;
  } else {
    if (!verifier.VerifyBuffer<ptd::Layout07>("FT01"))
      return Bad(name, "its flatbuffer does not verify in the 0.7+ layout (named blobs)");
    const auto* root = flatbuffers::GetRoot<ptd::Layout07>(fb.data());
    ReadSegments(root->segments(), *f);
    if (root->blobs())
      for (const ptd::Blob* b : *root->blobs()) {
        PtdEntry e{b->key() ? b->key()->str() : "", b->segment(), 0, std::nullopt};
        if (b->shape())
          e.layout = PtdTensorLayout{b->shape()->dtype(), Copy(b->shape()->sizes()),
                                     Copy(b->shape()->dim_order())};
        f->entries.push_back(std::move(e));
      }
    f->layout = PtdLayout::k07;
  }
  return std::shared_ptr<const PtdFile>(f);
}

}  // namespace

Result<std::shared_ptr<const PtdFile>> ReadPtd(const std::string& path) {
  ETMEM_TRY(auto mapped, MappedFile::Open(path));
  return Read(std::move(mapped), path);
}

Result<std::shared_ptr<const PtdFile>> ReadPtdBytes(std::span<const uint8_t> bytes,
                                                    const std::string& name) {
  return Read(MappedFile::FromBytes(bytes), name);
}

}  // namespace etmem::pte
