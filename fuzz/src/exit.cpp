// exit.cpp — the one place the fuzz component writes to stderr and ends the
// process (fatal usage errors and finished seeding).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz::detail {

void print_err(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

void fail(const std::string& text, int status) {
  print_err(text);
  std::exit(status);
}

}  // namespace merilo::fuzz::detail
