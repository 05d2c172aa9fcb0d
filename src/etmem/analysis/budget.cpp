// Owns: parsing budgets and margins (their sizes through base/byte_size.h), and checking reports
// against a budget.
#include "etmem/analysis/budget.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "etmem/base/byte_size.h"
#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/analysis/figures.h"
#include "etmem/analysis/ram_text.h"

namespace etmem::report {
namespace {

constexpr const char* kKnownKeys = "ram, flash";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Digits at the front of `s` as a number; nullopt on none or on overflow.
std::optional<uint64_t> LeadingNumber(std::string_view s, size_t& digits) {
  uint64_t v = 0;
  for (digits = 0; digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]));
       ++digits) {
    auto next = CheckedMul(v, 10);
    if (next) next = CheckedAdd(*next, static_cast<uint64_t>(s[digits] - '0'));
    if (!next) return std::nullopt;
    v = *next;
  }
  if (digits == 0) return std::nullopt;
  return v;
}

// Sets one budget item. Errors carry no location: callers add it.
Status SetItem(Budget& budget, std::string_view raw_key, std::string_view raw_value) {
  const std::string key = Lower(Trim(raw_key));
  std::optional<uint64_t>* slot = key == "ram"     ? &budget.ram
                                  : key == "flash" ? &budget.flash
                                                   : nullptr;
  if (!slot)
    return MakeError(
        ErrorCode::kInvalidArgument,
        fmt::format("unknown budget item '{}' (known: {})", Printable(Trim(raw_key)), kKnownKeys));
  if (slot->has_value())
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("'{}' is given twice", key));
  auto bytes = ParseByteSize(Trim(raw_value));
  if (!bytes) return MakeError(ErrorCode::kInvalidArgument, key + ": " + bytes.error().message);
  *slot = *bytes;
  return Ok{};
}

Error Located(const std::string& where, const Error& e) {
  return MakeError(ErrorCode::kInvalidArgument, where + ": " + e.message);
}

Error NothingSet(const std::string& where) {
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("{}: sets no budget item (known: {})", where, kKnownKeys));
}

BudgetCheck RamCheck(const Report& r, const MethodReport& m, uint64_t limit) {
  BudgetCheck c;
  c.item = "ram";
  c.scope = fmt::format("method '{}' (ExecuTorch {}, {})", Printable(m.method->name), r.assumptions.runtime,
                        r.assumptions.target);
  c.used = RamBytes(m);
  c.breakdown = RamParts(m);
  c.limit = limit;
  c.lower_bound = RamIsLowerBound(m);
  return c;
}

BudgetCheck FlashCheck(const Report& r, uint64_t limit) {
  BudgetCheck c;
  c.item = "flash";
  c.scope = "program " + Printable(r.program->path, kShownPathBytes);
  c.used = r.flash.file_bytes;
  c.breakdown =
      fmt::format("the .pte file: {} B program, {} B in segments", r.flash.program_bytes,
                  r.flash.file_bytes - std::min(r.flash.file_bytes, r.flash.program_bytes));
  c.limit = limit;
  return c;
}

}  // namespace

Result<Budget> ParseBudget(std::string_view spec) {
  const std::string where = fmt::format("--budget '{}'", Printable(spec));
  Budget budget;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("{}: expected item=size, got '{}'", where, Printable(item)));
    if (Status s = SetItem(budget, item.substr(0, eq), item.substr(eq + 1)); !s)
      return Located(where, s.error());
  }
  if (!budget.ram && !budget.flash) return NothingSet(where);
  return budget;
}

Result<Budget> ParseBudgetText(std::string_view text, const std::string& name) {
  Budget budget;
  std::istringstream lines{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::string_view content = Trim(std::string_view(line).substr(0, line.find('#')));
    if (content.empty()) continue;
    const std::string where = fmt::format("{}:{}", Printable(name, kShownPathBytes), number);
    const size_t eq = content.find('=');
    if (eq == std::string_view::npos)
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("{}: expected 'item = size', got '{}'", where, Printable(content)));
    if (Status s = SetItem(budget, content.substr(0, eq), content.substr(eq + 1)); !s)
      return Located(where, s.error());
  }
  if (!budget.ram && !budget.flash) return NothingSet(Printable(name, kShownPathBytes));
  return budget;
}

Result<Budget> ReadBudgetFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kIo, Printable(path, kShownPathBytes) + ": cannot open the budget file");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseBudgetText(text.str(), path);
}

std::vector<BudgetCheck> CheckBudget(std::span<const Report> reports, const Budget& budget) {
  std::vector<BudgetCheck> out;
  if (budget.ram)
    for (const Report& r : reports)
      for (const MethodReport& m : r.methods) out.push_back(RamCheck(r, m, *budget.ram));
  if (budget.flash && !reports.empty()) out.push_back(FlashCheck(reports.front(), *budget.flash));
  return out;
}

std::string OverBudgetMessage(const BudgetCheck& c) {
  return fmt::format("over budget: {} of {} is {}{} B ({}), {} B more than {}={} B", c.item,
                     c.scope, c.lower_bound ? "at least " : "", c.used, c.breakdown,
                     c.used - c.limit, c.item, c.limit);
}

Result<Margin> ParseMargin(std::string_view text) {
  const std::string_view s = Trim(text);
  Margin m;
  if (!s.empty() && s.back() == '%') {
    size_t digits = 0;
    const std::optional<uint64_t> pct = LeadingNumber(s, digits);
    if (!pct || digits != s.size() - 1 || *pct > 1000)
      return MakeError(
          ErrorCode::kInvalidArgument,
          fmt::format("--margin '{}': a percentage is a whole number from 0% to 1000%",
                      Printable(text)));
    m.is_percent = true;
    m.percent = static_cast<uint32_t>(*pct);
    return m;
  }
  auto bytes = ParseByteSize(s);
  if (!bytes)
    return MakeError(
        ErrorCode::kInvalidArgument,
        fmt::format("--margin '{}': neither a percentage (10%) nor {}", Printable(text),
                    kByteSizeGrammar));
  m.bytes = *bytes;
  return m;
}

// Never more than fits above `minimum`: minimum + For(minimum) must not wrap to a pool smaller
// than the minimum (a byte margin may be as large as ParseByteSize accepts).
uint64_t Margin::For(uint64_t minimum) const {
  if (!is_percent) return std::min(bytes, UINT64_MAX - minimum);
  const std::optional<uint64_t> scaled = CheckedMul(minimum, percent);
  if (!scaled) return UINT64_MAX - minimum;
  return (*scaled + 99) / 100;
}

std::string Margin::Describe() const {
  return is_percent ? fmt::format("{}%", percent) : fmt::format("{} B", bytes);
}

}  // namespace etmem::report
