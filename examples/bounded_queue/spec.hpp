// spec.hpp — the bounded queue's parallel spec: pushes of 1 to 9 and pops
// from two or three threads, judged against a two-slot FIFO model.
#ifndef MERILO_EXAMPLES_BOUNDED_QUEUE_SPEC_HPP
#define MERILO_EXAMPLES_BOUNDED_QUEUE_SPEC_HPP

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <bounded_queue/queue.hpp>
#include <merilo/parallel/spec.hpp>

namespace bounded_queue {

/// The model: the items a correct queue holds, oldest first.
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

/// A push answers 1 (appended) or 0 (full); a pop answers the item or -1 (empty).
template <Bug bug = Bug::none>
struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Queue<bug>>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    namespace st = merilo::statem;
    return st::map(st::construct<Op>(st::boolean(), st::integer<std::int32_t>(1, 9)), [](Op op) {
      if (!op.push) op.value = 0;  // equal pops compare equal
      return op;
    });
  }
  merilo::statem::Admission precondition(const Model&, const Op&) const {
    return merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, const Op& op) const {
    Model next = m;
    if (op.push) {
      if (next.size < static_cast<std::int32_t>(kCapacity)) {
        next.items[static_cast<std::size_t>(next.size++)] = op.value;
      }
    } else if (next.size > 0) {
      next.items[0] = next.items[1];
      next.items[1] = 0;
      --next.size;
    }
    return next;
  }
  sut_type new_sut() const { return std::make_unique<Queue<bug>>(); }
  std::int64_t run(sut_type& q, const Op& op) const {
    if (op.push) return q->push(op.value) ? 1 : 0;
    const std::optional<std::int32_t> got = q->pop();
    return got ? *got : -1;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, const Op& op,
                                                 std::int64_t got) const {
    std::int64_t want = -1;
    if (op.push) {
      want = m.size < static_cast<std::int32_t>(kCapacity) ? 1 : 0;
    } else if (m.size > 0) {
      want = m.items[0];
    }
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{"bounded_queue.response",
                                     merilo_describe(op) + " answered " + std::to_string(got) +
                                         ", expected " + std::to_string(want)};
  }
  /// After a linearizable race the queue holds at most kCapacity items.
  merilo::parallel::MaybeViolation finish(sut_type& q) const {
    if (const std::size_t n = q->size(); n > kCapacity) {
      return merilo::statem::Violation{
          "bounded_queue.over_capacity",
          std::to_string(n) + " items in a queue of " + std::to_string(kCapacity)};
    }
    return std::nullopt;
  }
  void teardown(sut_type&) const {}
};

}  // namespace bounded_queue

#endif  // MERILO_EXAMPLES_BOUNDED_QUEUE_SPEC_HPP
