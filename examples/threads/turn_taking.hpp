// turn_taking.hpp — a bug that needs three preemptions: a log sized for
// the schedules a machine usually runs, overflowed by a perfect alternation.
//
// Two players share a game. Each try is a check-then-act under one mutex:
// if it is my turn, append my move to the log and pass the turn to the
// other. Player A tries three times and player B twice, without waiting
// between tries. In every schedule with at most two preemptions (switches
// away from a thread that could have gone on) they make at most four
// moves, and the seeded `TurnTaking<false>` sizes its log for four. The fifth move needs A, B, A,
// B, A — a switch away from a thread that could go on after each of A's first two moves and B's
// first: three preemptions. A search bounded at two preemptions checks every schedule it allows and
// passes; `sync::model`'s default search finds the overflow and reports it with exactly three. The
// fixed twin checks there is room as part of the same check-then-act.
//
// The threads never sleep and never wait for each other: a try that finds
// it is not its turn simply moves on.
//
// Example:
//
//   threads::TurnTaking<true> game;
//   game.try_move(0);  // true: A moves first
//   game.try_move(0);  // false: it is B's turn
#ifndef MERILO_EXAMPLES_THREADS_TURN_TAKING_HPP
#define MERILO_EXAMPLES_THREADS_TURN_TAKING_HPP

#include <array>    // the log
#include <cstddef>  // std::size_t
#include <mutex>    // std::lock_guard

#include <merilo/sync/model.hpp>

namespace threads {

/// A two-player game whose moves are logged in a fixed array.
template <bool fixed>
class TurnTaking {
 public:
  /// Moves the log holds.
  static constexpr std::size_t kLogSize = 4;

  /// Player `me` (0 or 1) moves if it is its turn; true if it moved.
  bool try_move(int me) {
    const std::lock_guard lock(mu_);
    if (turn_ != me) return false;
    if (fixed && moves_ == kLogSize) return false;  // seeded: no room check
    MERILO_SYNC_ASSERT(moves_ < kLogSize);          // stands for the write past the end
    log_[moves_++] = me;
    turn_ = 1 - me;
    return true;
  }

  /// Moves made (call when no player runs).
  [[nodiscard]] std::size_t moves() const { return moves_; }

 private:
  merilo::sync::mutex mu_;
  int turn_ = 0;                     // guarded by mu_
  std::size_t moves_ = 0;            // guarded by mu_
  std::array<int, kLogSize> log_{};  // guarded by mu_
};

/// The test body: player A (three tries) and player B (two tries) on two
/// threads.
template <bool fixed>
void turn_taking_body() {
  TurnTaking<fixed> game;
  merilo::sync::thread a([&game] {
    for (int i = 0; i < 3; ++i) game.try_move(0);
  });
  merilo::sync::thread b([&game] {
    for (int i = 0; i < 2; ++i) game.try_move(1);
  });
  a.join();
  b.join();
  MERILO_SYNC_ASSERT(game.moves() >= 1);  // A's first try always moves
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_TURN_TAKING_HPP
