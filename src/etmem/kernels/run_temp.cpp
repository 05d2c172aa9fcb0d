// Owns: ComputeRunTemp and RunTemp::Describe: each call's requests from its library's rule
// (its formula in formulas/), one temp pool per instruction (reset after each, as
// Method::step does), the check of a pool size, and the heap of PlatformMemoryAllocator.
#include "etmem/kernels/run_temp.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/kernels/formulas/formula.h"
#include "etmem/kernels/library.h"
#include "etmem/plan/ethosu_scratch.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/scalar_type.h"
#include "etmem/sim/simulate.h"

namespace etmem::kernels {
namespace {

struct Libraries {
  std::vector<const KernelLibrary*> chosen;  // --kernels, in order
  const std::vector<KernelLibrary>* all = nullptr;  // every modelled library (custom namespaces)
  const std::vector<DelegateLibrary>* delegates = nullptr;
};

std::string Namespace(std::string_view op) {
  const size_t colons = op.find("::");
  return colons == std::string_view::npos ? "aten" : std::string(op.substr(0, colons));
}

// The library that implements `op`, and the rule: the chosen libraries first, then (for a
// custom namespace) every library serving that namespace.
std::pair<const KernelLibrary*, TempRule> Resolve(const Libraries& libs, const std::string& op) {
  auto in = [&](const KernelLibrary& l) -> std::optional<TempRule> {
    auto it = l.ops.find(op);
    if (it == l.ops.end()) return std::nullopt;
    return it->second;
  };
  for (const KernelLibrary* l : libs.chosen)
    if (auto r = in(*l)) return {l, *r};
  for (const KernelLibrary& l : *libs.all)
    if (l.always)
      if (auto r = in(l)) return {&l, *r};
  const std::string ns = Namespace(op);
  if (ns != "aten")
    for (const KernelLibrary& l : *libs.all)
      if (std::find(l.namespaces.begin(), l.namespaces.end(), ns) != l.namespaces.end())
        if (auto r = in(l)) return {&l, *r};
  return {nullptr, TempRule::kNone};
}

// An operator resolved once for all its calls: its name, the library that answers for it, the
// library whose kernel runs, the rule and the rule's formula. The quoted text (`what`) and the
// unknown line are built only for an operator whose calls are kept.
struct ResolvedOp {
  bool done = false;
  std::string name;  // "aten::topk.values"
  const KernelLibrary* lib = nullptr;
  const KernelLibrary* kernel_lib = nullptr;
  TempRule rule = TempRule::kNone;
  formulas::Formula formula = nullptr;
  // Calls of this operator never ask (no formula, a known library, a known size): they are
  // counted and skipped without a CallTemp.
  bool silent = false;
  std::string what;  // Printable(name), once needed
  bool what_done = false;
};

void ResolveOp(const Libraries& libs, const pte::OperatorView& op, ResolvedOp& r) {
  r.done = true;
  r.name = op.overload.empty() ? std::string(op.name)
                               : std::string(op.name) + "." + std::string(op.overload);
  auto [lib, rule] = Resolve(libs, r.name);
  r.lib = r.kernel_lib = lib;  // whose kernel runs (and whose temp helper)
  if (rule == TempRule::kOtherLibrary) {  // another library's kernel: its rule
    rule = TempRule::kNone;
    for (const KernelLibrary& other : *libs.all) {
      auto it = other.name == lib->other_library ? other.ops.find(r.name) : other.ops.end();
      if (it != other.ops.end()) {
        rule = it->second;
        r.kernel_lib = &other;
      }
    }
  }
  r.rule = rule;
  if (lib) r.formula = formulas::FormulaOf(rule);
  r.silent = lib && !r.formula && rule != TempRule::kUnknownSize;
}

// Whether any argument has a dynamic shape (its stored sizes are an upper bound).
bool AllArgsAreValues(const pte::MethodView& m, std::span<const int32_t> args) {
  return std::all_of(args.begin(), args.end(), [&](int32_t a) { return m.HasValue(a); });
}

bool DynamicArgs(const pte::MethodView& m, std::span<const int32_t> args) {
  for (int32_t a : args) {
    const pte::TensorView* t = m.TensorAt(a);
    if (t && t->dynamism != pte::Dynamism::kStatic) return true;
  }
  return false;
}

void Delegate(const pte::ProgramView& program, const pte::MethodView& m,
              const pte::InstructionView& ins, const Libraries& libs, const abi::Abi& target,
              CallTemp& c) {
  c.delegate = true;
  const pte::DelegateView* found = m.DelegateOf(ins);
  if (!found) {  // a release loads it; executing it reads past the delegates
    c.what = fmt::format("delegate {} (not one of the method's)", ins.target);
    c.unknown = "the call names a delegate the method does not have";
    return;
  }
  const pte::DelegateView& d = *found;
  c.what = fmt::format("delegate {} ({})", ins.target, Printable(d.backend));
  for (const DelegateLibrary& l : *libs.delegates) {
    auto it = l.backends.find(d.backend);
    if (it == l.backends.end()) continue;
    c.library = l.name;
    if (it->second == DelegateRule::kUnknownSize) c.unknown = l.why;
    const bool reads_size = it->second == DelegateRule::kEthosUScratch;
    if (!reads_size && it->second != DelegateRule::kEthosUScratchInBlob) return;
    std::span<const uint8_t> file =
        program.file ? program.file->bytes() : std::span<const uint8_t>{};
    const bool inside = d.blob_file_offset <= file.size() &&
                        d.blob_bytes <= file.size() - d.blob_file_offset;
    if (!inside) {
      c.unknown = "the delegate's blob is not in the file";
      return;
    }
    auto s = plan::ReadVelaScratch(file.subspan(d.blob_file_offset, d.blob_bytes));
    if (!s) {
      c.unknown = s.error().message;
      return;
    }
    if ((s->kind == plan::ScratchKind::kTempAllocation) != reads_size) {
      // VelaBinStream's vela_bin_read: an unknown block fails execute() before it asks.
      c.fails = fmt::format(
          "this release's backend reads {} blocks, not this payload's {}: execute() fails before "
          "asking the temp allocator (\"Invalid block name or malformed binary\", "
          "InvalidProgram); the method loads but does not run",
          reads_size ? "scratch_size" : "scratch_data",
          reads_size ? "scratch_data" : "scratch_size");
      return;
    }
    if (s->kind == plan::ScratchKind::kInBlob) {
      c.formula = fmt::format("none: the Vela payload carries its {} B scratch inside the blob",
                              s->bytes);
      return;
    }
    const uint32_t align = l.scratch_align ? l.scratch_align : target.pointer.align;
    c.requests.push_back({s->bytes, align});
    c.formula = "the Vela payload's scratch_size";
    return;
  }
  c.unknown = fmt::format("backend {} is not in a modelled library", Printable(d.backend));
}

uint64_t PoolBytes(const std::vector<TempRequest>& requests, uint32_t pool_align) {
  sim::BumpAllocator a({pool_align, std::nullopt, 0});
  sim::Placement p;
  uint64_t available = 0;
  for (const TempRequest& r : requests) a.Allocate(r.bytes, r.alignment, p, available);
  return a.peak();
}

}  // namespace

std::vector<uint64_t> TempPoolsLoggingFailure(const RunTemp& t, uint64_t requested,
                                              uint64_t available, uint32_t pool_align) {
  std::vector<uint64_t> out;
  for (const CallTemp& c : t.calls) {
    sim::BumpAllocator a({pool_align, std::nullopt, 0});  // reset before each instruction
    for (const TempRequest& r : c.requests) {
      const uint64_t before = a.used();
      sim::Placement p;
      uint64_t free = 0;
      a.Allocate(r.bytes, r.alignment, p, free);
      if (p.consumed(r.bytes) == requested) out.push_back(SaturatingAdd(before, available));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

uint64_t HeapBytes(const std::vector<TempRequest>& requests, const runtime::RuntimeTraits& release,
                   const abi::Abi& target) {
  uint64_t total = 0;
  for (const TempRequest& r : requests) {
    const uint64_t slack = release.platform_allocator_slack_minus_one ? r.alignment - 1 : r.alignment;
    total = SaturatingAdd(total, SaturatingAdd(2 * uint64_t{target.pointer.size},
                                               SaturatingAdd(r.bytes, slack)));
  }
  return total;
}

// Where a call's temp requests go when one fails: a bounded pool, no temp allocator at all
// (0.3.0), or a PlatformMemoryAllocator whose et_pal_allocate returns NULL (a firmware without a
// heap, 0.4.0 on).
enum class FailingPool : uint8_t { kBounded, kNone, kNoHeap };

// What the runtime and the kernel log when `c`'s requests do not fit (`pool` bytes for
// kBounded), in order, and in `then` what follows when the kernel goes on without checking.
std::vector<std::string> FailureLog(const CallTemp& c, FailingPool where, uint64_t pool,
                                    uint32_t pool_align, const runtime::RuntimeTraits& release,
                                    const abi::Abi& target, std::string& then) {
  std::vector<std::string> log;
  sim::BumpAllocator a({pool_align, pool, 0});
  if (c.delegate) {
    uint64_t size = c.requests.empty() ? 0 : c.requests.front().bytes;
    for (const TempRequest& r : c.requests) {
      if (where != FailingPool::kBounded) break;
      sim::Placement p;
      uint64_t available = 0;
      a.Allocate(r.bytes, r.alignment, p, available);
      if (p.failed) {
        log.push_back(sim::FailureLog(p.consumed(r.bytes), available));
        size = r.bytes;
        break;
      }
    }
    if (where == FailingPool::kNoHeap)
      log.push_back(fmt::format("Failed to allocate {} bytes",
                                HeapBytes({c.requests.front()}, release, target)));
    log.push_back(fmt::format("Failed to allocate scratch buffer of {} bytes from temp_allocator",
                              size));
    log.push_back(fmt::format("CALL_DELEGATE execute failed at instruction {}: 0x21",
                              c.chain_instruction));
    return log;
  }
  bool unchecked = false;
  std::string unchecked_then;
  for (const TempRequest& r : c.requests) {
    if (where == FailingPool::kBounded) {
      sim::Placement p;
      uint64_t available = 0;
      a.Allocate(r.bytes, r.alignment, p, available);
      if (!p.failed) continue;
      log.push_back(sim::FailureLog(p.consumed(r.bytes), available));
    } else if (where == FailingPool::kNoHeap) {
      log.push_back(fmt::format("Failed to allocate {} bytes", HeapBytes({r}, release, target)));
    }
    log.push_back(where == FailingPool::kNone
                      ? std::string("No temp allocator provided")
                      : fmt::format("Failed to allocate temp memory. Bytes requested: {}", r.bytes));
    log.insert(log.end(), c.failure_log.begin(), c.failure_log.end());
    if (!r.kernel_log.empty()) log.push_back(r.kernel_log);
    if (!r.abort.empty()) {
      log.push_back(r.abort);
      then = "the kernel's ET_CHECK aborts the runtime (et_pal_abort): the process stops and "
             "Method::execute does not return";
      return log;
    }
    if (r.check.empty() && r.fails_call) {
      log.push_back(fmt::format("KernelCall failed at instruction {}:{} in operator {}: 0x{:x}",
                                c.chain, c.chain_instruction, c.what, 0x21));
      return log;
    }
    if (!r.check.empty()) {
      log.push_back(fmt::format("Check failed ({}): ", r.check));
      log.push_back(fmt::format("KernelCall failed at instruction {}:{} in operator {}: 0x{:x}",
                                c.chain, c.chain_instruction, c.what, 0x21));
      return log;
    }
    unchecked = true;  // the kernel goes on: its next request is made as well
    if (unchecked_then.empty()) unchecked_then = r.unchecked_then;
  }
  if (unchecked)
    then = !unchecked_then.empty()
               ? unchecked_then
               : "the kernel does not check the pointer and goes on with NULL: undefined behaviour "
                 "(on the device, typically a fault), with no line saying so";
  return log;
}

}  // namespace

std::string RunTemp::Describe() const {
  if (calls.empty() && kernel_calls + delegate_calls == 0)
    return "0 B: the method calls no kernel or delegate";
  std::string text;
  if (peak_call) {
    const CallTemp& c = calls[*peak_call];
    text = fmt::format("{}{} B{}, set by instruction {} ({}{})", known() ? "" : "at least ",
                       peak_bytes, upper_bound ? " (upper bound: dynamic shapes)" : "",
                       c.instruction, c.what, c.library.empty() ? "" : ", " + c.library);
    if (!reset_each_instruction) text += "; no reset between instructions: the sum of them";
  } else if (known()) {
    text = delegate_calls == 0
               ? "0 B: none of these kernels allocates temp memory while running"
               : kernel_calls == 0
                     ? "0 B: none of these delegates asks the temp allocator while running"
                     : "0 B: none of these kernels and delegates asks the temp allocator while "
                       "running";
  } else {
    text = "at least 0 B";
  }
  if (!known()) {
    const CallTemp* first = nullptr;
    for (const CallTemp& c : calls)
      if (!c.unknown.empty()) { first = &c; break; }
    text += fmt::format("; unknown for {} call(s), first instruction {} ({}{}): {}",
                        unknown_calls, first->instruction, first->what,
                        first->library.empty() ? "" : ", " + first->library, first->unknown);
  }
  std::string libs;
  for (const std::string& l : libraries) libs += (libs.empty() ? "" : ",") + l;
  if (!delegate_uses.empty()) text += "; " + DescribeDelegates();
  if (first_missing_call) text += "; " + DescribeMissing();
  if (malloc_peak_call) text += "; " + DescribeMalloc();
  if (!assumed_brief.empty()) text += "; " + assumed_brief;
  text += fmt::format(" [kernels: {}]", libs);
  return text;
}

std::string RunTemp::DescribeDelegates() const {
  std::string text;
  for (const DelegateUse& u : delegate_uses) {
    text += fmt::format("{}{} x{}: temp use {}; outside every pool: {}", text.empty() ? "" : "; ",
                        u.backend, u.delegates, u.temp_modelled ? "modelled" : "not modelled",
                        u.outside.empty() ? std::string("nothing")
                        : u.outside_bytes
                            ? fmt::format("{} B of the C heap ({})", *u.outside_bytes, u.outside_brief)
                            : u.outside_brief + " (unknown)");
  }
  return text;
}

std::string RunTemp::DescribeMissing() const {
  if (!first_missing_call) return "";
  std::string libs;
  for (const std::string& l : libraries) libs += (libs.empty() ? "" : ",") + l;
  const CallTemp& c = calls[*first_missing_call];
  return fmt::format(
      "with only {} registered, load_method fails before the method can run: \"{}\" "
      "(OperatorMissing, 0x14){}",
      libs, c.missing_log,
      missing_operator_calls > 1
          ? fmt::format("; {} call(s) in all lack their kernel", missing_operator_calls)
          : "");
}

std::string RunTemp::DescribeMalloc() const {
  if (!malloc_peak_call) return "";
  const CallTemp& c = calls[*malloc_peak_call];
  std::string text = fmt::format(
      "the kernels also malloc {} B from the C heap at most at once, set by instruction {} ({}{})",
      malloc_peak_bytes, c.instruction, c.what, c.library.empty() ? "" : ", " + c.library);
  if (malloc_leaked_bytes > 0)
    text += fmt::format(", and never free {} B: the heap grows by {} B every run of the method "
                        "until malloc returns NULL, which no kernel checks",
                        malloc_leaked_bytes, malloc_leaked_bytes);
  return text;
}

Result<std::vector<std::string>> OperatorLibraries(const pte::MethodView& m,
                                                   const runtime::RuntimeTraits& release,
                                                   const std::vector<std::string>& kernels) {
  Libraries libs;
  const std::vector<std::string> names =
      kernels.empty() ? std::vector<std::string>{kDefaultKernelLibrary} : kernels;
  for (const std::string& name : names) {
    ETMEM_TRY(const KernelLibrary* l, LibraryAt(name, release));
    libs.chosen.push_back(l);
  }
  libs.all = &AllLibrariesAt(release);
  libs.delegates = &DelegateLibrariesAt(release);
  std::vector<std::string> out;
  out.reserve(m.operators.size());
  for (const pte::OperatorView& op : m.operators) {
    const std::string name = op.overload.empty()
                                 ? std::string(op.name)
                                 : std::string(op.name) + "." + std::string(op.overload);
    const KernelLibrary* lib = Resolve(libs, name).first;
    out.push_back(lib ? lib->name : std::string());
  }
  return out;
}

Result<RunTemp> ComputeRunTemp(const pte::ProgramView& program, const pte::MethodView& m,
                               const runtime::RuntimeTraits& release, const abi::Abi& target,
                               const RunTempOptions& options) {
  Libraries libs;
  RunTemp out;
  out.libraries = options.kernels.empty() ? std::vector<std::string>{kDefaultKernelLibrary} : options.kernels;
  for (const std::string& name : out.libraries) {
    ETMEM_TRY(const KernelLibrary* l, LibraryAt(name, release));
    libs.chosen.push_back(l);
  }
  libs.all = &AllLibrariesAt(release);
  libs.delegates = &DelegateLibrariesAt(release);
  out.reset_each_instruction = release.temp_reset_each_instruction;
  out.platform_fallback = !options.temp_allocator && release.platform_allocator_when_no_temp;
  out.no_temp_allocator = !options.temp_allocator && !release.platform_allocator_when_no_temp;

  uint64_t running = 0, heap_running = 0;
  std::vector<ResolvedOp> ops(m.operators.size() + 1);
  std::vector<std::string> getsize_briefs;  // the calls' assumed sources, once each
  bool cmsis = false;  // a CMSIS-NN size was computed: it depends on the target's core
  for (uint32_t ci = 0; ci < m.chains.size(); ++ci) {
    const pte::ChainView& chain = m.chains[ci];
    for (uint32_t k = 0; k < chain.instructions_count; ++k) {
      const size_t i = chain.instructions_begin + k;
      if (i >= m.instructions.size()) break;
      const pte::InstructionView& ins = m.instructions[i];
      // An operator index past the method's operators (a release that loads it anyway)
      // resolves as an operator with no name, in the last slot.
      const pte::OperatorView* op = m.OperatorOf(ins);
      const size_t slot = op ? static_cast<size_t>(ins.target) : m.operators.size();
      if (ins.kind == pte::InstructionKind::kKernelCall) {
        static const pte::OperatorView kNoOperator;
        ResolvedOp& r = ops[slot];
        if (!r.done) ResolveOp(libs, op ? *op : kNoOperator, r);
        if (r.silent) {
          ++out.kernel_calls;
          if (r.rule >= TempRule::kCmsisConvolve && r.rule <= TempRule::kCmsisTransposeConv)
            cmsis = true;
          continue;
        }
      } else if (ins.kind != pte::InstructionKind::kDelegateCall) {
        continue;
      }
      CallTemp c;
      c.instruction = i;
      c.chain = ci;
      c.chain_instruction = k;
      if (ins.kind == pte::InstructionKind::kKernelCall) {
        ++out.kernel_calls;
        ResolvedOp& r = ops[slot];
        if (!r.what_done) {
          r.what = Printable(r.name);
          r.what_done = true;
        }
        c.what = r.what;
        const std::string& name = r.name;
        const KernelLibrary* lib = r.lib;
        const KernelLibrary* kernel_lib = r.kernel_lib;
        const TempRule rule = r.rule;
        if (!lib) {
          std::string asked;
          for (const std::string& l : out.libraries) asked += (asked.empty() ? "" : ",") + l;
          const std::string ns = Namespace(name);
          for (const KernelLibrary& l : *libs.all)
            if (l.ops.contains(name)) c.registered_by.push_back(l.name);
          if (c.registered_by.empty()) {
            c.unknown = fmt::format("no modelled library implements {} (asked: {}{})", c.what, asked,
                                    ns == "aten" ? "" : " and the " + Printable(ns) + ":: libraries");
          } else {
            std::string by;
            for (const std::string& l : c.registered_by) by += (by.empty() ? "" : ", ") + l;
            c.unknown = fmt::format("not in {}; registered by {}", asked, by);
            // Method::init -> resolve_operator: "%s%s%s" of name, ".", overload, and the index
            // into the operator table (every release's method.cpp).
            c.missing_log = fmt::format("Missing operator: [{}] {}", ins.target, c.what);
          }
        } else {
          c.library = lib->name;
          if (!m.value_references_in_range && !AllArgsAreValues(m, m.ArgsOf(ins)))
            c.unknown = "an argument names no value of the method (no release loads it: 0.2+ "
                        "refuse it at load, 0.1 reads past the values)";
          else if (r.formula) r.formula({name, m, m.ArgsOf(ins), rule, *kernel_lib, release, target}, c);
          if (rule >= TempRule::kCmsisConvolve && rule <= TempRule::kCmsisTransposeConv) cmsis = true;
          if (rule == TempRule::kUnknownSize) c.unknown = lib->unknown_size_why;
        }
      } else if (ins.kind == pte::InstructionKind::kDelegateCall) {
        ++out.delegate_calls;
        Delegate(program, m, ins, libs, target, c);
      } else {
        continue;
      }
      if (!c.fails.empty())
        out.run_failures.push_back(
            fmt::format("instruction {} {} ({}): {}", c.instruction, c.what, c.library, c.fails));
      if (c.requests.empty() && c.mallocs.empty() && c.unknown.empty()) continue;
      if (!c.assumed.empty() &&
          std::find(getsize_briefs.begin(), getsize_briefs.end(), c.assumed_brief) ==
              getsize_briefs.end()) {
        getsize_briefs.push_back(c.assumed_brief);
        out.assumptions.push_back(c.assumed);
      }
      c.upper_bound = !c.requests.empty() && DynamicArgs(m, m.ArgsOf(ins));
      c.pool_bytes = PoolBytes(c.requests, options.pool_align);
      c.heap_bytes = HeapBytes(c.requests, release, target);
      if (!c.unknown.empty()) ++out.unknown_calls;
      if (!c.missing_log.empty()) {
        if (!out.first_missing_call) out.first_missing_call = out.calls.size();
        ++out.missing_operator_calls;
      }
      out.upper_bound |= c.upper_bound;
      // Without a reset between instructions every request stays: the need is the running sum.
      running = out.reset_each_instruction ? c.pool_bytes : SaturatingAdd(running, c.pool_bytes);
      heap_running = out.reset_each_instruction ? c.heap_bytes
                                                : SaturatingAdd(heap_running, c.heap_bytes);
      // malloc: what earlier calls never freed, then every buffer of this call at once.
      uint64_t held = out.malloc_leaked_bytes;
      for (const MallocRequest& q : c.mallocs) held = SaturatingAdd(held, q.bytes);
      for (const MallocRequest& q : c.mallocs)
        if (!q.freed) out.malloc_leaked_bytes = SaturatingAdd(out.malloc_leaked_bytes, q.bytes);
      out.calls.push_back(std::move(c));
      if (held > out.malloc_peak_bytes) {
        out.malloc_peak_bytes = held;
        out.malloc_peak_call = out.calls.size() - 1;
      }
      if (running > out.peak_bytes) {
        out.peak_bytes = running;
        out.peak_call = out.calls.size() - 1;
      }
      if (out.platform_fallback) out.heap_peak_bytes = std::max(out.heap_peak_bytes, heap_running);
    }
  }

  // Per backend the method delegates to: its temp use while running and its memory outside
  // every pool, from the delegate libraries at this release.
  for (const pte::DelegateView& d : m.delegates) {
    const std::string id = Printable(d.backend);
    auto at = std::find_if(out.delegate_uses.begin(), out.delegate_uses.end(),
                           [&](const DelegateUse& u) { return u.backend == id; });
    if (at == out.delegate_uses.end()) {
      DelegateUse u;
      u.backend = id;
      u.temp = "not modelled (no modelled library has this backend): its temp use is unknown";
      for (const DelegateLibrary& l : *libs.delegates) {
        auto rule = l.backends.find(d.backend);
        if (rule == l.backends.end()) continue;
        u.library = l.name;
        u.temp_modelled = rule->second != DelegateRule::kUnknownSize;
        switch (rule->second) {
          case DelegateRule::kNone:
            u.temp = "execute() takes nothing from the temp allocator (modelled)";
            break;
          case DelegateRule::kEthosUScratch:
            u.temp = "execute() takes the Vela payload's scratch from the temp allocator "
                     "(modelled, in the figure)";
            break;
          case DelegateRule::kEthosUScratchInBlob:
            u.temp = "execute() takes nothing from the temp allocator: its scratch is in the "
                     "blob (modelled)";
            break;
          case DelegateRule::kUnknownSize:
            u.temp = "execute() asks the temp allocator for a size not modelled: " + l.why;
            break;
        }
        if (auto o = l.outside.find(d.backend); o != l.outside.end() && !o->second.what.empty()) {
          u.outside = o->second.what;
          u.outside_brief = o->second.brief;
          u.outside_unknown = o->second.unknown;
        }
        break;
      }
      if (u.library.empty()) {
        u.outside = "whatever its own runtime allocates (not modelled)";
        u.outside_brief = "its own runtime's memory";
        u.outside_unknown = true;
      }
      out.delegate_uses.push_back(std::move(u));
      at = out.delegate_uses.end() - 1;
    }
    ++at->delegates;
  }
  for (DelegateUse& u : out.delegate_uses) {
    for (uint32_t ci = 0; ci < m.chains.size(); ++ci) {
      const pte::ChainView& chain = m.chains[ci];
      for (uint32_t k = 0; k < chain.instructions_count; ++k) {
        const size_t i = chain.instructions_begin + k;
        if (i >= m.instructions.size()) break;
        const pte::InstructionView& ins = m.instructions[i];
        if (ins.kind != pte::InstructionKind::kDelegateCall) continue;
        const size_t di = static_cast<size_t>(ins.target);
        if (di < m.delegates.size() && Printable(m.delegates[di].backend) == u.backend) ++u.calls;
      }
    }
    if (u.library.empty() || u.outside.empty() || u.outside_unknown) continue;
    for (const DelegateLibrary& l : *libs.delegates)
      if (auto o = l.outside.find(u.backend); o != l.outside.end()) {
        const uint64_t each = uint64_t{o->second.pointer_words} * target.pointer.size +
                              uint64_t{o->second.size_words} * target.size_type.size;
        u.outside_bytes = each * u.delegates;
      }
  }

  if (cmsis) {
    if (!target.m_extension_assumed.empty()) {
      out.assumed_brief = fmt::format("CMSIS-NN's m_extension {} assumed (the target does not say)",
                                      abi::MExtensionName(target.m_extension));
      out.assumptions.push_back(fmt::format("CMSIS-NN built for m_extension {}: {}",
                                            abi::MExtensionName(target.m_extension),
                                            target.m_extension_assumed));
    }
    if (!target.m_extension_from.empty()) {
      out.assumed_brief = fmt::format("CMSIS-NN built for m_extension {} ({})",
                                      abi::MExtensionName(target.m_extension),
                                      target.m_extension_from);
      out.assumptions.push_back(fmt::format("CMSIS-NN built for m_extension {}: {}",
                                            abi::MExtensionName(target.m_extension),
                                            target.m_extension_from));
    }
    if (!target.armclang_assumed.empty())
      out.assumptions.push_back("CMSIS-NN's compiler: " + target.armclang_assumed);
  }
  for (const std::string& brief : getsize_briefs)
    out.assumed_brief += (out.assumed_brief.empty() ? "" : "; ") + brief;

  if (out.platform_fallback) {
    for (size_t n = 0; n < out.calls.size() && !out.no_heap_failing_call; ++n) {
      const CallTemp& c = out.calls[n];
      if (c.requests.empty()) continue;
      out.no_heap_failing_call = n;
      out.no_heap_log = FailureLog(c, FailingPool::kNoHeap, 0, options.pool_align, release, target,
                                   out.no_heap_then);
    }
  }
  // A temp pool is checked when the runner passes one; with none, only where nothing replaces it.
  if (out.no_temp_allocator || (options.temp_allocator && options.temp_pool_bytes)) {
    TempPoolCheck check;
    check.pool_bytes = options.temp_pool_bytes.value_or(0);
    for (size_t n = 0; n < out.calls.size(); ++n) {
      const CallTemp& c = out.calls[n];
      if (c.requests.empty()) continue;
      const bool fits = !out.no_temp_allocator && c.pool_bytes <= check.pool_bytes;
      if (fits) continue;
      check.fits = false;
      check.failing_call = n;
      check.log = FailureLog(c, out.no_temp_allocator ? FailingPool::kNone : FailingPool::kBounded,
                             check.pool_bytes, options.pool_align, release, target, check.then);
      break;
    }
    out.check = std::move(check);
  }
  return out;
}

}  // namespace etmem::kernels
