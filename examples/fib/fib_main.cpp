// fib_main.cpp — `fib N` prints the N-th Fibonacci number, computed by the
// tail-recursive machine and its trampoline.
//
// Exit codes: 0 printed; 1 F(N) cannot be computed in 1024 bits; 2 bad
// arguments.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

#include <fib/decimal.hpp>
#include <fib/holder.hpp>

namespace {

int usage(const std::string& problem) {
  std::fprintf(stderr, "fib: %s\nusage: fib N   (N a whole number from 0 to 1475)\n",
               problem.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return usage("expected one argument, got " + std::to_string(argc - 1));
  const std::string_view arg = argv[1];
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
  if (arg.empty() || ec == std::errc::invalid_argument || end != arg.data() + arg.size()) {
    return usage("'" + std::string(arg) + "' is not a whole number");
  }
  if (ec == std::errc::result_out_of_range) {
    return usage("'" + std::string(arg) + "' does not fit in 64 bits");
  }
  const fib::Computed c = fib::compute(n);
  if (!c.error.empty()) {
    std::fprintf(stderr, "fib: %s\n", c.error.c_str());
    return 1;
  }
  std::printf("%s\n", fib::decimal(c.value).c_str());
  return 0;
}
