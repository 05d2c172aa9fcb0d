#include "etmem/runtime/labels.h"

#include "etmem/base/printable.h"

namespace etmem::runtime {
namespace {

std::string ValueRef(const pte::MethodView& m, int64_t value) {
  if (value < 0 || static_cast<size_t>(value) >= m.values.size()) return "value ?";
  const pte::ValueView& v = m.values[static_cast<size_t>(value)];
  std::string s = "value " + std::to_string(value);
  if (v.kind == pte::ValueKind::kTensor) return s + " (" + DescribeTensor(m.tensors[v.index], m) + ")";
  const uint32_t count = v.kind == pte::ValueKind::kInt ? 0 : v.count;  // an Int's count: its value
  return s + " (" + pte::ValueKindName(v.kind) + "[" + std::to_string(count) + "])";
}

std::string Array(const AllocationRequest& r) {
  return std::string(SiteElementType(r.site)) + "[" + std::to_string(r.count) + "]";
}

std::string InstructionRef(const pte::MethodView& m, int64_t index) {
  if (index < 0 || static_cast<size_t>(index) >= m.instructions.size()) return "instruction ?";
  const pte::InstructionView& ins = m.instructions[static_cast<size_t>(index)];
  return "instruction " + std::to_string(index) + " (" + DescribeInstruction(ins, m) + ", " +
         std::to_string(ins.args_count) + " args)";
}

std::string DelegateRef(const pte::MethodView& m, int64_t d) {
  if (d < 0 || static_cast<size_t>(d) >= m.delegates.size()) return "delegate ?";
  return "delegate " + std::to_string(d) + " (" +
         Printable(m.delegates[static_cast<size_t>(d)].backend) + ")";
}

}  // namespace

std::string DtypeName(int8_t code) {
  static const char* const kNames[] = {
      "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex32",
      "complex64", "complex128", "bool", "qint8", "quint8", "qint32", "bfloat16", "quint4x2",
      "quint2x4", "bits1x8", "bits2x4", "bits4x2", "bits8", "bits16", "float8_e5m2",
      "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "uint16", "uint32", "uint64"};
  if (code >= 0 && static_cast<size_t>(code) < std::size(kNames)) return kNames[code];
  return "dtype" + std::to_string(code);
}

std::string DescribeTensor(const pte::TensorView& t, const pte::MethodView& m) {
  std::string s = DtypeName(t.dtype) + " [";
  bool first = true;
  for (int32_t d : m.SizesOf(t)) {
    s += (first ? "" : ",") + std::to_string(d);
    first = false;
  }
  s += "]";
  if (t.dynamism == pte::Dynamism::kDynamicBound) s += ", dynamic";
  return s;
}

std::string DescribeInstruction(const pte::InstructionView& ins, const pte::MethodView& m) {
  if (ins.kind == pte::InstructionKind::kKernelCall) {
    const pte::OperatorView* found = m.OperatorOf(ins);
    if (!found) return "operator " + std::to_string(ins.target) + " (not one of the method's)";
    const pte::OperatorView& op = *found;
    std::string s = Printable(op.name);  // names from the program reach messages and reports
    if (!op.overload.empty()) s += "." + Printable(op.overload);
    return s;
  }
  if (ins.kind == pte::InstructionKind::kDelegateCall) return "call " + DelegateRef(m, ins.target);
  return pte::InstructionKindName(ins.kind);
}

std::string DescribeRequest(const AllocationRequest& r, const LoadPlan& plan,
                            const pte::MethodView& m) {
  switch (r.site) {
    case Site::kPlatformAllocator: return "PlatformMemoryAllocator (the runner passed no temp allocator)";
    case Site::kValues: return Array(r) + " values";
    case Site::kInputSet: return Array(r) + " input-set flags";
    case Site::kExternalConstants: return Array(r) + " for external constants";
    case Site::kTensorSizes: return "sizes " + Array(r) + " of " + ValueRef(m, r.subject);
    case Site::kTensorDimOrder: return "dim order " + Array(r) + " of " + ValueRef(m, r.subject);
    case Site::kTensorStrides: return "strides " + Array(r) + " of " + ValueRef(m, r.subject);
    case Site::kTensorImpl: return "TensorImpl of " + ValueRef(m, r.subject);
    case Site::kIntListPointers:
    case Site::kIntListValues:
    case Site::kTensorListTensors:
    case Site::kTensorListPointers:
    case Site::kOptionalListPointers:
    case Site::kOptionalListValues: return Array(r) + " of " + ValueRef(m, r.subject);
    case Site::kIntListBox:
    case Site::kTensorListBox:
    case Site::kOptionalListBox:
    case Site::kBoolList:
    case Site::kDoubleList:
    case Site::kString: return std::string(SiteElementType(r.site)) + " of " + ValueRef(m, r.subject);
    case Site::kDelegates: return Array(r) + " delegates";
    case Site::kMergedDataMap: return "MergedDataMap (.ptd map merged with the program's named data)";
    case Site::kCompileSpecs: return Array(r) + " of " + DelegateRef(m, r.subject);
    case Site::kBackendInit:
      if (r.declared)
        return std::to_string(r.size) + " B declared (--backend) for init() of " + DelegateRef(m, r.subject);
      return std::string(plan.backend_types[static_cast<size_t>(r.subject)]) + " from init() of " +
             DelegateRef(m, r.subject);
    case Site::kChains: return Array(r) + " chains";
    case Site::kChainKernels: return Array(r) + " kernel pointers of chain " + std::to_string(r.subject);
    case Site::kChainArgLists: return Array(r) + " argument lists of chain " + std::to_string(r.subject);
    case Site::kInstructionArgs: return "EValue*[" + std::to_string(r.count) + "] args of " + InstructionRef(m, r.subject);
    case Site::kTensorMeta: return "TensorMeta for " + InstructionRef(m, r.subject);
    case Site::kTensorMetaDimOrder: {
      auto ins = m.instructions[static_cast<size_t>(r.subject)];
      int64_t value = m.ArgsOf(ins)[static_cast<size_t>(r.detail)];
      return "dim order " + Array(r) + " of arg " + std::to_string(r.detail) + " (value " +
             std::to_string(value) + ") for instruction " + std::to_string(r.subject);
    }
    case Site::kCount: break;
  }
  return "?";
}

}  // namespace etmem::runtime
