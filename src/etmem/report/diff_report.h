// Owns: the three printed forms of a comparison of two reports (analysis/diff.h's ProgramDiff):
// text, JSON and Markdown. Not: comparing them (analysis/diff.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "etmem/analysis/diff.h"
#include "etmem/analysis/verdict.h"

namespace etmem::report {

std::string DiffToText(const ProgramDiff& diff);
nlohmann::json DiffToJson(const ProgramDiff& diff);
// DiffToJson with the verdict's members (the verdict of both reports), as `etmem diff --format
// json` prints it.
std::string DiffJsonText(const ProgramDiff& diff, const Verdict& verdict);
std::string DiffToMarkdown(const ProgramDiff& diff);

}  // namespace etmem::report
