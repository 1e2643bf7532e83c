// fixtures.hpp — small systems whose behaviour the explorer tests know in
// closed form: counters, a grid with a broken corner, a deadlock, failing
// steps, a hidden clock, a crash.
#ifndef MERILO_TESTS_EXPLORE_FIXTURES_HPP
#define MERILO_TESTS_EXPLORE_FIXTURES_HPP

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <merilo/explore/system.hpp>

namespace fixtures {

namespace ex = merilo::explore;

/// N independent counters 0..K: (K+1)^N worlds, the farthest N*K steps
/// away. Restorable; `Counters<N, K, false>` is not.
template <std::size_t N, std::uint32_t K>
class CountersBase {
 public:
  struct World {
    std::array<std::uint32_t, N> v{};
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return N; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return w_.v[k] < K; }
  ex::Status apply(ex::Kind k) {
    ++w_.v[k];
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const {
    std::string t;
    for (std::size_t i = 0; i < N; ++i) {
      if (i != 0) t += ' ';
      t += w_.v[i] == K ? "full" : "open";
    }
    return t;
  }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return "inc c" + std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<CountersBase>, 0> invariants() const { return {}; }

 protected:
  World w_{};
};

template <std::size_t N, std::uint32_t K>
class Counters : public CountersBase<N, K> {
 public:
  void restore(const typename CountersBase<N, K>::World& w) { this->w_ = w; }
};

template <std::size_t N, std::uint32_t K>
class ReplayOnlyCounters : public CountersBase<N, K> {};

/// N bits, each set once by its own kind: 2^N worlds, C(N, k) of them at
/// depth k, so that with 19 bits the middle levels (92,378 worlds) span two
/// frontier slices of the explorer. With `kBroken`, the invariant "bits
/// 0..9 are not all set while bit 18 is" first breaks at depth 11. The
/// tuple is the number of bits set.
template <std::size_t N, bool kBroken = false>
class Bits {
 public:
  struct World {
    std::uint32_t v = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return N; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return (w_.v >> k & 1U) == 0; }
  ex::Status apply(ex::Kind k) {
    w_.v |= 1U << k;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const {
    unsigned n = 0;
    for (std::size_t i = 0; i < N; ++i) n += w_.v >> i & 1U;
    return "set=" + std::to_string(n);
  }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return "set b" + std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<Bits>, kBroken ? 1 : 0> invariants() const {
    if constexpr (kBroken) {
      return {{{"not bits 0..9 with bit 18",
                [](const Bits& b) { return (b.w_.v & 0x403FFU) != 0x403FFU; }}}};
    } else {
      return {};
    }
  }

 private:
  World w_{};
};

/// A 4x4 grid walked by kinds 0 (x+1) and 1 (y+1); the invariant "not at
/// (2, 1)" breaks first on the trace {0, 0, 1}.
class Grid {
 public:
  static constexpr ex::Kind kRight = 0;  // x+1
  static constexpr ex::Kind kUp = 1;     // y+1
  struct World {
    std::uint8_t x = 0;
    std::uint8_t y = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return (k == 0 ? w_.x : w_.y) < 3; }
  ex::Status apply(ex::Kind k) {
    ++(k == 0 ? w_.x : w_.y);
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const {
    return "x" + std::to_string(w_.x) + " y" + std::to_string(w_.y);
  }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "right" : "up"; }
  [[nodiscard]] std::array<ex::Invariant<Grid>, 1> invariants() const {
    return {{{"not at (2, 1)", [](const Grid& g) -> ex::InvariantCheck {
                if (g.w_.x == 2 && g.w_.y == 1) return ex::InvariantCheck::fails("reached (2, 1)");
                return true;
              }}}};
  }
  void restore(const World& w) { w_ = w; }

 private:
  World w_{};
};

/// start -0-> mid -0-> stuck (not settled: a deadlock at {0, 0});
/// start -1-> done (settled).
class Stuck {
 public:
  static constexpr ex::Kind kStep = 0;
  static constexpr ex::Kind kFinish = 1;
  struct World {
    std::uint8_t at = 0;  // 0 start, 1 mid, 2 stuck, 3 done
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    return k == 0 ? (w_.at == 0 || w_.at == 1) : w_.at == 0;
  }
  ex::Status apply(ex::Kind k) {
    w_.at = k == 1 ? std::uint8_t{3} : static_cast<std::uint8_t>(w_.at + 1);
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return std::to_string(w_.at); }
  [[nodiscard]] bool settled() const { return w_.at == 3; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "step" : "finish"; }
  [[nodiscard]] std::array<ex::Invariant<Stuck>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

/// A counter whose kind 1 fails once x reaches `at`: with an apply error,
/// or, when `mode` is set, with an undeclared mode change.
class Failing {
 public:
  static constexpr ex::Kind kX = 0;  // x+1
  static constexpr ex::Kind kY = 1;  // y+1: fails once x reached `at`
  Failing(std::uint8_t at, bool mode) : at_(at), mode_(mode) {}
  struct World {
    std::uint8_t x = 0;
    std::uint8_t y = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return k == 0 ? w_.x < 5 : w_.y < 1; }
  ex::Status apply(ex::Kind k) {
    if (k == 1 && w_.x >= at_) {
      return mode_ ? ex::Status::mode_change("serving -> draining without a drain request")
                   : ex::Status::error("refused: rejected");
    }
    ++(k == 0 ? w_.x : w_.y);
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return "f"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "x+1" : "y+1"; }
  [[nodiscard]] std::array<ex::Invariant<Failing>, 0> invariants() const { return {}; }

 private:
  std::uint8_t at_;
  bool mode_;
  World w_{};
};

/// A machine whose step reads hidden global state (a counter standing in
/// for a wall clock), so replaying the same path reaches another world.
inline std::uint32_t hidden_clock = 0;

class Clocked {
 public:
  struct World {
    std::uint32_t stamp = 0;
    std::uint32_t steps = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 1; }
  [[nodiscard]] bool enabled(ex::Kind) const { return w_.steps < 3; }
  ex::Status apply(ex::Kind) {
    w_.stamp = ++hidden_clock;
    ++w_.steps;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return "c"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind) const { return "tick"; }
  [[nodiscard]] std::array<ex::Invariant<Clocked>, 0> invariants() const { return {}; }
  void restore(const World& w) { w_ = w; }

 private:
  World w_{};
};

/// Kind 1 throws from apply.
class Throwing {
 public:
  static constexpr ex::Kind kOk = 0;
  static constexpr ex::Kind kThrow = 1;
  struct World {
    std::uint8_t x = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind) const { return w_.x < 2; }
  ex::Status apply(ex::Kind k) {
    if (k == 1) throw std::runtime_error("disk on fire");
    ++w_.x;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return "t"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "ok" : "throw"; }
  [[nodiscard]] std::array<ex::Invariant<Throwing>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

}  // namespace fixtures

#endif  // MERILO_TESTS_EXPLORE_FIXTURES_HPP
