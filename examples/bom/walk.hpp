// walk.hpp — a bill of materials rolled up by tail recursion, as a state
// machine.
//
// Two numbers come out of a roll-up from a root part:
//
//   subtotal(p) = value(p) + Σ over p's lines (quantity × subtotal(child))
//   need(p)     = Σ over every path root → … → p of the product of the
//                 quantities along it (need(root) = 1)
//
// The machine `bom::Walk` is the call walk(stack, need, subtotal): it holds
// the bill, the stack of work still to do (one frame per part on the
// current path: the part, its next line, the quantity of it the path
// needs, and its subtotal so far) and the needs. Each `fire(Event::step)`
// visits the top frame once, which is the tail call:
//
//   * the top part has a line left: the line's part is pushed, needing
//     (the top's need × quantity) more of it;
//   * it has none: it is popped, and its subtotal × the quantity is added
//     to the parent's subtotal (or, for the root, the walk returns).
//
// Refused steps (`rejected`, the machine unchanged, `refusal()` saying
// why): a part that is already on the path (a cycle: it would contain
// itself), a product or sum that would not fit in 64 bits, and one call
// more than the limit the walk was started with.
//
//   bom::Bill b;  // a bike (1) of 2 wheels (0), as in bill.hpp
//   auto w = bom::Walk::start(b, 1, 100);
//   while (w.state() == bom::State::walking) {
//     auto [next, actions, outcome] = w.fire(bom::Event::step);
//     if (merilo::fsm::err(outcome)) break;  // w.refusal() says why
//     w = next;
//   }
//   // w.total() == 40 + 2 * 5, w.need(0) == 2
//
// NOTE: the stack cannot overflow: a part is pushed only when it is not
// already on the path, so the stack never holds more than `kMaxParts`
// frames. Every number is 64-bit and checked before it changes; the call
// count is an `fsm::Counter`.
#ifndef MERILO_EXAMPLES_BOM_WALK_HPP
#define MERILO_EXAMPLES_BOM_WALK_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

#include <bom/bill.hpp>

namespace bom {

namespace fsm = merilo::fsm;

/// Where the walk is. `none` is the zero sentinel (and a walk started from
/// a part the bill does not have), refused as `invalid`. 64 bits wide, like
/// every field of the walk, so it has no padding bytes.
enum class State : std::uint64_t { none, walking, done };
/// The one thing that happens to a walk: visit the top frame. `none` is the
/// zero sentinel.
enum class Event : std::uint8_t { none, step };

/// Why the next step is refused.
enum class Refusal : std::uint64_t {
  none,        ///< It is not.
  cycle,       ///< The next line's part is already on the path.
  overflow,    ///< A need or subtotal would not fit in 64 bits.
  call_limit,  ///< The walk has made as many calls as its limit allows.
};

/// "none", "walking", "done".
[[nodiscard]] constexpr std::string_view name(State s) noexcept {
  switch (s) {
    case State::none:
      return "none";
    case State::walking:
      return "walking";
    case State::done:
      return "done";
  }
  return "?";
}

/// "none", "cycle", "overflow", "call limit".
[[nodiscard]] constexpr std::string_view name(Refusal r) noexcept {
  switch (r) {
    case Refusal::none:
      return "none";
    case Refusal::cycle:
      return "cycle";
    case Refusal::overflow:
      return "overflow";
    case Refusal::call_limit:
      return "call limit";
  }
  return "?";
}

/// One part on the current path.
struct Frame {
  std::uint64_t part = 0;       ///< The part.
  std::uint64_t next_line = 0;  ///< Its first line not yet walked.
  std::uint64_t need = 0;       ///< How many of it this path needs.
  std::uint64_t subtotal = 0;   ///< Its value plus the lines walked so far.
  friend constexpr bool operator==(const Frame&, const Frame&) noexcept = default;
};

/// The roll-up call walk(stack, need, subtotal). A value type: `fire`
/// returns the next one.
class Walk {
 public:
  /// What `fire` returns (no actions).
  using Fired = fsm::Fired<Walk>;

  /// The zero machine, which refuses everything.
  constexpr Walk() noexcept = default;

  /// The walk of `bill` from `root`, allowed `call_limit` calls (steps).
  /// A `root` the bill does not have gives the zero machine.
  [[nodiscard]] static constexpr Walk start(const Bill& bill, std::size_t root,
                                            std::uint64_t call_limit) noexcept {
    Walk w;
    if (root >= bill.parts()) return w;
    w.bill_ = bill;
    w.state_ = State::walking;
    w.calls_ = fsm::Counter{call_limit};
    w.depth_ = 1;
    w.stack_[0] = Frame{root, 0, 1, bill.part(root).value};
    w.need_[root] = 1;
    return w;
  }

  /// Where the walk is.
  [[nodiscard]] constexpr State state() const noexcept { return state_; }
  /// The bill being rolled up.
  [[nodiscard]] constexpr const Bill& bill() const noexcept { return bill_; }
  /// How many frames are on the stack (the path's length).
  [[nodiscard]] constexpr std::size_t depth() const noexcept {
    return static_cast<std::size_t>(depth_);
  }
  /// Frame `i` of the stack, 0 being the root (`i < depth()`).
  [[nodiscard]] constexpr const Frame& frame(std::size_t i) const noexcept { return stack_[i]; }
  /// How many of part `p` the root needs, counted so far.
  [[nodiscard]] constexpr std::uint64_t need(std::size_t p) const noexcept { return need_[p]; }
  /// The root's subtotal; meaningful once `done`.
  [[nodiscard]] constexpr std::uint64_t total() const noexcept { return total_; }
  /// How many calls (steps) the walk has made.
  [[nodiscard]] constexpr std::uint64_t calls() const noexcept { return calls_.value(); }
  /// Why the next step would be refused (`none` when it would not, or when
  /// the walk is not `walking`).
  [[nodiscard]] constexpr Refusal refusal() const noexcept {
    if (state_ != State::walking) return Refusal::none;
    return visit().refusal;
  }

  /// Visits the top frame once. `walking`: `moved`, or `rejected` with the
  /// walk unchanged (see `refusal()`). `done`: a step is `ignored`. The zero
  /// state or event is `invalid`.
  [[nodiscard]] constexpr Fired fire(Event e) const noexcept {
    switch (state_) {
      case State::walking:
        switch (e) {
          case Event::step: {
            const Visit v = visit();
            if (v.refusal != Refusal::none) return {*this, {}, fsm::Outcome::rejected};
            return {v.next, {}, fsm::Outcome::moved};
          }
          case Event::none:
            break;
        }
        break;
      case State::done:
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

  /// Same bill, stack, numbers and calls.
  friend constexpr bool operator==(const Walk&, const Walk&) noexcept = default;

 private:
  static constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

  // A template, like fsm::Fired, so it may hold the class being defined.
  template <class W>
  struct VisitOf {
    W next;
    Refusal refusal;
  };
  using Visit = VisitOf<Walk>;

  [[nodiscard]] constexpr Visit refuse(Refusal r) const noexcept { return {*this, r}; }

  // One visit of the top frame: the tail call.
  [[nodiscard]] constexpr Visit visit() const noexcept {
    const auto [calls, counted] = calls_.inc();
    if (!counted) return refuse(Refusal::call_limit);
    Walk next = *this;
    next.calls_ = calls;
    Frame& top = next.stack_[depth() - 1];
    const Part& part = bill_.part(static_cast<std::size_t>(top.part));
    if (top.next_line < part.line_count) {  // push the line's part
      const Line& line = part.lines[static_cast<std::size_t>(top.next_line)];
      for (std::size_t i = 0; i < depth(); ++i) {
        if (stack_[i].part == line.child) return refuse(Refusal::cycle);
      }
      if (line.quantity > kMax / top.need) return refuse(Refusal::overflow);
      const std::uint64_t need = top.need * line.quantity;
      const auto child = static_cast<std::size_t>(line.child);
      if (need > kMax - need_[child]) return refuse(Refusal::overflow);
      next.need_[child] += need;
      next.stack_[depth()] = Frame{line.child, 0, need, bill_.part(child).value};
      ++next.depth_;
      return {next, Refusal::none};
    }
    if (depth_ == 1) {  // the root is complete: return
      next.total_ = top.subtotal;
      next.state_ = State::done;
      return {next, Refusal::none};
    }
    // Pop: the parent's current line is the one that pushed `top`.
    Frame& parent = next.stack_[depth() - 2];
    const Part& parent_part = bill_.part(static_cast<std::size_t>(parent.part));
    const std::uint64_t quantity =
        parent_part.lines[static_cast<std::size_t>(parent.next_line)].quantity;
    if (top.subtotal != 0 && quantity > kMax / top.subtotal) return refuse(Refusal::overflow);
    const std::uint64_t add = quantity * top.subtotal;
    if (add > kMax - parent.subtotal) return refuse(Refusal::overflow);
    parent.subtotal += add;
    ++parent.next_line;
    top = Frame{};
    --next.depth_;
    return {next, Refusal::none};
  }

  State state_ = State::none;
  Bill bill_{};
  fsm::Counter calls_{};
  std::uint64_t depth_ = 0;
  std::array<Frame, kMaxParts> stack_{};
  std::array<std::uint64_t, kMaxParts> need_{};
  std::uint64_t total_ = 0;
};

static_assert(fsm::Machine<Walk, Event>);
static_assert(fsm::ByteHashable<Walk>);

}  // namespace bom

#endif  // MERILO_EXAMPLES_BOM_WALK_HPP
