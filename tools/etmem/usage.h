// Owns: the command line's usage errors in etmem's one-line form, "etmem: ..." (UsageFailure,
// for CLI11's failure_message): an unknown verb or option with the nearest one ("did you
// mean"), an unexpected argument, and CLI11's other parse errors, each on one line naming the
// verb; and the nearness itself (EditDistance, Nearest). Not: the options (model_options.h and
// each verb), reading values (Bytes, Count).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace etmem::cli {

// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
// two neighbouring characters, each 1 ("analyse" -> "analyze": 1, "--pol" -> "--pool": 1).
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest `word` when it is near enough to be a typo of it (at most a third of
// the longer word's letters apart, and at least one); nullopt otherwise. A prefix is no guess:
// "--pool" (analyze's) is not "--pool-align" (header's).
std::optional<std::string> Nearest(std::string_view word, const std::vector<std::string>& candidates);

// For app.failure_message: a usage error of `app` (the root, "etmem") as one line,
// "etmem: ...\n".
std::string UsageFailure(const CLI::App* app, const CLI::Error& error);

}  // namespace etmem::cli
