// Generators: determinism, ranges, and the shape of their shrink trees.
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/statem/gen.hpp>

namespace st = merilo::statem;

namespace {

/// Every node of `tree` down to `depth` levels (breadth of each level capped).
template <class T, class F>
void visit(const st::Tree<T>& tree, int depth, F&& f) {
  f(tree.value());
  if (depth == 0) return;
  auto kids = tree.children();
  int seen = 0;
  while (auto c = kids.next()) {
    visit(*c, depth - 1, f);
    if (++seen == 8) break;
  }
}

template <class T>
std::vector<T> children_of(const st::Tree<T>& tree) {
  std::vector<T> out;
  auto kids = tree.children();
  while (auto c = kids.next()) out.push_back(c->value());
  return out;
}

/// Greedy descent: the first child satisfying `fails`, repeatedly.
template <class T, class P>
T minimise(st::Tree<T> tree, P fails) {
  for (bool progress = true; progress;) {
    progress = false;
    auto kids = tree.children();
    while (auto c = kids.next()) {
      if (fails(c->value())) {
        tree = *c;
        progress = true;
        break;
      }
    }
  }
  return tree.value();
}

struct Put {
  int key;
  int value;
  friend bool operator==(const Put&, const Put&) = default;
};

}  // namespace

TEST(Rng, SameSeedGivesTheSameStreamAndDifferentSeedsDiffer) {
  st::Rng a{42}, b{42}, c{43};
  std::vector<std::uint64_t> xa, xb, xc;
  for (int i = 0; i < 100; ++i) {
    xa.push_back(a.next());
    xb.push_back(b.next());
    xc.push_back(c.next());
  }
  EXPECT_EQ(xa, xb);
  EXPECT_NE(xa, xc);
}

TEST(Rng, MatchesTheSplitMix64ReferenceOutputs) {
  // SplitMix64 seeded with 1234567, as published with the algorithm.
  st::Rng r{1234567};
  EXPECT_EQ(r.next(), 6457827717110365317ULL);
  EXPECT_EQ(r.next(), 3203168211198807973ULL);
  EXPECT_EQ(r.next(), 9817491932198370423ULL);
}

TEST(Rng, RunSeedIsTheRunthOutputOfTheConfigSeedsStream) {
  st::Rng r{99};
  for (std::uint64_t i = 0; i < 10; ++i) EXPECT_EQ(st::run_seed(99, i), r.next());
}

TEST(Rng, BelowStaysBelowItsBoundAndSplitGivesAnotherStream) {
  st::Rng r{7};
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto x = r.below(10);
    EXPECT_LT(x, 10U);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 10U);
  st::Rng parent{5};
  st::Rng copy = parent;
  st::Rng child = parent.split();
  EXPECT_NE(child.next(), copy.next());
}

TEST(Integer, DrawsStayInRangeAndAreDeterministic) {
  auto g = st::integer(-5, 5);
  st::Rng r1{3}, r2{3};
  std::set<int> seen;
  for (int i = 0; i < 500; ++i) {
    auto t1 = g(r1);
    auto t2 = g(r2);
    ASSERT_TRUE(t1 && t2);
    EXPECT_EQ(t1->value(), t2->value());
    EXPECT_GE(t1->value(), -5);
    EXPECT_LE(t1->value(), 5);
    seen.insert(t1->value());
  }
  EXPECT_EQ(seen.size(), 11U);
  auto full = st::integer(std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::max());
  EXPECT_TRUE(full(r1).has_value());
  EXPECT_TRUE(full.error().empty());
}

TEST(Integer, AnEmptyRangeIsAnInvalidGeneratorThatSaysWhy) {
  st::Rng r{1};
  const auto empty = st::integer(10, 1);
  EXPECT_FALSE(empty(r).has_value());
  EXPECT_EQ(empty.error(), "integer(10, 1): the range is empty (lo > hi)");
  EXPECT_TRUE(st::integer(1, 1).error().empty());
  // Every combinator passes the error on.
  EXPECT_EQ(st::map(empty, [](int v) { return v + 1; }).error(), empty.error());
  EXPECT_EQ(st::filter(empty, [](int) { return true; }).error(), empty.error());
  EXPECT_EQ(st::one_of<int>({st::just(1), empty}).error(), empty.error());
  EXPECT_EQ(st::vector_of(empty, 0, 3).error(), empty.error());
  EXPECT_EQ(st::construct<Put>(st::integer(0, 1), empty).error(), empty.error());
  EXPECT_NE(st::vector_of(st::integer(0, 1), 4, 3).error().find("min_size 4 > max_size 3"),
            std::string::npos);
  EXPECT_NE(st::one_of<int>({}).error().find("no generators"), std::string::npos);
  EXPECT_NE(st::frequency<int>({{0, st::just(1)}}).error().find("every weight is 0"),
            std::string::npos);
  // A zero-weight invalid alternative is never chosen, so it does not matter.
  EXPECT_TRUE(st::frequency<int>({{0, empty}, {1, st::just(1)}}).error().empty());
}

TEST(Integer, EveryShrinkCandidateLiesBetweenTheTargetAndTheValue) {
  const std::vector<std::pair<std::int64_t, std::int64_t>> cases = {
      {100, 0},
      {-100, 0},
      {0, 0},
      {1, 0},
      {-1, 0},
      {37, 10},
      {-37, 10},
      {1000, 999},
      {5, -5},
      {std::numeric_limits<std::int64_t>::max(), 0},
      {std::numeric_limits<std::int64_t>::min(), 0},
      {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}};
  for (const auto& c : cases) {
    const std::int64_t value = c.first;
    const std::int64_t target = c.second;
    const auto lo = std::min(value, target);
    const auto hi = std::max(value, target);
    std::size_t nodes = 0;
    visit(st::integer_tree(value, target), 4, [&](std::int64_t v) {
      ++nodes;
      EXPECT_GE(v, lo) << value << " toward " << target;
      EXPECT_LE(v, hi) << value << " toward " << target;
    });
    EXPECT_GE(nodes, 1U);
    // The direct children never repeat the value itself.
    for (auto child : children_of(st::integer_tree(value, target))) EXPECT_NE(child, value);
  }
  // And for random draws of random ranges.
  st::Rng r{11};
  for (int i = 0; i < 200; ++i) {
    auto a = static_cast<int>(r.below(2001)) - 1000;
    auto b = static_cast<int>(r.below(2001)) - 1000;
    auto lo = std::min(a, b), hi = std::max(a, b);
    auto target = lo + static_cast<int>(r.below(static_cast<std::uint64_t>(hi - lo) + 1));
    auto t = st::integer(lo, hi, target)(r);
    ASSERT_TRUE(t);
    const int v = t->value();
    visit(*t, 3, [&](int c) {
      EXPECT_GE(c, std::min(v, target));
      EXPECT_LE(c, std::max(v, target));
    });
  }
}

TEST(Integer, ShrinksTargetFirstThenHalvesTheDistance) {
  EXPECT_EQ(children_of(st::integer_tree(100, 0)), (std::vector<int>{0, 50, 75, 88, 94, 97, 99}));
  EXPECT_EQ(children_of(st::integer_tree(-8, 0)), (std::vector<int>{0, -4, -6, -7}));
  EXPECT_TRUE(children_of(st::integer_tree(3, 3)).empty());
}

TEST(Integer, GreedyShrinkingFindsTheSmallestFailingValue) {
  for (int value : {57, 1000, 12345, 999999}) {
    EXPECT_EQ(minimise(st::integer_tree(value, 0), [](int v) { return v >= 42; }), 42);
  }
  EXPECT_EQ(minimise(st::integer_tree(-700, 0), [](int v) { return v <= -13; }), -13);
}

TEST(ElementOf, ShrinksTowardEarlierElementsAndGivesUpWhenEmpty) {
  auto g = st::element_of<std::string>({"a", "b", "c", "d"});
  st::Rng r{1};
  std::optional<st::Tree<std::string>> t;
  do t = g(r);
  while (t->value() != "d");
  EXPECT_EQ(children_of(*t), (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(st::element_of<int>({})(r).has_value());
  EXPECT_EQ(st::element_of<int>({}).error(), "element_of: no values to choose from");
}

TEST(OneOf, ShrinksToEarlierAlternativesThenWithinTheChosenOne) {
  auto g = st::one_of<int>({st::just(-1), st::integer(10, 20, 10)});
  st::Rng r{2};
  std::optional<st::Tree<int>> t;
  do t = g(r);
  while (t->value() < 12);
  auto kids = children_of(*t);
  ASSERT_GE(kids.size(), 2U);
  EXPECT_EQ(kids[0], -1);  // the earlier alternative first
  EXPECT_EQ(kids[1], 10);  // then the chosen tree's own target
  // The alternatives offered are the same on every walk of the tree.
  EXPECT_EQ(children_of(*t), kids);
}

TEST(Frequency, FollowsTheWeightsAndNeverPicksZeroWeights) {
  auto g = st::frequency<int>({{0, st::just(0)}, {1, st::just(1)}, {3, st::just(2)}});
  st::Rng r{5};
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 4000; ++i) ++counts[g(r)->value()];
  EXPECT_EQ(counts[0], 0);
  EXPECT_GT(counts[2], 2 * counts[1]);
  EXPECT_GT(counts[1], 0);
  auto twos = g(r);
  while (twos->value() != 2) twos = g(r);
  EXPECT_EQ(children_of(*twos), (std::vector<int>{1}));  // zero weights are not offered
  EXPECT_FALSE(st::frequency<int>({{0, st::just(1)}})(r).has_value());
}

TEST(MapAndFilter, KeepTheShrinkTree) {
  auto doubled = st::map(st::integer(0, 100), [](int v) { return 2 * v; });
  st::Rng r{8};
  auto t = doubled(r);
  while (t->value() < 20) t = doubled(r);
  ASSERT_FALSE(children_of(*t).empty());
  for (int c : children_of(*t)) EXPECT_EQ(c % 2, 0);
  EXPECT_EQ(minimise(*t, [](int v) { return v >= 14; }), 14);

  auto odd = st::filter(st::integer(0, 1000), [](int v) { return v % 2 == 1; });
  auto o = odd(r);
  ASSERT_TRUE(o);
  visit(*o, 4, [](int v) { EXPECT_EQ(v % 2, 1); });
  EXPECT_EQ(minimise(*o, [](int v) { return v >= 7; }), 7);
  auto never = st::filter(
      st::integer(0, 10), [](int) { return false; }, 5);
  EXPECT_FALSE(never(r).has_value());
}

TEST(VectorOf, ShrinksByRemovingChunksThenShrinkingElements) {
  auto g = st::vector_of(st::integer(0, 100), 0, 20);
  st::Rng r{13};
  auto t = g(r);
  while (t->value().size() < 6) t = g(r);
  auto kids = children_of(*t);
  ASSERT_FALSE(kids.empty());
  EXPECT_TRUE(kids[0].empty());  // the whole vector first
  EXPECT_EQ(kids[1].size(), t->value().size() - t->value().size() / 2);
  // Minimal failing vector for "contains an element >= 50 and has >= 2 elements".
  auto fails = [](const std::vector<int>& v) {
    if (v.size() < 2) return false;
    for (int x : v)
      if (x >= 50) return true;
    return false;
  };
  std::optional<st::Tree<std::vector<int>>> f = g(r);
  while (!fails(f->value())) f = g(r);
  EXPECT_EQ(minimise(*f, fails), (std::vector<int>{0, 50}));
  // min_size is respected everywhere.
  auto at_least3 = st::vector_of(st::integer(0, 9), 3, 8);
  auto a = at_least3(r);
  visit(*a, 3, [](const std::vector<int>& v) { EXPECT_GE(v.size(), 3U); });
}

TEST(Construct, ShrinksEachFieldInTurnWithoutRedrawingTheOthers) {
  auto g = st::construct<Put>(st::integer(0, 9), st::integer(-100, 100));
  st::Rng r{21};
  auto t = g(r);
  while (t->value().key == 0 || t->value().value == 0) t = g(r);
  const Put root = t->value();
  bool key_phase = true;
  int key_shrinks = 0;
  int value_shrinks = 0;
  for (const Put& p : children_of(*t)) {
    if (p.key == root.key) key_phase = false;
    if (key_phase) {
      ++key_shrinks;
      EXPECT_EQ(p.value, root.value);  // shrinking the key keeps the value
    } else {
      ++value_shrinks;
      EXPECT_EQ(p.key, root.key);  // and the other way round
    }
  }
  EXPECT_GT(key_shrinks, 0);
  EXPECT_GT(value_shrinks, 0);
  EXPECT_EQ(minimise(*t, [](const Put& p) { return p.value != 0; }).key, 0);
}

TEST(Generators, TheSameSeedGivesTheSameTreesDownToTheirShrinks) {
  auto g = st::vector_of(st::construct<Put>(st::integer(0, 9), st::integer(-100, 100)), 0, 10);
  st::Rng a{77}, b{77};
  for (int i = 0; i < 20; ++i) {
    auto ta = g(a), tb = g(b);
    std::vector<std::vector<Put>> va, vb;
    visit(*ta, 3, [&](const std::vector<Put>& v) { va.push_back(v); });
    visit(*tb, 3, [&](const std::vector<Put>& v) { vb.push_back(v); });
    EXPECT_EQ(va, vb);
  }
}

TEST(Size, ScalesIntegerRangesAroundTheTargetAndVectorLengths) {
  EXPECT_EQ(st::Rng{1}.size(), st::kMaxSize);
  EXPECT_EQ(st::Rng(1, 500).size(), st::kMaxSize);  // clamped
  EXPECT_EQ(st::scale(99, 10), 10U);                // rounded up
  EXPECT_EQ(st::scale(99, 0), 0U);
  EXPECT_EQ(st::scale(~std::uint64_t{0}, 50), ~std::uint64_t{0} / 2 + 1);  // no overflow
  const auto g = st::integer(-1000, 1000);
  std::set<int> small;
  std::set<int> full;
  st::Rng at10{3, 10};
  st::Rng at100{3, 100};
  for (int i = 0; i < 2000; ++i) {
    small.insert(g(at10)->value());
    full.insert(g(at100)->value());
  }
  EXPECT_EQ(*small.begin(), -100);  // 10% of the distance on each side of 0
  EXPECT_EQ(*small.rbegin(), 100);
  EXPECT_LT(*full.begin(), -900);
  EXPECT_GT(*full.rbegin(), 900);
  // Size 0 draws only the target.
  st::Rng at0{3, 0};
  for (int i = 0; i < 20; ++i) EXPECT_EQ(st::integer(5, 50, 7)(at0)->value(), 7);
  // vector_of scales its extra length; element_of ignores the size.
  const auto v = st::vector_of(st::integer(0, 9), 2, 102);
  std::size_t longest = 0;
  std::set<std::string> picked;
  const auto e = st::element_of<std::string>({"a", "b", "c", "d"});
  for (int i = 0; i < 500; ++i) {
    longest = std::max(longest, v(at10)->value().size());
    picked.insert(e(at0)->value());
  }
  EXPECT_EQ(longest, 12U);
  EXPECT_EQ(picked.size(), 4U);
}

TEST(EditLabels, EqualValuesOfferEqualLabelsThroughEveryCombinator) {
  struct Two {
    int a;
    int b;
  };
  const auto labels = [](const auto& tree) {
    std::vector<std::uint64_t> out;
    auto kids = tree.children();
    while (auto c = kids.next()) out.push_back(c->edit());
    return out;
  };
  // The same integer, drawn alone, mapped, or as a field, moves with the
  // same labels; a different value has different ones.
  const auto seven = labels(st::integer_tree(7, 0));
  ASSERT_EQ(seven.size(), 3U);  // 0, 4, 6
  for (std::uint64_t l : seven) EXPECT_NE(l, 0U);
  EXPECT_EQ(labels(st::map_tree(st::integer_tree(7, 0), [](int x) { return x * 2; })), seven);
  EXPECT_NE(labels(st::integer_tree(8, 0)), labels(st::integer_tree(7, 0)));
  const auto g = st::construct<Two>(st::integer(0, 100), st::integer(0, 100));
  st::Rng r{9};
  auto t = g(r);
  while (t->value().a == 0 || t->value().b == 0) t = g(r);
  const auto fields = labels(*t);
  const auto a = labels(st::integer_tree(t->value().a, 0));
  ASSERT_GE(fields.size(), a.size());
  EXPECT_TRUE(std::equal(a.begin(), a.end(), fields.begin()));  // field a's moves come first
  // one_of: the earlier alternatives carry no label, the chosen tree's do.
  auto o = st::one_of<int>({st::just(-1), st::integer(0, 100)});
  auto ot = o(r);
  while (ot->value() < 2) ot = o(r);
  const auto ol = labels(*ot);
  EXPECT_EQ(ol.front(), 0U);
  EXPECT_EQ(std::vector<std::uint64_t>(ol.begin() + 1, ol.end()),
            labels(st::integer_tree(ot->value(), 0)));
}

TEST(ShiftLabels, NeighbouringValuesOfferMovesOfTheSameSizeWithTheSameShiftLabel) {
  struct Two {
    int a;
    int b;
  };
  const auto shifts = [](const auto& tree) {
    std::vector<std::uint64_t> out;
    auto kids = tree.children();
    while (auto c = kids.next()) out.push_back(c->shift());
    return out;
  };
  // 20 moves by 20, 10, 5, 2, 1; 21 by 21, 10, 5, 2, 1: the last four meet,
  // though every edit label differs (they start from different values).
  const auto twenty = shifts(st::integer_tree(20, 0));
  const auto twenty_one = shifts(st::integer_tree(21, 0));
  ASSERT_EQ(twenty.size(), 5U);
  ASSERT_EQ(twenty_one.size(), 5U);
  for (std::uint64_t l : twenty) EXPECT_NE(l, 0U);
  EXPECT_NE(twenty[0], twenty_one[0]);
  for (std::size_t k = 1; k < 5; ++k) EXPECT_EQ(twenty[k], twenty_one[k]) << "move " << k;
  // Moving up toward the target is a different move from moving down.
  EXPECT_NE(shifts(st::integer_tree(-20, 0))[1], twenty[1]);
  // Passed on by map and by a field of construct, as edit labels are.
  EXPECT_EQ(shifts(st::map_tree(st::integer_tree(20, 0), [](int x) { return x + 1; })), twenty);
  const auto g = st::construct<Two>(st::integer(0, 100), st::integer(0, 100));
  st::Rng r{9};
  auto t = g(r);
  while (t->value().a == 0) t = g(r);
  const auto fields = shifts(*t);
  const auto a = shifts(st::integer_tree(t->value().a, 0));
  ASSERT_GE(fields.size(), a.size());
  EXPECT_TRUE(std::equal(a.begin(), a.end(), fields.begin()));
}

// Trees and generators built from a lambda (kept inline when small and
// trivially copyable, else in one shared block) behave exactly as the
// same ones built from a std::function, and copies outlive the original.
TEST(Callables, ALambdaAndAStdFunctionBuildTheSameTreeAndGenerator) {
  const auto small = [] { return st::integer_tree(6, 0).children(); };  // inline
  const std::string tag = "a capture too large to keep inline";
  const auto large = [tag] {  // shared block
    return st::integer_tree(static_cast<int>(tag.size()), 0).children();
  };
  const st::Tree<int>::Children as_function = large;
  for (const st::Tree<int>& t :
       {st::Tree<int>{1, small}, st::Tree<int>{1, large}, st::Tree<int>{1, as_function}}) {
    std::optional<st::Tree<int>> copy;
    {
      const st::Tree<int> original = t;  // NOLINT(performance-unnecessary-copy-initialization)
      copy.emplace(original);
    }
    EXPECT_EQ(children_of(*copy), children_of(t));
  }
  EXPECT_EQ(children_of(st::Tree<int>{1, small}), (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(children_of(st::Tree<int>{1, large}), children_of(st::Tree<int>{1, as_function}));
  // A mutable lambda still works (through the std::function constructor).
  int calls = 0;
  st::Tree<int> counted{1, [calls]() mutable {
                          ++calls;
                          return st::Seq<st::Tree<int>>{};
                        }};
  EXPECT_FALSE(counted.children().next().has_value());
  EXPECT_FALSE(st::Tree<int>{1}.children().next().has_value());

  const auto draw = [](st::Rng& rng) -> std::optional<st::Tree<int>> {
    return st::integer_tree(static_cast<int>(rng.below(100)), 0);
  };
  const st::Gen<int> from_lambda{draw};
  const st::Gen<int> from_function{st::Gen<int>::Draw{draw}};
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    st::Rng a{seed};
    st::Rng b{seed};
    const auto ta = from_lambda(a);
    const auto tb = from_function(b);
    ASSERT_TRUE(ta && tb);
    EXPECT_EQ(ta->value(), tb->value());
    EXPECT_EQ(children_of(*ta), children_of(*tb));
  }
}
