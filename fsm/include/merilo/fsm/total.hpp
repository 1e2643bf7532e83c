// merilo/fsm/total.hpp — checks that a machine handles every event in
// every state.
//
// `total(table)` fires every event at every machine of a table and checks
// the rules a holder relies on:
//
//   * position 0 of the machines is the zero machine and position 0 of the
//     events the zero event; a pair with either must be refused as
//     `invalid`, leaving the machine unchanged;
//   * every other pair must not be `invalid` (nor the unset `none`);
//   * a quiet pair (`ignored` or `rejected`) must leave the machine
//     unchanged and return no actions.
//
// Most tables are a `FireTable`: a list of machines (one per state, zero
// machine first) and a list of events (zero event first). In a test,
// `merilo::testing::expect_total(table)` (explore/gtest.hpp) fails with
// every pair that broke a rule.
//
// Example:
//
//   merilo::fsm::FireTable<Turnstile, Event> table{
//       {Turnstile{}, Turnstile::in(State::locked), Turnstile::in(State::unlocked)},
//       {Event::none, Event::coin, Event::push}};
//   merilo::fsm::TotalResult r = merilo::fsm::total(table);
//   EXPECT_TRUE(r.ok()) << r.report();
//
// NOTE: this is a test-time tool, kept out of fsm.hpp: it allocates (the
// machine and event lists, the problem lines) and so is neither noexcept
// nor free of the heap, which the machine core promises to be. Production
// code never needs to include it. Header-only and std-only, like the rest
// of fsm.
#ifndef MERILO_FSM_TOTAL_HPP
#define MERILO_FSM_TOTAL_HPP

#include <concepts>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <merilo/fsm/fsm.hpp>

namespace merilo::fsm {

/// What firing one event at one machine did.
struct TotalCell {
  /// How the machine took the event.
  Outcome outcome = Outcome::none;
  /// The next machine equals the one fired at, and no actions were returned.
  bool unchanged = false;
};

/// One machine's state–event table, exposed by position. Positions are
/// indexes the test chooses; position 0 of each is the zero value.
template <class T>
concept Totality = requires(const T& t, std::size_t m, std::size_t e) {
  { t.machines() } -> std::convertible_to<std::size_t>;
  { t.events() } -> std::convertible_to<std::size_t>;
  { t.fire(m, e) } -> std::same_as<TotalCell>;
  { t.name(m, e) } -> std::convertible_to<std::string>;
};

/// The rules every pair broke, if any.
struct TotalResult {
  /// One line per pair that broke a rule, naming the pair.
  std::vector<std::string> problems;
  /// Pairs fired.
  std::size_t pairs = 0;

  /// No pair broke a rule.
  [[nodiscard]] bool ok() const noexcept { return problems.empty(); }
  /// "total: 12 pairs, all handled" or the problems, one per line.
  [[nodiscard]] std::string report() const {
    if (ok()) return "total: " + std::to_string(pairs) + " pairs, all handled";
    std::string out = "total: " + std::to_string(problems.size()) + " of " + std::to_string(pairs) +
                      " pairs broke a rule:";
    for (const std::string& p : problems) out += "\n  " + p;
    return out;
  }
};

namespace detail {
/// The rule pair (m, e) with `cell` broke, or "" when it broke none.
[[nodiscard]] inline std::string total_problem(std::size_t m, std::size_t e, TotalCell cell) {
  if (m == 0 || e == 0) {
    const std::string zero = m == 0 ? "the zero machine" : "the zero event";
    if (cell.outcome != Outcome::invalid) {
      return zero + " must be refused as invalid, got " + std::string(name(cell.outcome));
    }
    if (!cell.unchanged) return zero + " was refused but changed the machine";
    return {};
  }
  switch (cell.outcome) {
    case Outcome::moved:
      return {};
    case Outcome::ignored:
    case Outcome::rejected:
      if (!cell.unchanged) {
        return std::string(name(cell.outcome)) + " but changed the machine or returned actions";
      }
      return {};
    case Outcome::invalid:
      return "a real state and event must not be invalid";
    case Outcome::none:
      return "returned the unset outcome none";
  }
  return "returned an out-of-range outcome " + std::to_string(static_cast<unsigned>(cell.outcome));
}
}  // namespace detail

/// Fires every event at every machine of `table` and checks the rules in the
/// header overview. Also refuses a table without the zero value plus at least
/// one real machine and event.
template <Totality T>
[[nodiscard]] TotalResult total(const T& table) {
  TotalResult r;
  const std::size_t machines = table.machines();
  const std::size_t events = table.events();
  if (machines < 2 || events < 2) {
    r.problems.push_back(
        "total: the table needs the zero value plus at least one real machine "
        "and event (it has " +
        std::to_string(machines) + " machines and " + std::to_string(events) + " events)");
    return r;
  }
  for (std::size_t m = 0; m < machines; ++m) {
    for (std::size_t e = 0; e < events; ++e) {
      ++r.pairs;
      std::string why = detail::total_problem(m, e, table.fire(m, e));
      if (!why.empty()) r.problems.push_back(std::string(table.name(m, e)) + ": " + why);
    }
  }
  return r;
}

/// A `Totality` over lists of machine values and events, fired through the
/// machine's own `fire`.
template <class M, class E>
requires Machine<M, E>
class FireTable {
 public:
  /// Names a pair for problem reports.
  using Namer = std::function<std::string(const M&, const E&)>;

  /// `machines[0]` must be the zero machine and `events[0]` the zero event.
  FireTable(std::vector<M> machines, std::vector<E> events, Namer namer = {})
      : machines_(std::move(machines)), events_(std::move(events)), namer_(std::move(namer)) {}

  /// Machines in the table.
  [[nodiscard]] std::size_t machines() const noexcept { return machines_.size(); }
  /// Events in the table.
  [[nodiscard]] std::size_t events() const noexcept { return events_.size(); }

  /// Fires event `e` at machine `m`.
  [[nodiscard]] TotalCell fire(std::size_t m, std::size_t e) const {
    const M& before = machines_[m];
    auto fired = before.fire(events_[e]);
    return TotalCell{fired.outcome, fired.next == before && fired.actions.empty()};
  }

  /// "machine / event" for pair (`m`, `e`), for reports.
  [[nodiscard]] std::string name(std::size_t m, std::size_t e) const {
    if (namer_) return namer_(machines_[m], events_[e]);
    return "machine #" + std::to_string(m) + " / event #" + std::to_string(e);
  }

 private:
  std::vector<M> machines_;
  std::vector<E> events_;
  Namer namer_;
};

}  // namespace merilo::fsm

#endif  // MERILO_FSM_TOTAL_HPP
