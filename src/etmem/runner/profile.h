// Owns: runner profiles as data - what a firmware's runner allocates from which of its pools, in
// order, around load_method - the JSON reader for them (etmem's built-in profiles, embedded at
// build time from runner/profiles/*.json, and a user's own file), choosing the profile of a
// runner for a release, and how its pools and program appear in a linked image (ImageSpec: what
// `etmem firmware` recognises a runner by). Not: sizing the steps for a program (runner_plan.h),
// nor placing them (sim/runner_sim.h), nor reading an image (firmware/).
//
// A profile never names a release in code: each file states the release range it was read from.
// The step vocabulary is closed and interpreted by shared code; no runner is special-cased.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::runner {

// What one step of a runner allocates (see docs/runner-profiles.md for each kind's size).
enum class StepKind : uint8_t {
  kPlannedBuffers,  // one allocate per planned memory id, of that buffer's size
  kSpanTable,       // one allocate of (number of planned buffers) x element (Span)
  kLoadMethod,      // Program::load_method: the runtime's own requests (runtime/load_plan.h)
  kInputList,       // one allocate of (number of inputs) x element (EValue, EValue*, void*)
  kInputBuffers,    // one allocate per tensor input, of that tensor's nbytes
  kDebugBuffer,     // one allocate of `bytes` (an event tracer's debug buffer)
  kProgramFile,     // one allocate of the program file's size (a runner that reads the .pte)
  kFixed,           // one allocate of `bytes`
};
const char* StepKindName(StepKind k);  // as spelled in the JSON ("planned_buffers", ...)

// How a step's alignment is chosen.
enum class AlignRule : uint8_t {
  kDefault,  // MemoryAllocator::allocate's default: alignof(void*) on the target
  kElement,  // alignof(element) on the target (allocateList<T> / allocateInstance<T>)
  kFixed,    // `align` bytes
};

// What the runner does when one of the step's allocations returns null.
struct FailureBehaviour {
  // Lines the runner logs after the runtime's own line, in order. Placeholders: {size} (bytes
  // asked), {id} (planned memory id / input index), {number} ({id} + 1), {method} (the
  // method's name), {status} (0x21, MemoryAllocationFailed), {status_dec} (33, the same in
  // decimal); any other {word} stands for text etmem cannot know (a file name) and matches
  // anything in a device log.
  std::vector<std::string> logs;
  bool aborts = true;  // false: the runner goes on (what it then does: `then`)
  // The runner works without this allocation (e.g. a usage probe): a failure is logged but the
  // pool still "fits", and the minimum does not count it.
  bool harmless = false;
  std::string then;  // in words, e.g. "aborts (ET_CHECK_MSG)"
};

struct PoolSpec {
  std::string id;        // how steps name it
  std::string variable;  // the runner's array or pointer, e.g. "method_allocation_pool"
  std::string macro;     // the define that sizes it; may be empty (a literal size)
  uint64_t default_bytes = 0;
  uint32_t base_align = 8;  // the array's alignment (aligned(16)), or malloc's
  std::string role;         // one line
  std::string when;         // the option that makes the runner have this pool; "" = always
};

struct StepSpec {
  StepKind kind = StepKind::kFixed;
  std::string pool;       // a PoolSpec::id
  std::string temp_pool;  // kLoadMethod: the pool the temp allocator uses; "" = none passed
  AlignRule align_rule = AlignRule::kDefault;
  uint32_t align = 0;      // kFixed
  std::string element;     // kSpanTable / kInputList: a type of the release's type table, or void*
  std::string writes;      // kInputList: the type the runner then writes per input ("" = element)
  uint64_t bytes = 0;      // kDebugBuffer / kFixed
  std::string size_macro;  // kDebugBuffer / kFixed: the define that sets `bytes`, if any
  std::string label;       // what the report calls it ("" = the kind's own words)
  std::string when;        // the option that enables this step; "" = always
  std::string bug;         // a known runner bug this step has, in words (reports name it)
  // kPlannedBuffers: the memory ids (1-based, as the program numbers them) this step allocates;
  // empty: every id no other planned_buffers step names.
  std::vector<uint32_t> memory_ids;
  bool skip_empty = false;  // kPlannedBuffers: a buffer of size 0 is not allocated
  std::string figure;       // the printout figure (FigureSpec::name) that counts this step
  FailureBehaviour on_failure;
};

// One number a runner prints about a pool, and how the runner computes it.
enum class Measure : uint8_t {
  kSteps,     // its counter after the last step tagged with this figure minus before the first
  kUsed,      // its counter after every step
  kPoolSize,  // the pool's size (the firmware's setting: compared with the pool assumed)
  kFree,      // the pool's size minus the counter after every step
};
struct FigureSpec {
  std::string name;  // as etmem's device log reader names it ("planned", "loaded", "used", ...)
  Measure measure = Measure::kSteps;
  std::string pool;  // kPoolSize: the pool whose size it is ("" = the printout's pool)
};
// How the runner counts a pool's use in its printout.
enum class Counter : uint8_t {
  kCursor,          // the bump allocator's cursor (padding included)
  kArmBookkeeping,  // the used_ counter of the Arm runner's ArmMemoryAllocator (v0.5.0-v1.3.x)
};
// What the runner prints about its pools after a run (a format etmem's device log reader
// knows, e.g. "arm_memory_report", "pi_pico_usage").
struct PrintoutSpec {
  std::string format;
  std::string pool;  // the pool the counter counts (a PoolSpec::id)
  Counter counter = Counter::kCursor;
  std::vector<FigureSpec> figures;
  std::string when;  // the option that makes the runner print it; "" = always
};

// A program the runner itself refuses, whatever its pools' sizes (its own check, or a call it
// makes that the runtime refuses): e.g. more tensor inputs than it handles.
enum class RefusalCondition : uint8_t {
  kInputsAbove,        // the method has more than `limit` inputs
  kTensorInputsAbove,  // more than `limit` tensor inputs
  kOutputsAbove,       // more than `limit` outputs
  kInputRankAbove,     // a tensor input of more than `limit` dimensions
  // The first tensor input is neither a float tensor of `limit` elements nor `limit` bytes (a
  // runner with one built-in input of `limit` bytes, copied or converted to floats).
  kFirstTensorInputSizeOtherThan,
};
const char* RefusalConditionName(RefusalCondition c);  // as spelled in the JSON
struct RefusalSpec {
  RefusalCondition condition = RefusalCondition::kInputsAbove;
  uint64_t limit = 0;
  std::vector<std::string> logs;  // what the runner prints ({number}: the count found)
  std::string then;               // what it does, in words
  std::string why;                // the runner's reason, in words (its source)
};

struct OptionSpec {
  std::string name;
  std::string description;
};

// How the runner's declarations appear in a linked image (what `etmem firmware` looks for):
// "image" in the JSON. Each listed pool's symbol is its PoolSpec::variable (a file-scope array;
// a static one inside a function is matched by its mangled local name too). A profile without
// it is not recognised in an image by its symbols (--runner still chooses it).
struct ImageSpec {
  struct Pool {
    std::string id;       // a PoolSpec::id
    // The section the runner's attribute puts it in ("" = none: the compiler's default, .bss).
    // A linker script may gather input sections into an output section of another name, so a
    // section is evidence, not a requirement.
    std::string section;
  };
  std::vector<Pool> pools;  // in the profile's pool order
  // The array the runner embeds the program in ("" = it embeds none), its section attribute
  // ("" = none) and its alignment attribute (0 = none).
  std::string program_symbol, program_section;
  uint32_t program_align = 0;
  // Substrings of symbol names only this runner's image has (its own functions' mangled names,
  // its platform's entry point).
  std::vector<std::string> markers;
  std::vector<std::string> tags;  // the tags the declarations were read at
  bool operator==(const ImageSpec& o) const {  // the facts (not where they were read)
    return pools.size() == o.pools.size() &&
           std::equal(pools.begin(), pools.end(), o.pools.begin(),
                      [](const Pool& a, const Pool& b) {
                        return a.id == b.id && a.section == b.section;
                      }) &&
           program_symbol == o.program_symbol && program_section == o.program_section &&
           program_align == o.program_align && markers == o.markers;
  }
};

struct Profile {
  std::string name;  // e.g. "arm-baremetal": what --runner takes
  std::string description;
  std::string source_path;                  // the runner's source in ExecuTorch's tree
  // The kernel libraries the runner's build links for aten operators, in order (kernels/
  // library.h names them); empty: the portable kernels. --kernels overrides it.
  std::vector<std::string> kernels;
  // Which of a program's methods the runner loads: every one (false: what etmem assumes of a
  // runner that does not say), or only its first (true: program.get_method_name(0), as every
  // built-in runner does). "methods": "first" | "all" in the JSON.
  bool loads_first_method_only = false;
  // The delegate backends the runner's build registers (backend ids, as programs name them:
  // "EthosUBackend"), read from its CMake files; backends_if_built: those it links only when the
  // ExecuTorch build made them (`if(TARGET xnnpack_backend)`). A program delegating to any
  // other fails load_method ("Backend X is not registered.", NotFound).
  std::vector<std::string> backends, backends_if_built;
  std::vector<std::string> source_tags;     // the tags it was read at
  std::string first_release, last_release;  // inclusive; versions as etmem spells them (1.4.1)
  std::vector<PoolSpec> pools;
  std::vector<OptionSpec> options;
  std::vector<StepSpec> steps;
  std::optional<PrintoutSpec> printout;
  std::vector<RefusalSpec> refusals;  // checks of the runner's own, in the order it makes them
  std::optional<ImageSpec> image;      // its declarations in a linked image (firmware/)
  std::string file;  // where it was read from ("built-in" for embedded profiles)

  const PoolSpec* FindPool(std::string_view id) const;
  bool HasOption(std::string_view name) const;
  // The load_method step (a valid profile has exactly one).
  const StepSpec& LoadStep() const;
};

// A step's or pool's "when": empty (always), "OPTION" (when OPTION is chosen) or "!OPTION" (when
// it is not). The option it names, and whether it holds for the chosen options.
std::string_view WhenOption(std::string_view when);
bool WhenHolds(std::string_view when, const std::vector<std::string>& options);

// Reads one profile from JSON text; `origin` names it in errors ("etmem: FILE: problem").
Result<Profile> ParseProfile(std::string_view json, const std::string& origin);
// The same from a file.
Result<Profile> ReadProfileFile(const std::string& path);

// Every built-in profile (embedded at build time), in name then release order.
const std::vector<std::shared_ptr<const Profile>>& BuiltinProfiles();

// What --runner asked for: the candidate profiles (one file, or every built-in profile of that
// name) and the options turned on. Empty candidates: no runner (the portable executor_runner's
// behaviour that etmem reports without --runner).
struct RunnerSelection {
  std::vector<std::shared_ptr<const Profile>> candidates;
  std::vector<std::string> options;
  std::optional<uint32_t> pool_align;  // --pool-align: overrides every pool's base alignment
  bool empty() const { return candidates.empty(); }
  bool operator==(const RunnerSelection& o) const {
    return candidates == o.candidates && options == o.options && pool_align == o.pool_align;
  }
};

// "arm-baremetal", "arm-baremetal+etdump", "path/to/runner.json", "runner.json+opt": a built-in
// name or a file (a path ending in .json), then options joined with '+'. Unknown names and
// options are errors that list the known ones.
Result<RunnerSelection> SelectRunner(const std::string& spec);

// The candidate that covers `version`; an error naming the releases the runner covers if none.
Result<const Profile*> ProfileFor(const RunnerSelection& s, const std::string& version);

}  // namespace etmem::runner
