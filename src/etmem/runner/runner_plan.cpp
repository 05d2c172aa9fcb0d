// Owns: PlanRunner (runner_plan.h): a profile's steps sized for one method.
#include "etmem/runner/runner_plan.h"
#include "etmem/base/printable.h"

#include <fmt/format.h>

#include <algorithm>

#include "etmem/pte/scalar_type.h"

namespace etmem::runner {
namespace {

Error Bad(const Profile& p, const std::string& what) {
  return MakeError(ErrorCode::kInvalidArgument,
                   PrintableLine("runner " + p.name + " (" + p.file + "): " + what));
}

bool Enabled(const std::string& when, const std::vector<std::string>& options) {
  return WhenHolds(when, options);
}

// Size and alignment of a step's element type on the target: "void*" or a type-table name.
Result<abi::SizeAlign> ElementLayout(const Profile& p, const std::string& type,
                                     const runtime::RuntimeModel& model) {
  if (type == "void*") return abi::PrimLayout(abi::Prim::kPtr, model.abi());
  if (!model.traits().types.Has(type))
    return Bad(p, "element type \"" + Printable(type) + "\" is not in ExecuTorch " + model.traits().version +
                      "'s type table (use void* or a type the release models, e.g. EValue, "
                      "EValue*, Span)");
  return model.Layout(type);
}

// How far writing one `type` reaches from its start: its size without trailing padding (a
// member-wise copy such as EValue's assignment writes no padding after the last member;
// measured on the real 1.0 runner, tests/measured/x86_64_arm_runner_replay.json).
uint64_t WrittenExtent(const std::string& type, const runtime::RuntimeModel& model) {
  if (type == "void*") return abi::PrimLayout(abi::Prim::kPtr, model.abi()).size;
  const abi::Layout l = model.traits().types.Compute(type, model.abi());
  uint64_t extent = 0;
  for (const abi::FieldLayout& f : l.fields)
    extent = std::max<uint64_t>(extent, f.offset + f.layout.size);
  return l.fields.empty() ? l.size() : extent;
}

std::string Fill(std::string line, const std::string& key, const std::string& value) {
  for (size_t at = line.find(key); at != std::string::npos; at = line.find(key, at + value.size()))
    line.replace(at, key.size(), value);
  return line;
}

std::vector<std::string> FillLogs(const FailureBehaviour& f, uint64_t size, int64_t id,
                                  std::string_view method) {
  std::vector<std::string> out;
  for (std::string line : f.logs) {
    line = Fill(std::move(line), "{size}", std::to_string(size));
    line = Fill(std::move(line), "{id}", std::to_string(id));
    line = Fill(std::move(line), "{number}", std::to_string(id + 1));
    line = Fill(std::move(line), "{method}", std::string(method));
    line = Fill(std::move(line), "{status}", "0x21");  // Error::MemoryAllocationFailed
    line = Fill(std::move(line), "{status_dec}", "33");
    out.push_back(std::move(line));
  }
  return out;
}

// Whether planned_buffers step `k` allocates memory id `id`: the ids it names, or (naming none)
// every id no other enabled planned_buffers step names.
bool AllocatesMemoryId(const Profile& p, size_t k, uint32_t id,
                       const std::vector<std::string>& options) {
  auto names = [&](const StepSpec& s) {
    return std::find(s.memory_ids.begin(), s.memory_ids.end(), id) != s.memory_ids.end();
  };
  const StepSpec& step = p.steps[k];
  if (!step.memory_ids.empty()) return names(step);
  for (size_t i = 0; i < p.steps.size(); ++i)
    if (i != k && p.steps[i].kind == StepKind::kPlannedBuffers &&
        Enabled(p.steps[i].when, options) && names(p.steps[i]))
      return false;
  return true;
}

// What a count condition counts in `method`, and in which words.
std::pair<uint64_t, const char*> Counted(RefusalCondition c, const pte::MethodView& method) {
  uint64_t n = 0;
  switch (c) {
    case RefusalCondition::kInputsAbove:
      return {method.inputs.size(), "inputs"};
    case RefusalCondition::kOutputsAbove:
      return {method.outputs.size(), "outputs"};
    case RefusalCondition::kTensorInputsAbove:
      for (int32_t v : method.inputs) n += method.TensorAt(v) != nullptr;
      return {n, "tensor inputs"};
    case RefusalCondition::kInputRankAbove:
      for (int32_t v : method.inputs)
        if (const pte::TensorView* t = method.TensorAt(v))
          n = std::max<uint64_t>(n, method.SizesOf(*t).size());
      return {n, "dimensions in its largest tensor input"};
    case RefusalCondition::kFirstTensorInputSizeOtherThan:
      break;
  }
  return {0, ""};
}

// Whether a refusal's condition holds for `method`, and what it found, in words.
std::optional<std::string> Holds(const RefusalSpec& r, const pte::MethodView& method) {
  uint64_t n = 0;
  const char* what = "";
  switch (r.condition) {
    case RefusalCondition::kFirstTensorInputSizeOtherThan:
      for (int32_t v : method.inputs) {
        const pte::TensorView* t = method.TensorAt(v);
        if (!t) continue;
        uint64_t elements = 1;
        for (int32_t d : method.SizesOf(*t)) elements *= d < 0 ? 0 : static_cast<uint64_t>(d);
        const std::optional<uint64_t> bytes = pte::TensorDataBytes(method, *t);
        constexpr int8_t kFloat = 6;  // ScalarType::Float: the runner converts bytes to floats
        if ((t->dtype == kFloat && elements == r.limit) || bytes == r.limit) return std::nullopt;
        return fmt::format("method '{}' has a first tensor input of {} elements ({} B), and the "
                           "runner's built-in input holds {}",
                           Printable(method.name), elements,
                           bytes ? std::to_string(*bytes) : std::string("?"), r.limit);
      }
      return std::nullopt;  // no tensor input: nothing to compare
    default:
      break;
  }
  std::tie(n, what) = Counted(r.condition, method);
  if (n <= r.limit) return std::nullopt;
  return fmt::format("method '{}' has {} {} (the runner takes at most {})",
                     Printable(method.name), n, what, r.limit);
}

}  // namespace

Result<RunnerPlan> PlanRunner(const Profile& profile, const RunnerSelection& selection,
                              const pte::ProgramView& program, const pte::MethodView& method,
                              const runtime::RuntimeModel& model) {
  RunnerPlan plan;
  plan.profile = &profile;
  for (const RefusalSpec& r : profile.refusals) {
    std::optional<std::string> found = Holds(r, method);
    if (!found) continue;
    // A line for a terminal: the profile's text (logs are kept as written, for etmem check)
    // and the method's name escaped as every quoted input is.
    auto text = [](const std::string& s) { return Printable(s, s.size()); };
    std::string line = std::move(*found);
    if (!r.why.empty()) line += ": " + text(r.why);
    for (const std::string& log : r.logs)
      line += "; it logs \"" + text(Fill(log, "{method}", std::string(method.name))) + "\"";
    line += "; " + text(r.then);
    plan.refusals.push_back(std::move(line));
  }
  plan.options = selection.options;
  std::vector<int64_t> pool_index(profile.pools.size(), -1);
  for (size_t i = 0; i < profile.pools.size(); ++i) {
    const PoolSpec& spec = profile.pools[i];
    if (!Enabled(spec.when, plan.options)) continue;
    pool_index[i] = static_cast<int64_t>(plan.pools.size());
    plan.pools.push_back({&spec, selection.pool_align.value_or(spec.base_align)});
  }
  auto pool_of = [&](const std::string& id, size_t step) -> Result<size_t> {
    for (size_t i = 0; i < profile.pools.size(); ++i)
      if (profile.pools[i].id == id) {
        if (pool_index[i] < 0)
          return Bad(profile, fmt::format("step {} uses pool \"{}\", which only exists with option "
                                          "\"{}\"",
                                          step, id, profile.pools[i].when));
        return static_cast<size_t>(pool_index[i]);
      }
    return Bad(profile, "unknown pool \"" + id + "\"");
  };
  const uint32_t default_align = abi::PrimLayout(abi::Prim::kPtr, model.abi()).align;
  const size_t planned =
      method.planned_buffer_sizes.empty() ? 0 : method.planned_buffer_sizes.size() - 1;

  for (size_t k = 0; k < profile.steps.size(); ++k) {
    const StepSpec& step = profile.steps[k];
    if (!Enabled(step.when, plan.options)) continue;
    ETMEM_TRY(const size_t pool, pool_of(step.pool, k));
    abi::SizeAlign element{};
    abi::SizeAlign writes{};
    if (!step.element.empty()) {
      ETMEM_TRY(element, ElementLayout(profile, step.element, model));
      writes = element;
      if (!step.writes.empty()) {
        ETMEM_TRY(writes, ElementLayout(profile, step.writes, model));
      }
    }
    const uint32_t align = step.align_rule == AlignRule::kFixed     ? step.align
                           : step.align_rule == AlignRule::kElement ? element.align
                                                                    : default_align;
    // The step's name (its label, or the kind's own words) and what sizes it.
    auto named = [&](const char* own, const std::string& detail) {
      return (step.label.empty() ? std::string(own) : step.label) + detail;
    };
    auto add = [&](uint64_t size, uint64_t written, std::string what, int64_t id) {
      RunnerRequest r;
      r.step = k;
      r.pool = pool;
      r.size = size;
      r.align = align;
      r.written = written;
      r.what = std::move(what);
      r.failure_logs = FillLogs(step.on_failure, size, id, method.name);
      r.aborts = step.on_failure.aborts;
      r.harmless = step.on_failure.harmless;
      r.then = step.on_failure.then;
      // A planned buffer the step places is the bug itself (e.g. one the real runner refuses).
      if (written > size || step.kind == StepKind::kPlannedBuffers) r.bug = step.bug;
      plan.requests.push_back(std::move(r));
    };
    switch (step.kind) {
      case StepKind::kLoadMethod: {
        RunnerRequest r;
        r.step = k;
        r.pool = pool;
        r.load_method = true;
        if (!step.temp_pool.empty()) {
          ETMEM_TRY(const size_t temp, pool_of(step.temp_pool, k));
          r.temp_pool = static_cast<int64_t>(temp);
        }
        r.what = "load_method";
        r.failure_logs = FillLogs(step.on_failure, 0, -1, method.name);
        r.aborts = step.on_failure.aborts;
        r.then = step.on_failure.then;
        plan.method_pool = pool;
        plan.temp_pool = r.temp_pool;
        plan.requests.push_back(std::move(r));
        break;
      }
      case StepKind::kPlannedBuffers:
        for (size_t id = 0; id < planned; ++id) {
          if (!AllocatesMemoryId(profile, k, static_cast<uint32_t>(id + 1), plan.options)) continue;
          const int64_t bytes = method.planned_buffer_sizes[id + 1];
          if (bytes == 0 && step.skip_empty) continue;
          if (bytes < 0)
            return Bad(profile, fmt::format("planned buffer {} has a negative size", id + 1));
          add(static_cast<uint64_t>(bytes), static_cast<uint64_t>(bytes),
              named("planned buffer", fmt::format(" for memory id {}", id + 1)),
              static_cast<int64_t>(id));
        }
        break;
      case StepKind::kSpanTable: {
        const uint64_t bytes = static_cast<uint64_t>(planned) * element.size;
        add(bytes, static_cast<uint64_t>(planned) * writes.size,
            named("span table", fmt::format(", {} planned buffer(s) x {} B ({})", planned,
                                            element.size, step.element)),
            -1);
        break;
      }
      case StepKind::kInputList: {
        const uint64_t n = method.inputs.size();
        std::string what = named(
            "input list", fmt::format(", {} input(s) x {} B ({})", n, element.size, step.element));
        // The runner writes n whole `writes` values: the last one's trailing padding untouched.
        const uint64_t written =
            n == 0 ? 0
                   : (n - 1) * writes.size +
                         WrittenExtent(step.writes.empty() ? step.element : step.writes, model);
        if (writes.size != element.size)
          what += fmt::format("; the runner then writes {} whole {} of {} B into it, up to byte "
                              "{} (the last one's members end there): {} B past the {} B "
                              "allocated",
                              n, step.writes, writes.size, written,
                              written > n * element.size ? written - n * element.size : 0,
                              n * element.size);
        add(n * element.size, std::max(written, n * element.size), std::move(what), -1);
        break;
      }
      case StepKind::kInputBuffers:
        for (size_t i = 0; i < method.inputs.size(); ++i) {
          if (!method.HasValue(method.inputs[i]))  // the runner's input_tag(i) meets it first
            return MakeError(ErrorCode::kInvalidProgram,
                             fmt::format("{}: input {} of method '{}' names value {}, past the "
                                         "method's {} values; etmem does not model what the "
                                         "runner does with it",
                                         program.path, i, Printable(method.name),
                                         method.inputs[i], method.values.size()));
          const pte::TensorView* t = method.TensorAt(method.inputs[i]);
          if (!t) continue;  // the runners skip inputs that are not tensors
          const std::optional<uint64_t> bytes = pte::TensorDataBytes(method, *t);
          if (!bytes)
            return MakeError(ErrorCode::kInvalidProgram,
                             fmt::format("{}: input {} of method '{}' has a dtype or size whose "
                                         "nbytes etmem cannot compute",
                                         program.path, i, Printable(method.name)));
          add(*bytes, *bytes, named("input buffer", fmt::format(" for input {}", i)),
              static_cast<int64_t>(i));
        }
        break;
      case StepKind::kDebugBuffer:
        add(step.bytes, step.bytes,
            named("debug buffer", step.size_macro.empty() ? "" : " (" + step.size_macro + ")"), -1);
        break;
      case StepKind::kProgramFile:
        add(program.file_size, program.file_size, named("program file", " (the .pte)"), -1);
        break;
      case StepKind::kFixed:
        add(step.bytes, step.bytes,
            named("fixed allocation", step.size_macro.empty() ? "" : " (" + step.size_macro + ")"),
            -1);
        break;
    }
  }
  return plan;
}

}  // namespace etmem::runner
