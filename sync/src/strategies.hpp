// strategies.hpp — the ways a `sync::model` search chooses executions, as
// `Strategy` implementations (detail/controller.hpp): the reduction
// (DPOR), the preemption-bounded depth-first search, PCT, uniform random,
// and the replay of a pin. Private to sync/src.
#ifndef MERILO_SYNC_SRC_STRATEGIES_HPP
#define MERILO_SYNC_SRC_STRATEGIES_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t, std::uint64_t
#include <span>     // fuzzer bytes
#include <vector>   // paths, trails

#include <merilo/core/hash.hpp>               // core::SplitMix64 draws the random choices
#include <merilo/sync/detail/controller.hpp>  // Strategy, Decision, Chooser
#include <merilo/sync/detail/dpor.hpp>        // Dpor

namespace merilo::sync::detail {

/// Source-DPOR with sleep sets: one execution per Mazurkiewicz trace, times
/// every memory-model choice.
class DporStrategy final : public Strategy {
 public:
  explicit DporStrategy(Dpor& dpor) : dpor_(dpor) {}
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;

 private:
  Dpor& dpor_;
};

/// Depth-first over every choice, with a cost of at most `bound` per
/// execution: a preemption costs 1, a memory-model choice other than 0 (a
/// weak read or store) `weak_cost` (0: weak choices are free);
/// `begin` starts the next execution (false: all explored).
class BoundedStrategy final : public Strategy {
 public:
  explicit BoundedStrategy(std::size_t bound, std::uint8_t weak_cost = 0)
      : bound_(bound), weak_cost_(weak_cost) {}
  bool begin();
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;
  /// A replayed choice could not be made (the program is not deterministic).
  [[nodiscard]] bool diverged() const noexcept { return diverged_; }
  /// Some choice was left out because it would have gone over the bound.
  [[nodiscard]] bool cut() const noexcept { return cut_; }

 private:
  struct Point {
    std::vector<std::uint8_t> options;  // in the order they are explored
    std::vector<std::uint8_t> cost;     // preemptions each one adds
    std::size_t at = 0;                 // the option under way
    std::size_t before = 0;             // preemptions before this point
  };
  std::uint8_t take(std::vector<std::uint8_t> options, std::vector<std::uint8_t> cost);

  std::size_t bound_;
  std::uint8_t weak_cost_;
  std::vector<Point> path_;
  std::size_t step_ = 0;
  std::size_t replay_ = 0;
  std::size_t preemptions_ = 0;
  bool started_ = false;
  bool diverged_ = false;
  bool cut_ = false;
};

/// Uniformly random enabled threads and memory-model choices.
class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(std::uint64_t seed) : rng_(seed) {}
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;

 private:
  core::SplitMix64 rng_;
};

/// PCT over thread choices (the `Chooser` parallel uses), random reads.
class PctStrategy final : public Strategy {
 public:
  PctStrategy(std::uint64_t seed, std::size_t depth, std::size_t length);
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;
  /// Decisions made (the next execution's expected length).
  [[nodiscard]] std::size_t decisions() const noexcept { return index_; }

 private:
  Chooser chooser_;
  core::SplitMix64 rng_;
  std::size_t index_ = 0;
};

/// Replays a pin: its choices at the steps where there was a choice, the
/// defaults after it.
class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(std::vector<Choice> choices) : choices_(std::move(choices)) {}
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;
  /// A choice did not fit the step it was replayed at.
  [[nodiscard]] bool diverged() const noexcept { return diverged_; }

 private:
  std::vector<Choice> choices_;
  std::size_t next_ = 0;
  bool diverged_ = false;
};

/// Reads every choice from fuzzer bytes: at a step with two or more
/// enabled threads the next byte modulo their number picks one (in thread
/// order); at a memory-model choice the next byte modulo the candidates.
/// Past the last byte every choice is the default, so every input, the
/// empty one included, is a schedule.
class BytesStrategy final : public Strategy {
 public:
  explicit BytesStrategy(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t next_ = 0;
};

/// Passes every choice on to `inner` and writes down the bytes that make
/// `BytesStrategy` take the same choices.
class RecordingStrategy final : public Strategy {
 public:
  explicit RecordingStrategy(Strategy& inner) : inner_(inner) {}
  std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                           std::uint8_t preferred) override;
  std::size_t next_value(std::size_t count) override;
  /// The bytes of the execution so far.
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }

 private:
  Strategy& inner_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_SRC_STRATEGIES_HPP
