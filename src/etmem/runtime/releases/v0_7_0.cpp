// ExecuTorch v0.7.0 (spec §4.5, group C): the same sequence and sizes as 0.6.0.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_7_0() {
  return {"0.7.0", "0.6.0", [](RuntimeTraits& t) {
            t.summary = "group C: as 0.6.0; an external map plus PTE named_data is NotSupported";
            t.refuses_external_map_with_named_data = true;
            // parse_external_constants checks the map (0.6 dereferences null; measured on the
            // real 0.6 runtime: a segfault after R3).
            t.external_map_null_checked = true;
            t.external_map_null_log = "named_data_map is null";
            // .ptd (issue 13 item 4): named blobs with an optional tensor layout (v0.7.0
            // extension/flat_tensor/serialize/flat_tensor.fbs); keys compared over the file
            // key's length only; a segment checked by its start.
            t.ptd_named_blobs = true;
            t.ptd_logs_missing_metadata = true;
            // KernelKey loses is_fallback_ (a null kernel_key_data_ is the fallback):
            // struct Kernel is {name_, kernel_key_, op_}, three words.
            t.kernel_record_op_word = 2;
            t.kernel_record_words = 3;
          }};
}

}  // namespace etmem::runtime
