// Owns: the declarations of the three printed forms of a comparison of two reports
// (analysis/diff.h's ProgramDiff): text (diff_text.cpp), JSON (diff_json.cpp) and Markdown
// (diff_markdown.cpp), and the words they share (diff_report.cpp). Not: comparing them
// (analysis/diff.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

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

// The words the three forms share.
namespace diff_words {
using Rows = std::vector<std::pair<std::string, Delta>>;
constexpr size_t kCategories = static_cast<size_t>(runtime::Category::kCount);
const char* CategoryLabel(size_t c);                   // the category's name
const char* ChangeName(MethodChange c);                // "unchanged", "changed", ...
std::string Signed(int64_t v);                         // "+12", "-3", "0"
std::string ChangeText(const Delta& d);                // "+1572 (+54.3%)", "0", "+120"
Rows MethodRows(const MethodDiff& d, bool all_categories);  // a method's labelled rows
std::string MethodTitle(const MethodDiff& d);          // "method 'forward' (changed)"
Rows FlashRows(const ProgramDiff& diff);               // the flash breakdown's rows
}  // namespace diff_words

}  // namespace etmem::report
