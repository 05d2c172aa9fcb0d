// Owns: the extension module etmem._etmem, a thin pybind11 binding of the public C++ API
// (include/etmem/etmem.h): a program from a path or from any contiguous buffer, the options of
// the command line, the calls made with the GIL released, and api::Error mapped to Python
// exceptions. Not: the Python-facing functions and their documentation (etmem/__init__.py),
// anything of etmem's internals (only the public header is included).
#include <Python.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "etmem/etmem.h"

namespace py = pybind11;
namespace api = etmem::api;

namespace {

// A read-only view of a Python buffer, released (with the GIL held) when it goes. While it is
// held the exporter cannot resize or free the memory (a bytearray refuses to resize).
class BufferView {
 public:
  explicit BufferView(const py::handle& object) {
    if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0)
      throw py::error_already_set();
  }
  ~BufferView() { PyBuffer_Release(&view_); }
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  const void* data() const { return view_.buf; }
  size_t size() const { return static_cast<size_t>(view_.len); }

 private:
  Py_buffer view_{};
};

// `program` is a str (a path; etmem/__init__.py turns os.PathLike into one) or an object with
// the buffer protocol (bytes, bytearray, memoryview, ...), read and verified without the GIL.
api::Program LoadProgram(const py::object& program) {
  if (py::isinstance<py::str>(program)) {
    const std::string path = program.cast<std::string>();
    py::gil_scoped_release nogil;
    return api::Program::Open(path);
  }
  if (!PyObject_CheckBuffer(program.ptr()))
    throw py::type_error("program: want a path (str or os.PathLike) or bytes-like object, not " +
                         std::string(Py_TYPE(program.ptr())->tp_name));
  BufferView view(program);
  py::gil_scoped_release nogil;
  return api::Program::FromBytes(view.data(), view.size());  // copies the bytes
}

// `board` is None (no board), a str (a built-in board's name or a board file's path;
// etmem/__init__.py turns os.PathLike into one) or a bytes-like object holding a board file's
// JSON; `reserve` adds "REGION=BYTES" reservations (--reserve).
std::optional<api::Board> LoadBoard(const py::object& board,
                                    const std::optional<std::vector<std::string>>& reserve) {
  if (board.is_none()) {
    if (reserve && !reserve->empty())
      throw py::value_error("reserve: needs a board");
    return std::nullopt;
  }
  std::optional<api::Board> b;
  if (py::isinstance<py::str>(board)) {
    const std::string spec = board.cast<std::string>();
    py::gil_scoped_release nogil;
    b = api::Board::Open(spec);
  } else if (PyObject_CheckBuffer(board.ptr())) {
    BufferView view(board);
    const std::string_view json(static_cast<const char*>(view.data()), view.size());
    py::gil_scoped_release nogil;
    b = api::Board::FromJson(json, "<board bytes>");
  } else {
    throw py::type_error("board: want a board name, a board file's path or its JSON bytes, not " +
                         std::string(Py_TYPE(board.ptr())->tp_name));
  }
  if (reserve)
    for (const std::string& r : *reserve) b = b->Reserve(r);
  return b;
}

api::Options MakeOptions(const std::string& runtime, const std::string& target,
                         std::optional<uint32_t> pool_align, const std::string& temp,
                         std::optional<uint64_t> pool, const py::object& external_data,
                         std::optional<std::vector<std::string>> backends,
                         std::optional<std::string> runner, std::optional<std::string> method,
                         std::optional<uint64_t> temp_pool) {
  api::Options o;
  o.runtime = runtime;
  o.target = target;
  o.pool_align = pool_align;
  o.temp = temp;
  o.pool = pool;
  // external_data: a bool (--external-data), a path (str) of the .ptd, or its bytes
  // (--external-data FILE.ptd).
  if (py::isinstance<py::bytes>(external_data)) {
    const std::string bytes = external_data.cast<std::string>();
    const auto* b = reinterpret_cast<const std::byte*>(bytes.data());
    o.external_data = true;
    o.external_data_bytes.assign(b, b + bytes.size());
  } else if (py::isinstance<py::str>(external_data)) {
    o.external_data = true;
    o.external_data_file = external_data.cast<std::string>();
  } else {
    o.external_data = external_data.cast<bool>();
  }
  if (backends) o.backends = std::move(*backends);
  if (runner) o.runner = std::move(*runner);
  if (method) o.method = std::move(*method);
  o.temp_pool = temp_pool;
  return o;
}

// Every pair the options name: one report, or AnalyzeAll's when runtime or target is "all".
std::vector<api::Report> AnalyzePairs(const api::Program& program, const api::Options& o) {
  if (o.runtime == "all" || o.target == "all") return api::AnalyzeAll(program, o);
  return {api::Analyze(program, o)};
}

// JSON text (as the report writers make it) to Python objects, without json.loads: the dict is
// half of etmem.analyze's cost (bench/RESULTS.md). Integers, strings (with every JSON escape),
// true/false/null, arrays and objects; anything else (a number with a fraction or exponent,
// malformed text) gives up with nullptr and the caller falls back to json.loads, so the result
// is always json.loads's. Needs the GIL.
class JsonToPython {
 public:
  explicit JsonToPython(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}
  ~JsonToPython() {
    for (auto& [key, object] : keys_) Py_DECREF(object);
  }
  // A new reference, or nullptr (no Python error set) when the text is not for this reader.
  PyObject* Parse() {
    PyObject* v = Value();
    if (v == nullptr) return nullptr;
    Space();
    if (p_ != end_) {
      Py_DECREF(v);
      return nullptr;
    }
    return v;
  }

 private:
  void Space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return true;
  }
  PyObject* Value() {
    Space();
    if (p_ == end_) return nullptr;
    switch (*p_) {
      case '{': return Object();
      case '[': return Array();
      case '"': return String(false);
      case 't': return Literal("true") ? Py_NewRef(Py_True) : nullptr;
      case 'f': return Literal("false") ? Py_NewRef(Py_False) : nullptr;
      case 'n': return Literal("null") ? Py_NewRef(Py_None) : nullptr;
      default: return Number();
    }
  }
  PyObject* Number() {
    const char* start = p_;
    if (p_ != end_ && *p_ == '-') ++p_;
    const char* digits = p_;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    const size_t n = static_cast<size_t>(p_ - digits);
    if (n == 0 || (n > 1 && *digits == '0')) return nullptr;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return nullptr;  // json.loads
    if (n <= 18) {  // fits an int64
      long long v = 0;
      for (const char* d = digits; d != p_; ++d) v = v * 10 + (*d - '0');
      return PyLong_FromLongLong(*start == '-' ? -v : v);
    }
    const std::string number(start, p_);
    return PyLong_FromString(number.c_str(), nullptr, 10);
  }
  static void AppendUtf8(std::string& out, uint32_t c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  bool Hex4(uint32_t& c) {
    if (end_ - p_ < 4) return false;
    c = 0;
    for (int i = 0; i < 4; ++i, ++p_) {
      const char h = *p_;
      c <<= 4;
      if (h >= '0' && h <= '9') c |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') c |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') c |= static_cast<uint32_t>(h - 'A' + 10);
      else return false;
    }
    return true;
  }
  // A string at '"'; keys and short strings are made once per distinct text.
  PyObject* String(bool key) {
    ++p_;
    const char* start = p_;
    while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
    if (p_ == end_) return nullptr;
    if (*p_ == '"') {
      const std::string_view text(start, static_cast<size_t>(p_ - start));
      ++p_;
      if (!key && text.size() > 64) return Decode(text);  // short texts repeat (sites, categories)
      auto it = keys_.find(text);
      if (it != keys_.end()) return Py_NewRef(it->second);
      PyObject* k = Decode(text);
      if (k != nullptr) keys_.emplace(text, Py_NewRef(k));
      return k;
    }
    std::string out(start, p_);
    while (p_ != end_ && *p_ != '"') {
      const unsigned char ch = static_cast<unsigned char>(*p_);
      if (ch < 0x20) return nullptr;  // json.loads refuses raw control characters too
      if (ch != '\\') {
        out += *p_++;
        continue;
      }
      if (++p_ == end_) return nullptr;
      const char e = *p_++;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t c = 0;
          if (!Hex4(c)) return nullptr;
          // A lone surrogate is kept by json.loads (as a lone code point): leave those to it.
          if (c >= 0xDC00 && c <= 0xDFFF) return nullptr;
          if (c >= 0xD800 && c <= 0xDBFF) {
            uint32_t low = 0;
            if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') return nullptr;
            p_ += 2;
            if (!Hex4(low) || low < 0xDC00 || low > 0xDFFF) return nullptr;
            c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, c);
          break;
        }
        default: return nullptr;
      }
    }
    if (p_ == end_) return nullptr;
    ++p_;
    return Decode(out);
  }
  static PyObject* Decode(std::string_view text) {
    PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict");
    if (s == nullptr) PyErr_Clear();  // not UTF-8: json.loads decides
    return s;
  }
  PyObject* Array() {
    ++p_;
    PyObject* list = PyList_New(0);
    if (list == nullptr) throw py::error_already_set();
    Space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return list;
    }
    for (;;) {
      PyObject* v = Value();
      if (v == nullptr || PyList_Append(list, v) != 0) {
        Py_XDECREF(v);
        Py_DECREF(list);
        if (PyErr_Occurred()) throw py::error_already_set();
        return nullptr;
      }
      Py_DECREF(v);
      Space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == ']') {
        ++p_;
        return list;
      }
      Py_DECREF(list);
      return nullptr;
    }
  }
  PyObject* Object() {
    ++p_;
    PyObject* dict = PyDict_New();
    if (dict == nullptr) throw py::error_already_set();
    Space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return dict;
    }
    for (;;) {
      Space();
      PyObject* k = (p_ != end_ && *p_ == '"') ? String(true) : nullptr;
      Space();
      PyObject* v = nullptr;
      if (k != nullptr && p_ != end_ && *p_ == ':') {
        ++p_;
        v = Value();
      }
      if (v == nullptr || PyDict_SetItem(dict, k, v) != 0) {
        Py_XDECREF(k);
        Py_XDECREF(v);
        Py_DECREF(dict);
        if (PyErr_Occurred()) throw py::error_already_set();
        return nullptr;
      }
      Py_DECREF(k);
      Py_DECREF(v);
      Space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == '}') {
        ++p_;
        return dict;
      }
      Py_DECREF(dict);
      return nullptr;
    }
  }

  const char* p_;
  const char* end_;
  std::unordered_map<std::string_view, PyObject*> keys_;
};

// The JSON's Python value, or the text itself (a str) when JsonToPython gives up.
py::object FromJson(const std::string& text) {
  JsonToPython reader(text);
  if (PyObject* v = reader.Parse()) return py::reinterpret_steal<py::object>(v);
  return py::str(text);
}

#define ETMEM_MODEL_ARGS                                                                      \
  const std::string &runtime, const std::string &target, std::optional<uint32_t> pool_align, \
      const std::string &temp, std::optional<uint64_t> pool, const py::object &external_data, \
      std::optional<std::vector<std::string>> backends, std::optional<std::string> runner,    \
      std::optional<std::string> method, std::optional<uint64_t> temp_pool
#define ETMEM_MODEL_VALUES                                                                   \
  runtime, target, pool_align, temp, pool, external_data, std::move(backends), std::move(runner), \
      method, temp_pool

// `etmem analyze --format json` for the pairs: one object, or an array with "all".
std::string AnalyzeJson(const py::object& program, ETMEM_MODEL_ARGS) {
  const api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  const api::Program p = LoadProgram(program);
  py::gil_scoped_release nogil;
  return api::Render(AnalyzePairs(p, o), api::Format::kJson);
}

// The same as Python values (dict or list); a str when only json.loads can read it.
py::object Analyze(const py::object& program, ETMEM_MODEL_ARGS) {
  return FromJson(AnalyzeJson(program, ETMEM_MODEL_VALUES));
}

// `etmem analyze` in another format ("text", "csv", "md"), optionally with every allocation.
std::string AnalyzeText(const py::object& program, const std::string& format, bool allocations,
                        ETMEM_MODEL_ARGS) {
  api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  api::Format f;
  if (format == "text") f = api::Format::kText;
  else if (format == "csv") f = api::Format::kCsv;
  else if (format == "md") f = api::Format::kMarkdown;
  else throw py::value_error("format " + format + ": want json, text, csv or md");
  const bool single = o.runtime != "all" && o.target != "all";
  o.keep_allocations = single && allocations;
  const api::Program p = LoadProgram(program);
  py::gil_scoped_release nogil;
  return api::Render(AnalyzePairs(p, o), f, {.all_allocations = allocations});
}

// The budget checked against every pair: (item, scope, breakdown, used, limit, lower_bound,
// over, message) per item.
py::list CheckBudget(const py::object& program, const std::optional<std::string>& spec,
                     const std::optional<std::string>& file, ETMEM_MODEL_ARGS) {
  api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  o.keep_allocations = false;  // totals are enough
  if (spec.has_value() == file.has_value())
    throw py::value_error("check_budget: give a budget or a budget_file (one of them)");
  const api::Program p = LoadProgram(program);
  std::vector<api::BudgetItem> items;
  {
    py::gil_scoped_release nogil;
    // As the command line: the budget is read first, its error reported after the analysis's.
    std::optional<api::Budget> budget;
    std::optional<api::Error> budget_error;
    try {
      budget = spec ? api::ParseBudget(*spec) : api::ReadBudgetFile(*file);
    } catch (const api::Error& e) {
      budget_error = e;
    }
    const std::vector<api::Report> reports = AnalyzePairs(p, o);
    if (budget_error) throw *budget_error;
    items = api::CheckBudget(reports, *budget);
  }
  py::list out;
  for (const api::BudgetItem& i : items) {
    py::dict d;
    d["item"] = i.item;
    d["scope"] = i.scope;
    d["breakdown"] = i.breakdown;
    d["used"] = i.used;
    d["limit"] = i.limit;
    d["lower_bound"] = i.lower_bound;
    d["over"] = i.over;
    d["message"] = i.message.empty() ? py::object(py::none()) : py::object(py::str(i.message));
    out.append(std::move(d));
  }
  return out;
}

std::string Header(const py::object& program, const std::optional<std::string>& margin,
                   bool define_pools, const std::optional<std::string>& section,
                   const py::object& board, std::optional<std::vector<std::string>> reserve,
                   ETMEM_MODEL_ARGS) {
  api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  o.keep_allocations = false;
  api::HeaderOptions h;
  if (margin) h.margin = *margin;
  h.define_pools = define_pools;
  if (section) h.section = *section;
  const api::Program p = LoadProgram(program);
  h.board = LoadBoard(board, reserve);
  py::gil_scoped_release nogil;
  return api::Header(p, o, h);
}

std::pair<std::string, bool> Plan(const py::object& program, const std::string& format,
                                  const std::optional<std::string>& plan_method,
                                  uint64_t alignment, uint32_t columns, const py::object& board,
                                  std::optional<std::vector<std::string>> reserve,
                                  ETMEM_MODEL_ARGS) {
  api::PlanOptions po;
  if (format == "text") po.format = api::PlanFormat::kText;
  else if (format == "json") po.format = api::PlanFormat::kJson;
  else if (format == "html") po.format = api::PlanFormat::kHtml;
  else throw py::value_error("format " + format + ": want json, text or html");
  if (plan_method) po.method = *plan_method;
  po.alignment = alignment;
  po.columns = columns;
  po.model = MakeOptions(ETMEM_MODEL_VALUES);
  const api::Program p = LoadProgram(program);
  po.board = LoadBoard(board, reserve);
  py::gil_scoped_release nogil;
  api::PlanResult r = api::Plan(p, po);
  return {std::move(r.output), r.sound};
}

// `etmem fit`: the placement of one method's pools on a board as a dict; the fitted program's
// bytes only when asked (it is re-analysed to be checked).
py::dict Fit(const py::object& program, const py::object& board,
             std::optional<std::vector<std::string>> reserve, bool fitted_program,
             ETMEM_MODEL_ARGS) {
  api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  const api::Program p = LoadProgram(program);
  if (board.is_none()) throw py::value_error("fit: needs a board");
  const api::Board b = *LoadBoard(board, reserve);
  std::optional<api::BoardFit> fit;
  std::vector<std::byte> bytes;
  std::string text, linker;
  {
    py::gil_scoped_release nogil;
    fit = api::Fit(api::Analyze(p, o), b, o.method);
    text = fit->Render();
    if (!fit->splits()) linker = fit->LinkerScript();
    if (fitted_program) bytes = fit->FittedProgram();
  }
  py::dict d;
  d["method"] = fit->method();
  d["board"] = b.name();
  d["fits"] = fit->fits();
  d["short_bytes"] = fit->short_bytes();
  py::dict bound;
  bound["short_bytes"] = fit->lower_bound_short_bytes();
  bound["reason"] = fit->lower_bound_reason();
  d["lower_bound"] = bound;
  py::list placement;
  for (const api::FitPlacement& pl : fit->placement()) {
    py::dict e;
    e["piece"] = pl.piece;
    e["region"] = pl.region;
    e["offset"] = pl.offset;
    e["padding"] = pl.padding;
    e["bytes"] = pl.bytes;
    e["align"] = pl.align;
    e["memory_id"] = pl.memory_id;
    e["symbol"] = pl.symbol;
    placement.append(std::move(e));
  }
  d["placement"] = placement;
  py::list regions;
  for (const api::FitRegion& r : fit->regions()) {
    py::dict e;
    e["name"] = r.name;
    e["free_bytes"] = r.free_bytes;
    e["used_bytes"] = r.used_bytes;
    e["free_after"] = r.used_bytes <= r.free_bytes ? r.free_bytes - r.used_bytes : 0;
    e["over_bytes"] = r.used_bytes > r.free_bytes ? r.used_bytes - r.free_bytes : 0;
    regions.append(std::move(e));
  }
  d["regions"] = regions;
  d["notes"] = fit->notes();
  d["splits"] = fit->splits();
  d["text"] = text;
  d["linker_script"] = fit->splits() ? py::object(py::none()) : py::object(py::str(linker));
  if (fitted_program)
    d["fitted_program"] = py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return d;
}

py::bytes Replan(const py::object& program, uint64_t alignment) {
  const api::Program p = LoadProgram(program);
  api::Replanned r;
  {
    py::gil_scoped_release nogil;
    r = api::Replan(p, alignment);
  }
  return py::bytes(reinterpret_cast<const char*>(r.program.data()), r.program.size());
}

}  // namespace

PYBIND11_MODULE(_etmem, m) {
  m.doc() = "etmem's C++ API (include/etmem/etmem.h); use the package etmem, not this module.";

  static py::exception<api::Error> invalid_program(m, "InvalidProgramError", PyExc_ValueError);
  static py::exception<api::Error> unsupported(m, "UnsupportedProgramError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const api::Error& e) {
      switch (e.kind()) {
        case api::ErrorKind::kInvalidProgram:
          PyErr_SetString(invalid_program.ptr(), e.what());
          return;
        case api::ErrorKind::kUnsupported:
          PyErr_SetString(unsupported.ptr(), e.what());
          return;
        case api::ErrorKind::kIo:
          PyErr_SetString(PyExc_OSError, e.what());
          return;
        case api::ErrorKind::kInvalidArgument:
          PyErr_SetString(PyExc_ValueError, e.what());
          return;
      }
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  const auto model = [] {
    return std::make_tuple(py::arg("runtime"), py::arg("target"), py::arg("pool_align"),
                           py::arg("temp"), py::arg("pool"), py::arg("external_data"),
                           py::arg("backends"), py::arg("runner"), py::arg("method"),
                           py::arg("temp_pool") = py::none());
  };
  auto [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9] = model();
  m.def("analyze_json", &AnalyzeJson, py::arg("program"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("analyze", &Analyze, py::arg("program"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("json_to_python", &FromJson, py::arg("text"));  // for the tests
  m.def("analyze_text", &AnalyzeText, py::arg("program"), py::arg("format"),
        py::arg("allocations"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("check_budget", &CheckBudget, py::arg("program"), py::arg("spec"), py::arg("file"), a0,
        a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("header", &Header, py::arg("program"), py::arg("margin"), py::arg("define_pools"),
        py::arg("section"), py::arg("board"), py::arg("reserve"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("plan", &Plan, py::arg("program"), py::arg("format"), py::arg("plan_method"),
        py::arg("alignment"), py::arg("columns"), py::arg("board"),
        py::arg("reserve"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("fit", &Fit, py::arg("program"), py::arg("board"), py::arg("reserve"),
        py::arg("fitted_program"), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
  m.def("boards", [] {
    py::list out;
    for (const api::Board& b : api::Boards()) {
      py::dict d;
      d["name"] = b.name();
      d["description"] = b.description();
      py::list regions;
      for (const api::BoardRegion& r : b.regions()) {
        py::dict e;
        e["name"] = r.name;
        e["origin"] = r.origin ? py::object(py::int_(*r.origin)) : py::object(py::none());
        e["size_bytes"] = r.size_bytes;
        e["free_bytes"] = r.free_bytes;
        e["base_align"] = r.base_align;
        e["section"] = r.section;
        regions.append(std::move(e));
      }
      d["regions"] = regions;
      out.append(std::move(d));
    }
    return out;
  });
  m.def("replan", &Replan, py::arg("program"), py::arg("alignment"));
  m.def("releases", [] {
    std::vector<std::pair<std::string, std::string>> out;
    // Published releases, what analyze(runtime="all") covers; snapshots of main (a commit)
    // are named by runtime="main".
    for (const api::ReleaseInfo& r : api::Releases())
      if (r.commit.empty()) out.emplace_back(r.version, r.summary);
    return out;
  });
  m.def("targets", [] {
    py::list out;
    for (const api::TargetInfo& t : api::Targets()) {
      py::dict d;
      d["name"] = t.name;
      d["description"] = t.description;
      d["pointer_bytes"] = t.pointer_bytes;
      d["int64_align"] = t.int64_align;
      d["default_pool_align"] = t.default_pool_align;
      out.append(std::move(d));
    }
    return out;
  });
  m.def("version", &api::Version);
}
