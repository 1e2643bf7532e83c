// system.hpp — bills built line by line, then rolled up by the machine and
// by plain recursion, which must agree.
//
// The world is a bill of three parts (values 1, 2, 3), the lines added so
// far (at most `kLines`), and, once rolled up, what `bom::Walk` (fired until it returns, as
// the holder does) and `bom::roll_up_recursively` each answered. Lines
// come in two quantities, 1 and 2^33, so two of the large ones in a row
// overflow 64 bits; a part may have two lines and the bill three, so
// cycles (a part containing itself, directly or not) and diamonds (a part
// reached by two paths) are both reachable; the walk is allowed two calls
// per line of the bill, which a diamond exceeds (with three lines, 6 calls:
// the diamond 0 -> 1 -> 2, 0 -> 2 needs 7).
//
// Kinds, in this order: add a line (parent p, child c, quantity q) as
// kind (p * 3 + c) * 2 + q (0..17); roll up from part 0 (18).
//
// Invariant: "the walk agrees with plain recursion" — the same refusal,
// and without one the same total, needs and number of calls. With three
// lines the search reaches every bill of up to three lines (1,747 of them) and each one
// rolled up: 3,494 worlds, 4 steps deep.
#ifndef MERILO_EXAMPLES_BOM_SYSTEM_HPP
#define MERILO_EXAMPLES_BOM_SYSTEM_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

#include <bom/bill.hpp>
#include <bom/reference.hpp>
#include <bom/walk.hpp>

namespace bom {

namespace ex = merilo::explore;

/// The adapter merilo explores and fuzzes, for bills of up to `kLines`
/// lines in all (the search takes 3; the fuzz target 6, every line the
/// per-part limit allows).
template <std::uint64_t kLines = 3>
class System {
 public:
  /// Parts in every bill (values 1, 2, 3).
  static constexpr std::size_t kParts = 3;
  /// The quantities a line may have.
  static constexpr std::array<std::uint64_t, 2> kQuantities{1, std::uint64_t{1} << 33};
  /// Lines one part may have.
  static constexpr std::uint64_t kLinesPerPart = 2;
  /// Calls the walk is allowed.
  static constexpr std::uint64_t kCallLimit = 2 * kLines;
  /// The kind that rolls up from part 0.
  static constexpr ex::Kind kRollUp = kParts * kParts * kQuantities.size();
  /// How many kinds there are.
  static constexpr ex::Kind kKinds = kRollUp + 1;

  /// One roll-up's answer.
  struct Answer {
    Refusal refusal = Refusal::none;
    std::uint64_t total = 0;
    std::uint64_t calls = 0;
    std::array<std::uint64_t, kMaxParts> need{};
    /// Same answer.
    friend constexpr bool operator==(const Answer&, const Answer&) noexcept = default;
  };

  /// The world: the bill, and the answers once rolled up.
  struct World {
    Bill bill;
    std::uint64_t lines = 0;
    std::uint64_t rolled = 0;  // 1 once rolled up
    Answer walk;               // the machine's answer
    Answer recursion;          // plain recursion's answer
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  /// The bill of three parts and no lines.
  void reset() {
    w_ = World{};
    for (std::size_t p = 0; p < kParts; ++p) {
      const Added a = w_.bill.add_part(p + 1);
      (void)a;  // kParts <= kMaxParts: always added
    }
  }
  /// 18 line kinds and the roll-up.
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  /// A line while the bill and its parent have room; the roll-up once.
  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (w_.rolled != 0) return false;
    if (k == kRollUp) return true;
    const std::size_t parent = k / (2 * kParts);
    return w_.lines < kLines && w_.bill.part(parent).line_count < kLinesPerPart;
  }

  /// Adds the line, or rolls up both ways.
  ex::Status apply(ex::Kind k) {
    if (k == kRollUp) return roll_up();
    const std::size_t parent = k / (2 * kParts);
    const std::size_t child = (k / 2) % kParts;
    const BillError e = w_.bill.add_line(parent, child, kQuantities[k % 2]);
    if (e != BillError::none) return ex::Status::error(describe(k) + ": " + std::string(name(e)));
    ++w_.lines;
    return {};
  }

  /// The current world.
  [[nodiscard]] const World& world() const { return w_; }
  /// Puts the system in `w`.
  void restore(const World& w) { w_ = w; }

  /// The invariant, a name and a predicate.
  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {{{"the walk agrees with plain recursion",
              [](const System& s) { return s.w_.walk == s.w_.recursion; }}}};
  }

  /// "bom:building", or "bom:rolled-" and the walk's refusal.
  [[nodiscard]] std::string tuple() const {
    if (w_.rolled == 0) return "bom:building";
    return "bom:rolled-" + std::string(name(w_.walk.refusal));
  }

  /// Stopped by design once rolled up.
  [[nodiscard]] bool settled() const { return w_.rolled != 0; }

  /// "add 2^33 of p1 to p0", "roll up from p0".
  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k == kRollUp) return "roll up from p0";
    const std::uint64_t q = kQuantities[k % 2];
    return "add " + (q == 1 ? std::string("1") : std::string("2^33")) + " of p" +
           std::to_string((k / 2) % kParts) + " to p" + std::to_string(k / (2 * kParts));
  }

  /// The world's answers, for tests.
  [[nodiscard]] const Answer& walk_answer() const { return w_.walk; }

 private:
  // Fires the walk until it returns or refuses, as the holder does.
  ex::Status roll_up() {
    Walk w = Walk::start(w_.bill, 0, kCallLimit);
    while (w.state() == State::walking) {
      const auto [next, actions, outcome] = w.fire(Event::step);
      if (merilo::fsm::err(outcome)) break;
      w = next;
    }
    if (w.state() == State::none) return ex::Status::error("the walk did not start from p0");
    w_.walk.refusal = w.refusal();
    w_.walk.calls = w.calls();
    if (w.state() == State::done) {
      w_.walk.total = w.total();
      for (std::size_t p = 0; p < kMaxParts; ++p) w_.walk.need[p] = w.need(p);
    }
    const Rolled r = roll_up_recursively(w_.bill, 0, kCallLimit);
    w_.recursion.refusal = r.refusal;
    w_.recursion.calls = r.calls;
    if (r.refusal == Refusal::none) {
      w_.recursion.total = r.total;
      w_.recursion.need = r.need;
    }
    w_.rolled = 1;
    return {};
  }

  World w_{};
};

}  // namespace bom

#endif  // MERILO_EXAMPLES_BOM_SYSTEM_HPP
