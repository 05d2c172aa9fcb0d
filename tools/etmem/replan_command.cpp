// `etmem replan IN.pte -o OUT.pte`: re-plans every method's planned memory and writes a program
// that differs from the input only in planned offsets and planned_buffer_sizes. The output is
// read back and checked before the saving is reported.
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.h"
#include "model_options.h"
#include "etmem/base/checked_math.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/read_program.h"

namespace etmem::cli {
namespace {

struct ReplanArgs {
  std::string input;
  std::string output;
  uint64_t alignment = 16;
};

Status WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) return MakeError(ErrorCode::kIo, path + ": cannot write the program");
  return Ok{};
}

// Reads the written program back: it must verify and every method's plan must be sound.
Status CheckOutput(const std::string& path) {
  ETMEM_TRY(pte::ProgramView out, pte::ReadProgram(path));
  for (const pte::MethodView& m : out.methods) {
    ETMEM_TRY(plan::Lifetimes l, plan::ComputeLifetimes(m));
    if (!plan::Validate(l).sound())
      return MakeError(ErrorCode::kInvalidProgram,
                       path + ": the re-planned method '" + std::string(m.name) +
                           "' is not sound (a bug in etmem)");
  }
  return Ok{};
}

int RunReplan(const ReplanArgs& args) {
  const api::Replanned replanned = api::Replan(api::Program::Open(args.input), args.alignment);
  std::vector<uint8_t> bytes(replanned.program.size());
  std::memcpy(bytes.data(), replanned.program.data(), bytes.size());
  if (auto s = WriteBytes(args.output, bytes); !s) return FailInvalid(s.error().message);
  if (auto s = CheckOutput(args.output); !s) return FailInvalid(s.error().message);
  int64_t saved = 0;
  for (const api::ReplannedBuffer& b : replanned.buffers) {
    std::cout << fmt::format("method '{}', buffer {}: {} -> {} bytes ({})\n", b.method,
                             b.memory_id, b.before, b.after, b.planner);
    saved += b.before - b.after;
  }
  std::cout << fmt::format("wrote {} ({} bytes): plan sound, {} bytes of planned memory saved\n",
                           args.output, bytes.size(), saved);
  return kExitOk;
}

}  // namespace

static Run DefineReplan(CLI::App* cmd) {
  auto args = std::make_shared<ReplanArgs>();
  cmd->add_option("program", args->input, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("-o,--output", args->output, "where to write the re-planned program")
      ->required();
  Bytes(cmd->add_option("--alignment", args->alignment,
                        "offsets are multiples of this (power of two)"))
      ->check(CLI::Validator(
          [](std::string& s) {
            unsigned long v = 0;
            try { v = std::stoul(s); } catch (...) { return std::string("not a number"); }
            return IsPowerOfTwo(v) && v <= 4096 ? std::string()
                                                : std::string("must be a power of two up to 4096");
          },
          "POWER_OF_TWO"))
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunReplan(*args); }); };
}

const Verb kReplanVerb{"replan", "Write a copy of a program with a smaller memory plan (only planned offsets and "
    "buffer sizes change)", DefineReplan};

}  // namespace etmem::cli
