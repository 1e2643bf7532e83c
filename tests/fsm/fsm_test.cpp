// fsm_test.cpp — Outcome, err, Counter, ActionSet and the world concepts.
#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

namespace fsm = merilo::fsm;
using fsm::Outcome;

TEST(Outcome, ZeroValueIsTheUnsetSentinel) {
  EXPECT_EQ(Outcome{}, Outcome::none);
  EXPECT_EQ(fsm::name(Outcome{}), "none");
}

TEST(Err, MovedAndIgnoredAreNoError) {
  EXPECT_FALSE(fsm::err(Outcome::moved));
  EXPECT_FALSE(fsm::err(Outcome::ignored));
  EXPECT_EQ(fsm::err(Outcome::moved).what(), "");
  EXPECT_FALSE(fsm::Refusal{});
}

TEST(Err, EverythingElseIsARefusalThatSaysWhat) {
  EXPECT_TRUE(fsm::err(Outcome::rejected));
  EXPECT_EQ(fsm::err(Outcome::rejected).what(), "rejected");
  EXPECT_EQ(fsm::err(Outcome::invalid).what(), "invalid");
  EXPECT_EQ(fsm::err(Outcome::none).what(), "unset outcome");
  const auto out_of_range = static_cast<Outcome>(200);
  EXPECT_TRUE(fsm::err(out_of_range));
  EXPECT_EQ(fsm::err(out_of_range).what(), "out-of-range");
  EXPECT_EQ(fsm::err(out_of_range).outcome(), out_of_range);
}

TEST(Counter, CountsUpToItsLimitAndRefusesInsteadOfWrapping) {
  fsm::Counter c{2};
  auto [one, ok1] = c.inc();
  ASSERT_TRUE(ok1);
  auto [two, ok2] = one.inc();
  ASSERT_TRUE(ok2);
  EXPECT_EQ(two.value(), 2u);
  EXPECT_TRUE(two.at_limit());
  auto [still, ok3] = two.inc();
  EXPECT_FALSE(ok3);
  EXPECT_EQ(still, two);
  EXPECT_EQ(two.reset(), c);
}

TEST(Counter, NeverWrapsAtTheTopOf64Bits) {
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  const fsm::Counter near_top = fsm::Counter::at(kMax - 1, kMax);
  auto [top, ok] = near_top.inc();
  ASSERT_TRUE(ok);
  EXPECT_EQ(top.value(), kMax);
  EXPECT_TRUE(top.at_limit());
  auto [still, wrapped] = top.inc();  // one more would wrap to 0
  EXPECT_FALSE(wrapped);
  EXPECT_EQ(still.value(), kMax);
  EXPECT_EQ(top.reset().value(), 0u);
  EXPECT_EQ(top.reset().limit(), kMax);
  EXPECT_TRUE(fsm::Counter{}.at_limit());
  EXPECT_FALSE(fsm::Counter{}.inc().ok);
}

TEST(Counter, AtClampsAValueAboveTheLimit) {
  EXPECT_EQ(fsm::Counter::at(7, 5).value(), 5u);
  EXPECT_EQ(fsm::Counter::at(3, 5).value(), 3u);
  EXPECT_EQ(fsm::Counter::at(3, 5), fsm::Counter::at(3, 5));
}

enum class Act : std::uint8_t { send, resend, start_timer, cancel_timer };

TEST(ActionSet, VisitsActionsInDeclarationOrder) {
  fsm::ActionSet<Act> acts = Act::cancel_timer | fsm::ActionSet<Act>{Act::send};
  acts |= Act::start_timer;
  std::vector<Act> seen;
  acts.for_each([&](Act a) { seen.push_back(a); });
  EXPECT_EQ(seen, (std::vector<Act>{Act::send, Act::start_timer, Act::cancel_timer}));
  EXPECT_TRUE(acts.has(Act::send));
  EXPECT_FALSE(acts.has(Act::resend));
  EXPECT_TRUE(fsm::ActionSet<Act>{}.empty());
}

// The world rules are compile-time facts: this file does not build when
// one of them changes.
struct Padded {
  std::uint8_t a;
  std::uint64_t b;
};
struct Packed {
  std::uint8_t a;
  std::uint8_t pad[7];
  std::uint64_t b;
};
static_assert(!fsm::ByteHashable<Padded>);
static_assert(!fsm::World<Padded>);
static_assert(fsm::ByteHashable<Packed>);
static_assert(fsm::World<Packed>);
static_assert(!fsm::World<double>);  // +0.0 and -0.0 compare equal with different bytes

}  // namespace
