// Owns: reading demangled names as template instantiations, and reachability (instantiations.h).
#include "etmem/stack/instantiations.h"

#include <string_view>

namespace etmem::stack {
namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

char Opener(char close) { return close == '>' ? '<' : close == ')' ? '(' : close == '}' ? '{' : '['; }

}  // namespace

TemplateName ReadTemplateName(const std::string& demangled) {
  TemplateName out;
  std::string s = demangled;
  // GCC's clones ("f(int) [clone .isra.0] [clone .constprop.0]") are the same source function.
  for (size_t at; s.size() > 1 && s.back() == ']' && (at = s.rfind(" [clone ")) != std::string::npos;)
    s.erase(at);
  // operator<, operator<<, operator>, operator-> ...: their brackets are no template brackets.
  for (size_t at = s.find("operator"); at != std::string::npos; at = s.find("operator", at + 8)) {
    size_t k = at + 8;
    while (k < s.size() && s[k] == ' ') ++k;
    if (k < s.size() && (s[k] == '<' || s[k] == '>' || s.compare(k, 2, "->") == 0)) {
      size_t end = k;
      while (end < s.size() && (s[end] == '<' || s[end] == '>' || s[end] == '=' || s[end] == '-')) ++end;
      out.problem = "its name holds operator" + s.substr(k, end - k) +
                    ", whose angle brackets cannot be told from template brackets";
      return out;
    }
  }
  std::string stack;  // the open brackets
  std::string current;
  size_t last_group = std::string::npos;  // where the last top-level (...) starts in the key
  for (char c : s) {
    const bool in_template = !stack.empty() && stack[0] == '<';
    if (c == '<' || c == '(' || c == '{' || c == '[') {
      if (stack.empty() && c == '(') last_group = out.key.size();
      if (in_template) current += c;
      else if (c == '<' && stack.empty()) current.clear();  // a top-level template list opens
      else out.key += c;
      stack += c;
      continue;
    }
    if (c == '>' || c == ')' || c == '}' || c == ']') {
      if (stack.empty() || stack.back() != Opener(c)) {
        out.problem = std::string("its brackets do not pair up (a '") + c + "' closes nothing open)";
        return out;
      }
      stack.pop_back();
      if (in_template && stack.empty()) {
        out.arguments.push_back(Trim(current));
        current.clear();
      } else if (in_template) {
        current += c;
      } else {
        out.key += c;
      }
      continue;
    }
    if (in_template) {
      if (c == ',' && stack.size() == 1) {
        out.arguments.push_back(Trim(current));
        current.clear();
      } else {
        current += c;
      }
    } else {
      out.key += c;
    }
  }
  if (!stack.empty()) {
    out.problem = "its brackets do not pair up (a '" + stack.substr(stack.size() - 1) + "' is never closed)";
    out.arguments.clear();
    return out;
  }
  if (last_group != std::string::npos) out.key.erase(last_group);
  // Without the return type (a template's often is its argument: load_and_convert<To, From>
  // returns To): what follows the last top-level space, unless that space is a conversion
  // operator's ("operator float").
  int depth = 0;
  size_t name_at = 0;
  for (size_t k = 0; k < out.key.size(); ++k) {
    const char c = out.key[k];
    depth += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
    if (c == ' ' && depth == 0 && !std::string_view(out.key).substr(0, k).ends_with("operator"))
      name_at = k + 1;
  }
  out.key.erase(0, name_at);
  out.parsed = true;
  return out;
}

std::vector<bool> Reached(const CallGraph& graph, const std::vector<size_t>& from,
                          const Resolution& resolution) {
  std::vector<bool> seen(graph.functions.size(), false);
  std::vector<size_t> work;
  for (size_t f : from)
    if (f < seen.size() && !seen[f]) seen[f] = true, work.push_back(f);
  while (!work.empty()) {
    const size_t v = work.back();
    work.pop_back();
    for (const CallSite& s : graph.functions[v].sites) {
      std::vector<uint64_t> targets;
      if (s.kind != SiteKind::kIndirect) targets.push_back(s.target);
      else if (auto r = resolution.find(s.address); r != resolution.end()) targets = r->second;
      for (uint64_t t : targets)
        if (auto to = graph.At(t); to && !seen[*to]) seen[*to] = true, work.push_back(*to);
    }
  }
  return seen;
}

}  // namespace etmem::stack
