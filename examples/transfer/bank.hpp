// bank.hpp — two accounts, one mutex each, and a transfer that locks both:
// in argument order (a lock-order deadlock) or in a fixed order.
//
// `Bank<Bug::none>` locks the two accounts of a transfer lower index first,
// whichever way the money goes, so two transfers can never wait for each
// other in a cycle. `Bank<Bug::lock_order>` locks the source account first
// and then the destination: a transfer from 0 to 1 that holds account 0
// and one from 1 to 0 that holds account 1 each wait for the other's lock
// forever. The mutexes are merilo::sync::mutex, so under the parallel tester
// the schedule that deadlocks is found by search and reported as
// `parallel.deadlock`, naming which branch holds which mutex.
//
// Example:
//
//   transfer::Bank<> bank;          // both accounts start with kOpening
//   bank.transfer(0, 1);            // true: account 0 -> 1, one unit
//   bank.balance(1);                // kOpening + 1
#ifndef MERILO_EXAMPLES_TRANSFER_BANK_HPP
#define MERILO_EXAMPLES_TRANSFER_BANK_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>  // std::lock_guard

#include <merilo/sync/sync.hpp>

namespace transfer {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, lock_order };

/// What each account holds when the bank opens.
inline constexpr std::int64_t kOpening = 2;

/// Two accounts, 0 and 1, shared by several threads.
template <Bug bug = Bug::none>
class Bank {
 public:
  /// Moves one unit from account `from` to account `to` (0 or 1, distinct)
  /// if `from` holds one; returns whether it did.
  bool transfer(std::size_t from, std::size_t to) {
    const std::size_t first = bug == Bug::lock_order ? from : (from < to ? from : to);
    const std::size_t second = first == from ? to : from;
    std::lock_guard one(accounts_[first].mu);
    std::lock_guard two(accounts_[second].mu);  // the other order may be held: a deadlock
    if (accounts_[from].balance < 1) return false;
    accounts_[from].balance -= 1;
    accounts_[to].balance += 1;
    return true;
  }

  /// What account `i` holds.
  [[nodiscard]] std::int64_t balance(std::size_t i) {
    std::lock_guard lock(accounts_[i].mu);
    return accounts_[i].balance;
  }

 private:
  struct Account {
    merilo::sync::mutex mu;
    std::int64_t balance = kOpening;
  };
  std::array<Account, 2> accounts_;
};

}  // namespace transfer

#endif  // MERILO_EXAMPLES_TRANSFER_BANK_HPP
