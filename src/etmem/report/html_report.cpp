// Owns: RenderPlanHtml and HtmlEscape. Each timeline is an SVG in user units: instructions run
// left to right over a fixed plot width, offsets bottom (0) to top (the buffer's size).
#include "etmem/report/html_report.h"

#include <algorithm>

#include <fmt/format.h>

namespace etmem::report {
namespace {

constexpr double kLeft = 80, kTop = 20, kPlotW = 900, kPlotH = 320, kBottom = 40;

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:17px;margin-top:32px}h3{font-size:15px}
svg{background:#fafafa;border:1px solid #ddd}
rect.tensor{stroke:#333;stroke-width:.5}rect.tensor:hover{stroke:#000;stroke-width:2;opacity:1}
rect.peak{fill:#f5c2c2;opacity:.6}line.bound{stroke:#c00;stroke-dasharray:6 4}
line.planned{stroke:#333}text{font-size:11px;fill:#333}text.peak{fill:#c00}
rect.category{fill:#5b8bd0}rect.category:hover{fill:#2d5fa8}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}
td:first-child,th:first-child{text-align:left}.note{color:#555}
)";

std::string Shape(const std::vector<int32_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

struct Scale {
  double column = 1;  // user units per instruction
  double per_byte = 0;
  double X(int64_t instruction) const { return kLeft + column * static_cast<double>(instruction); }
  double Y(uint64_t offset) const {
    return kTop + kPlotH - per_byte * static_cast<double>(offset);
  }
};

Scale MakeScale(const HtmlMethod& m, const HtmlBuffer& b) {
  uint64_t span = std::max<int64_t>(b.planned, 0);
  for (const HtmlTensor& t : m.tensors)
    if (t.memory_id == b.memory_id) span = std::max(span, t.offset + t.bytes);
  return {kPlotW / static_cast<double>(std::max<int64_t>(m.instructions, 1)),
          kPlotH / static_cast<double>(std::max<uint64_t>(span, 1))};
}

std::string TensorTitle(const HtmlTensor& t) {
  return fmt::format("value {}: {} {}, {} B at offset {}, live at instructions {}-{}{}", t.value,
                     t.dtype, Shape(t.shape), t.bytes, t.offset, t.first, t.last,
                     t.notes.empty() ? "" : " (" + t.notes + ")");
}

std::string TensorRect(const HtmlTensor& t, size_t index, const Scale& s) {
  const double top = s.Y(t.offset + t.bytes);
  const double height = std::max(s.Y(t.offset) - top, 1.0);
  return fmt::format(
      "<rect class=\"tensor\" data-value=\"{}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" "
      "height=\"{:.2f}\" fill=\"hsl({},60%,65%)\" opacity=\".85\"><title>{}</title></rect>\n",
      t.value, s.X(t.first), top, s.column * static_cast<double>(t.last - t.first + 1), height,
      (index * 47) % 360, HtmlEscape(TensorTitle(t)));
}

// Bands behind every instruction where the live bytes reach their maximum.
std::string PeakMarks(const HtmlBuffer& b, const Scale& s) {
  if (b.live_bytes.empty()) return "";
  const uint64_t peak = *std::max_element(b.live_bytes.begin(), b.live_bytes.end());
  if (peak == 0) return "";
  std::string out;
  for (size_t i = 0; i < b.live_bytes.size(); ++i) {
    if (b.live_bytes[i] != peak) continue;
    const auto at = static_cast<int64_t>(i);
    out += fmt::format(
        "<rect class=\"peak\" x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\"><title>peak: "
        "{} B live at instruction {}</title></rect>\n",
        s.X(at), kTop, s.column, kPlotH, peak, at);
  }
  out += fmt::format("<text class=\"peak\" x=\"{:.2f}\" y=\"{}\">peak {} B</text>\n",
                     kLeft + 4, kTop - 6, peak);
  return out;
}

std::string Axes(const HtmlMethod& m, const HtmlBuffer& b, const Scale& s) {
  const uint64_t planned = static_cast<uint64_t>(std::max<int64_t>(b.planned, 0));
  std::string out = fmt::format(
      "<line class=\"planned\" x1=\"{0}\" x2=\"{1}\" y1=\"{2:.2f}\" y2=\"{2:.2f}\"/>"
      "<text x=\"4\" y=\"{2:.2f}\">{3} B</text>\n"
      "<line class=\"bound\" x1=\"{0}\" x2=\"{1}\" y1=\"{4:.2f}\" y2=\"{4:.2f}\"><title>lower bound "
      "{5} B</title></line><text x=\"4\" y=\"{4:.2f}\" class=\"peak\">{5} B</text>\n"
      "<text x=\"4\" y=\"{6}\">0</text>\n",
      kLeft, kLeft + kPlotW, s.Y(planned), planned, s.Y(b.lower_bound), b.lower_bound,
      kTop + kPlotH);
  const int64_t step = std::max<int64_t>(1, m.instructions / 20);
  for (int64_t i = 0; i < m.instructions; i += step)
    out += fmt::format("<text x=\"{:.2f}\" y=\"{}\">{}</text>", s.X(i), kTop + kPlotH + 14, i);
  out += fmt::format("<text x=\"{}\" y=\"{}\">instruction</text>\n", kLeft + kPlotW / 2,
                     kTop + kPlotH + 32);
  return out;
}

std::string Timeline(const HtmlMethod& m, const HtmlBuffer& b) {
  const Scale s = MakeScale(m, b);
  std::string out = fmt::format(
      "<h3>Buffer {}: planned {} B, lower bound {} B</h3>\n<svg class=\"timeline\" "
      "data-memory-id=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
      b.memory_id, b.planned, b.lower_bound, b.memory_id, kLeft + kPlotW + 20,
      kTop + kPlotH + kBottom, kLeft + kPlotW + 20, kTop + kPlotH + kBottom);
  out += PeakMarks(b, s);
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const HtmlTensor& t = m.tensors[i];
    if (t.used && t.memory_id == b.memory_id) out += TensorRect(t, i, s);
  }
  return out + Axes(m, b, s) + "</svg>\n";
}

std::string CategoryChart(const HtmlMethod& m) {
  std::vector<HtmlCategory> rows;
  for (const HtmlCategory& c : m.categories)
    if (c.bytes > 0) rows.push_back(c);
  std::sort(rows.begin(), rows.end(),
            [](const HtmlCategory& a, const HtmlCategory& b) { return a.bytes > b.bytes; });
  if (!m.refused.empty())
    return fmt::format("<h3>Method allocator pool: none, the runtime refuses this method ({})</h3>\n",
                       HtmlEscape(m.refused));
  std::string out = fmt::format("<h3>Method allocator pool: {} B{}</h3>\n", m.method_pool_bytes,
                                m.method_pool_exact ? "" : " (a lower bound)");
  if (rows.empty()) return out;
  const double row_h = 22, label_w = 260, bar_w = 560;
  const double max_bytes = static_cast<double>(rows.front().bytes);
  out += fmt::format("<svg class=\"categories\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
                     "{1}\">\n",
                     label_w + bar_w + 140, row_h * static_cast<double>(rows.size()) + 8);
  for (size_t i = 0; i < rows.size(); ++i) {
    const HtmlCategory& c = rows[i];
    const double y = 4 + row_h * static_cast<double>(i);
    const double w = std::max(bar_w * static_cast<double>(c.bytes) / max_bytes, 1.0);
    out += fmt::format(
        "<text x=\"4\" y=\"{0:.1f}\">{1}</text><rect class=\"category\" x=\"{2}\" y=\"{3:.1f}\" "
        "width=\"{4:.2f}\" height=\"{5}\"><title>{1}: {6} B in {7} allocations</title></rect>"
        "<text x=\"{8:.2f}\" y=\"{0:.1f}\">{6} B</text>\n",
        y + 14, HtmlEscape(c.name), label_w, y, w, row_h - 6, c.bytes, c.allocations,
        label_w + w + 6);
  }
  return out + "</svg>\n";
}

std::string NeverUsed(const HtmlMethod& m) {
  std::string rows;
  for (const HtmlTensor& t : m.tensors)
    if (!t.used)
      rows += fmt::format("<li>value {}: {} {}, {} B at offset {} of buffer {}</li>\n", t.value,
                          HtmlEscape(t.dtype), Shape(t.shape), t.bytes, t.offset, t.memory_id);
  return rows.empty() ? "" : "<h3>Planned but never used</h3>\n<ul>\n" + rows + "</ul>\n";
}

std::string Notes(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  std::string out = "<ul class=\"note\">\n";
  for (const std::string& n : notes) out += "<li>" + HtmlEscape(n) + "</li>\n";
  return out + "</ul>\n";
}

std::string Method(const HtmlMethod& m) {
  std::string out = fmt::format("<h2>Method '{}': {} instructions, {} planned tensors</h2>\n",
                                HtmlEscape(m.name), m.instructions, m.tensors.size());
  out += Notes(m.notes);
  for (const HtmlBuffer& b : m.buffers) out += Timeline(m, b);
  return out + NeverUsed(m) + CategoryChart(m);
}

}  // namespace

std::string HtmlEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string RenderPlanHtml(const HtmlPage& page) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>etmem plan: {0}</title>\n<style>{1}</style></head>\n<body>\n<h1>etmem plan: {0}</h1>"
      "\n<p class=\"note\">{2}. Hover a tensor for its value, dtype, shape, bytes and live range; "
      "red bands mark the peaks, the dashed line the lower bound.</p>\n",
      HtmlEscape(page.title), kStyle, HtmlEscape(page.assumptions));
  for (const HtmlMethod& m : page.methods) out += Method(m);
  if (!page.notes.empty()) out += "<h2>The whole program</h2>\n" + Notes(page.notes);
  return out + "</body></html>\n";
}

}  // namespace etmem::report
