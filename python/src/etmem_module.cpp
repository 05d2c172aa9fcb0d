// Owns: the extension module etmem._etmem, a thin pybind11 binding of the public C++ API
// (include/etmem/etmem.h): a program from a path or from any contiguous buffer, the options of
// the command line, the calls made with the GIL released, and api::Error mapped to Python
// exceptions. Not: the Python-facing functions and their documentation (etmem/__init__.py),
// anything of etmem's internals (only the public header is included).
#include <Python.h>

#include <optional>
#include <string>
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

api::Options MakeOptions(const std::string& runtime, const std::string& target,
                         std::optional<uint32_t> pool_align, const std::string& temp,
                         std::optional<uint64_t> pool, bool external_data,
                         std::optional<std::vector<std::string>> backends,
                         std::optional<std::string> runner, std::optional<std::string> method) {
  api::Options o;
  o.runtime = runtime;
  o.target = target;
  o.pool_align = pool_align;
  o.temp = temp;
  o.pool = pool;
  o.external_data = external_data;
  if (backends) o.backends = std::move(*backends);
  if (runner) o.runner = std::move(*runner);
  if (method) o.method = std::move(*method);
  return o;
}

// Every pair the options name: one report, or AnalyzeAll's when runtime or target is "all".
std::vector<api::Report> AnalyzePairs(const api::Program& program, const api::Options& o) {
  if (o.runtime == "all" || o.target == "all") return api::AnalyzeAll(program, o);
  return {api::Analyze(program, o)};
}

#define ETMEM_MODEL_ARGS                                                                      \
  const std::string &runtime, const std::string &target, std::optional<uint32_t> pool_align, \
      const std::string &temp, std::optional<uint64_t> pool, bool external_data,            \
      std::optional<std::vector<std::string>> backends, std::optional<std::string> runner,    \
      std::optional<std::string> method
#define ETMEM_MODEL_VALUES \
  runtime, target, pool_align, temp, pool, external_data, std::move(backends), std::move(runner), method

// `etmem analyze --format json` for the pairs: one object, or an array with "all".
std::string AnalyzeJson(const py::object& program, ETMEM_MODEL_ARGS) {
  const api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  const api::Program p = LoadProgram(program);
  py::gil_scoped_release nogil;
  return api::Render(AnalyzePairs(p, o), api::Format::kJson);
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
                   ETMEM_MODEL_ARGS) {
  api::Options o = MakeOptions(ETMEM_MODEL_VALUES);
  o.keep_allocations = false;
  api::HeaderOptions h;
  if (margin) h.margin = *margin;
  h.define_pools = define_pools;
  if (section) h.section = *section;
  const api::Program p = LoadProgram(program);
  py::gil_scoped_release nogil;
  return api::Header(p, o, h);
}

std::pair<std::string, bool> Plan(const py::object& program, const std::string& format,
                                  const std::optional<std::string>& plan_method,
                                  uint64_t alignment, uint32_t columns, ETMEM_MODEL_ARGS) {
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
  py::gil_scoped_release nogil;
  api::PlanResult r = api::Plan(p, po);
  return {std::move(r.output), r.sound};
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
                           py::arg("backends"), py::arg("runner"), py::arg("method"));
  };
  auto [a0, a1, a2, a3, a4, a5, a6, a7, a8] = model();
  m.def("analyze_json", &AnalyzeJson, py::arg("program"), a0, a1, a2, a3, a4, a5, a6, a7, a8);
  m.def("analyze_text", &AnalyzeText, py::arg("program"), py::arg("format"),
        py::arg("allocations"), a0, a1, a2, a3, a4, a5, a6, a7, a8);
  m.def("check_budget", &CheckBudget, py::arg("program"), py::arg("spec"), py::arg("file"), a0,
        a1, a2, a3, a4, a5, a6, a7, a8);
  m.def("header", &Header, py::arg("program"), py::arg("margin"), py::arg("define_pools"),
        py::arg("section"), a0, a1, a2, a3, a4, a5, a6, a7, a8);
  m.def("plan", &Plan, py::arg("program"), py::arg("format"), py::arg("plan_method"),
        py::arg("alignment"), py::arg("columns"), a0, a1, a2, a3, a4, a5, a6, a7, a8);
  m.def("replan", &Replan, py::arg("program"), py::arg("alignment"));
  m.def("releases", [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const api::ReleaseInfo& r : api::Releases()) out.emplace_back(r.version, r.summary);
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
