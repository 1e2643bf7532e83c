// The shrinker's `converged` claim checked against brute force: on many
// random failing specs, no single contiguous-chunk deletion and no single
// value-shrink step of a converged result fails with the same tag (judged
// by replay, which stops at the first failure). Plus the cost claim: an
// accepted step does not restart from the largest chunks.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <merilo/statem/statem.hpp>

namespace st = merilo::statem;

namespace {

/// A family of failing specs over commands 0..20, chosen by `variant`:
/// which rule fails (a count of big commands, a running sum, an ordered
/// pair, a final count checked in finish) and which precondition restricts
/// the lists (none, no two equal neighbours, no command above the previous
/// plus 6).
struct RandomSpec {
  using model_type = std::vector<int>;
  using command_type = int;
  using sut_type = std::vector<int>;

  std::uint64_t variant = 0;

  int param(int k, int lo, int hi) const {
    const std::uint64_t x = st::Rng::mix(variant * 31 + static_cast<std::uint64_t>(k));
    return lo + static_cast<int>(x % static_cast<std::uint64_t>(hi - lo + 1));
  }

  model_type initial() const { return {}; }
  st::Gen<int> command(const model_type& /*m*/) const { return st::integer(0, 20); }
  st::Admission precondition(const model_type& m, const int& c) const {
    switch (param(0, 0, 2)) {
      case 1:
        return !m.empty() && m.back() == c ? st::Admission::reject : st::Admission::admit;
      case 2:
        return !m.empty() && c > m.back() + 6 ? st::Admission::reject : st::Admission::admit;
      default:
        return st::Admission::admit;
    }
  }
  model_type next_model(model_type m, const int& c) const {
    m.push_back(c);
    return m;
  }
  sut_type new_sut() const { return {}; }
  st::MaybeViolation execute(sut_type& s, const model_type& /*before*/, const int& c) const {
    s.push_back(c);
    switch (param(1, 0, 3)) {
      case 0: {  // K commands >= T
        const int t = param(2, 3, 18);
        const auto k = static_cast<std::ptrdiff_t>(param(3, 1, 3));
        if (std::count_if(s.begin(), s.end(), [t](int x) { return x >= t; }) >= k) {
          return st::fail("big", "enough big commands");
        }
        break;
      }
      case 1: {  // running sum >= S
        if (std::accumulate(s.begin(), s.end(), 0) >= param(4, 10, 60)) {
          return st::fail("sum", "the sum is too big");
        }
        break;
      }
      case 2: {  // a command >= A somewhere before a command <= B, B < A
        const int a = param(5, 4, 15);
        const int b = param(6, 0, a - 1);
        const auto first = std::find_if(s.begin(), s.end() - 1, [a](int x) { return x >= a; });
        if (c <= b && first != s.end() - 1) return st::fail("pair", "a big then a small");
        break;
      }
      default:
        break;
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& s, const model_type& /*m*/) const {
    if (param(1, 0, 3) == 3 && static_cast<int>(s.size()) >= param(7, 2, 9)) {
      return st::fail("long", "too many commands");
    }
    return st::ok();
  }
  void teardown(sut_type& /*s*/) const {}
};

/// Whether `list` fails with `tag` when replayed.
bool fails_with(const RandomSpec& spec, const std::vector<int>& list, const std::string& tag) {
  st::Execution e = st::replay(RandomSpec{spec}, list);
  return e.violation && e.violation->tag == tag;
}

}  // namespace

TEST(ShrinkProperty, ConvergedMeansNoSingleDeletionOrValueShrinkFailsTheSameWay) {
  int converged = 0;
  for (std::uint64_t variant = 0; variant < 300; ++variant) {
    const RandomSpec spec{variant};
    auto r = st::check(RandomSpec{spec}, {.seed = variant, .max_commands = 30});
    ASSERT_TRUE(r.error.empty()) << r.error;
    if (!r.failure || r.failure->end != st::ShrinkEnd::converged) continue;
    ++converged;
    const std::vector<int>& l = r.failure->shrunk;
    const std::string& tag = r.failure->violation.tag;
    ASSERT_TRUE(fails_with(spec, l, tag)) << "variant " << variant;
    for (std::size_t chunk = 1; chunk <= l.size(); ++chunk) {
      for (std::size_t at = 0; at + chunk <= l.size(); ++at) {
        std::vector<int> smaller(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(at));
        smaller.insert(smaller.end(), l.begin() + static_cast<std::ptrdiff_t>(at + chunk), l.end());
        EXPECT_FALSE(fails_with(spec, smaller, tag))
            << "variant " << variant << ": deleting " << chunk << " at " << at << " of "
            << fmt::format("{}", fmt::join(l, " ")) << " still fails with " << tag;
      }
    }
    for (std::size_t i = 0; i < l.size(); ++i) {
      st::Seq<st::Tree<int>> kids = st::integer_tree(l[i], 0).children();
      while (auto child = kids.next()) {
        std::vector<int> simpler = l;
        simpler[i] = child->value();
        EXPECT_FALSE(fails_with(spec, simpler, tag))
            << "variant " << variant << ": command " << i << " -> " << child->value() << " of "
            << fmt::format("{}", fmt::join(l, " ")) << " still fails with " << tag;
      }
    }
  }
  EXPECT_GE(converged, 250);  // most variants fail and converge, so the claim is exercised
}

TEST(ShrinkProperty, AcceptedStepsDoNotRestartFromTheLargestChunks) {
  // Fails once six commands >= 15 were seen: large chunks hold one of them,
  // so accepted steps delete short runs. Restarting from n/2 after each
  // would cost a whole sweep (about n log n executions, ~250 for n = 50) per
  // accepted step; going on from the same chunk size keeps deletions at a
  // few executions per command, plus the value shrinks of the six commands
  // and the final every-chunk pass (~21 candidates on 6 commands).
  struct SixBig : RandomSpec {
    st::Gen<int> command(const model_type& /*m*/) const { return st::integer(0, 20); }
    st::Admission precondition(const model_type& /*m*/, const int& /*c*/) const {
      return st::Admission::admit;
    }
    st::MaybeViolation execute(sut_type& s, const model_type& /*before*/, const int& c) const {
      s.push_back(c);
      if (std::count_if(s.begin(), s.end(), [](int x) { return x >= 15; }) >= 6) {
        return st::fail("six", "six big commands");
      }
      return st::ok();
    }
    st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  };
  int long_lists = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    auto r = st::check(SixBig{}, {.seed = seed, .max_commands = 80});
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->shrunk, std::vector<int>(6, 15)) << st::report(*r.failure);
    EXPECT_EQ(r.failure->end, st::ShrinkEnd::converged);
    const std::size_t cut = r.failure->original_step + 1;  // the shrinker starts from this
    if (cut >= 30) ++long_lists;
    EXPECT_LE(r.failure->candidates, 4 * cut + 120) << st::report(*r.failure);
  }
  EXPECT_GE(long_lists, 5);
}
