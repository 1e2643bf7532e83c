// docs/examples/linearize_custom_model.cpp
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <merilo/linearize/history.hpp>

namespace lin = merilo::linearize;

// The model: a counter. Trivially copyable, no padding: hashable by its bytes.
struct Counter {
  std::int64_t value = 0;
  friend bool operator==(const Counter&, const Counter&) = default;
};
enum class Op : std::uint8_t { increment, read };

struct CounterSpec {
  // Nothing when `got` is what `op` may answer in state `m`, else why not.
  std::optional<std::string> postcondition(const Counter& m, Op op, std::int64_t got) const {
    if (op == Op::read && got != m.value) {
      return "read " + std::to_string(got) + ", counter was " + std::to_string(m.value);
    }
    return std::nullopt;
  }
  Counter next_model(const Counter& m, Op op) const {
    return op == Op::increment ? Counter{m.value + 1} : m;
  }
  // Optional: reads never change the counter, so the search places them eagerly.
  bool read_only(Op op, const std::optional<std::int64_t>&) const { return op == Op::read; }
};

TEST(LinearizeDocs, ChecksARecordedCounterHistory) {
  using Operation = lin::Operation<Op, std::int64_t>;
  std::vector<Operation> ops = {
      {Op::increment, 0, /*invoked*/ 0, /*returned*/ 10},
      {Op::increment, std::nullopt, 2, lin::kNever},  // timed out: may or may not count
      {Op::read, 2, 12, 14},
      {Op::read, 1, 15, 16},  // went back from 2 to 1
  };
  auto result = lin::check_history(CounterSpec{}, Counter{}, ops, lin::HistoryOptions{});
  EXPECT_EQ(result.verdict, lin::Verdict::not_linearizable);
  ASSERT_TRUE(result.explanation.returned.has_value());
  EXPECT_EQ(*result.explanation.returned, 3U);  // stuck at the read of 1

  ops.pop_back();
  EXPECT_TRUE(lin::check_history(CounterSpec{}, Counter{}, ops, lin::HistoryOptions{}).ok());
}
