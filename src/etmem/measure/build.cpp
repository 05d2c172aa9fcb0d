// Owns: recognising an ExecuTorch tree and building and running the harness (see build.h).
#include "etmem/measure/build.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "etmem/base/printable.h"
#include "etmem/base/version.h"
#include "etmem/measure/process.h"

namespace etmem::measure {
namespace fs = std::filesystem;

namespace {

// Generated at build time from harness/measure_harness.cpp.
const char kHarness[] =
#include "etmem/measure/harness_source.inc"
    ;

std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// The compiler's (or linker's) first error line, else its first line.
std::string FirstError(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("error") != std::string::npos ||
        line.find("undefined reference") != std::string::npos)
      return line;
  return FirstLine(text);
}

std::string Trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}


bool UpToDate(const fs::path& object, const fs::path& source) {
  std::error_code e1, e2;
  const auto o = fs::last_write_time(object, e1);
  const auto s = fs::last_write_time(source, e2);
  return !e1 && !e2 && o >= s;
}

}  // namespace

const char* HarnessSource() { return kHarness; }

std::optional<std::string> ReleaseInVersionText(std::string_view text) {
  const std::optional<Version> v = Version::FromVersionText(text);
  if (!v) return std::nullopt;
  return v->ToString();
}

std::optional<int> VersionNumber(const std::string& version) {
  const std::optional<Version> v = Version::FromVersionText(version);
  if (!v) return std::nullopt;
  return v->Number();
}

Result<Tree> InspectTree(const std::string& src) {
  std::error_code ec;
  if (!fs::is_directory(src, ec))
    return MakeError(ErrorCode::kInvalidArgument,
                     "--executorch " + src + ": not a directory");
  const char* required[] = {"runtime/executor/program.h", "runtime/core/memory_allocator.h",
                            "runtime/executor/method.cpp", "schema/program.fbs"};
  for (const char* file : required)
    if (!fs::is_regular_file(fs::path(src) / file, ec))
      return MakeError(ErrorCode::kInvalidArgument,
                       "--executorch " + src + ": not an ExecuTorch source tree (no " + file + ")");
  Tree tree;
  tree.root = fs::canonical(src, ec).string();
  if (ec) tree.root = fs::absolute(src).string();
  if (fs::exists(fs::path(tree.root) / ".git", ec) && Executable("git")) {
    const std::string out = (fs::temp_directory_path() / ("etmem-git-" + std::to_string(getpid()))).string();
    if (Run({"git", "-C", tree.root, "describe", "--tags", "--exact-match", "HEAD"}, out, "") == 0) {
      const std::string tag = Trimmed(FirstLine(ReadText(out)));
      if (auto v = ReleaseInVersionText(tag)) {
        tree.version = *v;
        tree.version_source = "git tag " + tag;
      }
    }
    if (Run({"git", "-C", tree.root, "rev-parse", "HEAD"}, out, "") == 0)
      tree.commit = Trimmed(FirstLine(ReadText(out)));
    fs::remove(out, ec);
  }
  if (!tree.version) {
    const std::string text = Trimmed(FirstLine(ReadText((fs::path(tree.root) / "version.txt").string())));
    if (auto v = ReleaseInVersionText(text)) {
      tree.version = *v;
      tree.version_source = "version.txt says " + text;
    }
  }
  if (!tree.version) tree.version_source = "no version.txt and no release tag";
  return tree;
}

Status AddFlatTensorDataMap(const Tree& tree, BuildOptions& options) {
  const fs::path root(tree.root);
  const char* sources[] = {"extension/flat_tensor/flat_tensor_data_map.cpp",
                           "extension/flat_tensor/serialize/flat_tensor_header.cpp"};
  const char* schema = "extension/flat_tensor/serialize/flat_tensor.fbs";
  std::error_code ec;
  for (const char* rel : {sources[0], sources[1], schema})
    if (!fs::is_regular_file(root / rel, ec))
      return MakeError(ErrorCode::kInvalidArgument,
                       "--external-data: --executorch " + tree.root + " has no " + rel +
                           " (the data map that loads a .ptd; ExecuTorch 0.6 and later)");
  options.extra_sources.insert(options.extra_sources.end(), std::begin(sources), std::end(sources));
  options.extra_schemas.push_back(schema);
  // ... and the schema it includes (flatc generates only the files it is given).
  const fs::path included = fs::path(schema).parent_path() / "scalar_type.fbs";
  if (fs::is_regular_file(root / included, ec)) options.extra_schemas.push_back(included.string());
  options.harness_defines.push_back("-DETMEM_PTD");
  options.harness_name += "_ptd";
  return Ok{};
}

Result<Built> BuildHarness(const Tree& tree, const BuildOptions& options) {
  const fs::path root(tree.root);
  const fs::path work = fs::absolute(options.work_dir);
  std::error_code ec;
  fs::create_directories(work / "gen" / "executorch" / "schema", ec);
  fs::create_directories(work / "inc", ec);
  fs::create_directories(work / "obj", ec);
  if (ec) return MakeError(ErrorCode::kIo, "--work " + work.string() + ": " + ec.message());
  const fs::path include = work / "inc" / "executorch";  // -I work/inc: <executorch/...>
  if (fs::is_symlink(include, ec) && fs::read_symlink(include, ec) != root) fs::remove(include, ec);
  if (!fs::exists(include, ec)) fs::create_directory_symlink(root, include, ec);
  if (ec) return MakeError(ErrorCode::kIo, include.string() + ": " + ec.message());

  // --cxx is a command: the compiler, then any words of its own ("g++ -m32", "ccache g++").
  std::vector<std::string> compiler;
  {
    std::istringstream words(options.compiler);
    for (std::string w; words >> w;) compiler.push_back(w);
  }
  if (compiler.empty() || !Executable(compiler.front()))
    return MakeError(ErrorCode::kInvalidArgument,
                     "--cxx " + Printable(options.compiler) + ": no such compiler in PATH");
  Built built;
  {
    const std::string out = (work / "compiler-version.txt").string();
    std::vector<std::string> version = compiler;
    version.push_back("--version");
    Run(version, out, "");
    built.compiler_version = FirstLine(ReadText(out));
  }

  // The schema headers, generated here (the tree's own flatbuffers submodule is not needed).
  const char* flatc = std::getenv("FLATC");
  const std::string flatc_name = flatc && *flatc ? flatc : "flatc";
  if (!Executable(flatc_name))
    return MakeError(ErrorCode::kInvalidArgument,
                     "flatc not found (etmem measure generates the tree's schema headers with it; "
                     "Debian: flatbuffers-compiler, or set FLATC)");
  // Generated into a scratch directory, then copied over only when they changed, so that a
  // rerun in the same work directory keeps the objects that depend on them.
  const fs::path fresh = work / "gen-new";
  fs::remove_all(fresh, ec);
  fs::create_directories(fresh, ec);
  std::vector<std::string> flatc_args = {flatc_name, "--cpp", "--cpp-std", "c++11",
                                         "--gen-mutable", "--scoped-enums", "-I",
                                         (root / "schema").string(), "-o", fresh.string()};
  for (const char* fbs : {"program.fbs", "scalar_type.fbs"})
    if (fs::is_regular_file(root / "schema" / fbs, ec))
      flatc_args.push_back((root / "schema" / fbs).string());
  // The schema, then each extra schema (in its own directory, with that directory's includes).
  std::vector<std::pair<std::string, std::vector<std::string>>> schemas = {
      {"schema", flatc_args}};
  for (const std::string& rel : options.extra_schemas) {
    const fs::path dir = fs::path(rel).parent_path();
    schemas.push_back({dir.string(),
                       {flatc_name, "--cpp", "--cpp-std", "c++11", "--gen-mutable",
                        "--scoped-enums", "-I", (root / dir).string(), "-o",
                        (fresh / dir).string(), (root / rel).string()}});
  }
  for (const auto& [dir, args] : schemas) {
    const fs::path out = dir == "schema" ? fresh : fresh / dir;
    fs::create_directories(out, ec);
    const std::string flatc_err = (work / "flatc.err").string();
    if (Run(args, "", flatc_err) != 0)
      return MakeError(ErrorCode::kInvalidArgument,
                       "--executorch " + tree.root + ": does not build: flatc on " +
                           (dir == "schema" ? std::string("schema/program.fbs") : args.back()) +
                           ": " + FirstError(ReadText(flatc_err)));
    fs::create_directories(work / "gen" / "executorch" / dir, ec);
    for (const auto& e : fs::directory_iterator(out, ec)) {
      if (!e.is_regular_file()) continue;
      const fs::path target = work / "gen" / "executorch" / dir / e.path().filename();
      if (ReadText(e.path().string()) != ReadText(target.string()))
        fs::copy_file(e.path(), target, fs::copy_options::overwrite_existing, ec);
    }
  }
  fs::remove_all(fresh, ec);

  // The runtime's sources: runtime/ and schema/, without tests, ATen variants and the platform
  // layers other than POSIX.
  std::vector<std::string> sources;
  for (const char* dir : {"runtime", "schema"}) {
    if (!fs::is_directory(root / dir, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(root / dir, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path& p = it->path();
      const std::string name = p.filename().string();
      if (it->is_directory() && name.starts_with("test")) {  // test/, tests/, testing_util/
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file() || p.extension() != ".cpp") continue;
      const std::string rel = fs::relative(p, root).string();
      // The ATen variants (tensor_parser_aten.cpp), not the portable exec_aten ones.
      if (name.ends_with("_aten.cpp") && !name.ends_with("exec_aten.cpp")) continue;
      if (rel.starts_with("runtime/platform/default/") && name != "posix.cpp") continue;
      if (rel.find("zephyr") != std::string::npos || rel.find("android") != std::string::npos)
        continue;
      sources.push_back(rel);
    }
  }
  std::sort(sources.begin(), sources.end());
  built.sources = sources;

  std::vector<std::string> flags = {"-std=c++17", "-O1", "-Wno-deprecated-declarations",
                                    "-DC10_USING_CUSTOM_GENERATED_MACROS",
                                    "-DFLATBUFFERS_MAX_ALIGNMENT=1024",
                                    "-DEXECUTORCH_INTERNAL_FLATBUFFERS=1",
                                    "-I" + (work / "gen").string(), "-I" + (work / "inc").string()};
  if (fs::is_directory(root / "runtime/core/portable_type/c10", ec))
    flags.push_back("-I" + (root / "runtime/core/portable_type/c10").string());
  for (const std::string& f : flags) built.flags += (built.flags.empty() ? "" : " ") + f;
  // Objects from another compiler or other flags are not reused.
  const fs::path stamp = work / "obj" / "flags.txt";
  const std::string stamp_text = options.compiler + "\n" + built.compiler_version + "\n" +
                                 built.flags + "\n" + tree.root + "\n";
  if (ReadText(stamp.string()) != stamp_text) {
    for (auto& e : fs::directory_iterator(work / "obj", ec)) fs::remove(e.path(), ec);
    std::ofstream(stamp) << stamp_text;
  }

  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> errs, objects, failing_source;
  const fs::path generated = work / "gen" / "executorch" / "schema" / "program_generated.h";
  std::vector<std::string> compiled = sources;
  compiled.insert(compiled.end(), options.extra_sources.begin(), options.extra_sources.end());
  for (const std::string& rel : compiled) {
    std::string stem = rel;
    std::replace(stem.begin(), stem.end(), '/', '_');
    const fs::path object = work / "obj" / (stem + ".o");
    objects.push_back(object.string());
    if (UpToDate(object, root / rel) && UpToDate(object, generated)) {
      ++built.reused;
      continue;
    }
    std::vector<std::string> c = compiler;
    c.insert(c.end(), flags.begin(), flags.end());
    c.insert(c.end(), {"-c", (root / rel).string(), "-o", object.string()});
    commands.push_back(c);
    errs.push_back((work / "obj" / (stem + ".err")).string());
    failing_source.push_back(rel);
  }
  const std::vector<int> status = RunAll(commands, errs, options.jobs);
  for (size_t i = 0; i < status.size(); ++i) {
    if (status[i] == 0) continue;
    fs::remove(commands[i][commands[i].size() - 1], ec);
    if (status[i] == 127)
      return MakeError(ErrorCode::kInvalidArgument, "--cxx " + Printable(options.compiler) + ": could not run it");
    return MakeError(ErrorCode::kInvalidArgument,
                     "--executorch " + tree.root + ": does not build with " + options.compiler +
                         ": " + failing_source[i] + ": " + FirstError(ReadText(errs[i])));
  }

  // The harness, linked with every object (the POSIX layer's weak log function is replaced).
  const fs::path source = work / "measure_harness.cpp";
  if (ReadText(source.string()) != kHarness) std::ofstream(source, std::ios::binary) << kHarness;
  built.harness = (work / options.harness_name).string();
  std::vector<std::string> link = compiler;
  link.insert(link.end(), flags.begin(), flags.end());
  link.push_back("-DETMEM_ET_VERSION=" + std::to_string(options.version));
  link.insert(link.end(), options.harness_defines.begin(), options.harness_defines.end());
  link.push_back(source.string());
  link.insert(link.end(), options.harness_extra.begin(), options.harness_extra.end());
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), {"-o", built.harness, "-lpthread"});
  // Relinked only when the command, the harness source or an object changed.
  std::string link_text;
  for (const std::string& a : link) link_text += a + "\n";
  const fs::path link_stamp = work / (options.harness_name + ".cmd");
  bool current = ReadText(link_stamp.string()) == link_text && fs::exists(built.harness, ec) &&
                 UpToDate(built.harness, source);
  for (const std::string& o : objects) current = current && UpToDate(built.harness, o);
  for (const std::string& g : options.harness_extra) current = current && UpToDate(built.harness, g);
  if (current) return built;
  fs::remove(link_stamp, ec);
  const std::string link_err = (work / (options.harness_name + ".err")).string();
  if (Run(link, "", link_err) != 0)
    return MakeError(ErrorCode::kInvalidArgument,
                     "--executorch " + tree.root + ": the harness does not build against it with " +
                         options.compiler + ": " + FirstError(ReadText(link_err)));
  std::ofstream(link_stamp) << link_text;
  return built;
}

Result<HarnessRun> RunHarness(const Built& built, const std::string& work_dir,
                              const std::string& program, const std::string& method,
                              uint64_t pool_bytes, uint32_t pool_align, std::optional<uint64_t> temp_bytes,
                              const std::string& steps) {
  const fs::path work(work_dir);
  const std::string steps_path = (work / "steps.txt").string();
  std::ofstream(steps_path) << steps;
  const std::string out = (work / "harness.out").string();
  const std::string err = (work / "harness.err").string();
  HarnessRun run;
  run.status = Run({built.harness, program, method, std::to_string(pool_bytes),
                    std::to_string(pool_align),
                    temp_bytes ? std::to_string(*temp_bytes) : std::string("none"), steps_path},
                   out, err);
  run.output = ReadText(out);
  if (run.status == 127 && run.output.empty())
    return MakeError(ErrorCode::kIo, built.harness + ": could not run the harness");
  return run;
}

}  // namespace etmem::measure
