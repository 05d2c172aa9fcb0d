// Owns: the extension module etmem._etmem, a thin pybind11 binding of the public C++ API
// (include/etmem/etmem.h): a program from a path or from any contiguous buffer, the options of
// the command line, the calls made with the GIL released, and api::Error mapped to Python
// exceptions. Not: the Python-facing functions and their documentation (etmem/__init__.py),
// anything of etmem's internals (only the public header is included).
#include <Python.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <functional>
#include <unordered_map>
#include <type_traits>
#include <utility>
#include <variant>
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
// JSON; `reserve` adds reservations (--reserve), each a (region, bytes) pair (a mapping's item,
// its size read by the package) or the user's own "REGION=BYTES" str, read by the library's one
// parser as the command line's.
using Reservation = std::variant<std::string, std::pair<std::string, uint64_t>>;
using Reservations = std::optional<std::vector<Reservation>>;

std::optional<api::Board> LoadBoard(const py::object& board, const Reservations& reserve) {
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
    for (const Reservation& r : *reserve)
      b = std::visit(
          [&](const auto& given) {
            if constexpr (std::is_same_v<std::decay_t<decltype(given)>, std::string>)
              return b->Reserve(given);
            else
              return b->Reserve(given.first, given.second);
          },
          r);
  return b;
}

// The model options from the keywords, bound through the one options schema (api::OptionSchema,
// what the command line registers and the page reads): each keyword is a schema field, set by
// the field's parser from the values the command line would pass. etmem/__init__.py has checked
// each keyword's type (by the field's kind); None leaves the default. The one thing the command
// line cannot pass, a .ptd's bytes for external_data, is set here. `o`: the defaults.
api::Options MakeOptions(const py::kwargs& model, api::Options o = {}) {
  std::set<std::string> fields;
  for (const api::OptionSpec& spec : api::OptionSchema()) {
    fields.insert(spec.field);
    if (!model.contains(spec.field.c_str())) continue;
    const py::object value = model[spec.field.c_str()];
    if (value.is_none()) continue;
    std::vector<std::string> values;
    switch (spec.kind) {
      case api::OptionSpec::Kind::kFlag:
        if (py::isinstance<py::bytes>(value)) {  // external_data: the .ptd's bytes
          const std::string bytes = value.cast<std::string>();
          const auto* b = reinterpret_cast<const std::byte*>(bytes.data());
          spec.set(o, {});
          o.external_data_bytes.assign(b, b + bytes.size());
          continue;
        }
        if (py::isinstance<py::str>(value)) values.push_back(value.cast<std::string>());
        else if (!value.cast<bool>()) continue;  // off: not given
        break;
      case api::OptionSpec::Kind::kList:
        values = value.cast<std::vector<std::string>>();
        break;
      case api::OptionSpec::Kind::kBytes:
      case api::OptionSpec::Kind::kAlignment:
        values.push_back(std::to_string(value.cast<uint64_t>()));
        break;
      case api::OptionSpec::Kind::kText:
      case api::OptionSpec::Kind::kChoice:
        values.push_back(value.cast<std::string>());
        break;
    }
    spec.set(o, values);
  }
  for (const auto& [key, value] : model)
    if (!fields.count(py::str(key)))
      throw py::type_error("unexpected keyword " + std::string(py::str(key)) + " (no such option)");
  return o;
}

// Every pair the options name: one report, or AnalyzeAll's when runtime or target is "all".
std::vector<api::Report> AnalyzePairs(const api::Program& program, const api::Options& o) {
  if (o.runtime == "all" || o.target == "all") return api::AnalyzeAll(program, o);
  return {api::Analyze(program, o)};
}

// Render(kJson)'s value (api::JsonValue, walked by the library) as Python objects: dicts in the
// text's member order, lists, int, str, bool and None: what json.loads makes of the text,
// without text. Keys and short strings repeat (members, sites, categories): each distinct one
// is made once; longer ones (an allocation's "what") rarely do and are made each time. Needs
// the GIL.
class PythonBuilder final : public api::JsonVisitor {
 public:
  ~PythonBuilder() override {
    for (auto& [text, object] : cache_) Py_DECREF(object);
    for (Frame& f : stack_) {
      Py_XDECREF(f.container);
      Py_XDECREF(f.key);
    }
    Py_XDECREF(result_);
  }
  py::object Take() { return py::reinterpret_steal<py::object>(std::exchange(result_, nullptr)); }

  void Null() override { Add(Py_NewRef(Py_None)); }
  void Bool(bool v) override { Add(Py_NewRef(v ? Py_True : Py_False)); }
  void Int(int64_t v) override { Add(PyLong_FromLongLong(v)); }
  void Uint(uint64_t v) override { Add(PyLong_FromUnsignedLongLong(v)); }
  void Double(double v) override { Add(PyFloat_FromDouble(v)); }
  void String(std::string_view v) override { Add(v.size() <= 24 ? Cached(v) : Text(v)); }
  void BeginArray(size_t size) override { Open(PyList_New(static_cast<Py_ssize_t>(size))); }
  void BeginObject(size_t) override { Open(PyDict_New()); }
  void Key(std::string_view key) override { stack_.back().key = Cached(key); }
  void EndArray() override { Close(); }
  void EndObject() override { Close(); }

 private:
  struct Frame {
    PyObject* container;
    PyObject* key = nullptr;  // a dict's member whose value comes next
    Py_ssize_t index = 0;     // a list's next item
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  static PyObject* Checked(PyObject* o) {
    if (o == nullptr) throw py::error_already_set();
    return o;
  }
  static PyObject* Text(std::string_view v) {
    return Checked(PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "strict"));
  }
  PyObject* Cached(std::string_view v) {
    auto it = cache_.find(v);
    if (it == cache_.end()) it = cache_.emplace(std::string(v), Text(v)).first;
    return Py_NewRef(it->second);
  }
  void Open(PyObject* container) { stack_.push_back({Checked(container)}); }
  void Close() {
    PyObject* done = stack_.back().container;
    stack_.pop_back();
    Add(done);
  }
  // Takes the reference `v`: into the open list or dict, or as the result.
  void Add(PyObject* v) {
    Checked(v);
    if (stack_.empty()) {
      result_ = v;
      return;
    }
    Frame& f = stack_.back();
    if (PyList_Check(f.container)) {
      PyList_SET_ITEM(f.container, f.index++, v);  // steals v
      return;
    }
    const int failed = PyDict_SetItem(f.container, f.key, v);
    Py_DECREF(v);
    Py_CLEAR(f.key);
    if (failed) throw py::error_already_set();
  }

  std::vector<Frame> stack_;
  PyObject* result_ = nullptr;
  std::unordered_map<std::string, PyObject*, Hash, std::equal_to<>> cache_;
};

// A library result's JSON value as Python objects (PythonBuilder), built with the GIL held.
py::object ToPython(const api::JsonValue& value) {
  PythonBuilder builder;
  value.Visit(builder);
  return builder.Take();
}

// A registry's or result's items as a list of dicts, one per item, `fill(dict, item)` setting its
// members.
template <typename Items, typename Fill>
py::list Rows(const Items& items, Fill fill) {
  py::list out;
  for (const auto& item : items) {
    py::dict d;
    fill(d, item);
    out.append(std::move(d));
  }
  return out;
}

// `etmem analyze --format json` for the pairs: one object, or with "all" one object whose
// "results" are theirs.
std::string AnalyzeJson(const py::object& program, const py::kwargs& model) {
  const api::Options o = MakeOptions(model);
  const api::Program p = LoadProgram(program);
  py::gil_scoped_release nogil;
  return api::Render(AnalyzePairs(p, o), api::Format::kJson);
}

// The same as Python values: a dict (with "all": {"schema", "verdict", "verdict_detail",
// "results": [a dict per pair]}).
py::object Analyze(const py::object& program, const py::kwargs& model) {
  const api::Options o = MakeOptions(model);
  const api::Program p = LoadProgram(program);
  std::optional<api::JsonValue> value;
  {
    py::gil_scoped_release nogil;
    value = api::ToJsonValue(AnalyzePairs(p, o));
  }
  return ToPython(*value);
}

// `etmem analyze` in another format ("text", "csv", "md"), optionally with every allocation.
std::string AnalyzeText(const py::object& program, const std::string& format, bool allocations,
                        const py::kwargs& model) {
  api::Options o = MakeOptions(model);
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

// `etmem summary PROGRAM --format text|json`: the JSON's value as a dict, or the text as str.
py::object Summary(const py::object& program, const std::string& format, const py::kwargs& model) {
  const api::Options o = MakeOptions(model);
  if (format != "text" && format != "json")
    throw py::value_error("format " + format + ": want json or text");
  const api::Program p = LoadProgram(program);
  std::optional<api::JsonValue> value;
  std::string text;
  {
    py::gil_scoped_release nogil;
    const api::Report r = api::Analyze(p, o);
    if (format == "json")
      value = api::SummaryJson(r);
    else
      text = api::Summary(r, api::Format::kText);
  }
  return value ? ToPython(*value) : py::str(text);
}

// The budget checked against every pair: (item, scope, breakdown, used, limit, lower_bound,
// over, message) per item.
// `budget` is the command line's spec (str) or {item: bytes} (api::Budget's members by name).
py::list CheckBudget(const py::object& program, const py::object& spec,
                     const std::optional<std::string>& file, const py::kwargs& model) {
  api::Options o = MakeOptions(model);
  o.keep_allocations = false;  // totals are enough
  if (!spec.is_none() == file.has_value())
    throw py::value_error("check_budget: give a budget or a budget_file (one of them)");
  std::optional<std::string> text;
  std::optional<api::Budget> given;
  if (py::isinstance<py::str>(spec)) {
    text = spec.cast<std::string>();
  } else if (py::isinstance<py::dict>(spec)) {
    given.emplace();
    for (const auto& [key, value] : spec.cast<py::dict>()) {
      const std::string item = py::str(key);
      std::optional<uint64_t>* slot =
          item == "ram" ? &given->ram : item == "flash" ? &given->flash : nullptr;
      if (slot == nullptr)
        throw py::value_error("budget: '" + item + "' is not a budget item (known: ram, flash)");
      *slot = value.cast<uint64_t>();
    }
    if (!given->ram && !given->flash)
      throw py::value_error("budget: sets no budget item (known: ram, flash)");
  } else if (!spec.is_none()) {
    throw py::type_error("budget: want a str or a dict");
  }
  const api::Program p = LoadProgram(program);
  std::vector<api::BudgetItem> items;
  {
    py::gil_scoped_release nogil;
    // As the command line: the budget is read first, its error reported after the analysis's.
    std::optional<api::Budget> budget;
    std::optional<api::Error> budget_error;
    try {
      budget = given ? *given : text ? api::ParseBudget(*text) : api::ReadBudgetFile(*file);
    } catch (const api::Error& e) {
      budget_error = e;
    }
    const std::vector<api::Report> reports = AnalyzePairs(p, o);
    if (budget_error) throw *budget_error;
    items = api::CheckBudget(reports, *budget);
  }
  return Rows(items, [](py::dict& d, const api::BudgetItem& i) {
    d["item"] = i.item;
    d["scope"] = i.scope;
    d["breakdown"] = i.breakdown;
    d["used"] = i.used;
    d["limit"] = i.limit;
    d["lower_bound"] = i.lower_bound;
    d["over"] = i.over;
    d["message"] = i.message.empty() ? py::object(py::none()) : py::object(py::str(i.message));
  });
}

std::string Header(const py::object& program, const std::optional<std::string>& margin,
                   bool define_pools, const std::optional<std::string>& section,
                   const py::object& board, const Reservations& reserve,
                   const py::kwargs& model) {
  api::Options o = MakeOptions(model);
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

// `etmem plan`: the JSON's value as a dict, or the text or HTML page as str.
py::object Plan(const py::object& program, const std::string& format,
                const std::optional<std::string>& plan_method, uint64_t alignment,
                uint32_t columns, const py::object& board,
                const Reservations& reserve, const py::kwargs& model) {
  api::PlanOptions po;
  if (format == "text") po.format = api::PlanFormat::kText;
  else if (format == "json") po.format = api::PlanFormat::kJson;
  else if (format == "html") po.format = api::PlanFormat::kHtml;
  else throw py::value_error("format " + format + ": want json, text or html");
  if (plan_method) po.method = *plan_method;
  po.alignment = alignment;
  po.columns = columns;
  po.model = MakeOptions(model);
  const api::Program p = LoadProgram(program);
  po.board = LoadBoard(board, reserve);
  std::optional<api::JsonValue> value;
  std::string text;
  {
    py::gil_scoped_release nogil;
    if (po.format == api::PlanFormat::kJson)
      value = api::PlanJson(p, po);
    else
      text = api::Plan(p, po).output;
  }
  return value ? ToPython(*value) : py::str(text);
}

// `etmem fit --format json`'s value as a dict (api::FitJson: the members the command line's JSON
// is rendered from), with what only Python has: "text" (what `etmem fit` prints), "linker_script"
// (None when a buffer is split) and, when asked, "fitted_program" (the bytes `-o` writes, read
// back and checked; the dict's "output" stays None: nothing is written).
py::dict Fit(const py::object& program, const py::object& board, const Reservations& reserve,
             bool fitted_program, const py::kwargs& model) {
  api::Options o = MakeOptions(model);
  const api::Program p = LoadProgram(program);
  if (board.is_none()) throw py::value_error("fit: needs a board");
  const api::Board b = *LoadBoard(board, reserve);
  std::optional<api::BoardFit> fit;
  std::optional<api::JsonValue> value;
  std::vector<std::byte> bytes;
  std::string text, linker;
  {
    py::gil_scoped_release nogil;
    fit = api::Fit(api::Analyze(p, o, b), b, o.method);
    value = api::FitJson(*fit);
    text = fit->Render();
    if (!fit->splits()) linker = fit->LinkerScript();
    if (fitted_program) bytes = fit->FittedProgram();
  }
  py::dict d = ToPython(*value);
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

// `etmem analyze PROGRAM --per-op --format F --sort C`: the per-operator table of one pair, the
// JSON's value as a dict, or as the command prints it (text, csv or md) as str.
py::object PerOp(const py::object& program, const std::string& format, const std::string& sort,
                 const py::kwargs& model) {
  api::Options o = MakeOptions(model);
  api::Format f;
  if (format == "json") f = api::Format::kJson;
  else if (format == "text") f = api::Format::kText;
  else if (format == "csv") f = api::Format::kCsv;
  else if (format == "md") f = api::Format::kMarkdown;
  else throw py::value_error("format " + format + ": want json, text, csv or md");
  o.keep_allocations = false;
  const api::Program p = LoadProgram(program);
  std::optional<api::JsonValue> value;
  std::string text;
  {
    py::gil_scoped_release nogil;
    const api::Report r = api::Analyze(p, o);
    if (f == api::Format::kJson)
      value = api::PerOpJson(r, sort);
    else
      text = api::RenderPerOp(r, f, sort);
  }
  return value ? ToPython(*value) : py::str(text);
}

// `etmem firmware IMAGE [PROGRAM] --format json|text`: a linked image (a path, or its bytes
// named `name` in messages) checked against its program; the report's JSON value as a dict, or
// its text as str.
py::object Firmware(const py::object& image, const std::string& name,
                    const std::optional<std::string>& program, const py::object& board,
                    bool components, const std::string& format, const py::kwargs& model) {
  api::FirmwareOptions o;
  o.model = MakeOptions(model, o.model);  // its target: none (the ELF header's)
  if (program) o.program_path = *program;
  o.components = components;
  const api::Format f = format == "json"   ? api::Format::kJson
                        : format == "text" ? api::Format::kText
                                           : throw py::value_error("format " + format +
                                                                   ": want json or text");
  o.board = LoadBoard(board, std::nullopt);
  std::optional<api::FirmwareReport> r;
  if (py::isinstance<py::str>(image)) {
    const std::string path = image.cast<std::string>();
    py::gil_scoped_release nogil;
    r = api::CheckFirmware(path, o);
  } else if (PyObject_CheckBuffer(image.ptr())) {
    BufferView view(image);
    py::gil_scoped_release nogil;
    r = api::CheckFirmware(
        std::span(static_cast<const std::byte*>(view.data()), view.size()), name, o);
  } else {
    throw py::type_error("image: want a path (str or os.PathLike) or bytes-like object, not " +
                         std::string(Py_TYPE(image.ptr())->tp_name));
  }
  if (f == api::Format::kJson) return ToPython(api::ToJsonValue(*r));
  return py::str(api::Render(*r, f));
}

// A library message for Python: the command line's flags named as the keywords that set them
// ("--kernels: no kernel library ..." -> "kernels: no kernel library ...").
// The flags a message may name and the keywords that set them: every option of the schema, and
// the verbs' own flags, each the keyword with '_' for '-'.
const std::unordered_map<std::string, std::string>& FlagKeywords() {
  static const std::unordered_map<std::string, std::string> keywords = [] {
    std::unordered_map<std::string, std::string> out;
    for (const api::OptionSpec& spec : api::OptionSchema()) out[spec.flag.substr(2)] = spec.field;
    for (std::string own : {"margin", "define_pools", "section", "board", "reserve", "format",
                            "alignment", "columns", "allocations", "budget"}) {
      std::string flag = own;
      std::replace(flag.begin(), flag.end(), '_', '-');
      out[flag] = own;
    }
    return out;
  }();
  return keywords;
}

std::string PythonMessage(std::string_view text) {
  const auto& keywords = FlagKeywords();
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const bool starts = text.substr(i, 2) == "--" &&
                        (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                     text[i - 1] == '-'));
    if (starts) {
      size_t end = i + 2;
      while (end < text.size() && (std::islower(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '-'))
        ++end;
      const auto hit = keywords.find(std::string(text.substr(i + 2, end - i - 2)));
      if (hit != keywords.end()) {
        out += hit->second;
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
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
      const std::string message = PythonMessage(e.what());
      switch (e.kind()) {
        case api::ErrorKind::kInvalidProgram:
          PyErr_SetString(invalid_program.ptr(), message.c_str());
          return;
        case api::ErrorKind::kUnsupported:
          PyErr_SetString(unsupported.ptr(), message.c_str());
          return;
        case api::ErrorKind::kIo:
          PyErr_SetString(PyExc_OSError, message.c_str());
          return;
        case api::ErrorKind::kInvalidArgument:
          PyErr_SetString(PyExc_ValueError, message.c_str());
          return;
      }
      PyErr_SetString(PyExc_RuntimeError, message.c_str());
    }
  });

  // The model options come as keywords (MakeOptions reads them through the schema).
  m.def("analyze_json", &AnalyzeJson, py::arg("program"));
  m.def("analyze", &Analyze, py::arg("program"));
  m.def("analyze_text", &AnalyzeText, py::arg("program"), py::arg("format"),
        py::arg("allocations"));
  m.def("per_op", &PerOp, py::arg("program"), py::arg("format"), py::arg("sort"));
  m.def("summary", &Summary, py::arg("program"), py::arg("format"));
  m.def("check_budget", &CheckBudget, py::arg("program"), py::arg("spec"), py::arg("file"));
  m.def("header", &Header, py::arg("program"), py::arg("margin"), py::arg("define_pools"),
        py::arg("section"), py::arg("board"), py::arg("reserve"));
  m.def("plan", &Plan, py::arg("program"), py::arg("format"), py::arg("plan_method"),
        py::arg("alignment"), py::arg("columns"), py::arg("board"), py::arg("reserve"));
  m.def("fit", &Fit, py::arg("program"), py::arg("board"), py::arg("reserve"),
        py::arg("fitted_program"));
  m.def("firmware", &Firmware, py::arg("image"), py::arg("name"), py::arg("program"),
        py::arg("board"), py::arg("components"), py::arg("format"));
  m.def("boards", [] {
    return Rows(api::Boards(), [](py::dict& d, const api::Board& b) {
      d["name"] = b.name();
      d["description"] = b.description();
      d["regions"] = Rows(b.regions(), [](py::dict& e, const api::BoardRegion& r) {
        e["name"] = r.name;
        e["origin"] = r.origin ? py::object(py::int_(*r.origin)) : py::object(py::none());
        e["size_bytes"] = r.size_bytes;
        e["free_bytes"] = r.free_bytes;
        e["base_align"] = r.base_align;
        e["section"] = r.section;
      });
    });
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
  m.def("runners", [] {
    return Rows(api::Runners(), [](py::dict& d, const api::RunnerInfo& r) {
      d["name"] = r.name;
      d["first_release"] = r.first_release;
      d["last_release"] = r.last_release;
      d["source"] = r.source;
    });
  });
  m.def("targets", [] {
    return Rows(api::Targets(), [](py::dict& d, const api::TargetInfo& t) {
      d["name"] = t.name;
      d["description"] = t.description;
      d["pointer_bytes"] = t.pointer_bytes;
      d["int64_align"] = t.int64_align;
      d["default_pool_align"] = t.default_pool_align;
    });
  });
  // The one options schema (api::OptionSchema): what the package checks each model keyword by,
  // and what scripts/generate_python_stubs.py writes the stubs' keyword lines from.
  m.def("option_schema", [] {
    return Rows(api::OptionSchema(), [](py::dict& d, const api::OptionSpec& spec) {
      d["field"] = spec.field;
      d["flag"] = spec.flag;
      switch (spec.kind) {
        case api::OptionSpec::Kind::kText: d["kind"] = "text"; break;
        case api::OptionSpec::Kind::kChoice: d["kind"] = "choice"; break;
        case api::OptionSpec::Kind::kBytes: d["kind"] = "bytes"; break;
        case api::OptionSpec::Kind::kAlignment: d["kind"] = "alignment"; break;
        case api::OptionSpec::Kind::kFlag: d["kind"] = "flag"; break;
        case api::OptionSpec::Kind::kList: d["kind"] = "list"; break;
      }
      d["help"] = spec.help;
      d["default_help"] = spec.default_help;
      d["default"] = spec.default_value;
      d["choices"] = spec.choices;
      d["max"] = spec.max;
      d["model"] = spec.model;
    });
  });
  m.def("version", &api::Version);
  // The command line's size grammar ("4K", "0x1000"), for the package's size keywords.
  m.def("byte_size", [](const std::string& text) { return api::ByteSize(text); }, py::arg("text"));
}
