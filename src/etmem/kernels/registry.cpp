// Owns: the list of modelled kernel and delegate libraries (one function per file in
// libraries/) and applying their per-release deltas, once per release.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "etmem/base/printable.h"
#include "etmem/kernels/library.h"
#include "etmem/runtime/release_range.h"

namespace etmem::kernels {

KernelLibraryData Library_Portable();
KernelLibraryData Library_Optimized();
KernelLibraryData Library_Quantized();
KernelLibraryData Library_CortexM();
KernelLibraryData Library_CadenceHifi();
KernelLibraryData Library_CadenceFusionG3();
KernelLibraryData Library_CadenceVision();
KernelLibraryData Library_PrimOps();
DelegateLibraryData Library_EthosU();
DelegateLibraryData Library_OtherBackends();

namespace {

const std::vector<KernelLibraryData>& Data() {
  static const std::vector<KernelLibraryData> all = {
      Library_Portable(),    Library_Optimized(),    Library_Quantized(),
      Library_CortexM(),     Library_CadenceHifi(),  Library_CadenceFusionG3(),
      Library_CadenceVision(), Library_PrimOps()};
  return all;
}

const std::vector<DelegateLibraryData>& DelegateData() {
  static const std::vector<DelegateLibraryData> all = {Library_EthosU(), Library_OtherBackends()};
  return all;
}

// Whether a delta of `version` applies at `release`: from its release on (ReleaseRange's
// order: published releases by number, snapshots after every release).
bool AppliesAt(const std::string& version, const runtime::RuntimeTraits& release) {
  return runtime::ReleaseRange{version, ""}.Contains(release.version);
}

KernelLibrary Apply(const KernelLibraryData& d, const runtime::RuntimeTraits& release) {
  KernelLibrary lib{d.name,          d.namespaces, {}, d.unknown_size_why,
                    d.other_library, d.always,     0,  {}, {}};
  for (const LibraryDelta& delta : d.deltas) {
    if (!AppliesAt(delta.version, release)) break;
    for (const std::string& op : delta.remove) lib.ops.erase(op);
    for (const std::string& op : delta.add) lib.ops.emplace(op, TempRule::kNone);
    for (const auto& [op, rule] : delta.rules) lib.ops[op] = rule;
  }
  for (const TempHelperDelta& delta : d.temp_helper) {
    if (!AppliesAt(delta.version, release)) break;
    lib.temp_alignment = delta.alignment;
    lib.temp_failure_log = delta.failure_log;
  }
  for (const GetsizeSourceDelta& delta : d.getsize_source) {
    if (!AppliesAt(delta.version, release)) break;
    lib.getsize_source = delta;
  }
  return lib;
}

DelegateLibrary ApplyDelegate(const DelegateLibraryData& d, const runtime::RuntimeTraits& release) {
  DelegateLibrary lib{d.name, {}, 0, "", {}};
  for (const DelegateDelta& delta : d.deltas) {
    if (!AppliesAt(delta.version, release)) break;
    for (const auto& [id, rule] : delta.backends) lib.backends[id] = rule;
    for (const auto& [id, outside] : delta.outside) lib.outside[id] = outside;
    if (delta.scratch_align != 0) lib.scratch_align = delta.scratch_align;
    if (!delta.why.empty()) lib.why = delta.why;
  }
  return lib;
}

struct AtRelease {
  std::vector<KernelLibrary> kernels;
  std::vector<DelegateLibrary> delegates;
};

// Every library as it stands at `release`, applied on first use and kept for the process (every
// method of every analysis looks them up; applying hundreds of operators each time cost more
// than the rest of an analysis). A delta applies by the release's version alone (AppliesAt).
const AtRelease& Applied(const runtime::RuntimeTraits& release) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, std::unique_ptr<const AtRelease>> applied;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<const AtRelease>& at = applied[{release.version, release.is_snapshot()}];
  if (!at) {
    auto fresh = std::make_unique<AtRelease>();
    for (const KernelLibraryData& d : Data()) fresh->kernels.push_back(Apply(d, release));
    for (const DelegateLibraryData& d : DelegateData()) fresh->delegates.push_back(ApplyDelegate(d, release));
    at = std::move(fresh);
  }
  return *at;
}

}  // namespace

const std::vector<std::string>& KernelLibraryNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const KernelLibraryData& d : Data()) n.push_back(d.name);
    return n;
  }();
  return names;
}

Result<const KernelLibrary*> LibraryAt(const std::string& name, const runtime::RuntimeTraits& release) {
  for (const KernelLibrary& l : Applied(release).kernels)
    if (l.name == name) return &l;
  std::string known;
  for (const std::string& n : KernelLibraryNames()) known += (known.empty() ? "" : ", ") + n;
  return MakeError(ErrorCode::kInvalidArgument,
                   "--kernels: no kernel library named '" + Printable(name) + "' (known: " + known + ")");
}

const std::vector<KernelLibrary>& AllLibrariesAt(const runtime::RuntimeTraits& release) {
  return Applied(release).kernels;
}

const std::vector<DelegateLibrary>& DelegateLibrariesAt(const runtime::RuntimeTraits& release) {
  return Applied(release).delegates;
}

}  // namespace etmem::kernels
