// twin.hpp — the hand-written libFuzzer harness each example fuzz target is
// measured against: what a user writes over the same system without
// merilo's runner.
//
// One byte is one step: the harness asks every kind whether it is enabled,
// takes the enabled one the byte's value picks (modulo their count), applies
// it and checks every invariant. When the bytes run out it takes the lowest
// enabled kind until the system settles (the same drain merilo's runner
// has, so an input does the same kind of work on both sides), and it stops
// at the merilo target's `max_depth`. A broken invariant, a refused step
// and a deadlock (nothing enabled, not settled) print one `==twin== ERROR:`
// line and abort, so libFuzzer saves the input.
//
// It has none of the runner's extras: no swarm mask, no varints, no trace,
// no crash capture, no report. The systems are the examples' own adapters;
// their invariants are read once through `invariants()`, the list the
// system declares. bench/fuzz/twins.sh runs each twin beside its merilo
// target; bench/fuzz/time_to_bug.sh races them to the seeded bugs.
#ifndef MERILO_BENCH_FUZZ_TWIN_HPP
#define MERILO_BENCH_FUZZ_TWIN_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <merilo/explore/invariant.hpp>
#include <merilo/explore/system.hpp>

namespace merilo_bench {

/// A system `S` driven by raw bytes, one byte a step.
template <class S>
class Twin {
 public:
  /// A twin named `name` (in its error lines) taking at most `max_depth`
  /// steps an input, drain included.
  Twin(const char* name, std::size_t max_depth) : name_(name), max_depth_(max_depth) {
    for (auto&& item : sys_.invariants()) {
      const merilo::explore::Invariant<merilo::explore::invariant_subject_t<S>> inv = item;
      holds_.push_back(inv.holds);
    }
    enabled_.reserve(static_cast<std::size_t>(sys_.kinds()));
  }

  /// Runs one input; returns 0 or aborts on a finding.
  int run(const std::uint8_t* data, std::size_t size) {
    ++executions_;
    sys_.reset();
    check();
    const auto kinds = static_cast<merilo::explore::Kind>(sys_.kinds());
    std::size_t pos = 0;
    for (std::size_t depth = 0;; ++depth) {
      enabled_.clear();
      for (merilo::explore::Kind k = 0; k < kinds; ++k) {
        if (sys_.enabled(k)) enabled_.push_back(k);
      }
      if (enabled_.empty()) {
        if (!sys_.settled()) fail("deadlock");
        return 0;
      }
      if (depth >= max_depth_) return 0;
      merilo::explore::Kind k = enabled_.front();  // the drain: lowest enabled
      if (pos < size) {
        k = enabled_[data[pos++] % enabled_.size()];
      } else if (sys_.settled()) {
        return 0;
      }
      if (!sys_.apply(k).ok()) fail("apply_error");
      check();
    }
  }

 private:
  void check() {
    for (auto holds : holds_) {
      if (!holds(sys_).holds()) fail("invariant");
    }
  }

  [[noreturn]] void fail(const char* what) const {
    std::fprintf(stderr, "==twin== ERROR: twin %s found %s; execution %zu of this process\n", name_,
                 what, executions_);
    std::abort();
  }

  S sys_{};
  const char* name_;
  std::size_t max_depth_;
  std::size_t executions_ = 0;
  std::vector<
      typename merilo::explore::Invariant<merilo::explore::invariant_subject_t<S>>::Predicate>
      holds_;
  std::vector<merilo::explore::Kind> enabled_;
};

}  // namespace merilo_bench

/// Defines `LLVMFuzzerTestOneInput` over a `Twin<SystemType>`.
#define MERILO_BENCH_TWIN(SystemType, name, max_depth)                                \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    static ::merilo_bench::Twin<SystemType> twin(name, max_depth);                    \
    return twin.run(data, size);                                                      \
  }                                                                                   \
  static_assert(true, "require a semicolon after MERILO_BENCH_TWIN(...)")

#endif  // MERILO_BENCH_FUZZ_TWIN_HPP
