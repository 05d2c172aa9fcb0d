// Owns: reading GCC's .su and .ci files and applying their frame sizes (gcc_facts.h).
#include "etmem/stack/gcc_facts.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "etmem/base/printable.h"

namespace etmem::stack {

namespace {

Error Bad(const std::string& path, size_t line, const std::string& what) {
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("{}:{}: {}", Printable(path, kShownPathBytes), line, what));
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A decimal byte count below 2^40 (no frame is larger; keeps sums far from overflow).
std::optional<uint64_t> Bytes(std::string_view s) {
  if (!AllDigits(s) || s.size() > 13) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) v = v * 10 + uint64_t(c - '0');
  if (v >= (uint64_t{1} << 40)) return std::nullopt;
  return v;
}

// Each record of a GCC file: every line that is not empty, with its number (from 1), a CR before
// its end dropped; a NUL byte is an error naming the line. `read` returns an Error to stop there.
template <typename Read>
std::optional<Error> ForEachLine(std::string_view text, const std::string& path, Read&& read) {
  size_t number = 0, at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.find('\0') != std::string_view::npos) return Bad(path, number, "a NUL byte");
    if (auto e = read(line, number)) return e;
  }
  return std::nullopt;
}

// A frame's kind, as both files write it: "static", "dynamic", "dynamic,bounded".
std::optional<Error> ReadKind(std::string_view kind, FrameFact& f, const std::string& path, size_t line) {
  if (kind == "static") return std::nullopt;
  if (kind == "dynamic") {
    f.dynamic = true;
    return std::nullopt;
  }
  if (kind == "dynamic,bounded") {
    f.dynamic = f.bounded = true;
    return std::nullopt;
  }
  return Bad(path, line, fmt::format("the kind '{}' is none of static, dynamic, dynamic,bounded",
                                     Printable(std::string(kind))));
}

// __cxa_demangle writes "char const*", GCC's .su "const char*": the demangled name with each
// "T const*" / "T const&" written GCC's way, for matching only.
std::string GccSpelling(const std::string& demangled) {
  std::string s = demangled;
  for (size_t at = s.find(" const"); at != std::string::npos; at = s.find(" const", at + 1)) {
    const size_t after = at + 6;
    if (after >= s.size() || (s[after] != '*' && s[after] != '&')) continue;
    size_t start = at;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(s[start - 1])) || s[start - 1] == '_' ||
                         s[start - 1] == ':'))
      --start;
    if (start == at) continue;
    const std::string type = s.substr(start, at - start);
    s.replace(start, after - start, "const " + type);
    at = start + 6 + type.size();
  }
  return s;
}

}  // namespace

Result<std::vector<FrameFact>> ParseStackUsage(std::string_view text, const std::string& path) {
  std::vector<FrameFact> out;
  const auto error = ForEachLine(text, path, [&](std::string_view line, size_t n) -> std::optional<Error> {
    const size_t t1 = line.find('\t');
    const size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos || line.find('\t', t2 + 1) != std::string_view::npos)
      return Bad(path, n, "not a -fstack-usage line (location:function, bytes and kind, tab-separated)");
    const std::string_view where = line.substr(0, t1);
    const std::string_view bytes = line.substr(t1 + 1, t2 - t1 - 1);
    // "file:line:col:function": the first ":<digits>:<digits>:" ends the location.
    size_t name_at = std::string_view::npos;
    for (size_t c = where.find(':'); c != std::string_view::npos; c = where.find(':', c + 1)) {
      const size_t c2 = where.find(':', c + 1);
      if (c2 == std::string_view::npos) break;
      const size_t c3 = where.find(':', c2 + 1);
      if (c3 == std::string_view::npos) break;
      if (AllDigits(where.substr(c + 1, c2 - c - 1)) && AllDigits(where.substr(c2 + 1, c3 - c2 - 1))) {
        name_at = c3 + 1;
        break;
      }
    }
    if (name_at == std::string_view::npos || name_at >= where.size())
      return Bad(path, n, "no file:line:column:function before the size");
    FrameFact f;
    f.function = std::string(where.substr(name_at));
    const auto b = Bytes(bytes);
    if (!b) return Bad(path, n, fmt::format("the size '{}' is not a byte count", Printable(std::string(bytes))));
    f.bytes = *b;
    if (auto e = ReadKind(line.substr(t2 + 1), f, path, n)) return e;
    f.where = fmt::format("{}:{}", path, n);
    out.push_back(std::move(f));
    return std::nullopt;
  });
  if (error) return *error;
  return out;
}

Result<std::vector<FrameFact>> ParseCallgraphInfo(std::string_view text, const std::string& path,
                                                  std::vector<CallFact>* calls) {
  std::vector<FrameFact> out;
  // A quoted VCG string starting at `at` (at the quote): its text, escapes kept as written.
  auto quoted = [](std::string_view line, size_t at) -> std::optional<std::string> {
    if (at >= line.size() || line[at] != '"') return std::nullopt;
    std::string s;
    for (size_t k = at + 1; k < line.size(); ++k) {
      if (line[k] == '\\' && k + 1 < line.size()) {
        s += line[k];
        s += line[++k];
        continue;
      }
      if (line[k] == '"') return s;
      s += line[k];
    }
    return std::nullopt;
  };
  // The quoted value after `key` in `line` (nullopt: no such key, or not a quoted string).
  auto value = [&](std::string_view line, std::string_view key) -> std::optional<std::string> {
    const size_t at = line.find(key);
    return at == std::string_view::npos ? std::nullopt : quoted(line, at + key.size());
  };
  // A title "file:symbol" (a function local to its file) or "symbol": the symbol.
  auto symbol_of = [](const std::string& title) {
    const size_t colon = title.rfind(':');
    return colon == std::string::npos ? title : title.substr(colon + 1);
  };
  bool header = false;
  const auto error = ForEachLine(text, path, [&](std::string_view line, size_t n) -> std::optional<Error> {
    if (line.rfind("graph: {", 0) == 0) {
      header = true;
      return std::nullopt;
    }
    if (!header) return Bad(path, n, "not a -fcallgraph-info file (no 'graph: {' first)");
    if (line == "}") return std::nullopt;
    if (line.rfind("edge:", 0) == 0) {
      const auto from = value(line, "sourcename: ");
      const auto to = value(line, "targetname: ");
      if (!from || !to || symbol_of(*from).empty() || symbol_of(*to).empty())
        return Bad(path, n, "an edge without a quoted sourcename and targetname");
      const auto label = value(line, "label: ");
      if (calls) {
        CallFact c;
        c.caller = symbol_of(*from);
        c.indirect = *to == "__indirect_call";
        if (!c.indirect) c.callee = symbol_of(*to);
        c.where = label && !label->empty() ? *label : fmt::format("{}:{}", path, n);
        calls->push_back(std::move(c));
      }
      return std::nullopt;
    }
    if (line.rfind("node:", 0) != 0) return Bad(path, n, "neither a node, an edge nor the graph's end");
    if (line.find("title: ") == std::string_view::npos || line.find("label: ") == std::string_view::npos)
      return Bad(path, n, "a node without a title and a label");
    const auto title = value(line, "title: ");
    const auto label = value(line, "label: ");
    if (!title || !label || title->empty()) return Bad(path, n, "a node's title or label is not a quoted string");
    // The size is the label's last line: "N bytes (static)" (external functions have none).
    const size_t nl = label->rfind("\\n");
    const std::string last = nl == std::string::npos ? *label : label->substr(nl + 2);
    const size_t sp = last.find(" bytes (");
    if (sp == std::string::npos) return std::nullopt;
    FrameFact f;
    const auto b = Bytes(std::string_view(last).substr(0, sp));
    if (!b || last.back() != ')')
      return Bad(path, n, fmt::format("the size '{}' is not 'N bytes (kind)'", Printable(last)));
    f.bytes = *b;
    if (auto e = ReadKind(std::string_view(last).substr(sp + 8, last.size() - sp - 9), f, path, n)) return e;
    f.symbol = symbol_of(*title);
    if (f.symbol.empty()) return Bad(path, n, "a node's title names no symbol");
    const size_t first_nl = label->find("\\n");
    f.function = first_nl == std::string::npos ? *label : label->substr(0, first_nl);
    f.where = fmt::format("{}:{}", path, n);
    out.push_back(std::move(f));
    return std::nullopt;
  });
  if (error) return *error;
  if (!header && !text.empty()) return Bad(path, 1, "not a -fcallgraph-info file");
  return out;
}

Result<std::vector<FrameFact>> ReadFactsDirectory(const std::string& dir, std::vector<CallFact>* calls) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return MakeError(ErrorCode::kIo, fmt::format("{}: not a directory (the -fstack-usage files)", Printable(dir, kShownPathBytes)));
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto ext = it->path().extension();
    if ((ext == ".su" || ext == ".ci") && it->is_regular_file(ec)) files.push_back(it->path());
  }
  if (ec) return MakeError(ErrorCode::kIo, fmt::format("{}: {}", Printable(dir, kShownPathBytes), ec.message()));
  std::sort(files.begin(), files.end());
  std::vector<FrameFact> out;
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return MakeError(ErrorCode::kIo, fmt::format("{}: cannot be read", Printable(p.string(), kShownPathBytes)));
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    auto facts = p.extension() == ".su" ? ParseStackUsage(text, p.string())
                                        : ParseCallgraphInfo(text, p.string(), calls);
    if (!facts) return facts.error();
    for (FrameFact& f : *facts) out.push_back(std::move(f));
  }
  return out;
}

Applied ApplyFacts(CallGraph& graph, const std::vector<FrameFact>& facts) {
  Applied a;
  a.facts = facts.size();
  std::map<std::string, std::vector<size_t>> by_name;
  for (size_t i = 0; i < graph.functions.size(); ++i) {
    by_name[graph.functions[i].name].push_back(i);
    if (graph.functions[i].demangled != graph.functions[i].name) {
      by_name[graph.functions[i].demangled].push_back(i);
      const std::string gcc = GccSpelling(graph.functions[i].demangled);
      if (gcc != graph.functions[i].demangled) by_name[gcc].push_back(i);
    }
  }
  std::map<size_t, const FrameFact*> best;
  for (const FrameFact& f : facts) {
    std::vector<size_t> hits;
    auto add = [&](const std::string& key) {
      if (auto it = by_name.find(key); it != by_name.end())
        hits.insert(hits.end(), it->second.begin(), it->second.end());
    };
    if (!f.symbol.empty()) {
      add(f.symbol);
    } else {
      add(f.function);
      // GCC prints C++ functions with their return type first: "int ns::f(int)".
      for (size_t sp = f.function.find(' '); hits.empty() && sp != std::string::npos;
           sp = f.function.find(' ', sp + 1))
        add(f.function.substr(sp + 1));
    }
    if (hits.empty()) ++a.unmatched;
    for (size_t i : hits)
      if (!best.count(i) || best[i]->bytes < f.bytes) best[i] = &f;
  }
  for (const auto& [i, f] : best) {
    Function& fn = graph.functions[i];
    fn.frame = f->bytes;
    fn.frame_source = f->symbol.empty() ? ".su" : ".ci";
    if (f->dynamic && !f->bounded && fn.dynamic.empty())
      fn.dynamic.push_back(fmt::format("GCC says dynamic ({})", f->where));
    if (f->bounded) fn.dynamic.clear();  // GCC bounds the dynamic part: the size covers it
  }
  a.functions = best.size();
  return a;
}

CallGraph CallGraphFromFacts(const elf::Executable& image, const std::vector<FrameFact>& frames,
                             const std::vector<CallFact>& calls, const std::string& architecture) {
  CallGraph g;
  g.architecture = architecture;
  AddImageFunctions(g, image.elf);
  for (Function& f : g.functions) {
    f.frame_source = "none (no .su/.ci entry)";
    f.read = false;
  }
  ApplyFacts(g, frames);
  // Read: a .ci node sizes it (its calls are the .ci's edges). A .su size alone tells no calls.
  std::map<std::string, std::vector<size_t>> by_symbol;
  for (size_t i = 0; i < g.functions.size(); ++i) by_symbol[g.functions[i].name].push_back(i);
  for (const FrameFact& f : frames)
    if (!f.symbol.empty())
      if (auto it = by_symbol.find(f.symbol); it != by_symbol.end())
        for (size_t i : it->second) g.functions[i].read = true;
  uint64_t synthetic = uint64_t{1} << 63;
  for (const CallFact& c : calls) {
    auto from = by_symbol.find(c.caller);
    if (from == by_symbol.end()) continue;  // a function the image does not keep
    std::vector<uint64_t> targets;
    if (!c.indirect)
      if (auto to = by_symbol.find(c.callee); to != by_symbol.end())
        for (size_t k : to->second) targets.push_back(g.functions[k].address);
    for (size_t i : from->second) {
      Function& f = g.functions[i];
      CallSite site;
      site.where = c.where;
      site.depth = f.frame;
      if (c.indirect) {
        site.kind = SiteKind::kIndirect;
        site.address = synthetic++;
        site.text = "an indirect call";
        f.sites.push_back(site);
        continue;
      }
      site.kind = SiteKind::kCall;
      site.text = "the call of " + Demangle(c.callee);
      if (targets.empty()) {
        site.address = synthetic++;
        site.target = ~uint64_t{0};  // no function there: named as one the image lacks
        f.sites.push_back(site);
        continue;
      }
      for (uint64_t t : targets) {
        site.address = synthetic++;
        site.target = t;
        f.sites.push_back(site);
      }
    }
  }
  return g;
}

}  // namespace etmem::stack
