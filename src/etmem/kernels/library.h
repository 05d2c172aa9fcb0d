// Owns: what a kernel library is, as data: per release, the operators it registers and the rule
// each one's kernel follows when it asks KernelRuntimeContext::allocate_temp for memory while the
// method runs; the same for delegates' backends (what execute() takes through the backend
// context's temp allocator). One file per library under libraries/, written as deltas per
// release like the releases themselves. Not: applying the rules to a method (run_temp.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/runtime/release.h"

namespace etmem::kernels {

// The rule of one operator's kernel. kNone: the kernel never calls allocate_temp.
// kTopk: the portable topk: one request of nonempty_size(in, dim) *
// sizeof(std::pair<CTYPE, int64_t>) bytes at the allocator's default alignment (alignof(void*)),
// skipped when in is empty or k == 0 on a non-scalar. kUnknownSize: the kernel asks for temp
// memory, with a size etmem does not model (the library's unknown_size_why says why).
// kOtherLibrary: the library registers another library's kernel for this operator (the Cadence
// yamls register portable kernels for many aten operators): that library's rule answers.
// kHifiMmTranspose, kHifiMmTransposeAndBias, kHifiBmm: the Cadence HiFi mm.out and bmm.out on
// a Float output (other dtypes take the portable path, which asks for nothing): mm asks for the
// transposed mat2 (n x p words), from 1.0.0 also for a zeroed bias (m floats), and does not check
// either pointer; bmm asks twice for batch x m x p words and checks each (ET_KERNEL_CHECK).
// kHifiSoftmax, kHifiSoftmaxWhenPermuted: the Cadence HiFi _softmax.out on a Float output of at
// most 16 dimensions asks twice for numel words (checked), to transpose `dim` last and back:
// always (0.6.0, 0.7.0), or only when `dim` is not the last (1.0.0 to 1.2.0; from 1.3.0 such a
// call takes the portable path and nothing is asked).
// kHifiAtan2Broadcast, kHifiPowBroadcast, kHifiBitwiseBroadcast: the Cadence HiFi atan2.out,
// pow.Tensor_Tensor_out and bitwise_{and,or,xor}.Tensor_out on a Float (bitwise: Bool) output of at
// most 16 dimensions broadcast each input whose sizes are not the output's into out.numel()
// elements of 4 B (bitwise: 1 B): two requests, one, or none; atan2 and pow check each pointer,
// bitwise checks neither; pow first fails a Bool or complex common dtype, bitwise any but Bool.
// kHifiClampScratch, kHifiWhereScratch: the Cadence HiFi clamp.Tensor_out (both bounds) and
// where.self_out on Float operands broadcast in at most 4 dimensions (where: none 0-dimensional)
// ask once, checked, for out.numel() x 4 B when `in` (clamp) or `cond` (where) does not have the
// output's 4-D shape.
// kHifiQuantizedMatmul, kHifiQuantizedMatmulAsym8: the Cadence HiFi quantized_matmul.out (on a Byte
// or Char output; Short takes the generic kernel from 1.1.0, other dtypes abort) and its
// asym8sxasym8s / asym8uxasym8u variants ask for a zeroed bias of X.size(-2) x X.size(-1) words
// and, when not transposed, X.size(-2) x X.size(-1) bytes, each ET_CHECK_MSG'd: a failed request
// aborts the runtime.
// kCmsis*: the Cortex-M backend's int8 operators (1.1.0 to 1.3.1), which size a CMSIS-NN scratch
// with arm_*_get_buffer_size (kernels/cmsis_nn.h; the core's extension and compiler come from the
// target) and ask for it at the library's temp alignment (TempHelperDelta; the batch matmul at the
// allocator's default), failing the call with a line of their own when it is refused:
// kCmsisConvolve: quantized_conv2d.out, arm_convolve_s8_get_buffer_size, asked when positive
// (1.1.0, 1.2.0); kCmsisConvolveWrapper: the same with arm_convolve_wrapper_s8_get_buffer_size
// and the 1.3.0 log line; kCmsisDepthwise: quantized_depthwise_conv2d.out,
// arm_depthwise_conv_wrapper_s8_get_buffer_size, always asked (0 B included);
// kCmsisBatchMatmul: quantized_batch_matmul.out, arm_fully_connected_s8_get_buffer_size of the
// output, asked when positive; kCmsisTransposeConv: quantized_transpose_conv2d.out, two requests
// always: arm_transpose_conv_s8_get_buffer_size, then the reverse-conv output buffer.
// kG3LayerNormDefaults, kG3LayerNormDefaults16: the Cadence Fusion G3 native_layer_norm.out on
// Float input, outputs (and weight, bias when given) asks for the default weight (ones) when no
// weight is given, then the default bias (zeros) when no bias is given, each prod(normalized_shape)
// x 4 B, at the allocator's default alignment (0.6.0, 0.7.0) or 16 (from 1.0.0); it takes each
// pointer with Result::get(), whose ET_CHECK aborts the runtime when the request failed.
// kVisionSoftmaxTransposed: the Cadence Vision _softmax.out on a Float output of at most 5
// dimensions, unless `dim` is the last with size <= 2048 (the iDMA paths), asks twice (checked)
// for numel x 4 B through its allocate_temp_memory, to transpose `dim` last and back.
// kHifiMeanReduce: the Cadence HiFi mean.out (its NNLib path from 0.6.0; 0.5.0 mallocs) on a
// Float output of an input of at most 4 dimensions asks once, checked (ET_KERNEL_CHECK), for
// xa_nn_reduce_getsize_nhwc(...) x sizeof(int) B (hifi_nnlib.h) through its allocate_temp_memory;
// other dtypes and ranks take the portable path, which asks for nothing.
// kHifiMaxPool2dNhwc: the Cadence HiFi quantized_max_pool2d_nhwc.out (from 1.3.0) on a Byte input
// asks once, unchecked, for xa_nn_maxpool_getsize(C, PREC_ASYM8U, ...) B (an int, so a -1 asks
// for SIZE_MAX) through its allocate_temp_memory; Char input passes PREC_SYM8S, for which the
// modelled NNLib has no case (unknown); other dtypes return before asking (ET_DCHECK_MSG, which
// aborts only a debug build).
// kHifiQuantizedConvNhwc, kHifiQuantizedConvNchw: the Cadence HiFi specialised quantized
// convolutions quantized_conv{,2d}_{nhwc,nchw}_asym8sxsym8s_asym8s and _asym8uxsym8u_asym8u
// .per_tensor_out (quantized_conv_* at 1.0.x, quantized_conv2d_* from 1.1.0; the dtypes are not
// looked at) with groups 1 (else ET_CHECK_MSG aborts) ask, unchecked, NCHW only, for the input's
// and the kernel's numel + 8 B (their NHWC transposes), then for xa_nn_conv2d_getsize(..., 8, 8, 1)
// B (hifi_nnlib.h; -1 asks for 0), reading every size as NCHW (the NHWC kernel too; a 3-D input
// is a 1-D convolution).
// kHifiQuantizedDepthwiseNchw, kHifiQuantizedDepthwiseNhwcAsNchw, kHifiQuantizedDepthwiseNhwc:
// their depthwise_asym8sxsym8s_asym8s / _asym8uxsym8u_asym8u siblings (groups and dtypes not looked
// at) ask, unchecked, for xa_nn_conv2d_depthwise_getsize(..., 8, NHWC 0 / NCHW 1) B (-1 asks for
// 0), NCHW then for out's numel + 8 B (its NHWC output, transposed back); NCHW and NHWC to 1.1.x
// (AsNchw) read sizes as NCHW, weight [OC, _, KH, KW]; NHWC from 1.2.0 reads input [N, H, W, C],
// weight [KH, KW, OC] and out [_, OH, OW, _].
// kHifiQuantizedConvGenericNchw10, kHifiQuantizedConvGenericNhwc10 (1.0.x, 1.1.x),
// kHifiQuantizedConvGenericNchw (from 1.2.0): the generic quantized_conv{,2d}_{nchw,nhwc}.out and
// .per_tensor_out on Char input (Char or Byte from 1.2.0) with dilation 1, reading sizes as NCHW,
// ask as the specialised kernel with groups 1 and as the depthwise one with groups equal to the
// input channels (NHWC: a temporary output of numel + 8 B after its scratch); anything else asks
// for nothing. kHifiQuantizedConvChannelLast: 0.6.0's and 0.7.0's cadence::quantized_conv.out, the
// same as the 1.0.x ones, NHWC when its channel_last is true.
// kHifiQuantizedConvGenericNhwc12 (1.2.x), kHifiQuantizedConvGenericNhwc (from 1.3.0): the generic
// quantized_conv2d_nhwc.out / .per_tensor_out on Char input with dilation 1, reading NHWC sizes,
// ask once for xa_nn_conv2d_getsize(..., 8, 8, 0) B with groups 1 and for
// xa_nn_conv2d_depthwise_getsize(..., 8, 0) B with a depthwise weight (groups = input channels and
// a weight of fewer dimensions than the input; at 1.2.x groups = input channels, any weight).
// kHifiQuantizedConv1dNcl, kHifiQuantizedConv1dNlc: the 1-D quantized_conv1d_{nchw,nhwc}_* (1.0.x)
// and quantized_conv1d_{ncl,nlc}_* (1.1.x) asym8sxsym8s_asym8s / asym8uxsym8u_asym8u
// .per_tensor_out ask, unchecked, NCL first for the input's and the kernel's numel + 8 B (their
// transposes), then for xa_nn_conv1d_std_getsize(weight.size(2), input.size(2), input.size(1), 8)
// B (hifi_nnlib.h; -1 asks for 0), reading the sizes as NCL whatever the layout.
// kHifiQuantizedConv1d{Ncl,Nlc}{S,U}12: their 1.2.x files, each its own way
// (formulas/cadence_hifi_conv.cpp, HifiQuantizedConv1d12): NCL asym8s the transposes then
// xa_nn_conv2d_getsize with heights 1 and the strides and paddings swapped; NCL asym8u
// xa_nn_conv1d_std_getsize then the transposes; NLC asym8s xa_nn_conv2d_getsize reading NCL sizes;
// NLC asym8u xa_nn_conv1d_std_getsize reading NLC.
// kHifiQuantizedConv1dNcl13: quantized_conv1d_ncl.per_tensor_out from 1.3.0, by out's dtype with
// dilation[0] 1: Char with stride[0] <= 1 asks for the transposes, OC x 4 B of multipliers and
// of shifts (written unchecked) and xa_nn_conv2d_getsize with heights 1; Byte with groups and
// stride[0] <= 1 for xa_nn_conv1d_std_getsize, then the transposes; else nothing.
// kHifiQuantizedConv1dNlc13: quantized_conv1d_nlc.per_tensor_out from 1.3.0 (an offset before
// out), reading NLC sizes, with the last dilation 1 and groups and the last stride <= 1: Char asks
// for the multipliers and shifts and xa_nn_conv2d_getsize with heights 1, Byte for
// xa_nn_conv1d_std_getsize; else nothing.
// kHifiQuantizedDepthwiseConv1dNlc13: quantized_depthwise_conv1d_nlc.per_tensor_out from 1.3.0,
// with the last dilation 1 and a Char or Byte output, asks, unchecked, for the weight's copy
// (OC x KW + 8 B), then xa_nn_conv2d_depthwise_getsize (NHWC, height 1) B; else nothing.
// 0.5.0's Cadence kernels take their buffers from the C library's malloc instead
// (CallTemp::mallocs, not the temp allocator), each unchecked: kHifiMeanMalloc: mean.out on the
// NNLib path as kHifiMeanReduce mallocs xa_nn_reduce_getsize_nhwc(...) B (not x sizeof(int)) and
// never frees it; kHifiPowMalloc: pow.Tensor_Tensor_out on a Float output of at most 16 dimensions
// mallocs out.numel() x 4 B for each broadcast input when both are, (out.numel() + 2) x 4 B when
// only the first is, out.numel() x 4 B when only the second is, and frees them; kHifiWhereMalloc:
// where.self_out on the NNLib path as kHifiWhereScratch mallocs out.numel() B (one byte per element
// of the broadcast cond) and frees it; kG3LayerNormMalloc: Fusion G3 native_layer_norm.out as
// kG3LayerNormDefaults mallocs the default weight and bias and frees them.
enum class TempRule : uint8_t {
  kNone,
  kTopk,
  kUnknownSize,
  kOtherLibrary,
  kHifiMmTranspose,
  kHifiMmTransposeAndBias,
  kHifiBmm,
  kHifiSoftmax,
  kHifiSoftmaxWhenPermuted,
  kHifiAtan2Broadcast,
  kHifiPowBroadcast,
  kHifiBitwiseBroadcast,
  kHifiClampScratch,
  kHifiWhereScratch,
  kHifiQuantizedMatmul,
  kHifiQuantizedMatmulAsym8,
  kCmsisConvolve,
  kCmsisConvolveWrapper,
  kCmsisDepthwise,
  kCmsisBatchMatmul,
  kCmsisTransposeConv,
  kG3LayerNormDefaults,
  kG3LayerNormDefaults16,
  kVisionSoftmaxTransposed,
  kHifiMeanReduce,
  kHifiMaxPool2dNhwc,
  kHifiQuantizedConvNhwc,
  kHifiQuantizedConvNchw,
  kHifiQuantizedDepthwiseNchw,
  kHifiQuantizedDepthwiseNhwcAsNchw,
  kHifiQuantizedDepthwiseNhwc,
  kHifiQuantizedConvGenericNchw10,
  kHifiQuantizedConvGenericNhwc10,
  kHifiQuantizedConvGenericNchw,
  kHifiQuantizedConvChannelLast,
  kHifiQuantizedConvGenericNhwc12,
  kHifiQuantizedConvGenericNhwc,
  kHifiQuantizedConv1dNcl,
  kHifiQuantizedConv1dNlc,
  kHifiQuantizedConv1dNclS12,
  kHifiQuantizedConv1dNclU12,
  kHifiQuantizedConv1dNlcS12,
  kHifiQuantizedConv1dNlcU12,
  kHifiQuantizedConv1dNcl13,
  kHifiQuantizedConv1dNlc13,
  kHifiQuantizedDepthwiseConv1dNlc13,
  kHifiMeanMalloc,
  kHifiPowMalloc,
  kHifiWhereMalloc,
  kG3LayerNormMalloc,
};

// How a library's own temp helper asks (from a release on): the alignment it passes to
// allocate_temp (0: the allocator's default, alignof(void*)) and what it logs when the request
// fails, after KernelRuntimeContext's own line. The Cadence HiFi kernels' allocate_temp_memory
// passes 16 and logs from 1.0.0.
struct TempHelperDelta {
  std::string version;
  uint32_t alignment = 0;
  std::vector<std::string> failure_log;
};

// Where a library's vendor getsize formulas (hifi_nnlib.h) are modelled from, from a release on,
// when that is not what the release pins: said (RunTemp::assumptions) whenever a call's size used
// one. `brief`: the same in a few words, for the one-line Describe.
struct GetsizeSourceDelta {
  std::string version;
  std::string assumed;
  std::string brief;
};

struct LibraryDelta {
  std::string version;                                  // the release that made this change
  std::vector<std::string> add;                         // operators it now registers
  std::vector<std::string> remove;                      // operators it no longer registers
  std::vector<std::pair<std::string, TempRule>> rules;  // rules that changed (default kNone)
};

struct KernelLibraryData {
  std::string name;                     // "portable": what --kernels names
  std::vector<std::string> namespaces;  // custom namespaces whose operators select it
  std::vector<LibraryDelta> deltas;     // oldest first
  std::string unknown_size_why;
  std::string other_library;  // whose kernels the kOtherLibrary entries are
  bool always = false;        // in every runner, whatever --kernels says (the prim ops)
  std::vector<TempHelperDelta> temp_helper;  // oldest first; none: kernels call allocate_temp
  std::vector<GetsizeSourceDelta> getsize_source;  // oldest first
};

// A delegate backend's execute(). kEthosUScratch: the Vela payload's scratch_size block, taken
// from the temp allocator at scratch_align (0: the allocator's default, alignof(void*)).
// kEthosUScratch: the backend's execute() reads the Vela payload's "scratch_size" block and takes
// that from the temp allocator (a payload with a "scratch_data" block it refuses);
// kEthosUScratchInBlob: it reads "scratch_data", the scratch carried in the blob, and takes
// nothing (a "scratch_size" payload it refuses).
enum class DelegateRule : uint8_t { kNone, kEthosUScratch, kEthosUScratchInBlob, kUnknownSize };

// What a backend takes outside every ExecuTorch pool (the C heap, its own allocators) for each
// delegate of it, in its own words: computed where its source gives the size (a count of
// pointer-sized words; the target gives the word), else unknown.
struct OutsidePools {
  std::string what;   // e.g. "XNNPACK's own heap: ..."; empty: nothing
  std::string brief;  // the same in a few words ("XNNPACK's own heap")
  // The bytes per delegate asked of the heap (operator new's argument), in pointers and size_ts.
  uint32_t pointer_words = 0, size_words = 0;
  bool unknown = true;  // the size is not modelled
};

struct DelegateDelta {
  std::string version;
  std::vector<std::pair<std::string, DelegateRule>> backends;  // backend id -> rule from here on
  uint32_t scratch_align = 0;  // from this release on (0: the allocator's default)
  std::string why;             // kUnknownSize: why
  std::vector<std::pair<std::string, OutsidePools>> outside;  // backend id -> from here on
};

struct DelegateLibraryData {
  std::string name;  // "ethos_u"
  std::vector<DelegateDelta> deltas;
};

// A library at one release: every operator it registers, with its rule.
struct KernelLibrary {
  std::string name;
  std::vector<std::string> namespaces;
  std::map<std::string, TempRule, std::less<>> ops;
  std::string unknown_size_why;
  std::string other_library;
  bool always = false;
  uint32_t temp_alignment = 0;               // the temp helper's (0: the allocator's default)
  std::vector<std::string> temp_failure_log;  // what the temp helper logs when a request fails
  GetsizeSourceDelta getsize_source;          // its vendor getsize's source, when assumed
};

// What --kernels means when neither it nor the runner names a library.
inline const char* const kDefaultKernelLibrary = "portable";

struct DelegateLibrary {
  std::string name;
  std::map<std::string, DelegateRule, std::less<>> backends;
  uint32_t scratch_align = 0;
  std::string why;
  std::map<std::string, OutsidePools, std::less<>> outside;
};

// Every modelled kernel library's name, in the registry's order.
const std::vector<std::string>& KernelLibraryNames();
// The library at a release (its deltas up to and including that release, snapshots after
// every release). An unknown name is an error listing the known ones. The libraries are applied
// once per release and kept for the process (read-only, shared by every thread): the pointer and
// the references stay valid until exit.
Result<const KernelLibrary*> LibraryAt(const std::string& name, const runtime::RuntimeTraits& release);
const std::vector<KernelLibrary>& AllLibrariesAt(const runtime::RuntimeTraits& release);
const std::vector<DelegateLibrary>& DelegateLibrariesAt(const runtime::RuntimeTraits& release);

}  // namespace etmem::kernels
