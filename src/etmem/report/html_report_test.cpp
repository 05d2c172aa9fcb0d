// Owns: tests of report/'s one HTML escaper (plan's page and fit's board section share it).
#include "etmem/report/html_report.h"

#include <gtest/gtest.h>

namespace etmem::report {
namespace html_report_test {

// Every character that can end an element's text or an attribute value (either quote) is
// escaped, so a name quoted from input cannot open a tag or close an attribute.
TEST(HtmlEscape, EscapesBothQuotesAndMarkup) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&#39;d");
  EXPECT_EQ(HtmlEscape("plain text 123"), "plain text 123");
}

}  // namespace html_report_test
}  // namespace etmem::report
