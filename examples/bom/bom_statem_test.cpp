// bom_statem_test.cpp — the machine against a plain recursive roll-up on
// random acyclic bills, with statem: commands build a bill part by part and
// line by line (a line only from a part to a later one, so no cycle), and
// every roll-up the holder answers must equal the recursion's.
#include <merilo/gtest.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <bom/rollup.hpp>

namespace {

namespace st = merilo::statem;

struct Cmd {
  enum class Kind : std::uint8_t { add_part, add_line, roll_up };
  Kind kind = Kind::add_part;
  std::size_t a = 0;    // add_part: nothing; add_line: parent; roll_up: root
  std::size_t b = 0;    // add_line: child
  std::uint64_t n = 0;  // add_part: value; add_line: quantity
};

// How reports print a command (merilo::core::describe finds it by ADL).
std::string merilo_describe(const Cmd& c) {
  switch (c.kind) {
    case Cmd::Kind::add_part:
      return fmt::format("add_part(value {})", c.n);
    case Cmd::Kind::add_line:
      return fmt::format("add_line(p{} has {} of p{})", c.a, c.n, c.b);
    case Cmd::Kind::roll_up:
      return fmt::format("roll_up(p{})", c.a);
  }
  return "?";
}

}  // namespace

namespace {

constexpr std::uint64_t kMaxValue = 100;
constexpr std::uint64_t kMaxQuantity = 5;
constexpr std::uint64_t kCallLimit = 1'000'000;

/// The bill as plain vectors.
struct Model {
  std::vector<std::uint64_t> values;
  std::vector<std::vector<std::pair<std::size_t, std::uint64_t>>> lines;
};

std::string part_name(std::size_t i) {
  std::string name(1, 'p');
  name += std::to_string(i);
  return name;
}

// The plain recursive roll-up: subtotal(p) = value + Σ q × subtotal(child),
// adding `need` to p's need on the way down. The bills drawn here are small
// enough that nothing overflows: at most 8 parts, 4 lines of at most 5 each,
// values at most 100.
std::uint64_t subtotal(const Model& m, std::size_t p, std::uint64_t need,
                       std::vector<std::uint64_t>& needs) {
  needs[p] += need;
  std::uint64_t s = m.values[p];
  for (const auto& [child, q] : m.lines[p]) s += q * subtotal(m, child, need * q, needs);
  return s;
}

struct BomSpec {
  using model_type = Model;
  using command_type = Cmd;
  using sut_type = bom::Catalog;

  Model initial() const { return {}; }

  st::Gen<Cmd> command(const Model& m) const {
    std::vector<st::Gen<Cmd>> gens;
    gens.push_back(st::map(st::integer<std::uint64_t>(0, kMaxValue), [](std::uint64_t v) {
      return Cmd{Cmd::Kind::add_part, 0, 0, v};
    }));
    const std::size_t n = m.values.size();
    if (n >= 2) {
      // parent, child and quantity from one number; the precondition keeps
      // parent < child.
      const auto count = static_cast<std::uint64_t>(n * n) * kMaxQuantity;
      gens.push_back(st::map(st::integer<std::uint64_t>(0, count - 1), [n](std::uint64_t k) {
        const auto q = k % kMaxQuantity + 1;
        const auto pair = static_cast<std::size_t>(k / kMaxQuantity);
        return Cmd{Cmd::Kind::add_line, pair / n, pair % n, q};
      }));
    }
    if (n >= 1) {
      gens.push_back(st::map(st::integer<std::size_t>(0, n - 1), [](std::size_t r) {
        return Cmd{Cmd::Kind::roll_up, r, 0, 0};
      }));
    }
    return st::one_of(std::move(gens));
  }

  st::Admission precondition(const Model& m, const Cmd& c) const {
    const std::size_t n = m.values.size();
    switch (c.kind) {
      case Cmd::Kind::add_part:
        return n < bom::kMaxParts ? st::Admission::admit : st::Admission::reject;
      case Cmd::Kind::add_line:
        return c.a < c.b && c.b < n && m.lines[c.a].size() < bom::kMaxLines ? st::Admission::admit
                                                                            : st::Admission::reject;
      case Cmd::Kind::roll_up:
        return c.a < n ? st::Admission::admit : st::Admission::reject;
    }
    return st::Admission::reject;
  }

  Model next_model(const Model& m, const Cmd& c) const {
    Model next = m;
    if (c.kind == Cmd::Kind::add_part) {
      next.values.push_back(c.n);
      next.lines.emplace_back();
    } else if (c.kind == Cmd::Kind::add_line) {
      next.lines[c.a].emplace_back(c.b, c.n);
    }
    return next;
  }

  bom::Catalog new_sut() const { return {}; }

  st::MaybeViolation execute(bom::Catalog& c, const Model& m, const Cmd& cmd) const {
    switch (cmd.kind) {
      case Cmd::Kind::add_part: {
        const std::string e = c.add_part(part_name(m.values.size()), cmd.n);
        return e.empty() ? st::ok() : st::fail("bom.add_part", e);
      }
      case Cmd::Kind::add_line: {
        const std::string e = c.add_line(part_name(cmd.a), part_name(cmd.b), cmd.n);
        return e.empty() ? st::ok() : st::fail("bom.add_line", e);
      }
      case Cmd::Kind::roll_up:
        return roll_up(c, m, cmd.a);
    }
    return st::fail("bom.command", "unknown command");
  }

  st::MaybeViolation finish(bom::Catalog&, const Model&) const { return st::ok(); }
  void teardown(bom::Catalog&) const {}

 private:
  static st::MaybeViolation roll_up(const bom::Catalog& c, const Model& m, std::size_t root) {
    const bom::Rollup got = bom::rollup(c, part_name(root), kCallLimit);
    if (!got.error.empty()) return st::fail("bom.refused", got.error);
    std::vector<std::uint64_t> needs(m.values.size(), 0);
    const std::uint64_t total = subtotal(m, root, 1, needs);
    std::vector<std::pair<std::string, std::uint64_t>> want;
    for (std::size_t p = 0; p < needs.size(); ++p) {
      if (needs[p] != 0) want.emplace_back(part_name(p), needs[p]);
    }
    if (got.total != total) {
      return st::fail("bom.total", fmt::format("total {}, recursion says {}", got.total, total));
    }
    if (got.need != want) return st::fail("bom.need", "the needs differ from the recursion's");
    return st::ok();
  }
};

static_assert(st::Spec<BomSpec>);

TEST(BomStatem, TheMachineAgreesWithPlainRecursionOnRandomAcyclicBills) {
  const auto r = merilo::testing::statem_check(
      BomSpec{}, {.seed = 20261130, .test_count = 300, .max_commands = 40});
  EXPECT_EQ(r.runs, 300u);
}

TEST(BomStatem, TheRandomBillsReachSharedPartsAndDeepPaths) {
  // The check above is only as good as its bills: at least one run must
  // build a part reached by two paths, and one a path of 4 parts or more.
  const st::CheckOptions config{.seed = 20261130, .test_count = 300, .max_commands = 40};
  bool shared = false;
  std::size_t deepest = 0;
  for (std::size_t run = 0; run < 300; ++run) {
    const auto list = st::commands(BomSpec{}, config, run);
    ASSERT_EQ(list.error, "");
    Model m;
    for (const Cmd& c : list.list) m = BomSpec{}.next_model(m, c);
    std::vector<std::size_t> into(m.values.size(), 0);
    std::vector<std::size_t> depth(m.values.size(), 1);
    for (std::size_t p = m.values.size(); p-- > 0;) {
      for (const auto& [child, q] : m.lines[p]) {
        ++into[child];
        depth[p] = std::max(depth[p], depth[child] + 1);
      }
    }
    for (std::size_t p = 0; p < m.values.size(); ++p) {
      shared = shared || into[p] >= 2;
      deepest = std::max(deepest, depth[p]);
    }
  }
  EXPECT_TRUE(shared);
  EXPECT_GE(deepest, 4u);
}

}  // namespace
