// account.hpp — a bank account shared by several threads, and a withdraw
// that checks the balance and debits it in two separate steps.
//
// `Account<Bug::none>` holds its mutex across the check and the debit, so
// a withdraw the balance cannot cover is refused and the balance never goes
// below zero. `Account<Bug::check_then_debit>` checks under the mutex,
// lets go, and debits under it again: two withdraws that both pass the
// check before either debits both succeed, and the balance goes negative.
// No pause widens the window: the mutex is a merilo::sync::mutex, so under
// the parallel tester every lock and unlock is a scheduling point and the
// window is met by search.
//
// Example:
//
//   bank::Account<> a;
//   a.deposit(5);     // 5
//   a.withdraw(3);    // true, balance 2
//   a.withdraw(3);    // false, balance still 2
#ifndef MERILO_EXAMPLES_BANK_ACCOUNT_HPP
#define MERILO_EXAMPLES_BANK_ACCOUNT_HPP

#include <cstdint>
#include <mutex>  // std::lock_guard

#include <merilo/sync/sync.hpp>

namespace bank {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, check_then_debit };

/// An account shared by several threads.
template <Bug bug = Bug::none>
class Account {
 public:
  /// Adds `amount` and returns the new balance.
  std::int64_t deposit(std::int64_t amount) {
    std::lock_guard lock(mu_);
    balance_ += amount;
    return balance_;
  }

  /// Takes `amount` out if the balance covers it; returns whether it did.
  bool withdraw(std::int64_t amount) {
    if constexpr (bug == Bug::check_then_debit) {
      {
        std::lock_guard lock(mu_);
        if (balance_ < amount) return false;
      }
      std::lock_guard lock(mu_);  // another withdraw may have passed the check in between
      balance_ -= amount;
      return true;
    } else {
      std::lock_guard lock(mu_);
      if (balance_ < amount) return false;
      balance_ -= amount;
      return true;
    }
  }

  /// The current balance.
  [[nodiscard]] std::int64_t balance() const {
    std::lock_guard lock(mu_);
    return balance_;
  }

 private:
  mutable merilo::sync::mutex mu_;
  std::int64_t balance_ = 0;
};

}  // namespace bank

#endif  // MERILO_EXAMPLES_BANK_ACCOUNT_HPP
