// Owns: CheckExternalData (see ptd_check.h): each release's FlatTensorDataMap and load_method
// lookups, read off extension/flat_tensor/flat_tensor_data_map.cpp, serialize/
// flat_tensor_header.cpp, runtime/executor/method.cpp (parse_external_constants),
// tensor_parser_exec_aten.cpp (validateTensorLayout, getTensorDataPtr), runtime/core/
// tensor_layout.cpp and extension/data_loader/buffer_data_loader.h at v0.6.0 ... v1.4.1 and main.
// The differences between releases are RuntimeTraits (the ".ptd checks" block of release.h).
// Not: the allocation sequence (load_plan.cpp).
#include "etmem/runtime/ptd_check.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/printable.h"
#include "etmem/fb/program_generated.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/scalar_type.h"

namespace etmem::runtime {
namespace {

using Fail = std::optional<Refusal>;

constexpr const char* kInvalidExternalData = "InvalidExternalData";
constexpr const char* kCrash = "crash (null dereference)";
constexpr const char* kUndefined = "undefined (reads outside the file)";

std::string U(uint64_t v) { return std::to_string(v); }

// The file's bytes read as the release's generated flatbuffer accessors read them: no
// verification, absent fields as their defaults, absent tables and vectors as null (0). A read
// outside the file sets `outside` (the runtime would read whatever lies there).
class Raw {
 public:
  explicit Raw(std::span<const uint8_t> b) : b_(b) {}
  bool outside = false;

  uint64_t Le(uint64_t pos, int n) {
    if (pos > b_.size() || b_.size() - pos < static_cast<uint64_t>(n)) {
      outside = true;
      return 0;
    }
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | b_[pos + i];
    return v;
  }
  uint64_t Root() { return Le(0, 4); }
  // The position of a table's field, 0 when absent.
  uint64_t Field(uint64_t table, int slot) {
    const int64_t vt = static_cast<int64_t>(table) - static_cast<int32_t>(Le(table, 4));
    if (vt < 0) {
      outside = true;
      return 0;
    }
    const uint64_t vsize = Le(static_cast<uint64_t>(vt), 2);
    if (4 + 2 * static_cast<uint64_t>(slot) + 2 > vsize) return 0;
    const uint64_t off = Le(static_cast<uint64_t>(vt) + 4 + 2 * slot, 2);
    return off == 0 ? 0 : table + off;
  }
  uint64_t Scalar(uint64_t table, int slot, int n) {
    const uint64_t p = Field(table, slot);
    return p == 0 ? 0 : Le(p, n);
  }
  // A table, vector or string field: its position, 0 (null) when absent.
  uint64_t Ref(uint64_t table, int slot) {
    const uint64_t p = Field(table, slot);
    return p == 0 ? 0 : p + Le(p, 4);
  }
  uint32_t Size(uint64_t vec) { return static_cast<uint32_t>(Le(vec, 4)); }
  uint64_t TableAt(uint64_t vec, uint32_t i) {
    const uint64_t e = vec + 4 + 4 * static_cast<uint64_t>(i);
    return e + Le(e, 4);
  }
  uint8_t Byte(uint64_t pos) { return static_cast<uint8_t>(Le(pos, 1)); }
  size_t size() const { return b_.size(); }

 private:
  std::span<const uint8_t> b_;
};

Refusal Make(std::string error, std::string reason, std::string log = "") {
  return Refusal{std::move(error), std::move(reason), std::move(log)};
}

// %.4s of four bytes: up to the first NUL, escaped to printable text (the runtime prints them
// raw; a byte from the file must not split etmem's line).
std::string Four(const uint8_t* p) {
  std::string s;
  for (int i = 0; i < 4 && p[i] != 0; ++i) s += static_cast<char>(p[i]);
  return Printable(s);
}

// A key from the program, as quoted in a message.
std::string Key(std::string_view key) { return Printable(key); }

struct FileLayout {
  int8_t dtype = 0;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  uint64_t nbytes = 0;
};

class Emulation {
 public:
  Emulation(const pte::PtdFile& f, const RuntimeTraits& t)
      : f_(f), t_(t), r_(f.bytes()), name_(Printable(f.name, kShownPathBytes)) {}

  // FlatTensorDataMap::load.
  Fail Load() {
    const std::span<const uint8_t> b = f_.bytes();
    const std::string& n = name_;
    if (b.size() < 64)
      return Loader(0, 64, "the .ptd is shorter than the 64-byte head the data map reads");
    const pte::PtdHeader& h = f_.header;
    if (std::memcmp(h.magic, "FH01", 4) != 0) {
      const std::string why = n + " has no FlatTensor header (magic '" + Four(b.data() + 8) +
                              "' at byte 8, not FH01)";
      if (t_.ptd_header_error_wrapped)
        return Make(kInvalidExternalData, why,
                    "Failed to parse FlatTensor header with error code 32. File may be corrupt.");
      return Make("NotFound", why, "No FlatTensorHeader found.");
    }
    if (h.length < 40)
      return Make(kInvalidExternalData,
                  n + "'s FlatTensor header says it is " + U(h.length) + " bytes, below 40",
                  "FlatTensor header length " + U(h.length) + " < 40");
    if (t_.ptd_file_size_checked) {
      const uint64_t expected = h.segment_base_offset + h.segment_data_size;
      if (expected > b.size())
        return Make(kInvalidExternalData,
                    n + " is " + U(b.size()) + " bytes, shorter than its header's segment base "
                        "offset plus segment data size (" + U(expected) + ")",
                    "File size is too small; file may be corrupted or truncated. Expected " +
                        U(expected) + " from flat_tensor header, received " + U(b.size()) +
                        " from data loader");
    }
    const uint64_t fb_end = h.flatbuffer_offset + h.flatbuffer_size;
    if (fb_end > b.size())
      return Loader(0, fb_end, n + "'s flatbuffer (as its header places it) ends past the file");
    if (std::memcmp(b.data() + 4, "FT01", 4) != 0)
      return Make(kInvalidExternalData,
                  n + "'s flatbuffer identifier is '" + Four(b.data() + 4) + "', not FT01",
                  "FlatTensor identifier '" + Four(b.data() + 4) + "' != expected 'FT01'");
    root_ = r_.Root();
    if (t_.ptd_named_blobs) {
      if (r_.Ref(root_, 2) == 0)
        return Make(kInvalidExternalData, n + " has no named data list",
                    "FlatTensor named_data is nullptr, malformed PTD file.");
      if (r_.Ref(root_, 1) == 0)
        return Make(kInvalidExternalData, n + " has no segment list",
                    "FlatTensor segments is nullptr, malformed PTD file.");
    }
    return Outside();
  }

  // Method::parse_external_constants for one key: get_tensor_layout (0.6: get_metadata),
  // validateTensorLayout, get_data.
  Fail Constant(const pte::MethodView& m, const pte::TensorView& tensor, std::string_view key,
                std::span<const uint8_t> program_dim_order) {
    uint64_t entry = 0;
    FileLayout layout;
    Fail lookup = Find(key, entry);
    if (!lookup) lookup = LayoutOf(entry, key, layout);
    if (lookup) {
      // 0.7+ method.cpp logs "Failed to get metadata for key K" at Info level after any
      // get_tensor_layout failure: the only line when the data map logged none.
      if (lookup->log.empty() && t_.ptd_logs_missing_metadata && lookup->error != kCrash &&
          lookup->error != kUndefined && !lookup->error.starts_with("abort"))
        lookup->log = "Failed to get metadata for key " + Key(key);
      return lookup;
    }
    if (Fail f = Validate(m, tensor, key, layout, program_dim_order)) return f;
    if (Fail f = Data(entry, key, layout, /*into=*/false)) {
      // The data map's own failure, then method.cpp's: "Buffer retrieved from get_data is not
      // valid" (InvalidExternalData); the first error line is the data map's or loader's.
      if (f->log.empty()) f->log = "Buffer retrieved from get_data is not valid";
      if (f->error != kCrash && f->error != kUndefined) f->error = kInvalidExternalData;
      return f;
    }
    return std::nullopt;
  }

  // getTensorDataPtr for a planned external tensor: get_tensor_layout, validateTensorLayout,
  // load_data_into. The tensor parser then logs "getTensorDataPtr() failed: 0x..".
  Fail Planned(const pte::MethodView& m, const pte::TensorView& tensor, std::string_view key,
               std::span<const uint8_t> program_dim_order) {
    uint64_t entry = 0;
    FileLayout layout;
    Fail f = Find(key, entry);
    if (!f) f = LayoutOf(entry, key, layout);
    if (!f) f = Validate(m, tensor, key, layout, program_dim_order);
    if (!f) f = Data(entry, key, layout, /*into=*/true);
    if (f && f->log.empty() && f->error != kCrash && f->error != kUndefined) {
      static const std::map<std::string, int, std::less<>> kCodes = {
          {"NotFound", 0x20}, {"InvalidArgument", 0x12}, {kInvalidExternalData, 0x24}};
      auto code = kCodes.find(f->error);
      if (code != kCodes.end()) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%x", code->second);
        f->log = std::string("getTensorDataPtr() failed: 0x") + hex;
      }
    }
    return f;
  }

 private:
  // BufferDataLoader::load out of range (InvalidArgument).
  Fail Loader(uint64_t offset, uint64_t size, std::string why) {
    return Make("InvalidArgument", std::move(why),
                "offset " + U(offset) + " + size " + U(size) + " > size_ " + U(f_.bytes().size()));
  }
  Fail Outside() {
    if (!r_.outside) return std::nullopt;
    return Make(kUndefined, name_ + " is in the " + pte::PtdLayoutName(f_.layout) +
                                ", and this release reads the " +
                                (t_.ptd_named_blobs ? "0.7+ layout" : "0.6 layout") +
                                ": its reader follows offsets out of the file");
  }
  std::string InFile(std::string_view key) const {
    return "key '" + Key(key) + "' in " + name_;
  }


 public:
  // MergedDataMap::load's duplicate-key scan (1.0+, the program has named data): every .ptd
  // entry's key, by index (FlatTensorDataMap::get_key: named_data()->Get(k)->key()->c_str()),
  // asked of the program's PteDataMap, whose get_tensor_layout is NotImplemented for any key,
  // which the scan lets pass: no key is a duplicate. A keyless entry's c_str() is a pointer
  // just past null, which the key's string_view measures (strlen): a crash.
  Fail MergeScan() {
    const uint64_t list = r_.Ref(root_, 2);  // FlatTensorDataMap::load refused a null list
    const uint32_t n = r_.Size(list);
    if (Fail f = Outside()) return f;
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t s = r_.Ref(r_.TableAt(list, i), 0);
      if (Fail f = Outside()) return f;
      if (s == 0)
        return Make(kCrash, name_ + ": entry " + U(i) + " has no key, which the merge with the "
                                "program's named data reads (MergedDataMap::load)");
    }
    return std::nullopt;
  }

 private:
  // The entry for `key`, as the release's linear search finds it.
  Fail Find(std::string_view key, uint64_t& entry) {
    const bool v06 = !t_.ptd_named_blobs;  // 0.6's tensor entries
    const uint64_t list = r_.Ref(root_, 2);  // tensors (0.6 layout) or named blobs: both slot 2
    if (list == 0) {
      if (v06) return Make(kCrash, name_ + " has no tensor list, which 0.6 reads unchecked");
      return Make("NotFound", InFile(key) + ": no named data list");
    }
    const uint32_t n = r_.Size(list);
    if (Fail f = Outside()) return f;
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t e = r_.TableAt(list, i);
      const uint64_t s = r_.Ref(e, 0);
      if (Fail f = Outside()) return f;
      if (s == 0) return Make(kCrash, name_ + ": entry " + U(i) + " has no key");
      const uint64_t len = r_.Size(s);
      // 0.6: strcmp of the whole C strings. 0.7: strncmp over the file key's length (a file key
      // that is a prefix of the program's matches). 1.0+: the lengths must also be equal.
      bool match = true;
      if (v06) {
        for (uint64_t j = 0;; ++j) {
          const uint8_t a = r_.Byte(s + 4 + j);
          const uint8_t b = j < key.size() ? static_cast<uint8_t>(key[j]) : 0;
          if (r_.outside) return Outside();
          if (a != b) { match = false; break; }
          if (a == 0) break;
        }
      } else {
        if (t_.ptd_key_exact && len != key.size()) match = false;
        for (uint64_t j = 0; match && j < len; ++j) {
          const uint8_t a = r_.Byte(s + 4 + j);
          const uint8_t b = j < key.size() ? static_cast<uint8_t>(key[j]) : 0;
          if (r_.outside) return Outside();
          if (a != b) match = false;
          else if (a == 0) break;
        }
      }
      if (!match) continue;
      entry = e;
      if (v06) return std::nullopt;  // get_flat_tensor_metadata's checks cannot fail (unsigned)
      return CheckSegment(e, key);
    }
    if (v06) return Make("NotFound", InFile(key) + ": no such tensor");
    return Make("NotFound", "the program's external tensor '" + Key(key) + "' is not in " +
                                name_);
  }

  // get_named_data's checks on the segment of a found entry (0.7+).
  Fail CheckSegment(uint64_t e, std::string_view key) {
    const pte::PtdHeader& h = f_.header;
    const uint64_t end = h.segment_base_offset + h.segment_data_size;
    const uint64_t segs = r_.Ref(root_, 1);
    const uint32_t idx = static_cast<uint32_t>(r_.Scalar(e, 1, 4));
    const uint32_t n = r_.Size(segs);
    if (Fail f = Outside()) return f;
    if (idx >= n)
      return Make(kInvalidExternalData,
                  InFile(key) + " names segment " + U(idx) + " of " + U(n),
                  "Segment index " + U(idx) + " for key " + Key(key) +
                      " is out of bounds for segment size " + U(n) + ". Malformed PTD file.");
    const uint64_t seg = r_.TableAt(segs, idx);
    const uint64_t off = r_.Scalar(seg, 0, 8), size = r_.Scalar(seg, 1, 8);
    if (Fail f = Outside()) return f;
    bool ok;
    if (!t_.ptd_segment_end_checks_size) {
      ok = off < end;  // 0.7: the start only
    } else {
      const uint64_t seg_end = off + size;
      ok = seg_end <= end && !(t_.ptd_segment_end_overflow_checked && seg_end < off);
    }
    if (!ok)
      return Make(kInvalidExternalData,
                  InFile(key) + ": segment " + U(idx) + " (offset " + U(off) + ", " + U(size) +
                      " bytes) runs past the segment data (" + U(end) + ")",
                  "Invalid segment offset " + U(off) +
                      " is larger than the segment_base_offset + segment_data_size " + U(end) +
                      "; malformed PTD file.");
    return std::nullopt;
  }

  // create_tensor_layout and TensorLayout::create: the sizes are read through sizes()->size()
  // (a null vector is a crash), the dim order only through dim_order()->data() (a null vector
  // gives address 4, a crash only when an entry is read); sizes first, then the dim order.
  Fail LayoutOf(uint64_t e, std::string_view key, FileLayout& out) {
    const bool v06 = !t_.ptd_named_blobs;  // 0.6's tensor entries
    const uint64_t tl = v06 ? e : r_.Ref(e, 2);
    if (tl == 0) return Make(kCrash, InFile(key) + " has no tensor layout, which the release reads "
                                                   "unchecked");
    out.dtype = static_cast<int8_t>(r_.Scalar(tl, v06 ? 1 : 0, 1));
    const uint64_t sizes = r_.Ref(tl, v06 ? 2 : 1), order = r_.Ref(tl, v06 ? 3 : 2);
    if (Fail f = Outside()) return f;
    if (sizes == 0)
      return Make(kCrash, InFile(key) + " has no sizes, which the release reads unchecked");
    const uint32_t dim = r_.Size(sizes);
    uint64_t n = 1;
    for (uint32_t i = 0; i < dim; ++i) {
      const int32_t size = static_cast<int32_t>(r_.Le(sizes + 4 + 4 * uint64_t{i}, 4));
      if (Fail f = Outside()) return f;
      out.sizes.push_back(size);
      if (size < 0)
        return Make("InvalidArgument", InFile(key) + " has a negative size (" +
                                           std::to_string(size) + ")");
      const uint64_t next = n * static_cast<uint64_t>(size);
      if (t_.ptd_layout_overflow_checked && size != 0 && next / static_cast<uint64_t>(size) != n)
        return Make("InvalidArgument", InFile(key) + ": its byte size overflows");
      n = next;
    }
    const std::optional<uint32_t> element = pte::ScalarTypeBytes(out.dtype);
    if (!element) return Make("abort (ET_CHECK)", InFile(key) + " has ScalarType " +
                                                      std::to_string(out.dtype) +
                                                      ", whose size the release does not know");
    if (t_.ptd_layout_overflow_checked && n != 0 && (n * *element) / *element != n)
      return Make("InvalidArgument", InFile(key) + ": its byte size overflows");
    out.nbytes = n * *element;
    if (dim > 0 && order == 0)
      return Make(kCrash, InFile(key) + " has no dim order, which the release reads unchecked");
    for (uint32_t i = 0; i < dim; ++i) {
      out.dim_order.push_back(r_.Byte(order + 4 + i));  // as many as sizes (the release's span)
      if (Fail f = Outside()) return f;
      if (out.dim_order.back() >= dim)
        return Make("InvalidArgument", InFile(key) + ": dim order entry " + U(i) + " (" +
                                           U(out.dim_order.back()) + ") is not below its rank");
    }
    return std::nullopt;
  }

  // validateTensorLayout: the program's tensor against the file's layout.
  Fail Validate(const pte::MethodView& m, const pte::TensorView& tensor, std::string_view key,
                const FileLayout& l, std::span<const uint8_t> order) {
    const std::string where = "the program's '" + Key(key) + "' and " + name_;
    if (tensor.dtype != l.dtype)
      return Make(kInvalidExternalData,
                  where + " disagree on the ScalarType (" + std::to_string(tensor.dtype) +
                      " and " + std::to_string(l.dtype) + ")",
                  "Scalar type mismatch. Expected " + std::to_string(tensor.dtype) + ", got " +
                      std::to_string(l.dtype) + ".");
    const std::span<const int32_t> sizes = m.SizesOf(tensor);
    if (sizes.size() != l.sizes.size())
      return Make(kInvalidExternalData,
                  where + " disagree on the rank (" + U(sizes.size()) + " and " +
                      U(l.sizes.size()) + ")",
                  "Dim mismatch. Expected " + U(sizes.size()) + ", got " + U(l.sizes.size()) + ".");
    if (t_.ptd_dim_order_size_checked && order.size() != sizes.size())
      return Make(kInvalidExternalData, where + ": the program's dim order has another length",
                  "Dim order size mismatch. Expected " + U(sizes.size()) + ", got " +
                      U(order.size()) + ".");
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] != l.sizes[i])
        return Make(kInvalidExternalData,
                    where + " disagree on size " + U(i) + " (" + std::to_string(sizes[i]) +
                        " and " + std::to_string(l.sizes[i]) + ")",
                    "Sizes mismatch. Expected " + std::to_string(sizes[i]) + ", got " +
                        std::to_string(l.sizes[i]) + " for size at index " + U(i) + ".");
      const int program_order = i < order.size() ? order[i] : 0;
      if (program_order != l.dim_order[i])
        return Make(kInvalidExternalData,
                    where + " disagree on dim order entry " + U(i) + " (" +
                        std::to_string(program_order) + " and " + std::to_string(l.dim_order[i]) +
                        ")",
                    "Dim order mismatch. Expected " + std::to_string(program_order) + ", got " +
                        std::to_string(l.dim_order[i]) + " for dim at index " + U(i) + ".");
    }
    return std::nullopt;
  }

  // get_data (into = false) or load_data_into (true): the bytes the loader is asked for.
  Fail Data(uint64_t e, std::string_view key, const FileLayout& l, bool into) {
    const pte::PtdHeader& h = f_.header;
    uint64_t at = 0, size = 0;
    if (!t_.ptd_named_blobs) {
      const uint64_t segs = r_.Ref(root_, 3);
      if (segs == 0)
        return Make(kInvalidExternalData, name_ + " has no segment list",
                    "No segments in external data flatbuffer.");
      const uint32_t idx = static_cast<uint32_t>(r_.Scalar(e, 4, 4));
      const uint32_t n = r_.Size(segs);
      if (Fail f = Outside()) return f;
      if (idx >= n)
        return Make(kInvalidExternalData, InFile(key) + " names segment " + U(idx) + " of " + U(n),
                    "Invalid segment_index " + U(idx) + "; malformed PTD file.");
      // The segment offset passes through an int (Result<int>).
      const int32_t seg_off = static_cast<int32_t>(r_.Scalar(r_.TableAt(segs, idx), 0, 8));
      if (Fail f = Outside()) return f;
      const uint64_t end = h.segment_base_offset + h.segment_data_size;
      if (static_cast<uint64_t>(static_cast<int64_t>(seg_off)) >= end)
        return Make(kInvalidExternalData,
                    InFile(key) + ": its segment starts past the segment data",
                    "Invalid segment offset " + std::to_string(seg_off) +
                        " is larger than the segment_base_offset + segment_data_size " + U(end) +
                        "; malformed PTD file.");
      at = h.segment_base_offset + static_cast<uint64_t>(static_cast<int64_t>(seg_off)) +
           r_.Scalar(e, 5, 8);
      size = l.nbytes;
    } else {
      if (Fail f = CheckSegment(e, key)) return f;  // the lookup runs again
      const uint64_t seg = r_.TableAt(r_.Ref(root_, 1), static_cast<uint32_t>(r_.Scalar(e, 1, 4)));
      at = h.segment_base_offset + r_.Scalar(seg, 0, 8);
      size = into ? l.nbytes : r_.Scalar(seg, 1, 8);
    }
    if (Fail f = Outside()) return f;
    if (at + size > f_.bytes().size() || at + size < at)
      return Loader(at, size, InFile(key) + ": its bytes (" + U(size) + " at " + U(at) +
                                  ") run past the end of the file");
    return std::nullopt;
  }

  const pte::PtdFile& f_;
  const RuntimeTraits& t_;
  Raw r_;
  std::string name_;  // the file's name, printable
  uint64_t root_ = 0;
};

// The program tensor's dim order, read from the program's flatbuffer (the view keeps only the
// rank). Empty when it cannot be read.
std::span<const uint8_t> DimOrderOf(const pte::ProgramView& program, const pte::MethodView& m,
                                    int64_t value) {
  if (!program.file) return {};
  const auto* p = flatbuffers::GetRoot<fb::Program>(program.file->bytes().data());
  if (!p->methods()) return {};
  for (const fb::Method* fm : *p->methods()) {
    if (!fm->name() || fm->name()->string_view() != m.name || !fm->values()) continue;
    if (value < 0 || static_cast<uint32_t>(value) >= fm->values()->size()) return {};
    const fb::Tensor* t = fm->values()->Get(static_cast<uint32_t>(value))->payload_as_Tensor();
    if (!t || !t->dim_order()) return {};
    return {t->dim_order()->data(), t->dim_order()->size()};
  }
  return {};
}

}  // namespace

Refusal KeylessExternalConstant(int64_t value) {
  return Make(kInvalidExternalData,
              "value " + U(static_cast<uint64_t>(value)) +
                  " is an external constant without a key (no fully_qualified_name)",
              "Fully qualified name of external tensor is null at index " +
                  U(static_cast<uint64_t>(value)));
}

std::string_view RuntimeKey(std::string_view fqn) { return fqn.substr(0, fqn.find('\0')); }

int64_t FirstExternalConstant(const pte::MethodView& m) {
  for (size_t v = 0; v < m.values.size(); ++v) {
    const pte::TensorView* tensor = m.TensorAt(static_cast<int64_t>(v));
    if (tensor && tensor->external && !tensor->planned) return static_cast<int64_t>(v);
  }
  return -1;
}

std::optional<PtdOutcome> CheckExternalData(const pte::ProgramView& program,
                                            const pte::MethodView& m, const pte::PtdFile& ptd,
                                            const RuntimeTraits& t) {
  if (!t.ptd_data_map) return std::nullopt;  // no data map in this release
  Emulation emu(ptd, t);
  if (Fail f = emu.Load()) return PtdOutcome{PtdOutcome::Where::kMapLoad, -1, *f};
  // With named data in the program too, 1.0+ merge it with the .ptd (MergedDataMap) after the
  // values, for the delegates only: the tensors below look keys up in the .ptd alone.
  // (The program's map exists whenever Program.named_data is present, even empty.)
  const bool merged = program.has_named_data_vector && t.merged_data_map;
  // parse_external_constants: external, unplanned tensors in value order; a keyless one is
  // refused where it is met (before its lookup), a keyed one looked up once per key.
  std::set<std::string_view> seen;
  for (size_t v = 0; v < m.values.size(); ++v) {
    const pte::TensorView* tensor = m.TensorAt(static_cast<int64_t>(v));
    if (!tensor || !tensor->external || tensor->planned) continue;
    if (tensor->fqn_index == 0)
      return PtdOutcome{PtdOutcome::Where::kExternalConstants, static_cast<int64_t>(v),
                        KeylessExternalConstant(static_cast<int64_t>(v))};
    const std::string_view key = RuntimeKey(m.FqnOf(*tensor));
    if (!seen.insert(key).second) continue;
    if (Fail f = emu.Constant(m, *tensor, key, DimOrderOf(program, m, static_cast<int64_t>(v))))
      return PtdOutcome{PtdOutcome::Where::kExternalConstants, static_cast<int64_t>(v), *f};
  }
  // The tensor parser: planned external tensors, in value order.
  for (size_t v = 0; v < m.values.size(); ++v) {
    const pte::TensorView* tensor = m.TensorAt(static_cast<int64_t>(v));
    if (!tensor || !tensor->external || !tensor->planned) continue;
    const std::string_view key = RuntimeKey(m.FqnOf(*tensor));
    if (Fail f = emu.Planned(m, *tensor, key, DimOrderOf(program, m, static_cast<int64_t>(v))))
      return PtdOutcome{PtdOutcome::Where::kPlannedValue, static_cast<int64_t>(v), *f};
  }
  if (merged)
    if (Fail f = emu.MergeScan()) return PtdOutcome{PtdOutcome::Where::kMerge, -1, *f};
  return std::nullopt;
}

}  // namespace etmem::runtime
