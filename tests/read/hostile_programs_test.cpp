// Owns: hostile and broken programs. Mutants of every real program (../shared/models/real) and
// of the builder's scenarios go through the reader and, when they read, through BuildReport for
// every release on cortex-m and x86_64 (a patch release that loads as its predecessor only
// once): every truncation, bit flips in the first 64 bytes and in the flatbuffer root's table
// and vtable, and seeded corruption of table fields, vtable entries and vector lengths. Passing
// means no crash, no hang, and every error one line naming the file.
// Also: the replay of tests/corrupt/ and the resource limits (huge vector lengths, shared tables,
// lists that overflow a 32-bit size_t).
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etmem/abi/abi.h"
#include "etmem/fb/program_generated.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/report/text_report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

// ---- Allocation meter ----
// operator new and new[] of the whole test binary count bytes while armed (one relaxed load
// per allocation otherwise), so that ResourceLimits can show a hostile file costs no more than
// its size. They pass every request on to the definition they hide (libstdc++'s, or the
// sanitizer's under ETMEM_SANITIZE), so deletes stay theirs and mismatches stay detected.
namespace {
std::atomic<bool> g_meter_armed{false};
std::atomic<uint64_t> g_meter_largest{0};
std::atomic<uint64_t> g_meter_total{0};

using NewFunction = void* (*)(size_t);

NewFunction HiddenNew(const char* symbol) {
  auto next = reinterpret_cast<NewFunction>(::dlsym(RTLD_NEXT, symbol));
  if (!next) {
    std::fprintf(stderr, "mutation_test: no %s after this binary's own\n", symbol);
    std::abort();
  }
  return next;
}

void Count(size_t n) {
  if (!g_meter_armed.load(std::memory_order_relaxed)) return;
  g_meter_total.fetch_add(n, std::memory_order_relaxed);
  uint64_t prev = g_meter_largest.load(std::memory_order_relaxed);
  while (n > prev && !g_meter_largest.compare_exchange_weak(prev, n)) {}
}
}  // namespace

void* operator new(size_t n) {
  static const NewFunction next = HiddenNew("_Znwm");
  Count(n);
  return next(n);
}
void* operator new[](size_t n) {
  static const NewFunction next = HiddenNew("_Znam");
  Count(n);
  return next(n);
}

namespace etmem {
namespace mutation_test {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;
using Clock = std::chrono::steady_clock;

// Arms the allocation meter for its lifetime.
class AllocationMeter {
 public:
  AllocationMeter() {
    g_meter_largest = 0;
    g_meter_total = 0;
    g_meter_armed = true;
  }
  ~AllocationMeter() { g_meter_armed = false; }
  uint64_t largest() const { return g_meter_largest; }
  uint64_t total() const { return g_meter_total; }
};

struct Sample {
  std::string name;
  Bytes bytes;
};

fs::path RealDir() { return fs::path(ETMEM_SHARED_DIR) / "models/real"; }
fs::path CorruptDir() { return fs::path(ETMEM_SOURCE_DIR) / "tests/corrupt"; }

Bytes ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

const std::vector<Sample>& RealPrograms() {
  static const std::vector<Sample> programs = [] {
    std::vector<Sample> out;
    if (!fs::exists(RealDir())) return out;
    for (const auto& e : fs::directory_iterator(RealDir()))
      if (e.path().extension() == ".pte") out.push_back({e.path().stem().string(), ReadFile(e.path())});
    std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) { return a.name < b.name; });
    return out;
  }();
  return programs;
}

// The builder's feature scenarios (the benchmark-sized ones are left out: they add time, not
// features).
const std::vector<Sample>& ScenarioPrograms() {
  static const std::vector<Sample> programs = [] {
    using namespace testing;
    return std::vector<Sample>{
        {"every_value_kind", ProgramWithEveryValueKind().Build()},
        {"dynamic_shapes", ProgramWithDynamicShapes().Build()},
        {"xnnpack_inline", ProgramWithDelegate("XnnpackBackend").Build()},
        {"unknown_backend_segment", ProgramWithDelegate("EtmemNoSuchBackend", true).Build()},
        {"two_methods", ProgramWithTwoMethods().Build()},
        {"control_flow", ProgramWithControlFlow().Build()},
        {"external_data", ProgramWithExternalData().Build()},
        {"motivating_cnn", MotivatingCnn().Build()},
    };
  }();
  return programs;
}

#define SKIP_WITHOUT_REAL_PROGRAMS()                                                   \
  if (RealPrograms().empty())                                                          \
  GTEST_SKIP() << RealDir().string() << " is absent: mutants of real programs skipped"

// ---- The pipeline every mutant goes through ----

struct Pair {
  std::string label;
  runtime::RuntimeModel model;
  report::ReportOptions options;
};

std::vector<Pair> MakePairs() {
  std::vector<Pair> pairs;
  for (const char* target : {"cortex-m", "x86_64"}) {
    abi::Abi a = *abi::FindBuiltinTarget(target);
    for (const runtime::RuntimeTraits& r : runtime::AllReleases()) {
      // A patch release that loads exactly as its predecessor ("as 1.0.0": the same traits,
      // PatchReleases.* proves the same reports on every scenario) would repeat its pair.
      if (r.summary.starts_with("as ")) continue;
      report::ReportOptions o;
      o.load.temp_allocator = r.runner_passes_temp;
      o.pool_align = a.malloc_align;
      o.pool_bytes = 4096;  // exercise the pool check as well
      pairs.push_back({r.version + "/" + target, runtime::RuntimeModel(r, a), o});
    }
  }
  return pairs;
}

const std::vector<Pair>& Pairs() {
  static const std::vector<Pair> pairs = MakePairs();
  return pairs;
}

bool OneLineNaming(const std::string& message, const std::string& name) {
  return message.find('\n') == std::string::npos && message.find('\r') == std::string::npos &&
         message.find(name) != std::string::npos;
}

// Runs mutants and keeps the first problems; a crash or hang ends the test binary instead.
class MutantRunner {
 public:
  static constexpr auto kSlowMutant = std::chrono::seconds(2);

  void Run(std::span<const uint8_t> bytes, const std::string& name) {
    const auto start = Clock::now();
    ++mutants_;
    auto program = pte::ReadProgramBytes(bytes, name);
    if (!program) {
      Expect(OneLineNaming(program.error().message, name), name,
             "bad error message: " + program.error().message);
    } else {
      ++read_ok_;
      Report(*program, name);
    }
    if (Clock::now() - start > kSlowMutant) Expect(false, name, "took more than 2 s");
  }

  size_t mutants() const { return mutants_; }
  size_t read_ok() const { return read_ok_; }
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  void Report(const pte::ProgramView& program, const std::string& name) {
    for (size_t i = 0; i < Pairs().size(); ++i) {
      const Pair& pair = Pairs()[i];
      auto r = report::BuildReport(program, pair.model, pair.options);
      if (!r) {
        Expect(OneLineNaming(r.error().message, name), name,
               pair.label + ": bad error message: " + r.error().message);
        continue;
      }
      if (i + 1 == Pairs().size())
        Expect(Print(*r), name, pair.label + ": the JSON writer wrote text that is not JSON");
    }
  }
  // Both printers the command line uses, on one pair per mutant; false when the JSON is not
  // JSON. Names come from the file and need not be UTF-8: the writer must replace them, never
  // write invalid text or throw (tests/corrupt/method_name_not_utf8.pte).
  static bool Print(const report::Report& r) {
    std::ostringstream json;
    report::WriteJson(json, r);
    (void)report::ToText(r, {.all_allocations = true});
    return nlohmann::json::accept(json.str());
  }
  void Expect(bool ok, const std::string& name, const std::string& what) {
    if (!ok && problems_.size() < 20) problems_.push_back(name + ": " + what);
  }

  size_t mutants_ = 0, read_ok_ = 0;
  std::vector<std::string> problems_;
};

void ExpectNoProblems(const MutantRunner& runner) {
  for (const std::string& p : runner.problems()) ADD_FAILURE() << p;
  EXPECT_GT(runner.mutants(), 0u);
  std::cout << runner.mutants() << " mutants, " << runner.read_ok() << " of them read\n";
}

// ---- Where the fields are: a walk of a verified program that records every table slot ----

struct Slot {
  uint32_t offset = 0;
  uint8_t width = 0;  // 1, 2, 4 or 8
  auto operator<=>(const Slot&) const = default;
};

class SlotCollector {
 public:
  explicit SlotCollector(const uint8_t* base) : base_(base) {}

  void Program(const fb::Program& p);
  std::vector<Slot> slots() const { return {slots_.begin(), slots_.end()}; }

 private:
  void Add(const void* at, size_t width) {
    const auto offset = static_cast<const uint8_t*>(at) - base_;
    while (width > 1 && offset % width != 0) width /= 2;
    slots_.insert({static_cast<uint32_t>(offset), static_cast<uint8_t>(width)});
  }
  void Table(const void* table);
  template <typename T>
  void Vector(const flatbuffers::Vector<T>* v) {
    if (v) Add(reinterpret_cast<const uint8_t*>(v), 4);  // the length field
  }
  template <typename T, typename F>
  void Tables(const flatbuffers::Vector<flatbuffers::Offset<T>>* v, F&& each) {
    Vector(v);
    if (!v) return;
    for (const T* t : *v) {
      Table(t);
      each(*t);
    }
  }
  void Method(const fb::Method& m);
  void Value(const fb::Value& v);
  void Tensor(const fb::Tensor& t);
  void Instruction(const fb::Instruction& ins);

  const uint8_t* base_;
  std::set<Slot> slots_;
};

// The table's vtable offset, every vtable entry, and every present field (its width is the gap
// to the next field, at most 8).
void SlotCollector::Table(const void* table) {
  if (!table) return;
  const auto* t = static_cast<const uint8_t*>(table);
  const uint8_t* vt = t - flatbuffers::ReadScalar<int32_t>(t);
  const auto vt_size = flatbuffers::ReadScalar<uint16_t>(vt);
  const auto t_size = flatbuffers::ReadScalar<uint16_t>(vt + 2);
  Add(t, 4);
  std::vector<uint16_t> fields;
  for (uint16_t i = 0; i < vt_size; i += 2) {
    Add(vt + i, 2);
    if (i >= 4) {
      if (uint16_t f = flatbuffers::ReadScalar<uint16_t>(vt + i)) fields.push_back(f);
    }
  }
  std::sort(fields.begin(), fields.end());
  for (size_t i = 0; i < fields.size(); ++i) {
    const uint16_t end = i + 1 < fields.size() ? fields[i + 1] : t_size;
    if (end > fields[i]) Add(t + fields[i], std::min<size_t>(end - fields[i], 8));
  }
}

void SlotCollector::Tensor(const fb::Tensor& t) {
  Vector(t.sizes());
  Vector(t.dim_order());
  Table(t.placement());
  Table(t.extras());
}

void SlotCollector::Value(const fb::Value& v) {
  Table(v.payload());
  if (const auto* t = v.payload_as_Tensor()) Tensor(*t);
  if (const auto* l = v.payload_as_IntList()) Vector(l->items());
  if (const auto* l = v.payload_as_TensorList()) Vector(l->items());
  if (const auto* l = v.payload_as_OptionalTensorList()) Vector(l->items());
  if (const auto* l = v.payload_as_DoubleList()) Vector(l->items());
  if (const auto* l = v.payload_as_BoolList()) Vector(l->items());
}

void SlotCollector::Instruction(const fb::Instruction& ins) {
  Table(ins.step());
  if (const auto* k = ins.step_as_KernelCall()) Vector(k->args());
  if (const auto* d = ins.step_as_DelegateCall()) Vector(d->args());
}

void SlotCollector::Method(const fb::Method& m) {
  Tables(m.values(), [&](const fb::Value& v) { Value(v); });
  Vector(m.inputs());
  Vector(m.outputs());
  Tables(m.chains(), [&](const fb::Chain& c) {
    Tables(c.instructions(), [&](const fb::Instruction& i) { Instruction(i); });
  });
  Tables(m.operators(), [](const fb::Operator&) {});
  Tables(m.delegates(), [&](const fb::Delegate& d) {
    Table(d.blob());
    Tables(d.compile_specs(), [](const fb::CompileSpec&) {});
  });
  Vector(m.planned_buffer_sizes());
}

void SlotCollector::Program(const fb::Program& p) {
  Table(&p);
  Tables(p.methods(), [&](const fb::Method& m) { Method(m); });
  Tables(p.inline_constants(), [](const fb::InlineBuffer&) {});
  Tables(p.inline_blobs(), [](const fb::InlineBlob&) {});
  Tables(p.segments(), [](const fb::Segment&) {});
  Table(p.constant_segment());
  if (p.constant_segment()) Vector(p.constant_segment()->offsets());
  Tables(p.mutable_segments(), [](const fb::SubSegments&) {});
  Tables(p.named_data(), [](const fb::NamedBlob&) {});
}

// Only a verified flatbuffer is walked (the originals; never a mutant).
bool IsProgramFlatbuffer(const Bytes& b) {
  flatbuffers::Verifier verifier(b.data(), b.size());
  return fb::VerifyProgramBuffer(verifier);
}

std::vector<Slot> CollectSlots(const Bytes& b) {
  if (!IsProgramFlatbuffer(b)) return {};
  SlotCollector c(b.data());
  c.Program(*fb::GetProgram(b.data()));
  return c.slots();
}

// ---- Mutations ----

void Store(Bytes& b, Slot s, uint64_t v) { std::memcpy(b.data() + s.offset, &v, s.width); }
uint64_t Load(const Bytes& b, Slot s) {
  uint64_t v = 0;
  std::memcpy(&v, b.data() + s.offset, s.width);
  return v;
}

// Values that break indices, lengths and offsets: edges of the width, small numbers, neighbours.
uint64_t HostileValue(uint64_t original, uint8_t width, std::mt19937_64& rng) {
  const uint64_t max = width == 8 ? UINT64_MAX : (uint64_t{1} << (8 * width)) - 1;
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  switch (rng() % 10) {
    case 0: return 0;
    case 1: return 1 + rng() % 4;
    case 2: return max;
    case 3: return sign - 1;
    case 4: return sign;
    case 5: return (original + 1) & max;
    case 6: return (original - 1) & max;
    case 7: return original ^ (uint64_t{1} << (rng() % (8 * width)));
    case 8: return (original + 4 * (1 + rng() % 16)) & max;
    default: return rng() & max;
  }
}

// Byte ranges of the root table and its vtable.
std::vector<std::pair<size_t, size_t>> RootArea(const Bytes& b) {
  const uint32_t root = flatbuffers::ReadScalar<uint32_t>(b.data());
  const uint8_t* t = b.data() + root;
  const uint8_t* vt = t - flatbuffers::ReadScalar<int32_t>(t);
  const size_t vt_begin = static_cast<size_t>(vt - b.data());
  return {{root, root + flatbuffers::ReadScalar<uint16_t>(vt + 2)},
          {vt_begin, vt_begin + flatbuffers::ReadScalar<uint16_t>(vt)}};
}

void FlipEveryBit(const Sample& s, size_t begin, size_t end, MutantRunner& runner) {
  Bytes m = s.bytes;
  for (size_t i = begin; i < std::min(end, m.size()); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      m[i] ^= static_cast<uint8_t>(1u << bit);
      runner.Run(m, s.name + "@flip" + std::to_string(i) + "." + std::to_string(bit));
      m[i] = s.bytes[i];
    }
}

void BitFlips(const Sample& s, MutantRunner& runner) {
  FlipEveryBit(s, 0, 64, runner);
  if (!IsProgramFlatbuffer(s.bytes)) return;
  for (auto [begin, end] : RootArea(s.bytes))
    FlipEveryBit(s, std::max<size_t>(begin, 64), end, runner);
}

void Truncations(const Sample& s, MutantRunner& runner) {
  for (size_t n = 0; n < s.bytes.size(); ++n)
    runner.Run(std::span(s.bytes).first(n), s.name + "@cut" + std::to_string(n));
}

// FNV-1a: a seed from a name that is the same on every standard library.
uint64_t SeedOf(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3;
  return h;
}

// `count` mutants, each with 1-3 slots set to hostile values. Seeded by the program's name, so
// every run (and every machine) tries the same mutants.
void FieldCorruption(const Sample& s, size_t count, MutantRunner& runner) {
  const std::vector<Slot> slots = CollectSlots(s.bytes);
  ASSERT_FALSE(slots.empty()) << s.name << " is not a verified program flatbuffer";
  std::mt19937_64 rng(SeedOf(s.name));
  for (size_t i = 0; i < count; ++i) {
    Bytes m = s.bytes;
    std::string what;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k) {
      const Slot slot = slots[rng() % slots.size()];
      const uint64_t v = HostileValue(Load(m, slot), slot.width, rng);
      Store(m, slot, v);
      what += "@" + std::to_string(slot.offset) + "=" + std::to_string(v);
    }
    runner.Run(m, s.name + what);
  }
}

// ---- The mutation tests ----

// Two real programs have a broken extended header that ExecuTorch refuses too; the rest read.
TEST(Mutation, OriginalsReadAndReport) {
  MutantRunner runner;
  for (const Sample& s : ScenarioPrograms()) runner.Run(s.bytes, s.name);
  EXPECT_EQ(runner.read_ok(), ScenarioPrograms().size());
  for (const Sample& s : RealPrograms()) runner.Run(s.bytes, s.name);
  ExpectNoProblems(runner);
  EXPECT_GE(runner.read_ok() + 2, ScenarioPrograms().size() + RealPrograms().size());
}

TEST(Mutation, EveryTruncationOfRealPrograms) {
  SKIP_WITHOUT_REAL_PROGRAMS();
  MutantRunner runner;
  for (const Sample& s : RealPrograms()) Truncations(s, runner);
  ExpectNoProblems(runner);
}

TEST(Mutation, EveryTruncationOfScenarios) {
  MutantRunner runner;
  for (const Sample& s : ScenarioPrograms()) Truncations(s, runner);
  ExpectNoProblems(runner);
}

TEST(Mutation, BitFlipsInHeaderAndRootOfRealPrograms) {
  SKIP_WITHOUT_REAL_PROGRAMS();
  MutantRunner runner;
  for (const Sample& s : RealPrograms()) BitFlips(s, runner);
  ExpectNoProblems(runner);
}

TEST(Mutation, BitFlipsInHeaderAndRootOfScenarios) {
  MutantRunner runner;
  for (const Sample& s : ScenarioPrograms()) BitFlips(s, runner);
  ExpectNoProblems(runner);
}

TEST(Mutation, FieldCorruptionOfRealPrograms) {
  SKIP_WITHOUT_REAL_PROGRAMS();
  MutantRunner runner;
  for (const Sample& s : RealPrograms()) FieldCorruption(s, 1000, runner);
  ExpectNoProblems(runner);
  EXPECT_GT(runner.read_ok(), 0u) << "no mutant read: the corruption never reaches the walk";
}

TEST(Mutation, FieldCorruptionOfScenarios) {
  MutantRunner runner;
  for (const Sample& s : ScenarioPrograms()) FieldCorruption(s, 4000, runner);
  ExpectNoProblems(runner);
  EXPECT_GT(runner.read_ok(), 0u) << "no mutant read: the corruption never reaches the walk";
}

// ---- tests/corrupt/: the findings kept as files ----

struct CorruptCase {
  std::string file;
  std::string expected;  // a fragment of the reader's error, or "loads"
};

std::string CellText(std::string cell) {
  const size_t begin = cell.find_first_not_of(" `");
  const size_t end = cell.find_last_not_of(" `");
  return begin == std::string::npos ? "" : cell.substr(begin, end - begin + 1);
}

// The rows of the README's table: the first cell names the file, the last the outcome.
std::vector<CorruptCase> CorruptTable() {
  std::ifstream in(CorruptDir() / "README.md");
  std::vector<CorruptCase> rows;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| `")) continue;
    const size_t first_end = line.find('|', 1);
    const size_t last_begin = line.rfind('|', line.size() - 2);
    rows.push_back({CellText(line.substr(1, first_end - 1)),
                    CellText(line.substr(last_begin + 1, line.size() - last_begin - 2))});
  }
  return rows;
}

std::set<std::string> CorruptFiles() {
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(CorruptDir()))
    if (e.path().extension() == ".pte") files.insert(e.path().filename().string());
  return files;
}

TEST(CorruptPrograms, EveryFileHasARowAndEveryRowAFile) {
  std::set<std::string> listed;
  for (const CorruptCase& c : CorruptTable()) listed.insert(c.file);
  EXPECT_EQ(listed, CorruptFiles());
  EXPECT_GE(listed.size(), 5u);
}

TEST(CorruptPrograms, ReaderGivesTheListedOutcome) {
  MutantRunner runner;
  for (const CorruptCase& c : CorruptTable()) {
    const Bytes bytes = ReadFile(CorruptDir() / c.file);
    auto r = pte::ReadProgramBytes(bytes, c.file);
    if (c.expected == "loads") {
      EXPECT_TRUE(r) << c.file << ": " << r.error().message;
    } else {
      ASSERT_FALSE(r) << c.file << " reads, but the README expects: " << c.expected;
      EXPECT_NE(r.error().message.find(c.expected), std::string::npos) << r.error().message;
    }
    runner.Run(bytes, c.file);  // and through every report
  }
  ExpectNoProblems(runner);
}

// Every command that reads a program: it may refuse the file (exit 2) but must not crash, and
// whatever it writes to stderr is one line per message, each starting "etmem: ".
TEST(CorruptPrograms, EveryCommandSurvivesThem) {
  const fs::path replanned = test::TempPath("replanned.pte");
  for (const std::string& file : CorruptFiles()) {
    const std::string f = (CorruptDir() / file).string();
    for (const std::string& args :
         {"analyze " + f + " --format json", "analyze " + f + " --runtime all --target all",
          "plan " + f + " --format json", "plan " + f, "header " + f,
          "diff " + f + " " + f + " --format json", "replan " + f + " -o " + replanned.string()}) {
      const test::CliRun run = test::Etmem(args);
      EXPECT_LE(run.exit_code, 2) << "etmem " << args << "\n" << run.err;
      std::istringstream lines(run.err);
      for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("etmem: ")) continue;
        ADD_FAILURE() << "etmem " << args << ": a stderr line not starting \"etmem: \": " << line;
        break;
      }
    }
  }
}

// ---- Resource limits ----

// One method "forward" whose values vector is `values`, with one empty chain.
Bytes FinishProgram(flatbuffers::FlatBufferBuilder& b,
                    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Value>>> values,
                    int method_copies = 1) {
  auto chain = fb::CreateChain(b, 0, 0, b.CreateVector(std::vector<flatbuffers::Offset<fb::Instruction>>{}));
  auto method = fb::CreateMethod(b, b.CreateString("forward"), 0, values, 0, 0,
                                 b.CreateVector(std::vector{chain}));
  auto methods = b.CreateVector(std::vector(static_cast<size_t>(method_copies), method));
  fb::FinishProgramBuffer(b, fb::CreateProgram(b, 0, methods));
  return Bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

struct Measured {
  Result<pte::ProgramView> result;
  uint64_t largest_allocation = 0;
  uint64_t allocated = 0;
  Clock::duration elapsed{};
};

Measured ReadMeasured(const Bytes& bytes, const std::string& name) {
  AllocationMeter meter;
  const auto start = Clock::now();
  auto r = pte::ReadProgramBytes(bytes, name);
  return {std::move(r), meter.largest(), meter.total(), Clock::now() - start};
}

// A 100-byte file whose values vector claims 2^31 (or more) entries: the verifier rejects it
// before the walk reserves anything for the values.
TEST(ResourceLimits, HugeVectorLengthInASmallFileIsRejectedWithoutAllocating) {
  flatbuffers::FlatBufferBuilder b;
  auto value = fb::CreateValue(b, fb::Payload::Null, fb::CreateNull(b).Union());
  Bytes bytes = FinishProgram(b, b.CreateVector(std::vector{value}));
  ASSERT_TRUE(pte::ReadProgramBytes(bytes, "small.pte")) << "the unpatched program must read";
  const auto* values = fb::GetProgram(bytes.data())->methods()->Get(0)->values();
  const size_t length_at = reinterpret_cast<const uint8_t*>(values) - bytes.data();
  for (uint32_t length : {uint32_t{1} << 31, uint32_t{0xffffffff}, uint32_t{1} << 28, 1000u}) {
    std::memcpy(bytes.data() + length_at, &length, 4);
    const Measured m = ReadMeasured(bytes, "huge.pte");
    ASSERT_FALSE(m.result) << length;
    EXPECT_NE(m.result.error().message.find("fails verification"), std::string::npos)
        << m.result.error().message;
    EXPECT_GE(m.allocated, bytes.size()) << "the meter missed the file's copy";
    EXPECT_LT(m.largest_allocation, 4096u) << length;  // the file's copy and a message
    EXPECT_LT(m.allocated, 16384u) << length;
    EXPECT_LT(m.elapsed, std::chrono::milliseconds(500)) << length;
  }
}

// 256 method entries naming one method whose 256 values all name one rank-1024 tensor: an 8 KB
// file that would have the walk copy 2^26 sizes (256 MB). Each table is at least 4 bytes, so
// the verifier visits at most one per 4 bytes of file, and gives up here.
TEST(ResourceLimits, SharedTablesCannotMultiplyTheWork) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<uint8_t> dim_order(1024);
  for (size_t i = 0; i < dim_order.size(); ++i) dim_order[i] = static_cast<uint8_t>(i);
  auto tensor = fb::CreateTensor(b, fb::ScalarType::FLOAT, 0, b.CreateVector(std::vector<int32_t>(1024, 1)),
                                 b.CreateVector(dim_order));
  auto value = fb::CreateValue(b, fb::Payload::Tensor, tensor.Union());
  const Bytes bytes = FinishProgram(b, b.CreateVector(std::vector(256, value)), 256);
  ASSERT_LT(bytes.size(), 16384u);
  const Measured m = ReadMeasured(bytes, "shared_tables.pte");
  ASSERT_FALSE(m.result);
  EXPECT_NE(m.result.error().message.find("fails verification"), std::string::npos)
      << m.result.error().message;
  EXPECT_GE(m.allocated, bytes.size()) << "the meter missed the file's copy";
  EXPECT_LT(m.allocated, 16 * bytes.size());
  EXPECT_LT(m.elapsed, std::chrono::milliseconds(500));
}

// 4096 IntList tables of their own (so the verifier is content) sharing one 4096-item vector:
// a 160 KB file that would have the walk copy 2^24 list items (128 MB). Entries copied out are
// charged against the file's size, so the walk stops after a few dozen lists.
TEST(ResourceLimits, SharedVectorsAreChargedPerUse) {
  flatbuffers::FlatBufferBuilder b;
  auto items = b.CreateVector(std::vector<int64_t>(4096, 0));
  std::vector<flatbuffers::Offset<fb::Value>> values;
  for (int i = 0; i < 4096; ++i)
    values.push_back(fb::CreateValue(b, fb::Payload::IntList, fb::CreateIntList(b, items).Union()));
  const Bytes bytes = FinishProgram(b, b.CreateVector(values));
  const Measured m = ReadMeasured(bytes, "shared_vector.pte");
  ASSERT_FALSE(m.result);
  EXPECT_NE(m.result.error().message.find("shared"), std::string::npos) << m.result.error().message;
  EXPECT_GE(m.allocated, bytes.size()) << "the meter missed the file's copy";
  EXPECT_LT(m.allocated, 32 * bytes.size());
  EXPECT_LT(m.elapsed, std::chrono::milliseconds(500));
}

// The charge leaves room for real programs: the largest scenarios read.
TEST(ResourceLimits, BigScenariosStayWithinTheLimits) {
  for (auto* make : {+[] { return testing::LstmLike(2); }, +[] { return testing::ScaledCnn(2); }}) {
    const Bytes bytes = make().Build();
    auto r = pte::ReadProgramBytes(bytes, "scenario.pte");
    EXPECT_TRUE(r) << r.error().message;
  }
}

// A method view with one TensorList of `count` items (the planner reads only the count), then
// optionally a DYNAMIC_UNBOUND tensor that every release refuses.
pte::ProgramView ProgramWithListOf(uint32_t count, bool then_unbound_tensor) {
  pte::ProgramView p;
  p.path = "overflow.pte";
  pte::MethodView& m = p.methods.emplace_back();
  m.name = "forward";
  m.values.push_back({pte::ValueKind::kTensor, 0, 0});
  m.tensors.push_back({});
  m.values.push_back({pte::ValueKind::kTensorList, 0, count});
  if (then_unbound_tensor) {
    m.values.push_back({pte::ValueKind::kTensor, 1, 0});
    m.tensors.push_back({.dynamism = pte::Dynamism::kDynamicUnbound});
  }
  m.chains.push_back({0, 0});
  return p;
}

// n * sizeof(T) is computed in the target's size_t. No file can carry such a count cheaply (the
// verifier wants the 2^30 items in the file: 4 GiB), so the view is made by hand. From 1.0 the
// runtime's allocateList fails there (MemoryAllocationFailed) and the load stops; before 1.0
// the size wraps. Either way that is the first thing that goes wrong, and it must be reported
// even when a later value would be refused too.
TEST(ResourceLimits, ListsOverflowingA32BitSizeTAreReported) {
  const uint32_t count = uint32_t{1} << 30;  // 2^30 four-byte Tensors: 2^32 bytes
  for (const Pair& pair : Pairs()) {
    for (bool later_refusal : {false, true}) {
      const pte::ProgramView p = ProgramWithListOf(count, later_refusal);
      const runtime::LoadPlan plan =
          runtime::PlanMethodLoad(p, p.methods[0], pair.model, pair.options.load);
      const bool wraps = pair.model.abi().size_type.size == 4;
      if (!wraps && !later_refusal) {
        EXPECT_FALSE(plan.refusal) << pair.label << ": " << plan.refusal->reason;
        continue;
      }
      ASSERT_TRUE(plan.refusal) << pair.label;
      if (wraps) {
        EXPECT_EQ(plan.refusal->error, "MemoryAllocationFailed") << pair.label;
        EXPECT_NE(plan.refusal->reason.find("overflows the target's size_t"), std::string::npos)
            << pair.label << (later_refusal ? " (a later refusal hides it)" : "") << ": "
            << plan.refusal->reason;
      }
      auto report = report::BuildReport(p, pair.model, pair.options);
      EXPECT_TRUE(report) << pair.label;
    }
  }
}

}  // namespace mutation_test
}  // namespace etmem
