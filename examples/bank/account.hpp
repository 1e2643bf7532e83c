// account.hpp — a bank account shared by several threads, and a withdraw
// that checks the balance and debits it in two separate steps.
//
// `Account<Bug::none>` holds its mutex across the check and the debit, so
// a withdraw the balance cannot cover is refused and the balance never goes
// below zero. `Account<Bug::check_then_debit>` checks under the mutex,
// lets go, and debits under it again: two withdraws that both pass the
// check before either debits both succeed, and the balance goes negative.
// The buggy variant pauses between check and debit (`kWindow`) so a test
// meets the bug in a few races.
//
// Example:
//
//   bank::Account<> a;
//   a.deposit(5);     // 5
//   a.withdraw(3);    // true, balance 2
//   a.withdraw(3);    // false, balance still 2
#ifndef MERILO_EXAMPLES_BANK_ACCOUNT_HPP
#define MERILO_EXAMPLES_BANK_ACCOUNT_HPP

#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>

namespace bank {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, check_then_debit };

/// The pause the buggy withdraw takes between its check and its debit.
inline constexpr std::chrono::microseconds kWindow{500};

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
      std::this_thread::sleep_for(kWindow);  // another withdraw can pass the check here
      std::lock_guard lock(mu_);
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
  mutable std::mutex mu_;
  std::int64_t balance_ = 0;
};

}  // namespace bank

#endif  // MERILO_EXAMPLES_BANK_ACCOUNT_HPP
