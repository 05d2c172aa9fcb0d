// Owns: api::Plan and api::PlanJson, `etmem plan`: the options checked, the planned memory built
// (analysis/plan.h) and rendered (report/plan_render.h: text and JSON; report/html_report.h: the
// page beside the method allocator's breakdown), with --board the placement region by region
// after it (report/fit_render.h). Not: the live ranges, checks and advisories (plan/), their
// words (report/).
#include <memory>
#include <optional>
#include <string>

#include "etmem/analysis/plan.h"
#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/report/fit_render.h"
#include "etmem/report/html_report.h"
#include "etmem/report/plan_render.h"

namespace etmem::api {
namespace {

void CheckPlanOptions(const pte::ProgramView& view, const PlanOptions& args) {
  if (args.alignment == 0 || args.alignment > 4096 || (args.alignment & (args.alignment - 1)) != 0)
    throw api::Error(ErrorKind::kInvalidArgument, "--alignment " + std::to_string(args.alignment) +
                                                      ": must be a power of two up to 4096");
  if (args.columns < 8 || args.columns > 512)
    throw api::Error(ErrorKind::kInvalidArgument,
                     "--columns " + std::to_string(args.columns) + ": not in [8 - 512]");
  if (!args.method.empty() && !view.FindMethod(args.method))
    throw api::Error(ErrorKind::kInvalidArgument,
                     view.path + ": no method named '" + Printable(args.method) + "'");
}

report::Planned PlanMethods(const pte::ProgramView& view, const PlanOptions& args) {
  CheckPlanOptions(view, args);
  return Take(report::PlanMethods(view, args.method, args.alignment));
}

}  // namespace

JsonValue PlanJson(const Program& program, const PlanOptions& args) {
  auto planned = std::make_shared<const report::Planned>(PlanMethods(program.impl().view, args));
  if (args.board)
    throw api::Error(ErrorKind::kInvalidArgument, "--board: only with --format text or html");
  const uint64_t alignment = args.alignment;
  return MakeJsonValue([program, planned, alignment](JsonVisitor& v) {
    report::VisitPlanJson(v, program.impl().view, *planned, alignment);
  });
}

PlanResult Plan(const Program& program, const PlanOptions& args) {
  const pte::ProgramView& view = program.impl().view;
  CheckPlanOptions(view, args);
  std::optional<Report> rep;
  if (args.format == PlanFormat::kHtml) {
    Options model = args.model;
    model.method = args.method;
    rep = args.board ? Analyze(program, model, *args.board) : Analyze(program, model);
  }
  const report::Planned planned = PlanMethods(view, args);
  if (args.board && args.format == PlanFormat::kJson)
    throw api::Error(ErrorKind::kInvalidArgument, "--board: only with --format text or html");
  std::string output;
  if (args.format == PlanFormat::kHtml)
    output = report::RenderPlanHtml(report::PlanPage(view, planned, Internal(*rep)));
  else if (args.format == PlanFormat::kJson)
    output = report::PlanJsonText(view, planned, args.alignment);
  else
    output = report::PlanText(view, planned, args.alignment, args.columns);
  if (args.board) {
    // After the plan (the HTML page: before </body>), the placement region by region.
    Options model = args.model;
    model.method = args.method;
    const BoardFit fit = Fit(Analyze(program, model, *args.board), *args.board, args.method);
    if (args.format == PlanFormat::kHtml) {
      const size_t body = output.rfind("</body>");
      const std::string regions = report::FitRegionsHtml(fit.impl().fit);
      output = body == std::string::npos
                   ? output + regions
                   : output.substr(0, body) + regions + output.substr(body);
    } else {
      output += report::FitRegionsText(fit.impl().fit);
    }
  }
  return PlanResult{std::move(output), planned.sound()};
}

Verdict Judge(const PlanResult& plan) { return ToApi(report::PlanVerdict(plan.sound)); }

}  // namespace etmem::api
