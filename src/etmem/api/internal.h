// Owns: what stands behind the public handles of include/etmem/etmem.h (Program::Impl,
// Report::Impl, Board::Impl, BoardFit::Impl), the mapping from api::Options to report::ReportOptions, and the conversion of
// an internal Error into the thrown api::Error: for the API's files, which render the internal
// values with report/'s writers, and for tests. Not installed; not part of the public API.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/board/fit_program.h"
#include "etmem/pte/program_view.h"
#include "etmem/report/c_header.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/analysis/verdict.h"
#include "etmem/etmem.h"

namespace etmem::api {

struct Program::Impl {
  pte::ProgramView view;  // at a stable address: reports point into it
};

struct Report::Impl {
  Program program;  // keeps report.program alive
  report::Report report;
  bool kept_allocations = true;
  Options options;  // what it was built with (a fitted program is analysed again with them)
};

struct Board::Impl {
  board::Board board;
};

struct BoardFit::Impl {
  Report report;  // keeps the program and the report alive
  Board board;
  board::ProgramFit fit;
};

// `etmem header --board`: the fit the header gives (the report's method or Options::method, the
// method pool with the header's margin; a placement that splits a planned buffer is an Error),
// and its placements as the header writes them (`runner`: the pools the fit placed are a
// runner's).
board::ProgramFit HeaderFit(const Report& report, const HeaderOptions& header);
report::CHeaderBoard HeaderBoard(const board::ProgramFit& fit, bool runner);

// "ID=BYTES[:ALIGN]" (--backend): what backend ID's init() takes from the method allocator, or
// the one-line error naming the option.
Result<std::pair<std::string, runtime::DeclaredBackendInit>> ParseBackend(const std::string& s);

// The public verdict of an internal one, and back (the same kinds).
Verdict ToApi(const report::Verdict& v);
// A result's JSON events as the public value (JsonValue): the events hold what they walk.
JsonValue MakeJsonValue(report::JsonEvents events);
report::Verdict FromApi(const Verdict& v);

// The internal report of a public one (for the command line's own printing).
inline const report::Report& Internal(const Report& r) { return r.impl().report; }
inline const pte::ProgramView& Internal(const Program& p) { return p.impl().view; }

// Throws `error` as an api::Error (same message, its kind).
[[noreturn]] void Throw(const etmem::Error& error);
// The value of `r`, or throws its error.
template <typename T>
T Take(Result<T> r) {
  if (!r) Throw(r.error());
  return std::move(r).value();
}

// "PATH: ExecuTorch 0.3.0 refuses method 'forward' (NotSupported): why", for a refused method.
std::string RefusalLine(const report::Report& r, const report::MethodReport& m);

// The report options for one (release, target) pair: exactly what `etmem analyze` passes.
//   temp "runner"  -> temp_is_runner_default, load.temp_allocator = release.runner_passes_temp
//   temp "nonnull" -> load.temp_allocator = true; "null" -> false
//   external_data  -> load.external_data_map
//   pool_align     -> pool_align (unset: target.malloc_align)
//   backends       -> load.declared_backends (parsed "ID=BYTES[:ALIGN]")
//   pool, method, keep_allocations -> pool_bytes, method, keep_allocations
//   runner         -> runner (runner::SelectRunner; its pool_align is the --pool-align override)
Result<report::ReportOptions> MakeReportOptions(const Options& options,
                                                const runtime::RuntimeTraits& release,
                                                const abi::Abi& target);

}  // namespace etmem::api
