// Owns: the .ptd files of ptd_scenarios.h. The program they go with is ProgramWithExternalData:
// external constants "linear.weight" (Float [8, 8], named twice) and "linear.bias" (Float [8]),
// and "cache.state" (Float [1, 8]), planned memory whose initial value comes from the .ptd.
// Also the .ptd files of RefusalPtds. Not: the programs (scenarios.cpp, scenario_refusals.cpp).
#include "etmem/testing/ptd_scenarios.h"

#include "etmem/testing/ptd_writer.h"

namespace etmem::testing {
namespace {

PtdBlob Weight() { return {.key = "linear.weight", .shape = PtdShape{.sizes = {8, 8}}}; }
PtdBlob Bias() { return {.key = "linear.bias", .shape = PtdShape{.sizes = {8}}}; }
PtdBlob State() { return {.key = "cache.state", .shape = PtdShape{.sizes = {1, 8}}}; }

PtdFileSpec Matching() { return {.blobs = {Weight(), Bias(), State()}}; }

std::vector<uint8_t> Match() { return WritePtd(Matching()); }
std::vector<uint8_t> Match06() {
  PtdFileSpec s = Matching();
  s.layout06 = true;
  return WritePtd(s);
}
std::vector<uint8_t> MissingKey() { return WritePtd({.blobs = {Weight(), State()}}); }
std::vector<uint8_t> MissingState() { return WritePtd({.blobs = {Weight(), Bias()}}); }
std::vector<uint8_t> SegmentIndexOutOfBounds() {
  PtdFileSpec s = Matching();
  s.blobs[1].segment = 7;
  return WritePtd(s);
}
std::vector<uint8_t> SegmentPastEnd() {
  PtdFileSpec s = Matching();
  s.blobs[2].extra_segment_size = 4;  // the last segment claims 4 bytes past the data
  return WritePtd(s);
}
std::vector<uint8_t> SizesMismatch() {
  PtdFileSpec s = Matching();
  s.blobs[0].shape->sizes = {8, 4};
  return WritePtd(s);
}
std::vector<uint8_t> DtypeMismatch() {
  PtdFileSpec s = Matching();
  s.blobs[0].shape->dtype = 3;  // Int
  return WritePtd(s);
}
std::vector<uint8_t> DimOrderMismatch() {
  PtdFileSpec s = Matching();
  s.blobs[0].shape->dim_order = {1, 0};
  return WritePtd(s);
}
std::vector<uint8_t> KeyPrefix() {
  PtdFileSpec s = Matching();
  s.blobs[1].key = "linear.b";  // a prefix of the program's "linear.bias"
  return WritePtd(s);
}
std::vector<uint8_t> BadMagic() {
  PtdFileSpec s = Matching();
  s.header_magic = "FH02";
  return WritePtd(s);
}
std::vector<uint8_t> ShortHeader() {
  PtdFileSpec s = Matching();
  s.header_length = 32;
  return WritePtd(s);
}
std::vector<uint8_t> BadIdentifier() {
  PtdFileSpec s = Matching();
  s.identifier = "FT02";
  return WritePtd(s);
}
std::vector<uint8_t> Truncated() {
  PtdFileSpec s = Matching();
  s.truncate_by = 16;
  return WritePtd(s);
}

const NamedPtd kPtds[] = {
    {"external_data.match", "external_data", "every key, in the 0.7+ layout", Match},
    {"external_data.match06", "external_data", "every key, in the 0.6 layout", Match06},
    {"external_data.missing_key", "external_data", "no linear.bias", MissingKey},
    {"external_data.missing_state", "external_data", "no cache.state", MissingState},
    {"external_data.segment_index", "external_data", "linear.bias names segment 7 of 3",
     SegmentIndexOutOfBounds},
    {"external_data.segment_past_end", "external_data",
     "cache.state's segment ends 4 bytes past the segment data", SegmentPastEnd},
    {"external_data.sizes", "external_data", "linear.weight is [8, 4]", SizesMismatch},
    {"external_data.dtype", "external_data", "linear.weight is Int", DtypeMismatch},
    {"external_data.dim_order", "external_data", "linear.weight's dim order is (1, 0)",
     DimOrderMismatch},
    {"external_data.key_prefix", "external_data", "linear.bias is keyed linear.b", KeyPrefix},
    {"external_data.bad_magic", "external_data", "header magic FH02", BadMagic},
    {"external_data.short_header", "external_data", "header length 32", ShortHeader},
    {"external_data.bad_identifier", "external_data", "flatbuffer identifier FT02",
     BadIdentifier},
    {"external_data.truncated", "external_data", "the last 16 bytes cut off", Truncated},
};

// external_constant_without_key's .ptd: a Float [1, 4] "c", which no key of the program names
// (its external constant has none); the data map loads it.
PtdFileSpec KeyC() { return {.blobs = {{.key = "c", .shape = PtdShape{.sizes = {1, 4}}}}}; }
std::vector<uint8_t> KeyCFile() { return WritePtd(KeyC()); }
std::vector<uint8_t> KeyCFile06() {
  PtdFileSpec s = KeyC();
  s.layout06 = true;
  return WritePtd(s);
}

// The merged data map's .ptd files (1.0+ merge them with the program's named data).
PtdBlob KeyCBlob() { return {.key = "c", .shape = PtdShape{.sizes = {1, 4}}}; }
PtdBlob KeyNBlob() { return {.key = "n", .shape = PtdShape{.sizes = {1, 4}}}; }
std::vector<uint8_t> KeyNFile() { return WritePtd({.blobs = {KeyNBlob()}}); }
std::vector<uint8_t> KeyCThenKeyless() {
  PtdBlob keyless = KeyNBlob();
  keyless.keyless = true;
  return WritePtd({.blobs = {KeyCBlob(), keyless}});
}

const NamedPtd kRefusalPtds[] = {
    {"external_constant_without_key", "external_constant_without_key",
     "a Float [1, 4] \"c\" in the 0.7+ layout", KeyCFile},
    {"external_constant_without_key.06", "external_constant_without_key",
     "a Float [1, 4] \"c\" in the 0.6 layout", KeyCFile06},
    {"external_constant_keyed_then_without_key", "external_constant_keyed_then_without_key",
     "the program's \"c\" (Float [1, 4]) in the 0.7+ layout", KeyCFile},
    {"external_constant_keyed_then_without_key.06", "external_constant_keyed_then_without_key",
     "the program's \"c\" (Float [1, 4]) in the 0.6 layout", KeyCFile06},
    // With the program's own named data: "c" in both (a key the merge does not refuse: its
    // duplicate scan asks the program's map, whose get_tensor_layout is NotImplemented), ...
    {"external_constant_in_named_data", "external_constant_in_named_data",
     "the program's \"c\" (Float [1, 4]), also in the program's named data", KeyCFile},
    // ... "c" only in the program's named data (the .ptd holds "n"): the tensors never see it,
    {"external_constant_in_named_data.n", "external_constant_in_named_data",
     "only \"n\" (Float [1, 4]), not the program's \"c\"", KeyNFile},
    // ... "c" only in the .ptd,
    {"merged_external_constant", "merged_external_constant",
     "the program's \"c\" (Float [1, 4]), not in the program's named data (\"n\")", KeyCFile},
    {"merged_empty_named_data", "merged_empty_named_data",
     "the program's \"c\" (Float [1, 4]); the program's named data vector is empty", KeyCFile},
    {"merged_external_planned", "merged_external_planned",
     "the program's planned \"c\" (Float [1, 4]), not in the program's named data", KeyCFile},
    // ... and a .ptd whose second entry has no key, which the lookup of "c" (found first) does
    // not reach but the merge's duplicate scan does; without named data, no merge.
    {"merged_external_constant.keyless", "merged_external_constant",
     "the program's \"c\", then an entry without a key", KeyCThenKeyless},
    {"external_constant_without_map.keyless", "external_constant_without_map",
     "the program's \"c\", then an entry without a key (the program has no named data)",
     KeyCThenKeyless},
};

}  // namespace

std::span<const NamedPtd> PtdScenarios() { return kPtds; }
std::span<const NamedPtd> RefusalPtds() { return kRefusalPtds; }

}  // namespace etmem::testing
