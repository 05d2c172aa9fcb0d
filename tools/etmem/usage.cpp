// Owns: UsageFailure, EditDistance and Nearest (see usage.h).
#include "usage.h"

#include <algorithm>

#include "model_options.h"

namespace etmem::cli {
namespace {

// The verb parsed, if any (the root app's first parsed subcommand).
const CLI::App* ParsedVerb(const CLI::App* app) {
  const std::vector<CLI::App*>& parsed = app->get_subcommands();
  return parsed.empty() ? nullptr : parsed.front();
}

std::vector<std::string> VerbNames(const CLI::App* app) {
  std::vector<std::string> out;
  for (const CLI::App* verb : app->get_subcommands([](const CLI::App*) { return true; }))
    out.push_back(verb->get_name());
  return out;
}

// A verb's options as typed: "--pool", "-o" (hidden ones, of group "", left out).
std::vector<std::string> OptionNames(const CLI::App* verb) {
  std::vector<std::string> out;
  for (const CLI::Option* o : verb->get_options()) {
    if (o->get_group().empty() || o->get_positional()) continue;
    for (const std::string& l : o->get_lnames()) out.push_back("--" + l);
    for (const std::string& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// CLI11's message on one line.
std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// `typed` is no option of `where` (a verb, or the root app before any verb).
std::string UnknownOption(const std::string& typed, const CLI::App* where, bool is_verb) {
  const std::string option = typed.substr(0, typed.find('='));  // "--pol=4096" -> "--pol"
  const std::string command = is_verb ? "etmem " + where->get_name() : "etmem";
  const std::string line = "unknown option '" + api::PrintableText(option, 80) + "' for " + command;
  if (const auto near = Nearest(option, OptionNames(where)))
    return line + "; did you mean " + *near + "?";
  return line + (is_verb ? " (" : " (options go after the verb; ") + command + " --help)";
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> Nearest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = SIZE_MAX;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(word, c);
    const size_t letters = std::max(word.size(), c.size());
    if (d < best_distance && d <= std::max<size_t>(1, letters / 3)) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string UsageFailure(const CLI::App* app, const CLI::Error& error) {
  if (dynamic_cast<const OneLineUsageError*>(&error) != nullptr)
    return std::string("etmem: ") + error.what() + "\n";
  const CLI::App* verb = ParsedVerb(app);
  const std::vector<std::string> extras = app->remaining(true);
  // An unknown option first: whatever else went wrong may follow from it.
  for (const std::string& e : extras)
    if (e.size() > 1 && e[0] == '-')
      return "etmem: " + UnknownOption(e, verb ? verb : app, verb != nullptr) + "\n";
  if (!verb) {
    const std::vector<std::string> verbs = VerbNames(app);
    if (!extras.empty()) {
      const std::string& word = extras.front();
      if (const auto near = Nearest(word, verbs))
        return "etmem: unknown verb '" + api::PrintableText(word, 80) + "'; did you mean " + *near + "?\n";
      return "etmem: unknown verb '" + api::PrintableText(word, 80) + "'; the verbs: " + Joined(verbs) +
             " (etmem --help)\n";
    }
    return "etmem: no verb given: etmem VERB ..., where VERB is one of " + Joined(verbs) +
           " (etmem --help)\n";
  }
  const std::string name = verb->get_name();
  if (!extras.empty())
    return "etmem: unexpected argument '" + api::PrintableText(extras.front(), 80) + "' for etmem " +
           name + " (etmem " + name + " --help)\n";
  return "etmem: " + name + ": " + OneLine(error.what()) + " (etmem " + name + " --help)\n";
}

}  // namespace etmem::cli
