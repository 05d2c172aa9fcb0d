// Owns: registering the model options on a verb from the one options schema
// (api::OptionSchema: flag, help, default and parser, include/etmem/etmem.h), BuildSingleReport
// for the verbs that need exactly one (release, target) pair (header, diff, fit), the strict
// reading of sizes and counts (Bytes, Count) with its one-line usage error, and the guard that
// turns an api::Error into the one-line message and exit code. Not: any verb's own options or
// output; the options' meanings, defaults and parsing (the schema); building reports (the API).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "etmem/etmem.h"

namespace etmem::cli {

// The model options as given: the API's options themselves (the schema's parsers set them;
// what is not given keeps the API's default).
struct ModelArgs : api::Options {};

// How a verb takes the schema's options (api::OptionSchema).
struct ModelOptionUse {
  bool all_allowed = false;        // "all" in --runtime/--target (analyze, check)
  std::vector<std::string> only;   // these fields, in the schema's order; empty: every model option
  // The verb's own default, said instead of the schema's: field, "(default: ...)".
  std::vector<std::pair<std::string, std::string>> defaults;
};

// argv for CLI::App::parse (reversed, without the program name), with "--external-data
// FILE.ptd" and "--external-data=FILE.ptd" turned into the flag plus a hidden
// --external-data-file=FILE.ptd: the flag must not take the next argument, which is the
// program in "--external-data PROGRAM.pte".
std::vector<std::string> ParseArgs(int argc, char** argv);

// Registers the schema's options (api::OptionSchema: flag, help and default, each from the
// registries where it lists something) on `cmd`, each setting its member of `options` through
// the schema's parser when given.
void AddModelOptions(CLI::App* cmd, api::Options& options, const ModelOptionUse& use = {});
inline void AddModelOptions(CLI::App* cmd, ModelArgs& args, bool all_allowed) {
  AddModelOptions(cmd, static_cast<api::Options&>(args), ModelOptionUse{all_allowed, {}, {}});
}

// The API's options for these arguments.
api::Options ToApiOptions(const ModelArgs& args);

// The report of `program` for the one release and target in `args` ("all" is refused).
// Throws api::Error.
// With `board`: on that board (its core says what the target does not; api::Analyze).
api::Report BuildSingleReport(const api::Program& program, const ModelArgs& args,
                              const std::string& method = "", const api::Board* board = nullptr);

// A usage error that etmem prints as one line, "etmem: <message>" (usage.h), where CLI11
// would print its own two. A ParseError, not a ValidationError: CLI11's validators catch those.
class OneLineUsageError : public CLI::ParseError {
 public:
  explicit OneLineUsageError(const std::string& message)
      : CLI::ParseError("OneLineUsageError", message, CLI::ExitCodes::ValidationError) {}
};

// Reads `option`'s value strictly as a size in bytes: a whole number, optionally followed by K,
// M or G (1024-based), or 0x hex (etmem::ParseByteSize, the one grammar); at most `max`. A sign, anything else
// after the number, or an overflow is a OneLineUsageError naming the option and the value, e.g.
// "--pool '-5': not a size in bytes (...)", where CLI11 alone reads -5 as 18446744073709551611.
CLI::Option* Bytes(CLI::Option* option, uint64_t max = UINT64_MAX);
// Checks an alignment option: a power of two up to 4096 ("not a number" / "must be a power of
// two up to 4096").
CLI::Validator PowerOfTwoUpTo4096();
// The same for a count (--columns, --jobs): digits only, at most `max`.
CLI::Option* Count(CLI::Option* option, uint64_t max);

// Runs `run`; an api::Error becomes "etmem: <message>" on stderr and kExitInvalid.
int Guarded(const std::function<int()>& run);

// Prints "etmem: <message>" on stderr and returns kExitInvalid.
int FailInvalid(const std::string& message);

// Prints at most one line on stderr for every refused method of `reports` together (the first
// refusal, and how many more); true when there was one.
bool ReportRefusals(std::span<const api::Report> reports);
bool ReportRefusals(const api::Report& report);

// The exit status of a verdict (api::ExitStatus): every verb's, from its verdict alone.
int ExitFor(const api::Verdict& verdict);

}  // namespace etmem::cli
