// docs/examples/parallel_bag.cpp
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <merilo/gtest.hpp>

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

// The system: a locked stack. As a bag (take returns any one item, -1 when
// there is none) it is correct. With `keeps_taken`, take returns the top
// item but leaves it in: the mutant.
struct Stack {
  bool keeps_taken = false;
  std::mutex mu;
  std::vector<std::int64_t> items;
  void add(std::int64_t v) {
    std::lock_guard lock(mu);
    items.push_back(v);
  }
  std::int64_t take() {
    std::lock_guard lock(mu);
    if (items.empty()) return -1;
    const std::int64_t v = items.back();
    if (!keeps_taken) items.pop_back();
    return v;
  }
};

struct Cmd {
  bool add = false;
  std::int64_t value = 0;  // add: the item
};
std::string merilo_describe(const Cmd& c) {
  return c.add ? "add " + std::to_string(c.value) : "take";
}

struct Bag {  // the items in, sorted: equal bags are equal values
  std::vector<std::int64_t> items;
  friend bool operator==(const Bag&, const Bag&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    const std::size_t n = items.size();
    sink(&n, sizeof n);
    for (const std::int64_t v : items) sink(&v, sizeof v);
  }
};

struct BagSpec {
  bool keeps_taken = false;

  using model_type = Bag;
  using command_type = Cmd;
  using response_type = std::int64_t;  // take: the item, or -1; add: 0
  using sut_type = std::unique_ptr<Stack>;

  Bag initial() const { return {}; }
  // Each branch adds items of its own (branch 1 adds 100..199), so an item
  // taken twice is always a bug. The prefix draws as kPrefixCaller (3).
  st::Gen<Cmd> command(const Bag&, merilo::linearize::Caller branch) const {
    const auto base = static_cast<std::int64_t>(branch) * 100;
    return st::one_of<Cmd>({st::map(st::integer<std::int64_t>(0, 99),
                                    [base](std::int64_t v) {
                                      return Cmd{true, base + v};
                                    }),
                            st::just(Cmd{false, 0})});
  }
  st::Admission precondition(const Bag&, const Cmd&) const { return st::Admission::admit; }
  // Which item left is in the response: next_model takes it.
  Bag next_model(const Bag& m, const Cmd& c, std::int64_t got) const {
    Bag next = m;
    if (c.add) {
      next.items.insert(std::upper_bound(next.items.begin(), next.items.end(), c.value), c.value);
    } else if (got >= 0) {
      next.items.erase(std::lower_bound(next.items.begin(), next.items.end(), got));
    }
    return next;
  }
  sut_type new_sut() const {
    auto s = std::make_unique<Stack>();
    s->keeps_taken = keeps_taken;
    return s;
  }
  std::int64_t run(sut_type& s, const Cmd& c) const {
    if (!c.add) return s->take();
    s->add(c.value);
    return 0;
  }
  parallel::MaybeViolation postcondition(const Bag& m, const Cmd& c, std::int64_t got) const {
    if (c.add) return std::nullopt;
    if (got < 0 ? m.items.empty() : std::binary_search(m.items.begin(), m.items.end(), got)) {
      return std::nullopt;
    }
    return st::Violation{"bag.take", "took " + std::to_string(got) + ", which is not in"};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(ParallelBag, ALockedStackIsACorrectBag) {
  merilo::testing::parallel_check(BagSpec{}, {.seed = 42});
}

TEST(ParallelBag, ATakeThatNeverRemovesIsCaught) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto r = parallel::check(BagSpec{.keeps_taken = true}, {.seed = seed});
    EXPECT_TRUE(r.failure.has_value()) << "seed " << seed << ": " << r.error;
  }
}
