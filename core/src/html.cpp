// html.cpp — escaping text for HTML pages and writing a page to its file.
#include <merilo/core/html.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace merilo::core {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string write_file(const std::string& path, std::string_view text) noexcept {
  try {
    const auto closer = [](std::FILE* f) { std::fclose(f); };
    std::unique_ptr<std::FILE, decltype(closer)> file(std::fopen(path.c_str(), "wb"), closer);
    if (!file) return "cannot write " + path + ": " + std::strerror(errno);
    if (std::fwrite(text.data(), 1, text.size(), file.get()) != text.size() ||
        std::fflush(file.get()) != 0) {
      return "cannot write " + path + ": " + std::strerror(errno);
    }
    return {};
  } catch (...) {
    return "cannot write the page: out of memory";
  }
}

}  // namespace merilo::core
