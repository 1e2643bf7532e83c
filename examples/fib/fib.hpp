// fib.hpp — Fibonacci numbers by tail recursion, as a state machine.
//
// The tail-recursive definition
//
//   fib(n, a, b) = a                        when n == 0
//                = fib(n - 1, b, a + b)     otherwise
//
// gives F(n) as fib(n, 0, 1). The machine *is* one such call: it holds all
// three arguments, and each `fire(Event::step)` evaluates the call once —
// it either returns `a` (state `returned`) or becomes the tail call
// fib(n - 1, b, a + b). Nothing is kept on a stack, so the holder's loop
// that fires until the call returns is the trampoline (holder.hpp).
//
// The numbers are `fib::Number`s of 1024 bits, not an arbitrary-precision
// type that owns memory, so the machine is a plain value `==` compares. A
// tail call whose sum a + b would need more than 1024 bits is refused
// (`rejected`), and the machine stays as it was. Because the call that
// returns F(n) has already computed F(n + 1) as its `b`, the largest n the
// machine can compute is 1475 (README.md derives it).
//
//   auto m = fib::Fib::call(10);
//   while (m.state() == fib::State::calling) {
//     auto [next, actions, outcome] = m.fire(fib::Event::step);
//     if (merilo::fsm::err(outcome)) break;  // F(11) did not fit
//     m = next;
//   }
//   // m.result() == fib::Number::of(55)
//
// NOTE: `n` is a 64-bit count compared with 0 before it is decremented, so
// it cannot wrap; every other number is a `Number` whose additions are
// checked.
#ifndef MERILO_EXAMPLES_FIB_FIB_HPP
#define MERILO_EXAMPLES_FIB_FIB_HPP

#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

#include <fib/number.hpp>

namespace fib {

namespace fsm = merilo::fsm;

/// Where the call is. `none` is the zero sentinel, refused as `invalid`.
/// 64 bits wide so the machine, which holds 64-bit words after it, has no
/// padding bytes.
enum class State : std::uint64_t { none, calling, returned };
/// The one thing that happens to a call: evaluate it once. `none` is the
/// zero sentinel.
enum class Event : std::uint8_t { none, step };

/// "none", "calling", "returned".
[[nodiscard]] constexpr std::string_view name(State s) noexcept {
  switch (s) {
    case State::none:
      return "none";
    case State::calling:
      return "calling";
    case State::returned:
      return "returned";
  }
  return "?";
}

/// "none", "step".
[[nodiscard]] constexpr std::string_view name(Event e) noexcept {
  switch (e) {
    case Event::none:
      return "none";
    case Event::step:
      return "step";
  }
  return "?";
}

/// The call fib(n, a, b). A value type: `fire` returns the next one.
class Fib {
 public:
  /// What `fire` returns (no actions).
  using Fired = fsm::Fired<Fib>;

  /// The zero machine, which refuses everything.
  constexpr Fib() noexcept = default;

  /// The call fib(n, 0, 1), which returns F(n).
  [[nodiscard]] static constexpr Fib call(std::uint64_t n) noexcept {
    return call(n, Number::of(0), Number::of(1));
  }
  /// The call fib(n, a, b).
  [[nodiscard]] static constexpr Fib call(std::uint64_t n, const Number& a,
                                          const Number& b) noexcept {
    Fib m;
    m.state_ = State::calling;
    m.n_ = n;
    m.a_ = a;
    m.b_ = b;
    return m;
  }
  /// A call that has returned `a`, for tables.
  [[nodiscard]] static constexpr Fib returned(const Number& a) noexcept {
    Fib m = call(0, a, Number{});
    m.state_ = State::returned;
    return m;
  }

  /// Where the call is.
  [[nodiscard]] constexpr State state() const noexcept { return state_; }
  /// The call's first argument: how many tail calls are left.
  [[nodiscard]] constexpr std::uint64_t n() const noexcept { return n_; }
  /// The call's second argument (the result, once returned).
  [[nodiscard]] constexpr const Number& a() const noexcept { return a_; }
  /// The call's third argument.
  [[nodiscard]] constexpr const Number& b() const noexcept { return b_; }
  /// What the call returned; meaningful only in `returned`.
  [[nodiscard]] constexpr const Number& result() const noexcept { return a_; }

  /// Evaluates the call once. `calling`: returns `a` when n is 0 (`moved`
  /// to `returned`), makes the tail call otherwise (`moved`), or refuses a
  /// sum that does not fit (`rejected`, unchanged). `returned`: a step is
  /// `ignored`. The zero state or event is `invalid`.
  [[nodiscard]] constexpr Fired fire(Event e) const noexcept {
    switch (state_) {
      case State::calling:
        switch (e) {
          case Event::step:
            return step();
          case Event::none:
            break;
        }
        break;
      case State::returned:
        switch (e) {
          case Event::step:
            return {*this, {}, fsm::Outcome::ignored};
          case Event::none:
            break;
        }
        break;
      case State::none:
        break;
    }
    return {*this, {}, fsm::Outcome::invalid};
  }

  /// Same call: same state and arguments.
  friend constexpr bool operator==(const Fib&, const Fib&) noexcept = default;

 private:
  [[nodiscard]] constexpr Fired step() const noexcept {
    if (n_ == 0) {
      Fib next = *this;
      next.state_ = State::returned;
      return {next, {}, fsm::Outcome::moved};
    }
    const auto [sum, ok] = a_.plus(b_);
    if (!ok) return {*this, {}, fsm::Outcome::rejected};
    return {call(n_ - 1, b_, sum), {}, fsm::Outcome::moved};
  }

  State state_ = State::none;
  std::uint64_t n_ = 0;
  Number a_{};
  Number b_{};
};

static_assert(fsm::Machine<Fib, Event>);
static_assert(fsm::ByteHashable<Fib>);

}  // namespace fib

#endif  // MERILO_EXAMPLES_FIB_FIB_HPP
