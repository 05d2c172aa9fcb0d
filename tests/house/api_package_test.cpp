// The installed package: `cmake --install` to a temporary prefix, then a small project that
// finds etmem with find_package(etmem), links etmem::etmem, includes <etmem/etmem.h> and analyses
// a builder program; its JSON must be the command line's. Only the installed files are used.
#include <string>

#include <gtest/gtest.h>

#include "etmem_cli.h"

namespace etmem::test {
namespace api_package_test {

constexpr const char* kConsumerCpp = R"(#include <etmem/etmem.h>
#include <iostream>
int main(int argc, char** argv) {
  if (argc != 2) return 3;
  try {
    etmem::api::Options o;
    o.runtime = "0.3";
    o.pool = 4096;
    std::cout << etmem::api::Analyze(std::string(argv[1]), o).Render(etmem::api::Format::kJson);
  } catch (const etmem::api::Error& e) {
    std::cerr << "consumer: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
)";

TEST(ApiPackage, AnInstalledPackageLinksAndAnalysesLikeTheCommandLine) {
  if (!HaveTool("cmake")) GTEST_SKIP() << "cmake not on PATH";
  const fs::path prefix = TempPath("api_install");
  CliRun install = Shell("cmake --install " ETMEM_BUILD_DIR " --prefix " + prefix.string());
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  ASSERT_TRUE(fs::exists(prefix / "include/etmem/etmem.h"));

  const fs::path source = TempPath("api_consumer");
  const fs::path build = source / "build";
  fs::create_directories(source);
  std::ofstream(source / "main.cpp") << kConsumerCpp;
  std::ofstream(source / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.22)\nproject(consumer CXX)\n"
         "set(CMAKE_CXX_STANDARD 20)\n"
         "find_package(etmem 0.1 REQUIRED)\n"
         "add_executable(consumer main.cpp)\n"
         "target_link_libraries(consumer PRIVATE etmem::etmem)\n";
  // The source tree's include/ must not be what the consumer compiles against.
  CliRun configure = Shell("cmake -S " + source.string() + " -B " + build.string() +
                           " -DCMAKE_PREFIX_PATH=" + prefix.string() + " 2>&1");
  ASSERT_EQ(configure.exit_code, 0) << configure.out;
  CliRun built = Shell("cmake --build " + build.string() + " -- VERBOSE=1 2>&1");
  ASSERT_EQ(built.exit_code, 0) << built.out;
  EXPECT_EQ(built.out.find(ETMEM_SOURCE_DIR "/include"), std::string::npos) << built.out;

  const fs::path program = MotivatingCnnFile();
  CliRun consumer = Shell((build / "consumer").string() + " " + program.string());
  EXPECT_EQ(consumer.exit_code, 0) << consumer.err;
  CliRun cli = Etmem("analyze " + program.string() + " --runtime 0.3 --pool 4096 --format json");
  EXPECT_EQ(cli.exit_code, 1);  // a 4096 B pool does not fit: the report says so
  EXPECT_NE(cli.out.find("\"bytes\":4266,"), std::string::npos);
  EXPECT_EQ(consumer.out, cli.out);

  // An invalid program: the consumer catches the API's error, the command line's line.
  const fs::path junk = WriteTemp("api_junk.pte", std::string(64, 'x'));
  CliRun bad = Shell((build / "consumer").string() + " " + junk.string());
  EXPECT_EQ(bad.exit_code, 2);
  CliRun bad_cli = Etmem("analyze " + junk.string());
  ASSERT_TRUE(bad.err.starts_with("consumer: ") && bad_cli.err.starts_with("etmem: "));
  EXPECT_EQ(bad.err.substr(10), bad_cli.err.substr(7));
}

}  // namespace api_package_test
}  // namespace etmem::test
