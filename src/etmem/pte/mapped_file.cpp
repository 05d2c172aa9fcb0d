#include "etmem/pte/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "etmem/base/printable.h"

namespace etmem::pte {

Result<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path) {
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorCode::kIo, Printable(path, kShownPathBytes) + ": " + what + ": " + std::strerror(errno));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return fail("cannot stat");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return MakeError(ErrorCode::kIo, Printable(path, kShownPathBytes) + ": not a regular file");
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->size_ = static_cast<uint64_t>(st.st_size);
  if (file->size_ > 0) {
    void* p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      return fail("cannot map");
    }
    file->data_ = static_cast<const uint8_t*>(p);
    file->mapped_ = true;
  }
  ::close(fd);
  return std::shared_ptr<const MappedFile>(std::move(file));
}

std::shared_ptr<const MappedFile> MappedFile::FromBytes(std::span<const uint8_t> bytes) {
  std::shared_ptr<MappedFile> file(new MappedFile());
  // 16-byte aligned copy: flatbuffers readers assume an aligned buffer.
  file->owned_.reset(new uint8_t[bytes.size() + 16]);
  auto base = reinterpret_cast<uintptr_t>(file->owned_.get());
  size_t shift = (16 - base % 16) % 16;
  if (!bytes.empty()) std::memcpy(file->owned_.get() + shift, bytes.data(), bytes.size());
  file->data_ = file->owned_.get() + shift;
  file->size_ = bytes.size();
  return file;
}

std::shared_ptr<const MappedFile> MappedFile::Borrowing(std::span<const uint8_t> bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % 16 != 0) return FromBytes(bytes);
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->data_ = bytes.data();
  file->size_ = bytes.size();
  return file;
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace etmem::pte
