// `etmem plan --format html`: the page is self-contained (no http(s) reference) and, rendered by
// headless Chromium, its timelines hold exactly one tensor rect per planned tensor with a live
// range; the writer escapes what it is given and leaves never-used tensors out of the timeline.
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "etmem_cli.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/html_report.h"
#include "etmem/testing/scenarios.h"

namespace etmem::test {
namespace plan_html_test {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The values of the planned tensors some instruction, input or output uses.
std::set<int> UsedPlannedValues(const testing::ProgramBuilder& b) {
  auto p = pte::ReadProgramBytes(b.Build(), "built.pte");
  EXPECT_TRUE(p) << p.error().message;
  auto l = plan::ComputeLifetimes(p->methods[0]);
  EXPECT_TRUE(l) << l.error().message;
  std::set<int> values;
  for (const plan::PlannedTensor& t : l->tensors)
    if (t.used) values.insert(t.value);
  return values;
}

std::string DumpDom(const fs::path& html) {
  const fs::path profile = TempPath("chromium_profile");
  fs::create_directories(profile);
  CliRun r = Shell("timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
                   "--no-first-run --disable-background-networking --disable-component-update "
                   "--disable-sync --user-data-dir=" + profile.string() +
                   " --dump-dom file://" + fs::absolute(html).string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(PlanHtml, RenderedPageHasOneRectPerPlannedTensorAndNoNetwork) {
  const fs::path program = MotivatingCnnFile();
  const fs::path html = TempPath("plan.html");
  CliRun r = Etmem("plan " + program.string() + " --format html -o " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = ReadFile(html);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);  // no external script or image
  EXPECT_NE(page.find("Method allocator pool: "), std::string::npos);
  EXPECT_NE(page.find("class=\"category\""), std::string::npos);
  if (!HaveTool("chromium")) GTEST_SKIP() << "chromium is absent (apt-get install -y chromium)";
  const std::string dom = DumpDom(html);
  const size_t svg = dom.find("<svg class=\"timeline\"");
  ASSERT_NE(svg, std::string::npos) << dom.substr(0, 2000);
  const std::set<int> expected = UsedPlannedValues(testing::MotivatingCnn());
  EXPECT_EQ(expected.size(), 17u);
  EXPECT_EQ(Count(dom, "class=\"tensor\""), expected.size());
  std::set<int> drawn;
  const std::regex rect(R"re(<rect class="tensor" data-value="(\d+)")re");
  for (std::sregex_iterator it(dom.begin(), dom.end(), rect), end; it != end; ++it)
    drawn.insert(std::stoi((*it)[1]));
  EXPECT_EQ(drawn, expected);
  EXPECT_GE(Count(dom, "class=\"peak\""), 1u);
}

TEST(PlanHtml, WriterEscapesAndListsNeverUsedTensorsApart) {
  report::HtmlMethod m;
  m.name = "f<&>";
  m.instructions = 2;
  m.buffers.push_back({1, 128, 64, {64, 32}});
  m.tensors.push_back({1, 1, 0, 64, "float32", {4, 4}, true, 0, 1, "input"});
  m.tensors.push_back({2, 1, 64, 64, "int64", {8}, false, 0, 0, ""});
  m.categories.push_back({"values", 100, 3});
  const std::string page = report::RenderPlanHtml({"a\"b.pte", "assumed", {m}});
  EXPECT_EQ(Count(page, "class=\"tensor\""), 1u);
  EXPECT_NE(page.find("value 1: float32 [4, 4], 64 B at offset 0, live at instructions 0-1 "
                      "(input)"),
            std::string::npos);
  EXPECT_NE(page.find("value 2: int64 [8], 64 B at offset 64 of buffer 1"), std::string::npos);
  EXPECT_NE(page.find("f&lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(page.find("a&quot;b.pte"), std::string::npos);
  EXPECT_EQ(page.find("f<&>"), std::string::npos);
  EXPECT_EQ(Count(page, "<rect class=\"peak\""), 1u);  // one instruction reaches 64 B
}

}  // namespace plan_html_test
}  // namespace etmem::test
