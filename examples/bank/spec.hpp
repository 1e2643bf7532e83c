// spec.hpp — the account's parallel spec: deposits, withdraws and balance
// reads from two or three threads, judged against the balance alone; the
// end state must never be overdrawn (`finish`).
#ifndef MERILO_EXAMPLES_BANK_SPEC_HPP
#define MERILO_EXAMPLES_BANK_SPEC_HPP

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <bank/account.hpp>
#include <merilo/parallel/spec.hpp>

namespace bank {

/// The model: the balance a correct account holds.
struct Model {
  std::int64_t balance = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

/// What a caller does.
enum class Kind : std::uint8_t { deposit, withdraw, balance };

/// A call: its kind and, for deposit and withdraw, the amount.
struct Op {
  Kind kind = Kind::balance;
  std::int64_t amount = 0;
  friend bool operator==(const Op&, const Op&) = default;
};

/// "deposit 2", "withdraw 3", "balance".
inline std::string merilo_describe(const Op& op) {
  switch (op.kind) {
    case Kind::deposit:
      return "deposit " + std::to_string(op.amount);
    case Kind::withdraw:
      return "withdraw " + std::to_string(op.amount);
    case Kind::balance:
      return "balance";
  }
  return "?";
}

/// Deposit and withdraw answer 1 (done) or 0 (refused); balance answers the balance.
template <Bug bug = Bug::none>
struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Account<bug>>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    namespace st = merilo::statem;
    return st::construct<Op>(st::element_of<Kind>({Kind::deposit, Kind::withdraw, Kind::balance}),
                             st::integer<std::int64_t>(1, 3));
  }
  merilo::statem::Admission precondition(const Model&, const Op&) const {
    return merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, const Op& op) const {
    switch (op.kind) {
      case Kind::deposit:
        return {m.balance + op.amount};
      case Kind::withdraw:
        return m.balance >= op.amount ? Model{m.balance - op.amount} : m;
      case Kind::balance:
        return m;
    }
    return m;
  }
  sut_type new_sut() const { return std::make_unique<Account<bug>>(); }
  std::int64_t run(sut_type& a, const Op& op) const {
    switch (op.kind) {
      case Kind::deposit:
        a->deposit(op.amount);
        return 1;
      case Kind::withdraw:
        return a->withdraw(op.amount) ? 1 : 0;
      case Kind::balance:
        return a->balance();
    }
    return -1;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, const Op& op,
                                                 std::int64_t got) const {
    std::int64_t want = 1;
    if (op.kind == Kind::withdraw) want = m.balance >= op.amount ? 1 : 0;
    if (op.kind == Kind::balance) want = m.balance;
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{"bank.response", merilo_describe(op) + " answered " +
                                                          std::to_string(got) + ", expected " +
                                                          std::to_string(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type& a) const {
    if (const std::int64_t b = a->balance(); b < 0) {
      return merilo::statem::Violation{"bank.overdrawn", "balance " + std::to_string(b)};
    }
    return std::nullopt;
  }
  void teardown(sut_type&) const {}
};

}  // namespace bank

#endif  // MERILO_EXAMPLES_BANK_SPEC_HPP
