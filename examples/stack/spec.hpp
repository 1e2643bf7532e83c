// spec.hpp — the stack's parallel spec: pushes and pops from two or three
// threads, judged against a fixed-capacity array model (a byte-hashable
// value, as the checker needs).
#ifndef MERILO_EXAMPLES_STACK_SPEC_HPP
#define MERILO_EXAMPLES_STACK_SPEC_HPP

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <merilo/parallel/spec.hpp>
#include <stack/stack.hpp>

namespace stack {

/// Pushes beyond this many items are not generated.
inline constexpr std::int32_t kCapacity = 32;

/// The model: the items a correct stack holds, bottom first.
struct Model {
  std::array<std::int32_t, kCapacity> items{};
  std::int32_t size = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

/// A call: push `value`, or pop (`push == false`, `value` 0).
struct Op {
  bool push = false;
  std::int32_t value = 0;
  friend bool operator==(const Op&, const Op&) = default;
};

/// "push 4", "pop".
inline std::string merilo_describe(const Op& op) {
  return op.push ? "push " + std::to_string(op.value) : std::string("pop");
}

/// The spec of any stack type `S` with `void push(std::int32_t)` and
/// `std::optional<std::int32_t> pop()` that holds kCapacity items (this
/// example's `Stack`, and the lock-free one in examples/treiber). Push
/// answers nothing (std::nullopt); pop answers the item or nothing.
template <class S>
struct SpecOf {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::optional<std::int32_t>;
  using sut_type = std::unique_ptr<S>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    namespace st = merilo::statem;
    // A pop carries no value: 0, so equal pops compare equal.
    return st::map(st::construct<Op>(st::boolean(), st::integer<std::int32_t>(1, 9)), [](Op op) {
      if (!op.push) op.value = 0;
      return op;
    });
  }
  merilo::statem::Admission precondition(const Model& m, const Op& op) const {
    return op.push && m.size == kCapacity ? merilo::statem::Admission::reject
                                          : merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, const Op& op) const {
    Model next = m;
    if (op.push) {
      if (next.size < kCapacity) next.items[static_cast<std::size_t>(next.size++)] = op.value;
    } else if (next.size > 0) {
      next.items[static_cast<std::size_t>(--next.size)] = 0;
    }
    return next;
  }
  sut_type new_sut() const { return std::make_unique<S>(); }
  response_type run(sut_type& s, const Op& op) const {
    if (op.push) {
      s->push(op.value);
      return std::nullopt;
    }
    return s->pop();
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, const Op& op,
                                                 const response_type& got) const {
    response_type want;
    if (!op.push && m.size > 0) want = m.items[static_cast<std::size_t>(m.size - 1)];
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{
        "stack.response", merilo_describe(op) + " answered " + merilo::core::describe(got) +
                              ", expected " + merilo::core::describe(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// The spec of this example's `Stack<bug>`.
template <Bug bug = Bug::none>
using Spec = SpecOf<Stack<bug>>;

}  // namespace stack

#endif  // MERILO_EXAMPLES_STACK_SPEC_HPP
