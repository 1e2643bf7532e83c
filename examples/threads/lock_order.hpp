// lock_order.hpp — two transfers that take two locks in opposite orders.
//
// `Bank<fixed>` has two accounts, each behind its own mutex. A transfer
// locks both accounts, moves the money and unlocks. Seeded
// (`fixed == false`): it locks the account it takes from first, then the
// one it pays into, so a transfer from 0 to 1 racing one from 1 to 0 can
// each hold its first lock and wait for the other's for ever. Fixed: every
// transfer locks the lower-numbered account first, one global order, so no
// cycle of waiting threads can form.
//
// Example:
//
//   threads::Bank<true> bank;
//   bank.transfer(0, 1, 10);  // balances 90 and 110
#ifndef MERILO_EXAMPLES_THREADS_LOCK_ORDER_HPP
#define MERILO_EXAMPLES_THREADS_LOCK_ORDER_HPP

#include <array>    // the accounts
#include <cstddef>  // std::size_t
#include <mutex>    // std::lock_guard

#include <merilo/sync/model.hpp>

namespace threads {

/// Two accounts of 100 each.
template <bool fixed>
class Bank {
 public:
  /// Moves `amount` from account `from` to account `to` (0 or 1, different).
  void transfer(std::size_t from, std::size_t to, int amount) {
    const std::size_t first = fixed ? (from < to ? from : to) : from;
    const std::size_t second = first == from ? to : from;
    const std::lock_guard hold_first(accounts_[first].mu);
    const std::lock_guard hold_second(accounts_[second].mu);
    accounts_[from].balance -= amount;
    accounts_[to].balance += amount;
  }

  /// The sum of the balances (call when no transfer runs).
  [[nodiscard]] int total() const { return accounts_[0].balance + accounts_[1].balance; }

 private:
  struct Account {
    merilo::sync::mutex mu;
    int balance = 100;  // guarded by mu
  };
  std::array<Account, 2> accounts_;
};

/// The test body: a transfer from 0 to 1 races one from 1 to 0.
template <bool fixed>
void lock_order_body() {
  Bank<fixed> bank;
  merilo::sync::thread there([&bank] { bank.transfer(0, 1, 10); });
  bank.transfer(1, 0, 20);
  there.join();
  MERILO_SYNC_ASSERT(bank.total() == 200);
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_LOCK_ORDER_HPP
