#!/usr/bin/env python3
# Owns: regenerating the operator lists of src/etmem/kernels/libraries/*.cpp from ExecuTorch's
# source trees (read-only, /work/et/<tag>): for each kernel library and release, which operators
# its yaml registers and which of their kernels reach KernelRuntimeContext::allocate_temp (the
# kernel's function is defined in a source file of the library that calls allocate_temp or the
# library's own temp helper). Prints, per library, the operators added and removed at each
# release and the temp-requesting ones, as the C++ initialisers the library files hold; the
# formulas themselves are written by hand in those files, after reading each kernel.
# Usage: scripts/kernel_library_ops.py /work/et            (prints the deltas)
#        scripts/kernel_library_ops.py /work/et --write    (rewrites the library files)
import os
import re
import sys

RELEASES = ["v0.1.0", "v0.2.0", "v0.2.1", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0", "v0.7.0",
            "v1.0.0", "v1.0.1", "v1.1.0", "v1.2.0", "v1.3.0", "v1.3.1", "v1.4.0", "v1.4.1"]

LIBRARIES = {
    "portable": (["kernels/portable/functions.yaml", "kernels/portable/custom_ops.yaml"],
                 ["kernels/portable/cpu"]),
    "optimized": (["kernels/optimized/optimized.yaml"], ["kernels/optimized/cpu"]),
    "quantized": (["kernels/quantized/quantized.yaml"], ["kernels/quantized/cpu"]),
    "cortex_m": (["backends/cortex_m/ops/operators.yaml"], ["backends/cortex_m/ops"]),
    "cadence_hifi": (["backends/cadence/aot/functions_hifi.yaml"],
                     ["backends/cadence/hifi/operators", "backends/cadence/hifi/kernels"]),
    "cadence_fusion_g3": (["backends/cadence/aot/functions_fusion_g3.yaml"],
                          ["backends/cadence/fusion_g3/operators"]),
    "cadence_vision": (["backends/cadence/aot/functions_vision.yaml"],
                       ["backends/cadence/vision/operators", "backends/cadence/vision/kernels"]),
    # The runtime's own operators: registered by kernels/prim_ops/register_prim_ops.cpp (no
    # yaml), linked into every runner.
    "prim_ops": (["kernels/prim_ops/register_prim_ops.cpp"], ["kernels/prim_ops"]),
}
PRIM = re.compile(r'"((?:aten|executorch_prim)::[A-Za-z_0-9.]+)"')

ENTRY = re.compile(r"^- (op|func):\s*([A-Za-z0-9_:.]+)")
KERNEL = re.compile(r"kernel_name:\s*([A-Za-z0-9_:]+)")
# What marks a kernel that takes memory while running: the temp allocator, or (0.5.0's Cadence
# kernels) the C library's malloc.
TEMP = ("allocate_temp", "malloc(")


def read_yaml(path):
    """[(qualified op name, kernel function name)]"""
    out = []
    if not os.path.exists(path):
        return out
    current = None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = ENTRY.match(line)
        if m:
            name = m.group(2)
            if "::" not in name:
                name = "aten::" + name
            current = [name, ""]
            out.append(current)
            continue
        k = KERNEL.search(line)
        if k and current is not None and not current[1]:
            current[1] = k.group(1)
    return [tuple(e) for e in out]


def temp_functions(tree, dirs, only_temp=True):
    """The source files of `dirs` (only those that reach allocate_temp, by default)."""
    texts = []
    for d in dirs:
        root = os.path.join(tree, d)
        if not os.path.isdir(root):
            continue
        for base, _, files in os.walk(root):
            if "/test" in base:
                continue
            for f in files:
                if f.endswith((".cpp", ".h", ".c")):
                    text = open(os.path.join(base, f), encoding="utf-8", errors="replace").read()
                    if not only_temp or any(t in text for t in TEMP):
                        texts.append(text)
    return texts


def library_at(tree, lib):
    yamls, dirs = LIBRARIES[lib]
    ops = {}
    for y in yamls:
        if y.endswith(".cpp"):
            path = os.path.join(tree, y)
            text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            for name in PRIM.findall(text):
                ops[name] = ""
            continue
        for name, kernel in read_yaml(os.path.join(tree, y)):
            ops[name] = kernel
    temp_texts = temp_functions(tree, dirs)
    own_texts = temp_functions(tree, dirs, only_temp=False)

    def own(fn):
        return any(re.search(r"\b" + re.escape(fn) + r"\s*\(", t) for t in own_texts)

    portable = set()
    if lib != "portable":
        for name, kernel in ops.items():
            if kernel.startswith("torch::executor::") and not own(kernel.split("::")[-1]):
                portable.add(name)
    temp = set()
    for name, kernel in ops.items():
        fn = kernel.split("::")[-1]
        if name in portable:
            continue  # the portable kernel: the portable library's entry answers
        if fn and any(re.search(r"\b" + re.escape(fn) + r"\s*\(", t) for t in temp_texts):
            temp.add(name)
    return ops, temp, portable


# What each temp-requesting kernel asks for, written after reading it (see the library files):
# a rule, or [(first tag, rule), ...] where the kernel changed.
RULES = {
    ("portable", "aten::topk.values"): "TempRule::kTopk",
    # backends/cadence/hifi/operators/op_mm.cpp: the zeroed bias from 1.0.0.
    ("cadence_hifi", "aten::mm.out"): [("v0.7.0", "TempRule::kHifiMmTranspose"),
                                       ("v1.0.0", "TempRule::kHifiMmTransposeAndBias")],
    ("cadence_hifi", "aten::bmm.out"): "TempRule::kHifiBmm",  # op_bmm.cpp
    # op_softmax.cpp: the transpose only when dim is not last from 1.0.0, never from 1.3.0.
    ("cadence_hifi", "aten::_softmax.out"): [("v0.6.0", "TempRule::kHifiSoftmax"),
                                             ("v1.0.0", "TempRule::kHifiSoftmaxWhenPermuted"),
                                             ("v1.3.0", "TempRule::kNone")],
    # op_atan2.cpp, op_pow.cpp, op_bitwise_{and,or,xor}.cpp: the inputs' broadcast buffers; the
    # Scalar variants in the same files ask for nothing.
    ("cadence_hifi", "aten::atan2.out"): "TempRule::kHifiAtan2Broadcast",
    # 0.5.0's op_pow.cpp, op_where.cpp and op_mean.cpp malloc their buffers instead (mean never
    # frees its scratch).
    ("cadence_hifi", "aten::pow.Tensor_Tensor_out"): [("v0.5.0", "TempRule::kHifiPowMalloc"),
                                                      ("v0.6.0", "TempRule::kHifiPowBroadcast")],
    ("cadence_hifi", "aten::pow.Tensor_Scalar_out"): "TempRule::kNone",
    ("cadence_hifi", "aten::pow.Scalar_out"): "TempRule::kNone",
    ("cadence_hifi", "aten::bitwise_and.Tensor_out"): "TempRule::kHifiBitwiseBroadcast",
    ("cadence_hifi", "aten::bitwise_or.Tensor_out"): "TempRule::kHifiBitwiseBroadcast",
    ("cadence_hifi", "aten::bitwise_xor.Tensor_out"): "TempRule::kHifiBitwiseBroadcast",
    ("cadence_hifi", "aten::bitwise_and.Scalar_out"): "TempRule::kNone",
    ("cadence_hifi", "aten::bitwise_or.Scalar_out"): "TempRule::kNone",
    ("cadence_hifi", "aten::bitwise_xor.Scalar_out"): "TempRule::kNone",
    # op_clamp.cpp, op_where.cpp: the broadcast `in` / `cond` (where: none from 1.3.0, whose
    # file no longer asks).
    ("cadence_hifi", "aten::clamp.Tensor_out"): "TempRule::kHifiClampScratch",
    ("cadence_hifi", "aten::where.self_out"): [("v0.5.0", "TempRule::kHifiWhereMalloc"),
                                               ("v0.6.0", "TempRule::kHifiWhereScratch")],
    # op_quantized_matmul_out.cpp and its asym8 variants: the zeroed bias and Y's buffer,
    # ET_CHECK_MSG'd.
    ("cadence_hifi", "cadence::quantized_matmul.out"): "TempRule::kHifiQuantizedMatmul",
    ("cadence_hifi", "cadence::quantized_matmul_asym8sxasym8s_asym8s.out"):
        "TempRule::kHifiQuantizedMatmulAsym8",
    ("cadence_hifi", "cadence::quantized_matmul_asym8uxasym8u_asym8u.out"):
        "TempRule::kHifiQuantizedMatmulAsym8",
    # backends/cortex_m/ops: CMSIS-NN scratch from arm_*_get_buffer_size (kernels/cmsis_nn.h);
    # op_quantized_conv2d.cpp moved to the wrapper's size (and a new log line) at 1.3.0.
    ("cortex_m", "cortex_m::quantized_conv2d.out"): [("v1.1.0", "TempRule::kCmsisConvolve"),
                                                     ("v1.3.0", "TempRule::kCmsisConvolveWrapper")],
    ("cortex_m", "cortex_m::quantized_depthwise_conv2d.out"): "TempRule::kCmsisDepthwise",
    ("cortex_m", "cortex_m::quantized_batch_matmul.out"): "TempRule::kCmsisBatchMatmul",
    ("cortex_m", "cortex_m::quantized_transpose_conv2d.out"): "TempRule::kCmsisTransposeConv",
    # backends/cadence/fusion_g3/operators/op_native_layer_norm.cpp: the default weight and bias
    # (malloc'd and freed at 0.5.0), aligned to 16 from 1.0.0.
    ("cadence_fusion_g3", "aten::native_layer_norm.out"): [
        ("v0.5.0", "TempRule::kG3LayerNormMalloc"),
        ("v0.6.0", "TempRule::kG3LayerNormDefaults"),
        ("v1.0.0", "TempRule::kG3LayerNormDefaults16")],
    # backends/cadence/vision/operators/op_softmax.cpp: the transpose off the iDMA paths.
    ("cadence_vision", "aten::_softmax.out"): "TempRule::kVisionSoftmaxTransposed",
    # backends/cadence/hifi/operators/op_mean.cpp (asks from 0.6.0; 0.5.0 mallocs) and
    # op_quantized_max_pool2d_nhwc.cpp: sized by the NNLib's xa_nn_reduce_getsize_nhwc and
    # xa_nn_maxpool_getsize (kernels/hifi_nnlib.h).
    ("cadence_hifi", "aten::mean.out"): [("v0.5.0", "TempRule::kHifiMeanMalloc"),
                                         ("v0.6.0", "TempRule::kHifiMeanReduce")],
    ("cadence_hifi", "cadence::quantized_max_pool2d_nhwc.out"): "TempRule::kHifiMaxPool2dNhwc",
}
# backends/cadence/hifi/operators/op_quantized_conv{,2d}_{nhwc,nchw}_asym8{s,u}x..._per_tensor_out.cpp
# (quantized_conv_* at 1.0.x, quantized_conv2d_* from 1.1.0): NCHW's two transposes and the
# scratch sized by the NNLib's xa_nn_conv2d_getsize (kernels/hifi_nnlib.h).
RULES.update({
    ("cadence_hifi", "cadence::%s_%s_%s.per_tensor_out" % (pre, layout, q)):
        "TempRule::kHifiQuantizedConv" + layout.capitalize()
    for pre in ("quantized_conv", "quantized_conv2d") for layout in ("nhwc", "nchw")
    for q in ("asym8sxsym8s_asym8s", "asym8uxsym8u_asym8u")})
# op_quantized_conv{,2d}_{nchw,nhwc}_out.cpp, the generic .out / .per_tensor_out: the NNLib path
# (Char input to 1.1.x, Char or Byte from 1.2.0) asks as the specialised or the depthwise kernel;
# NHWC from 1.2.0 reads NHWC sizes and tells depthwise weights by their rank (from 1.3.0 also
# for a 1-D convolution, and only those take the depthwise path).
RULES.update({
    ("cadence_hifi", "cadence::%s_%s.%s" % (pre, layout, variant)):
        [("v1.0.0", "TempRule::kHifiQuantizedConvGeneric%s10" % layout.capitalize())] +
        ([("v1.2.0", "TempRule::kHifiQuantizedConvGenericNchw")] if layout == "nchw" else
         [("v1.2.0", "TempRule::kHifiQuantizedConvGenericNhwc12"),
          ("v1.3.0", "TempRule::kHifiQuantizedConvGenericNhwc")])
    for pre in ("quantized_conv", "quantized_conv2d") for layout in ("nchw", "nhwc")
    for variant in ("out", "per_tensor_out")})
# op_quantized_conv_out.cpp (0.6.0, 0.7.0): cadence::quantized_conv.out, the same NNLib paths as
# 1.0.x's generic kernels, NHWC or NCHW by its channel_last.
RULES[("cadence_hifi", "cadence::quantized_conv.out")] = "TempRule::kHifiQuantizedConvChannelLast"
# op_quantized_conv1d_{nchw,nhwc}_*_per_tensor_out.cpp (1.0.x) and op_quantized_conv1d_{ncl,nlc}_*
# (1.1.x): sized by xa_nn_conv1d_std_getsize; at 1.2.x each file its own way (xa_nn_conv2d_getsize
# or xa_nn_conv1d_std_getsize, NCL or NLC sizes).
RULES.update({
    ("cadence_hifi", "cadence::quantized_conv1d_%s_%s.per_tensor_out" % (layout, q)):
        [("v1.0.0", "TempRule::kHifiQuantizedConv1d" + ("Ncl" if layout in ("nchw", "ncl") else "Nlc")),
         ("v1.2.0", "TempRule::kHifiQuantizedConv1d%s%s12" % (
             "Ncl" if layout in ("nchw", "ncl") else "Nlc", "S" if q.startswith("asym8s") else "U"))]
    for layout in ("nchw", "nhwc", "ncl", "nlc")
    for q in ("asym8sxsym8s_asym8s", "asym8uxsym8u_asym8u")})
# op_quantized_conv1d_ncl.cpp (from 1.3.0): by out's dtype, stride, groups and dilation.
RULES[("cadence_hifi", "cadence::quantized_conv1d_ncl.per_tensor_out")] = \
    "TempRule::kHifiQuantizedConv1dNcl13"
RULES[("cadence_hifi", "cadence::quantized_conv1d_nlc.per_tensor_out")] = \
    "TempRule::kHifiQuantizedConv1dNlc13"
# op_quantized_depthwise_conv1d_nlc.cpp (from 1.3.0): the weight's copy and the depthwise scratch.
RULES[("cadence_hifi", "cadence::quantized_depthwise_conv1d_nlc.per_tensor_out")] = \
    "TempRule::kHifiQuantizedDepthwiseConv1dNlc13"
# Their depthwise siblings, sized by xa_nn_conv2d_depthwise_getsize: NCHW (and its NHWC output's
# transpose); NHWC, which reads its sizes as NCHW to 1.1.x and as NHWC from 1.2.0.
RULES.update({
    ("cadence_hifi", "cadence::%s_%s_depthwise_%s.per_tensor_out" % (pre, layout, q)):
        "TempRule::kHifiQuantizedDepthwiseNchw" if layout == "nchw" else
        [("v1.0.0", "TempRule::kHifiQuantizedDepthwiseNhwcAsNchw"),
         ("v1.2.0", "TempRule::kHifiQuantizedDepthwiseNhwc")]
    for pre in ("quantized_conv", "quantized_conv2d") for layout in ("nhwc", "nchw")
    for q in ("asym8sxsym8s_asym8s", "asym8uxsym8u_asym8u")})
# A library's own temp helper, per release (backends/cadence/hifi/kernels/kernels.cpp,
# allocate_temp_memory): (first tag, alignment passed to allocate_temp (0: the default), lines
# it logs when a request fails).
TEMP_HELPER = {
    "cadence_hifi": [("v0.6.0", 0, []),
                     ("v1.0.0", 16, ["Failed to allocate temp memory, error: 0x21"])],
    # backends/cortex_m/ops: alignof(int16_t) at 1.1.0, kCortexMMveAlignment (16,
    # cortex_m_ops_common.h) from 1.2.0; the operators log their own lines (src/etmem/kernels/formulas/cortex_m.cpp).
    "cortex_m": [("v1.1.0", 2, []), ("v1.2.0", 16, [])],
}

# Where a library's vendor getsize formulas are modelled from, when the release pins another
# source (first tag, what is assumed, the same in a few words): the HiFi NNLib as at v4.1.0
# (6a9ea45); backends/cadence/hifi/third-party/nnlib (0.5.0's submodule) and
# backends/cadence/install_requirements.sh pin 102944a to 1.2.x and 64d73d7 from 1.3.0, neither
# public in foss-xtensa/nnlib-hifi4.
GETSIZE_SOURCE = {
    "cadence_hifi": [
        ("v%s" % v, "the HiFi NNLib's xa_nn_*_getsize as at NNLib v4.1.0 "
                    "(foss-xtensa/nnlib-hifi4 6a9ea45); this release pins %s (%s), which is not "
                    "public" % (pin[:7], pin),
         "NNLib getsize as at v4.1.0 (6a9ea45) assumed: this release pins %s, not public" % pin[:7])
        for v, pin in (("0.5.0", "102944a6f76a0de4d81adc431f3f132f517aa87f"),
                       ("1.3.0", "64d73d729797388b0e346794d7a2e408374a74de"))],
}


def rule_at(lib, name, tag):
    rule = RULES.get((lib, name), "TempRule::kUnknownSize")
    if isinstance(rule, str):
        return rule
    now = "TempRule::kUnknownSize"
    for first, r in rule:
        if RELEASES.index(first) <= RELEASES.index(tag):
            now = r
    return now
UNKNOWN_WHY = {  # a library whose kernels ask with sizes not modelled: why (none now)
}
HEADERS = {
    "portable": "the portable kernels (kernels/portable: functions.yaml and custom_ops.yaml)",
    "optimized": "the optimized kernels (kernels/optimized/optimized.yaml); the operators it "
                 "does not list are not in it: add portable after it (--kernels "
                 "optimized,portable) for the fallback the optimized build links",
    "quantized": "the quantized kernels (kernels/quantized/quantized.yaml): quantized_decomposed::",
    "cortex_m": "the Cortex-M (CMSIS-NN) operators (backends/cortex_m/ops/operators.yaml): "
                "cortex_m::. From 1.4.0 their scratch comes from planned tensors, not allocate_temp",
    "cadence_hifi": "Cadence HiFi (backends/cadence/aot/functions_hifi.yaml); the entries whose "
                    "kernel is the portable one answer as portable",
    "cadence_fusion_g3": "Cadence Fusion G3 (backends/cadence/aot/functions_fusion_g3.yaml); "
                         "portable kernels answer as portable",
    "cadence_vision": "Cadence Vision (backends/cadence/aot/functions_vision.yaml); portable "
                      "kernels answer as portable",
    "prim_ops": "the runtime's prim ops (kernels/prim_ops/register_prim_ops.cpp), in every "
                "runner whatever --kernels says",
}
# What a library's file says after that, in its Owns line.
HEADER_TAIL = {
    "cortex_m": " Before, four operators size a CMSIS-NN scratch (kernels/cmsis_nn.h) and ask for "
                "it at alignof(int16_t) (1.1.0) or kCortexMMveAlignment, 16 (from 1.2.0; the "
                "batch matmul at the allocator's default).",
}
NAMESPACES = {"portable": [], "optimized": [], "quantized": ["quantized_decomposed"],
              "cortex_m": ["cortex_m"], "cadence_hifi": ["cadence"],
              "cadence_fusion_g3": ["cadence"], "cadence_vision": ["cadence"], "prim_ops": []}


def cxx_list(names, indent=21):
    if not names:
        return "{}"
    items = ['"%s"' % n for n in names]
    lines, line = [], "{"
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else "}")
        if len(line) + len(piece) + 1 > 99 - indent:
            lines.append(line)
            line = " "
        line += ("" if line in ("{", " ") else " ") + piece
    lines.append(line)
    return ("\n" + " " * indent).join(lines)


def write(root):
    out_dir = os.path.join(os.path.dirname(__file__), "..", "src", "etmem", "kernels", "libraries")
    for lib in LIBRARIES:
        lines = []
        import textwrap
        lines += ["// " + l for l in textwrap.wrap(
            "Owns: the kernel library data of %s: per release, the operators it registers and "
            "what each asks of the temp allocator while running.%s" % (
                HEADERS[lib], HEADER_TAIL.get(lib, "")), 96)]
        lines.append("// Generated by scripts/kernel_library_ops.py from the release trees; the "
                     "rules are from reading each kernel.")
        lines.append('#include "etmem/kernels/library.h"')
        lines.append("")
        lines.append("namespace etmem::kernels {")
        lines.append("")
        fn = "".join(w.capitalize() for w in lib.split("_"))
        lines.append("KernelLibraryData Library_%s() {" % fn)
        lines.append("  KernelLibraryData d;")
        lines.append('  d.name = "%s";' % lib)
        lines.append("  d.namespaces = %s;" % cxx_list(NAMESPACES[lib]))
        prev_ops, prev_temp, prev_port, prev_tag = {}, set(), set(), None
        for tag in RELEASES:
            ops, temp, port = library_at(os.path.join(root, tag), lib)
            added = sorted(set(ops) - set(prev_ops))
            removed = sorted(set(prev_ops) - set(ops))
            rules = []
            for n in sorted(set(ops)):
                now = ("TempRule::kOtherLibrary" if n in port else
                       rule_at(lib, n, tag) if n in temp else "TempRule::kNone")
                was = ("TempRule::kOtherLibrary" if n in prev_port else
                       rule_at(lib, n, prev_tag) if n in prev_temp else
                       "TempRule::kNone") if n in prev_ops else "TempRule::kNone"
                if now != was:
                    rules.append((n, now))
            if added or removed or rules:
                lines.append("  d.deltas.push_back({\"%s\"," % tag[1:])
                lines.append("                     %s," % cxx_list(added))
                lines.append("                     %s," % cxx_list(removed))
                lines.append("                     {%s}});" % (",\n" + " " * 22).join(
                    '{"%s", %s}' % r for r in rules))
            prev_ops, prev_temp, prev_port, prev_tag = ops, temp, port, tag
        for first, alignment, log in TEMP_HELPER.get(lib, []):
            lines.append('  d.temp_helper.push_back({"%s", %d, %s});' % (first[1:], alignment,
                                                                      cxx_list(log, 42)))
        for first, assumed, brief in GETSIZE_SOURCE.get(lib, []):
            lines.append('  d.getsize_source.push_back({"%s",' % first[1:])
            for text, last in ((assumed, ","), (brief, "});")):
                wrapped = textwrap.wrap(text, 64, drop_whitespace=False, break_on_hyphens=False)
                for n, l in enumerate(wrapped):
                    lines.append('                              "%s"%s' % (
                        l, last if n == len(wrapped) - 1 else ""))
        why = UNKNOWN_WHY.get(lib, "")
        if lib not in ("portable", "prim_ops"):
            lines.append('  d.other_library = "portable";')
        if lib == "prim_ops":
            lines.append("  d.always = true;")
        if why:
            lines.append('  d.unknown_size_why =')
            for l in textwrap.wrap(why, 80, drop_whitespace=False):
                lines.append('      "%s"' % l)
            lines[-1] += ";"
        lines.append("  return d;")
        lines.append("}")
        lines.append("")
        lines.append("}  // namespace etmem::kernels")
        text = "\n".join(lines) + "\n"
        open(os.path.join(out_dir, lib + ".cpp"), "w").write(text)


def main():
    root = sys.argv[1]
    if "--write" in sys.argv:
        write(root)
        return
    for lib in LIBRARIES:
        print(f"== {lib}")
        prev_ops, prev_temp, prev_port = {}, set(), set()
        for tag in RELEASES:
            ops, temp, port = library_at(os.path.join(root, tag), lib)
            added = sorted(set(ops) - set(prev_ops))
            removed = sorted(set(prev_ops) - set(ops))
            t_add = sorted(temp - prev_temp)
            t_rm = sorted(prev_temp - temp)
            p_add = sorted(port - prev_port)
            p_rm = sorted(prev_port - port)
            if added or removed or t_add or t_rm or p_add or p_rm:
                print(f"-- {tag[1:]}")
                print("add: " + " ".join(added))
                print("remove: " + " ".join(removed))
                print("temp+: " + " ".join(t_add))
                print("temp-: " + " ".join(t_rm))
                print("portable+: " + " ".join(p_add))
                print("portable-: " + " ".join(p_rm))
            prev_ops, prev_temp, prev_port = ops, temp, port


if __name__ == "__main__":
    main()
