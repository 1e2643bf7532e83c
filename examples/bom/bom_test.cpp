// bom_test.cpp — the bill-of-materials machine: exact totals and needs on
// hand-made bills, each refusal, its table, the header examples, and the
// exhaustive search of every small bill against plain recursion.
#include <merilo/fsm/total.hpp>
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <bom/bill.hpp>
#include <bom/reference.hpp>
#include <bom/rollup.hpp>
#include <bom/system.hpp>
#include <bom/walk.hpp>

namespace {

namespace ex = merilo::explore;
using bom::Bill;
using bom::BillError;
using bom::Catalog;
using bom::Event;
using bom::Refusal;
using bom::State;
using bom::Walk;
using merilo::fsm::Outcome;
using Needs = std::vector<std::pair<std::string, std::uint64_t>>;

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

// Adds parts and lines, failing the test on any error.
void part(Catalog& c, const std::string& name, std::uint64_t value) {
  ASSERT_EQ(c.add_part(name, value), "");
}
void line(Catalog& c, const std::string& parent, const std::string& child, std::uint64_t q) {
  ASSERT_EQ(c.add_line(parent, child, q), "");
}

// A bike: frame (value 30) with 2 wheels (value 5, each with 32 spokes of
// value 1 and 1 hub of value 7) and 1 handlebar (value 4) that has 2 grips
// (value 1); the bike itself adds 10 for assembly.
Catalog bike() {
  Catalog c;
  part(c, "bike", 10);
  part(c, "frame", 30);
  part(c, "wheel", 5);
  part(c, "spoke", 1);
  part(c, "hub", 7);
  part(c, "handlebar", 4);
  part(c, "grip", 1);
  line(c, "bike", "frame", 1);
  line(c, "bike", "wheel", 2);
  line(c, "bike", "handlebar", 1);
  line(c, "wheel", "spoke", 32);
  line(c, "wheel", "hub", 1);
  line(c, "handlebar", "grip", 2);
  return c;
}

TEST(Bom, RollsUpAHandMadeBillExactly) {
  const bom::Rollup r = bom::rollup(bike(), "bike", 1000);
  ASSERT_EQ(r.error, "");
  // wheel = 5 + 32*1 + 7 = 44; handlebar = 4 + 2*1 = 6;
  // bike = 10 + 30 + 2*44 + 6 = 134.
  EXPECT_EQ(r.total, 134u);
  EXPECT_EQ(r.need, (Needs{{"bike", 1},
                           {"frame", 1},
                           {"wheel", 2},
                           {"spoke", 64},
                           {"hub", 2},
                           {"handlebar", 1},
                           {"grip", 2}}));
  // 6 lines walked, 7 parts completed.
  EXPECT_EQ(r.calls, 13u);
}

TEST(Bom, AddsTheNeedsOfEveryPathToASharedPart) {
  // A diamond: top has 2 left and 3 right; left has 5 bolts, right 7.
  Catalog c;
  part(c, "top", 0);
  part(c, "left", 1);
  part(c, "right", 2);
  part(c, "bolt", 3);
  line(c, "top", "left", 2);
  line(c, "top", "right", 3);
  line(c, "left", "bolt", 5);
  line(c, "right", "bolt", 7);
  const bom::Rollup r = bom::rollup(c, "top", 1000);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.need, (Needs{{"top", 1}, {"left", 2}, {"right", 3}, {"bolt", 2 * 5 + 3 * 7}}));
  // left = 1 + 5*3 = 16; right = 2 + 7*3 = 23; top = 2*16 + 3*23 = 101.
  EXPECT_EQ(r.total, 101u);
}

TEST(Bom, RollsUpFromAnyPartAndALonePart) {
  const bom::Rollup wheel = bom::rollup(bike(), "wheel", 1000);
  ASSERT_EQ(wheel.error, "");
  EXPECT_EQ(wheel.total, 44u);
  EXPECT_EQ(wheel.need, (Needs{{"wheel", 1}, {"spoke", 32}, {"hub", 1}}));
  const bom::Rollup grip = bom::rollup(bike(), "grip", 1000);
  EXPECT_EQ(grip.total, 1u);
  EXPECT_EQ(grip.calls, 1u);
}

TEST(Bom, TheHeaderExamplesHold) {
  // walk.hpp and bill.hpp
  Bill b;
  const auto wheel = b.add_part(5).part;
  const auto bike = b.add_part(40).part;
  ASSERT_EQ(b.add_line(bike, wheel, 2), BillError::none);
  auto w = Walk::start(b, 1, 100);
  while (w.state() == State::walking) {
    auto [next, actions, outcome] = w.fire(Event::step);
    if (merilo::fsm::err(outcome)) break;
    w = next;
  }
  EXPECT_EQ(w.total(), 40u + 2u * 5u);
  EXPECT_EQ(w.need(0), 2u);
  // rollup.hpp
  Catalog c;
  ASSERT_EQ(c.add_part("wheel", 5), "");
  ASSERT_EQ(c.add_part("bike", 40), "");
  ASSERT_EQ(c.add_line("bike", "wheel", 2), "");
  const bom::Rollup r = bom::rollup(c, "bike", 1000);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.total, 50u);
  EXPECT_EQ(r.need, (Needs{{"wheel", 2}, {"bike", 1}}));
}

TEST(Bom, RefusesAPartOnAPathToItself) {
  Catalog c = bike();
  line(c, "hub", "bike", 1);
  const bom::Rollup r = bom::rollup(c, "bike", 1000);
  EXPECT_EQ(r.error, "part 'bike' is on a path to itself: bike -> wheel -> hub -> bike");
  // A part that contains itself directly.
  Catalog self;
  part(self, "knot", 1);
  line(self, "knot", "knot", 1);
  EXPECT_EQ(bom::rollup(self, "knot", 1000).error,
            "part 'knot' is on a path to itself: knot -> knot");
}

TEST(Bom, ACycleOutsideTheRootsPartsDoesNotMatter) {
  Catalog c;
  part(c, "x", 2);
  part(c, "y", 3);
  part(c, "a", 1);
  part(c, "b", 1);
  line(c, "x", "y", 4);
  line(c, "a", "b", 1);
  line(c, "b", "a", 1);
  line(c, "y", "b", 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 1);
  EXPECT_EQ(bom::rollup(c, "a", 1000).error, "part 'a' is on a path to itself: a -> b -> a");
}

TEST(Bom, RefusesANeedThatWouldNotFitIn64Bits) {
  Catalog c;
  part(c, "a", 0);
  part(c, "b", 0);
  part(c, "c", 0);
  line(c, "a", "b", std::uint64_t{1} << 32);
  line(c, "b", "c", std::uint64_t{1} << 32);  // 2^64 of c
  EXPECT_EQ(bom::rollup(c, "a", 1000).error,
            "a number for part 'c' would not fit in 64 bits (path a -> b)");
  // One less fits.
  Catalog d;
  part(d, "a", 0);
  part(d, "b", 0);
  part(d, "c", 0);
  line(d, "a", "b", std::uint64_t{1} << 32);
  line(d, "b", "c", (std::uint64_t{1} << 32) - 1);
  EXPECT_EQ(bom::rollup(d, "a", 1000).error, "");
}

TEST(Bom, RefusesANeedSummedOverPathsThatWouldNotFit) {
  // Each path needs 2^63 bolts; the two together need 2^64.
  Catalog c;
  part(c, "top", 0);
  part(c, "bolt", 0);
  line(c, "top", "bolt", std::uint64_t{1} << 63);
  line(c, "top", "bolt", std::uint64_t{1} << 63);
  EXPECT_EQ(bom::rollup(c, "top", 1000).error,
            "a number for part 'bolt' would not fit in 64 bits (path top)");
}

TEST(Bom, RefusesASubtotalThatWouldNotFit) {
  Catalog c;
  part(c, "box", 1);
  part(c, "gem", kMax64 / 2 + 1);
  line(c, "box", "gem", 1);
  EXPECT_EQ(bom::rollup(c, "box", 1000).error, "");  // 2^63 + 1 fits
  line(c, "box", "gem", 1);                          // 2^64 + 1 does not
  EXPECT_EQ(bom::rollup(c, "box", 1000).error,
            "a number for part 'gem' would not fit in 64 bits (path box -> gem)");
}

TEST(Bom, RefusesMoreCallsThanItsLimit) {
  EXPECT_EQ(bom::rollup(bike(), "bike", 13).error, "");
  const bom::Rollup r = bom::rollup(bike(), "bike", 12);
  EXPECT_EQ(r.error, "the roll-up needs more than 12 calls");
  EXPECT_EQ(r.calls, 12u);
  EXPECT_EQ(bom::rollup(bike(), "bike", 0).error, "the roll-up needs more than 0 calls");
}

TEST(Bom, ARefusedStepLeavesTheWalkAsItWas) {
  Bill b;
  ASSERT_EQ(b.add_part(1).error, BillError::none);
  ASSERT_EQ(b.add_line(0, 0, 1), BillError::none);
  const Walk w = Walk::start(b, 0, 10);
  EXPECT_EQ(w.refusal(), Refusal::cycle);
  const auto f = w.fire(Event::step);
  EXPECT_EQ(f.outcome, Outcome::rejected);
  EXPECT_EQ(f.next, w);
}

TEST(Bom, TheHolderNamesAMissingRoot) {
  EXPECT_EQ(bom::rollup(bike(), "unicycle", 1000).error, "no part named 'unicycle'");
  EXPECT_EQ(Walk::start(Bill{}, 0, 10).state(), State::none);
}

TEST(Bom, TheCatalogRefusesBadBillsWithAReason) {
  Catalog c;
  EXPECT_EQ(c.add_part("", 1), "a part needs a name");
  part(c, "a", 1);
  EXPECT_EQ(c.add_part("a", 2), "part 'a' already exists");
  EXPECT_EQ(c.add_line("a", "z", 1), "no part named 'z'");
  EXPECT_EQ(c.add_line("z", "a", 1), "no part named 'z'");
  EXPECT_EQ(c.add_line("a", "a", 0), "cannot add 0 of 'a' to 'a': zero quantity");
  for (std::size_t i = 0; i < bom::kMaxLines; ++i) line(c, "a", "a", 1);
  EXPECT_EQ(c.add_line("a", "a", 1), "cannot add 1 of 'a' to 'a': too many lines");
  for (std::size_t i = 1; i < bom::kMaxParts; ++i) part(c, "p" + std::to_string(i), 1);
  EXPECT_EQ(c.add_part("last", 1), "cannot add part 'last': too many parts (at most 8)");
}

TEST(Bom, HandlesEveryEventInEveryState) {
  Bill b;
  ASSERT_EQ(b.add_part(3).error, BillError::none);
  ASSERT_EQ(b.add_part(4).error, BillError::none);
  ASSERT_EQ(b.add_line(0, 1, 2), BillError::none);
  Bill cyclic = b;
  ASSERT_EQ(cyclic.add_line(1, 0, 1), BillError::none);
  const Walk started = Walk::start(b, 0, 10);
  const Walk pushed = started.fire(Event::step).next;
  const Walk blocked = Walk::start(cyclic, 0, 10).fire(Event::step).next;  // about to cycle
  Walk done = started;
  while (done.state() == State::walking) done = done.fire(Event::step).next;
  ASSERT_EQ(done.state(), State::done);
  ASSERT_EQ(blocked.refusal(), Refusal::cycle);
  merilo::fsm::FireTable<Walk, Event> table{
      {Walk{}, started, pushed, blocked, Walk::start(b, 0, 0), done}, {Event::none, Event::step}};
  merilo::testing::expect_total(table);
}

TEST(Bom, PlainRecursionAgreesOnTheHandMadeBills) {
  const Catalog c = bike();
  const bom::Rolled r = bom::roll_up_recursively(c.bill(), 0, 1000);
  EXPECT_EQ(r.refusal, Refusal::none);
  EXPECT_EQ(r.total, 134u);
  EXPECT_EQ(r.need[3], 64u);
  EXPECT_EQ(r.calls, 13u);
  EXPECT_EQ(bom::roll_up_recursively(c.bill(), 0, 12).refusal, Refusal::call_limit);
}

TEST(Bom, ExploresEveryBillOfUpToThreeLines) {
  bom::System<> sys;
  const ex::ExploreResult r = merilo::testing::explore(
      sys, {.max_states = 50'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  // Every bill of up to three lines (at most two per part, 18 possible
  // lines), 1,747 of them, and each one rolled up.
  EXPECT_EQ(r.states, 2u * 1747u);
  EXPECT_EQ(r.depth, 4u);
  // Every answer is reached: a roll-up, a cycle, an overflow, the limit.
  EXPECT_EQ(r.tuples,
            (std::vector<std::string>{"bom:building", "bom:rolled-call limit", "bom:rolled-cycle",
                                      "bom:rolled-none", "bom:rolled-overflow"}));
}

TEST(Bom, TheFuzzRunnerRollsUpWhatItBuilds) {
  // add 2^33 of p1 to p0, add 2^33 of p2 to p1, roll up: an overflow that
  // both sides refuse.
  bom::System<> sys;
  const ex::Trace trace = {(0 * 3 + 1) * 2 + 1, (1 * 3 + 2) * 2 + 1, bom::System<>::kRollUp};
  const merilo::fuzz::Run r =
      merilo::fuzz::run(sys, merilo::fuzz::to_fuzz_bytes(sys, trace).bytes, 8);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(sys.walk_answer().refusal, Refusal::overflow);
}

}  // namespace

namespace {

TEST(Bom, TheAdapterDecodesEveryKindItDescribes) {
  // Kind (p * 3 + c) * 2 + q adds quantity q of part c to part p; the trace
  // lines a violation prints depend on this decoding matching apply's.
  bom::System<> sys;
  sys.reset();
  EXPECT_EQ(sys.describe(0), "add 1 of p0 to p0");
  EXPECT_EQ(sys.describe((0 * 3 + 1) * 2 + 1), "add 2^33 of p1 to p0");
  EXPECT_EQ(sys.describe((2 * 3 + 0) * 2 + 0), "add 1 of p0 to p2");
  EXPECT_EQ(sys.describe(bom::System<>::kRollUp), "roll up from p0");
  ASSERT_TRUE(sys.apply((2 * 3 + 0) * 2 + 1).ok());
  const bom::Part& p2 = sys.world().bill.part(2);
  ASSERT_EQ(p2.line_count, 1u);
  EXPECT_EQ(p2.lines[0], (bom::Line{0, std::uint64_t{1} << 33}));
  // Each part takes two lines, the bill three; then only the roll-up.
  sys.reset();
  ASSERT_TRUE(sys.apply(0).ok());
  ASSERT_TRUE(sys.apply(0).ok());
  EXPECT_FALSE(sys.enabled(0));    // p0 is full
  EXPECT_TRUE(sys.enabled(6));     // p1 is not, and the bill has room
  ASSERT_TRUE(sys.apply(6).ok());  // the third line: the bill is full
  for (ex::Kind k = 0; k < bom::System<>::kRollUp; ++k) EXPECT_FALSE(sys.enabled(k)) << k;
  EXPECT_TRUE(sys.enabled(bom::System<>::kRollUp));
  EXPECT_EQ(sys.tuple(), "bom:building");
  ASSERT_TRUE(sys.apply(bom::System<>::kRollUp).ok());
  EXPECT_TRUE(sys.settled());
  EXPECT_FALSE(sys.enabled(bom::System<>::kRollUp));
}

TEST(Bom, EveryRefusalAndBillErrorHasItsOwnName) {
  EXPECT_EQ(bom::name(Refusal::cycle), "cycle");
  EXPECT_EQ(bom::name(Refusal::overflow), "overflow");
  EXPECT_EQ(bom::name(Refusal::call_limit), "call limit");
  EXPECT_EQ(bom::name(BillError::no_such_part), "no such part");
  EXPECT_EQ(bom::name(BillError::too_many_parts), "too many parts");
  EXPECT_EQ(bom::name(static_cast<BillError>(200)), "?");
  EXPECT_EQ(bom::name(State::walking), "walking");
  // The bill itself refuses an unknown part (the catalog checks names first).
  Bill b;
  ASSERT_EQ(b.add_part(1).error, BillError::none);
  EXPECT_EQ(b.add_line(0, 1, 1), BillError::no_such_part);
  EXPECT_EQ(b.add_line(1, 0, 1), BillError::no_such_part);
}

}  // namespace
