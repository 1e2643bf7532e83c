// spec.hpp — the two-account bank's parallel spec: transfers either way and
// balance reads from two or three threads, judged against the two balances.
#ifndef MERILO_EXAMPLES_TRANSFER_SPEC_HPP
#define MERILO_EXAMPLES_TRANSFER_SPEC_HPP

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <merilo/parallel/spec.hpp>
#include <transfer/bank.hpp>

namespace transfer {

/// The model: what each account holds.
struct Model {
  std::int64_t balance0 = kOpening;
  std::int64_t balance1 = kOpening;
  friend bool operator==(const Model&, const Model&) = default;
};

/// What a caller does: move one unit either way, or read a balance.
enum class Op : std::uint8_t { move_0_to_1, move_1_to_0, balance0, balance1 };

/// "0->1", "1->0", "balance 0", "balance 1".
[[nodiscard]] constexpr std::string_view name(Op op) noexcept {
  switch (op) {
    case Op::move_0_to_1:
      return "0->1";
    case Op::move_1_to_0:
      return "1->0";
    case Op::balance0:
      return "balance 0";
    case Op::balance1:
      return "balance 1";
  }
  return "?";
}

/// A transfer answers 1 (moved) or 0 (refused); a read answers the balance.
template <Bug bug = Bug::none>
struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Bank<bug>>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    return merilo::statem::element_of<Op>(
        {Op::move_0_to_1, Op::move_1_to_0, Op::balance0, Op::balance1});
  }
  merilo::statem::Admission precondition(const Model&, Op) const {
    return merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, Op op) const {
    Model next = m;
    if (op == Op::move_0_to_1 && m.balance0 >= 1) {
      next.balance0 -= 1;
      next.balance1 += 1;
    } else if (op == Op::move_1_to_0 && m.balance1 >= 1) {
      next.balance1 -= 1;
      next.balance0 += 1;
    }
    return next;
  }
  sut_type new_sut() const { return std::make_unique<Bank<bug>>(); }
  std::int64_t run(sut_type& b, Op op) const {
    switch (op) {
      case Op::move_0_to_1:
        return b->transfer(0, 1) ? 1 : 0;
      case Op::move_1_to_0:
        return b->transfer(1, 0) ? 1 : 0;
      case Op::balance0:
        return b->balance(0);
      case Op::balance1:
        return b->balance(1);
    }
    return -1;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, Op op, std::int64_t got) const {
    std::int64_t want = 0;
    switch (op) {
      case Op::move_0_to_1:
        want = m.balance0 >= 1 ? 1 : 0;
        break;
      case Op::move_1_to_0:
        want = m.balance1 >= 1 ? 1 : 0;
        break;
      case Op::balance0:
        want = m.balance0;
        break;
      case Op::balance1:
        want = m.balance1;
        break;
    }
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{"transfer.response", std::string(name(op)) + " answered " +
                                                              std::to_string(got) + ", expected " +
                                                              std::to_string(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

}  // namespace transfer

#endif  // MERILO_EXAMPLES_TRANSFER_SPEC_HPP
