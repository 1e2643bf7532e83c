// corpus.cpp — corpus directories on disk: seeds out, inputs in.
#include <merilo/fuzz/corpus.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include <merilo/fuzz/input.hpp>

namespace merilo::fuzz {

namespace fs = std::filesystem;

std::string write_seeds(const std::string& dir,
                        const std::vector<std::vector<std::uint8_t>>& inputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("merilo: cannot create corpus directory {}: {}", dir, ec.message());
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind(kSeedPrefix, 0) == 0) stale.push_back(it->path());
  }
  if (ec) return fmt::format("merilo: cannot list corpus directory {}: {}", dir, ec.message());
  for (const auto& p : stale) {
    fs::remove(p, ec);
    if (ec) return fmt::format("merilo: cannot remove old seed {}: {}", p.string(), ec.message());
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const fs::path p = fs::path(dir) / fmt::format("{}{:04}", kSeedPrefix, i);
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(inputs[i].data()),
            static_cast<std::streamsize>(inputs[i].size()));
    if (!f) return fmt::format("merilo: cannot write seed {}", p.string());
  }
  return {};
}

std::string dictionary(std::size_t kinds) {
  std::string out = fmt::format(
      "# merilo: one entry per kind of a system with {} kinds: the kind's choice as the input\n"
      "# format writes it (an unsigned LEB128 varint), so a spliced entry is one whole step.\n",
      kinds);
  std::vector<std::uint8_t> bytes;
  for (std::size_t k = 0; k < kinds; ++k) {
    bytes.clear();
    append_varint(bytes, k);
    out += fmt::format("kind_{}=\"", k);
    for (std::uint8_t b : bytes) out += fmt::format("\\x{:02X}", b);
    out += "\"\n";
  }
  return out;
}

std::string write_dictionary(const std::string& path, std::size_t kinds) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  const std::string text = dictionary(kinds);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.flush();
  if (!f) return fmt::format("merilo: cannot write dictionary {}", path);
  return {};
}

namespace {

bool read_one(const fs::path& p, std::vector<InputFile>& out, std::string& error) {
  std::ifstream f(p, std::ios::binary);
  if (!f) {
    error = fmt::format("merilo: cannot read {}", p.string());
    return false;
  }
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                  std::istreambuf_iterator<char>());
  out.push_back(InputFile{p.string(), std::move(bytes)});
  return true;
}

}  // namespace

std::vector<InputFile> read_inputs(const std::string& path, std::string& error) {
  std::vector<InputFile> out;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    error = fmt::format("merilo: no such file or directory: {}", path);
    return out;
  }
  if (!fs::is_directory(st)) {
    read_one(path, out, error);
    return out;
  }
  std::vector<fs::path> files;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  if (ec) {
    error = fmt::format("merilo: cannot list {}: {}", path, ec.message());
    return out;
  }
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    if (!read_one(p, out, error)) break;
  }
  return out;
}

}  // namespace merilo::fuzz
