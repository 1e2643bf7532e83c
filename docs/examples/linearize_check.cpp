// docs/examples/linearize_check.cpp
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <merilo/linearize/check.hpp>
#include <merilo/linearize/format.hpp>

namespace lin = merilo::linearize;

struct Reg {
  std::int64_t value = 0;
  friend bool operator==(const Reg&, const Reg&) = default;
};
struct Cmd {
  bool write = false;
  std::int64_t value = 0;  // what a write writes
};
struct RegSpec {
  std::optional<std::string> postcondition(const Reg& m, const Cmd& c, std::int64_t got) const {
    if (!c.write && got != m.value) return "read " + std::to_string(got);
    return std::nullopt;
  }
  Reg next_model(const Reg& m, const Cmd& c) const { return c.write ? Reg{c.value} : m; }
};

TEST(LinearizeDocs, ChecksTwoThreads) {
  // Thread 0 wrote 1 during [0, 10]; thread 1 read 1 during [2, 5], then 0 during [6, 12].
  std::vector<lin::History<Cmd, std::int64_t>> threads = {
      {{Cmd{true, 1}, 0, 0, 10}},
      {{Cmd{false, 0}, 1, 2, 5}, {Cmd{false, 0}, 0, 6, 12}},
  };
  auto result = lin::check(RegSpec{}, Reg{0}, threads, /*budget=*/10'000);
  ASSERT_EQ(result.verdict, lin::Verdict::not_linearizable);
  const std::string text = lin::explain(
      result, 3,
      [&](lin::CallRef c) {
        const auto& call = threads[c.history][c.index];
        return call.command.write ? "write " + std::to_string(call.command.value)
                                  : "read -> " + std::to_string(call.response);
      },
      [](const std::string& v) { return v; });
  EXPECT_EQ(text,
            "not linearizable (4 evaluations, 3 ruled-out states)\n"
            "placed 2 of 3 calls:\n"
            "    1. thread 0 #0  write 1\n"
            "    2. thread 1 #0  read -> 1\n"
            "then no thread's next call can go next:\n"
            "       thread 1 #1  read -> 0  violates: read 0\n"
            "no valid order places thread 1 #1 (read -> 0) anywhere\n");
}
