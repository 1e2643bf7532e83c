// total_test.cpp — total() and FireTable.
#include <merilo/fsm/total.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace {

namespace fsm = merilo::fsm;

enum class S : std::uint8_t { none, a, b };
enum class E : std::uint8_t { none, go, stay };
enum class Act : std::uint8_t { beep };

// A machine with switchable mistakes, to prove each rule can fail.
template <bool zero_ok, bool noisy_ignore, bool invalid_pair>
struct M {
  S s = S::none;
  [[nodiscard]] fsm::Fired<M, Act> fire(E e) const {
    if (s == S::none || e == E::none) {
      if (zero_ok) return {*this, {}, fsm::Outcome::moved};
      return {*this, {}, fsm::Outcome::invalid};
    }
    if (e == E::go) {
      if (invalid_pair && s == S::b) return {*this, {}, fsm::Outcome::invalid};
      return {M{s == S::a ? S::b : S::a}, Act::beep, fsm::Outcome::moved};
    }
    if (noisy_ignore) return {*this, Act::beep, fsm::Outcome::ignored};
    return {*this, {}, fsm::Outcome::ignored};
  }
  friend bool operator==(const M&, const M&) = default;
};

template <class T>
fsm::TotalResult run() {
  fsm::FireTable<T, E> table{{T{}, T{S::a}, T{S::b}}, {E::none, E::go, E::stay}};
  return fsm::total(table);
}

TEST(Total, PassesAMachineThatHandlesEveryPair) {
  const auto r = run<M<false, false, false>>();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.pairs, 9u);
  EXPECT_EQ(r.report(), "total: 9 pairs, all handled");
}

TEST(Total, RefusesAZeroStateOrEventThatIsNotInvalid) {
  const auto r = run<M<true, false, false>>();
  ASSERT_EQ(r.problems.size(), 5u);  // row 0 and column 0
  EXPECT_EQ(r.problems[0],
            "machine #0 / event #0: the zero machine must be refused as invalid, got moved");
  EXPECT_EQ(r.problems[3],
            "machine #1 / event #0: the zero event must be refused as invalid, got moved");
}

TEST(Total, RefusesAQuietPairThatChangesSomething) {
  const auto r = run<M<false, true, false>>();
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0],
            "machine #1 / event #2: ignored but changed the machine or returned actions");
}

TEST(Total, RefusesARealPairThatIsInvalid) {
  const auto r = run<M<false, false, true>>();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], "machine #2 / event #1: a real state and event must not be invalid");
}

struct Raw {
  std::size_t machines() const { return 2; }
  std::size_t events() const { return 2; }
  fsm::TotalCell fire(std::size_t m, std::size_t e) const {
    if (m == 0 || e == 0) return {fsm::Outcome::invalid, true};
    return {static_cast<fsm::Outcome>(9), true};
  }
  std::string name(std::size_t, std::size_t) const { return "pair"; }
};

TEST(Total, RefusesUnsetAndOutOfRangeOutcomes) {
  const auto r = fsm::total(Raw{});
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], "pair: returned an out-of-range outcome 9");
}

TEST(Total, RefusesATableWithoutTheZeroValueAndARealOne) {
  fsm::FireTable<M<false, false, false>, E> table{{M<false, false, false>{}}, {E::none, E::go}};
  const auto r = fsm::total(table);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("needs the zero value"), std::string::npos);
}

}  // namespace
