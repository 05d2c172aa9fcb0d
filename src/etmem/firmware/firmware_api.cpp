// Owns: the public header's firmware entry points (api::CheckFirmware, api::Render and
// api::ToJsonValue of a FirmwareReport): the image read from a path or bytes, checked by
// firmware::CheckFirmware and rendered by report/firmware_report.h. They live in the firmware stage, which runs on the API's
// model, and ship in libetmem.a with it.
#include <cstdint>
#include <memory>
#include <vector>

#include "etmem/etmem.h"
#include "etmem/api/internal.h"
#include "etmem/firmware/firmware.h"
#include "etmem/report/firmware_report.h"

namespace etmem::api {

FirmwareReport CheckFirmware(const std::string& path, const FirmwareOptions& options) {
  return firmware::CheckFirmware(path, options);
}

FirmwareReport CheckFirmware(std::span<const std::byte> bytes, const std::string& name,
                             const FirmwareOptions& options) {
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  return firmware::CheckFirmware(std::vector<uint8_t>(b, b + bytes.size()), name, options);
}

Verdict Judge(const FirmwareReport& report) { return ToApi(report::JudgeFirmware(report)); }

std::string Render(const FirmwareReport& report, Format format) {
  switch (format) {
    case Format::kText: return report::RenderFirmwareText(report);
    case Format::kJson: return report::RenderFirmwareJson(report);
    default:
      throw Error(ErrorKind::kInvalidArgument,
                  "etmem firmware renders text or JSON, not CSV or Markdown");
  }
}

JsonValue ToJsonValue(const FirmwareReport& report) {
  auto dom = std::make_shared<const nlohmann::json>(report::FirmwareDom(report));
  return MakeJsonValue([dom](JsonVisitor& v) { report::VisitDom(*dom, v); });
}

}  // namespace etmem::api
