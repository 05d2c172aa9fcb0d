// Owns: a plain main() for the fuzz targets, so every corpus and crasher replays in each ctest
// run without libFuzzer: each argument is a file or a directory (read recursively, in name
// order), and each file goes once through LLVMFuzzerTestOneInput. A crash is the failure; so
// is a path that does not exist, or no input at all (a moved corpus must not pass silently).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> FilesUnder(const fs::path& p) {
  std::vector<fs::path> files;
  if (fs::is_directory(p)) {
    for (const auto& e : fs::recursive_directory_iterator(p))
      if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  } else if (fs::is_regular_file(p)) {
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

void Replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    if (!fs::exists(argv[i])) {
      std::fprintf(stderr, "%s: %s does not exist\n", argv[0], argv[i]);
      return 1;
    }
    const std::vector<fs::path> files = FilesUnder(argv[i]);
    for (const fs::path& f : files) Replay(f);
    std::printf("%s: replayed %zu inputs\n", argv[i], files.size());
    replayed += files.size();
  }
  if (replayed == 0) std::fprintf(stderr, "%s: no input to replay\n", argv[0]);
  return replayed > 0 ? 0 : 1;
}
