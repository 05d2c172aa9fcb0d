// Owns: the firmware's entries into ExecuTorch and their worst-case stacks (stack_entries.h).
#include "etmem/firmware/stack_entries.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/firmware/declared_stack.h"
#include "etmem/firmware/dtype_pruning.h"
#include "etmem/stack/call_graph.h"
#include "etmem/stack/gcc_facts.h"

namespace etmem::firmware {
namespace {

// The runtime's namespaces: torch::executor (0.1 to 0.3), executorch::runtime (0.4 on; from 1.0
// it is ET_RUNTIME_NAMESPACE, "runtime" unless a build renames it: any executorch:: namespace).
constexpr const char* kNamespaces[] = {"torch::executor::", "executorch::"};

struct EntrySpec {
  const char* entry;
  std::vector<const char*> functions;  // class-qualified, up to the parameter list
};
const EntrySpec kEntries[] = {
    {"load", {"Program::load(", "Program::load_method("}},
    {"execute", {"Method::execute("}},
};

// Whether the demangled `name` is `what` (e.g. "Program::load(") in one of the namespaces.
bool IsRuntimeFunction(const std::string& name, const std::string& what) {
  const size_t at = name.find("::" + what);
  if (at == std::string::npos || name.find('(') != at + 2 + what.size() - 1) return false;
  for (const char* ns : kNamespaces)
    if (name.rfind(ns, 0) == 0) return true;
  return false;
}

// The functions whose indirect calls are the kernel calls (chain.kernels_[i](context, args) in
// Method::execute_instruction, which the compiler may inline into step and execute).
constexpr const char* kKernelCallers[] = {"Method::execute_instruction(", "Method::step(",
                                          "Method::execute("};

struct KernelRecord {
  std::string name;  // "aten::add.out"
  uint64_t op = 0;   // the OpFunction (bit 0 clear)
  uint64_t at = 0;   // the record's address
};

uint64_t Word(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned k = 0; k < bytes; ++k) v |= uint64_t(p[k]) << (8 * k);
  return v;
}

// The NUL-terminated operator name at `address` in the image ("ns::op" or "ns::op.overload"),
// or "" when the bytes there are no such name.
std::string NameAt(const elf::Executable& image, uint64_t address) {
  const elf::Section* s = image.elf.SectionAt(address);
  if (!s || !s->has_file_bytes()) return "";
  const auto bytes = image.SectionBytes(*s);
  const uint64_t off = address - s->address;
  std::string name;
  for (uint64_t k = off; k < bytes.size() && name.size() <= 200; ++k) {
    const char c = static_cast<char>(bytes[k]);
    if (c == 0) return name.find("::") != std::string::npos && name.size() >= 4 ? name : "";
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.')) return "";
    name += c;
  }
  return "";
}

// Every record of the image's allocated bytes shaped as the release's struct Kernel: a pointer
// to an operator name, the key, and a pointer to the start of a function.
std::vector<KernelRecord> KernelRecords(const elf::Executable& image, const stack::CallGraph& g,
                                        const runtime::RuntimeTraits& release) {
  std::vector<KernelRecord> out;
  const unsigned word = image.elf.bits / 8;
  const uint64_t record = uint64_t(release.kernel_record_words) * word;
  const uint64_t op_at = uint64_t(release.kernel_record_op_word) * word;
  for (const elf::Section& s : image.elf.sections) {
    if (!s.allocated() || !s.has_file_bytes()) continue;
    const auto bytes = image.SectionBytes(s);
    for (uint64_t off = (word - s.address % word) % word; off + record <= bytes.size(); off += word) {
      const uint64_t op = Word(bytes.data() + off + op_at, word);
      if (!op || !g.by_address.count(op & ~uint64_t{1})) continue;
      const uint64_t name_ptr = Word(bytes.data() + off, word);
      if (!name_ptr) continue;
      std::string name = NameAt(image, name_ptr);
      if (name.empty()) continue;
      out.push_back({std::move(name), op & ~uint64_t{1}, s.address + off});
      off += record - word;
    }
  }
  return out;
}

// The entry's bound from `starts`, without the edges `pruning` drops (its lists are the entry's).
api::FirmwareStackEntry Entry(const stack::CallGraph& g, const std::string& entry,
                              const std::vector<size_t>& starts,
                              const stack::Resolution& resolution = {},
                              DtypePruning pruning = {}) {
  api::FirmwareStackEntry e;
  e.entry = entry;
  for (size_t i : starts) e.functions.push_back(Printable(g.functions[i].demangled, 400));
  const stack::Bound b = stack::WorstCase(g, starts, resolution, pruning.dropped);
  e.bytes = b.bytes;
  e.unpruned_bytes = pruning.dropped.empty() ? b.bytes : stack::WorstCase(g, starts, resolution).bytes;
  e.pruned = std::move(pruning.pruned);
  e.kept = std::move(pruning.kept);
  e.exact = b.complete;
  for (const stack::PathStep& s : b.path) {
    std::string source = "disassembly";
    for (size_t i : g.Find(s.function)) source = g.functions[i].frame_source;
    e.path.push_back({Printable(s.function, 400), s.frame, s.depth, s.via, source});
  }
  auto printable = [](const std::vector<std::string>& v) {
    std::vector<std::string> out;
    for (const std::string& s : v) out.push_back(Printable(s, 600));
    return out;
  };
  e.unresolved = printable(b.unresolved);
  e.recursion = printable(b.recursion);
  e.dynamic = printable(b.dynamic);
  e.unread = printable(b.unread);
  e.functions_reached = b.functions;
  e.resolved_sites = b.resolved_sites;
  return e;
}

}  // namespace

// For any architecture: GCC's own files.
constexpr const char* kAnyArchitecture =
    "; for any architecture, GCC's -fstack-usage and -fcallgraph-info=su files of the build "
    "(--stack-usage DIR)";

api::FirmwareStack StackOf(const elf::Executable& image, const std::vector<MethodOperators>& methods,
                           const runtime::RuntimeTraits* release, const std::string& stack_usage_dir) {
  api::FirmwareStack out;
  out.architectures = stack::ReadableArchitectures() + kAnyArchitecture;
  out.declared = DeclaredStack(image.elf);
  auto graph = stack::ReadCallGraph(image);
  const bool from_facts = !graph && !stack_usage_dir.empty();
  if (!graph && !from_facts) {
    out.not_read = graph.error().message + kAnyArchitecture;
    return out;
  }
  if (from_facts) {
    // The code is not read: GCC's files are the call graph (frames and edges).
    std::vector<stack::CallFact> calls;
    const auto facts = api::Take(stack::ReadFactsDirectory(stack_usage_dir, &calls));
    graph = stack::CallGraphFromFacts(image, facts, calls, stack::MachineName(image.elf));
    size_t sized = 0, read = 0;
    for (const stack::Function& f : graph->functions) {
      sized += f.frame_source == ".su" || f.frame_source == ".ci";
      read += f.read;
    }
    out.frames = fmt::format(
        "from GCC's files in {} alone ({} .su/.ci entries, {} calls): the image's code ({}) is "
        "not read; {} of its {} functions have a size, {} a .ci node and so their calls; a "
        "function without one (assembly, a library built without -fstack-usage "
        "-fcallgraph-info=su) is listed as not read: its frame and its calls are not seen",
        Printable(stack_usage_dir, 400), facts.size(), calls.size(), stack::MachineName(image.elf),
        sized, graph->functions.size(), read);
  }
  stack::CallGraph& g = *graph;
  if (!from_facts) {
    out.frames = fmt::format("from the disassembly of {} functions (the deepest each one's own "
                             "code takes sp: push, vpush, sub sp, str [sp, #-N]!)",
                             g.functions.size());
    if (!stack_usage_dir.empty()) {
      const auto facts = api::Take(stack::ReadFactsDirectory(stack_usage_dir));
      const stack::Applied a = stack::ApplyFacts(g, facts);
      out.frames += fmt::format("; GCC's sizes from {} (.su/.ci, {} entries) replace them for {} "
                                "functions ({} entries name no function of the image)",
                                Printable(stack_usage_dir, 400), a.facts, a.functions, a.unmatched);
    }
  }
  out.assumptions = {
      from_facts
          ? "a callee's frame starts below its caller's whole frame, for every call the .ci "
            "files record (a sibling call too: where GCC made one, the bound is higher than "
            "the run)"
          : "a callee's frame starts below its caller's whole frame; a tail branch (b to another "
            "function) leaves the caller's frame first, as GCC's sibling calls do",
      "no interrupt or exception handler runs on this stack: add the deepest handler's stack "
      "and the exception frame per nesting level (Cortex-M: 32 B, 104 B with the FPU context)",
      "execute: the indirect calls of Method::execute_instruction, step and execute are the "
      "kernel calls (chain.kernels_[i]); they reach the kernels registered under the method's "
      "operators' names (struct Kernel records read from the image); a backend's execute "
      "reached through its vtable there, if inlined, is counted as a kernel call",
      "other indirect calls (backends, virtual calls, the PAL) are not resolved: a bound that "
      "reaches one is a lower bound, and the site is named",
      "recursion is counted once per call in the cycle: such a bound is a lower bound",
      "execute: below a kernel, a call into an instantiation of the kernel libraries' code "
      "(torch::executor::native::, torch::executor::apply_*) whose template arguments show only "
      "C++ types of dtypes the kernel's calls cannot have is not run, when its caller calls the "
      "same template for another dtype too (a dtype switch, ET_SWITCH_*_TYPES); a kernel's "
      "calls have the dtypes of their tensor arguments in the method, float32 too where "
      "float16 or bfloat16 are among them or a double argument is, complex64 where complex32 "
      "is, int64 where a bool tensor meets an integer argument; the templates that read a "
      "Scalar (extract_scalar, scalar_to) may also run for int64, float64 or bool where an "
      "integer, double or bool argument is; no other template computes in a type no tensor "
      "of the call has; a name that cannot be read, a type etmem does not map, a switch case "
      "whose name shows no type ({lambda()#N}) and every call with no switch seen stay in the "
      "bound; the bound without this pruning is given (unpruned_bytes)",
  };
  const unsigned long_bits = image.elf.bits == 64 ? 64 : 32;  // GCC's ILP32 / LP64
  // main reaches every method's execute: the union of their kernel calls' targets.
  stack::Resolution every_method;
  std::vector<std::string> every_missing;
  std::vector<KernelDtypes> every_kernel;
  auto find = [&](const char* what) {
    std::vector<size_t> starts;
    for (size_t i = 0; i < g.functions.size(); ++i)
      if (IsRuntimeFunction(g.functions[i].demangled, what)) starts.push_back(i);
    return starts;
  };
  for (const EntrySpec& spec : kEntries) {
    std::vector<size_t> starts;
    for (const char* what : spec.functions)
      for (size_t i : find(what)) starts.push_back(i);
    if (starts.empty()) {
      std::string names;
      for (const char* what : spec.functions) names += std::string(names.empty() ? "" : ", ") + what + ")";
      out.missing.push_back(fmt::format("{}: the image has no {} of ExecuTorch's runtime", spec.entry, names));
      continue;
    }
    if (std::string(spec.entry) != "execute") {
      out.entries.push_back(Entry(g, spec.entry, starts));
      continue;
    }
    // The kernel calls, and the records they reach.
    std::vector<const stack::CallSite*> kernel_calls;
    std::vector<std::string> callers;
    for (const char* what : kKernelCallers)
      for (size_t i : find(what))
        for (const stack::CallSite& site : g.functions[i].sites)
          if (site.kind == stack::SiteKind::kIndirect && !site.jump) {
            kernel_calls.push_back(&site);
            callers.push_back(g.functions[i].demangled);
          }
    const std::vector<KernelRecord> records =
        release ? KernelRecords(image, g, *release) : std::vector<KernelRecord>{};
    const std::vector<MethodOperators> each =
        methods.empty() ? std::vector<MethodOperators>{{}} : methods;
    for (const MethodOperators& m : each) {
      stack::Resolution resolution;
      std::vector<std::string> resolved, missing_ops;
      std::vector<uint64_t> targets;
      std::vector<KernelDtypes> kernels;
      for (size_t j = 0; j < m.operators.size(); ++j) {
        const std::string& op = m.operators[j];
        bool found = false;
        for (const KernelRecord& r : records)
          if (r.name == op) {
            found = true;
            targets.push_back(r.op);
            kernels.push_back({op, r.op, j < m.dtypes.size() ? m.dtypes[j] : std::nullopt});
            resolved.push_back(fmt::format("{} -> {} (record at {:#x})", Printable(op, 200),
                                           Printable(g.functions[*g.At(r.op)].demangled, 300), r.at));
          }
        if (!found)
          missing_ops.push_back(fmt::format("operator {}: no kernel record with this name in the image",
                                            Printable(op, 200)));
      }
      if (!m.method.empty())
        for (const stack::CallSite* site : kernel_calls) resolution[site->address] = targets;
      api::FirmwareStackEntry e =
          Entry(g, spec.entry, starts, resolution,
                PruneByDtypes(g, starts, resolution, kernels, long_bits));
      every_kernel.insert(every_kernel.end(), kernels.begin(), kernels.end());
      if (!m.method.empty()) e.methods = {m.method};
      for (size_t k = 0; k < kernel_calls.size() && !m.method.empty(); ++k)
        e.resolved.push_back(fmt::format("{} at {} in {}: the kernel call, to {} kernel(s)",
                                         kernel_calls[k]->text,
                                         kernel_calls[k]->where.empty()
                                             ? fmt::format("{:#x}", kernel_calls[k]->address)
                                             : kernel_calls[k]->where,
                                         Printable(callers[k], 300), targets.size()));
      for (std::string& r : resolved) e.resolved.push_back(std::move(r));
      if (!m.method.empty() && kernel_calls.empty())
        missing_ops.insert(missing_ops.begin(),
                           "the kernel call: no indirect call in Method::execute_instruction, step "
                           "or execute of this image");
      for (const auto& [site, to] : resolution) {
        std::vector<uint64_t>& all = every_method[site];
        for (uint64_t t : to)
          if (std::find(all.begin(), all.end(), t) == all.end()) all.push_back(t);
      }
      for (const std::string& x : missing_ops)
        if (std::find(every_missing.begin(), every_missing.end(), x) == every_missing.end())
          every_missing.push_back(x);
      if (!missing_ops.empty()) e.exact = false;
      for (std::string& x : missing_ops) e.unresolved.push_back(std::move(x));
      out.entries.push_back(std::move(e));
    }
  }
  const auto main = g.Find("main");
  if (!main.empty()) {
    api::FirmwareStackEntry e =
        Entry(g, "main", {main[0]}, every_method,
              PruneByDtypes(g, {main[0]}, every_method, every_kernel, long_bits));
    // Where main reaches a kernel call, the operators without a record count for it too.
    if (e.resolved_sites > 0) {
      if (!every_missing.empty()) e.exact = false;
      for (const std::string& x : every_missing) e.unresolved.push_back(x);
    }
    out.entries.push_back(std::move(e));
  } else out.missing.push_back("main: the image has no function main");
  return out;
}

void StackLine(api::FirmwareRam& ram, const api::FirmwareStack& stack) {
  if (!stack.not_read.empty()) {
    ram.stack_source = stack.not_read;
    return;
  }
  const api::FirmwareStackEntry* deepest = nullptr;
  bool exact = true;
  for (const api::FirmwareStackEntry& e : stack.entries) {
    const bool runs = e.entry != "execute" ||
                      std::find(e.methods.begin(), e.methods.end(), ram.method) != e.methods.end();
    if (!runs) continue;
    exact = exact && e.exact;
    if (!deepest || e.bytes > deepest->bytes) deepest = &e;
  }
  if (!deepest) {
    ram.stack_source = "no ExecuTorch entry (Program::load, Method::execute) found in the image";
    return;
  }
  ram.stack_bytes = deepest->bytes;
  ram.stack_exact = exact;
  ram.stack_source = fmt::format("the stack section's {} entry ({}), the deepest of the entries "
                                 "that run for this method{}",
                                 deepest->entry, stack.frames,
                                 exact ? "" : "; at least: an entry reaches code etmem cannot "
                                              "follow (see the stack section)");
}

}  // namespace etmem::firmware

