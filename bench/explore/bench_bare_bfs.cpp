// bench_bare_bfs — the limit row: TwoPhase searched by the barest one-thread
// breadth-first search we could write, to say how far the explorer is from
// what the hardware allows.
//
// Everything the explorer does in general is done here for TwoPhase only:
// the world is packed by hand into one 64-bit word, the enabled test and
// the step are inlined bit operations, the visited set is a flat
// linear-probing table of XXH3-128 fingerprints (merilo's own hash, so the
// hashing cost is the same), each stored world gets a 4-byte parent id and
// a 1-byte kind (enough for a trace), and the frontier is a vector of
// words. It checks TCConsistent on every new world, as the explorer does,
// and nothing else: no tuples, no sometimes properties, no determinism
// sample, one thread.
//
//   bench_bare_bfs RMS   prints "<seconds> <states> <depth> <peak RSS bytes>"
//
// bench/spin/compare.sh runs it beside merilo and SPIN.
#include <merilo/core/hash.hpp>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace {

using Fingerprint = merilo::core::Hash128;

// TwoPhase with `n` RMs in one word: bits [0, 2n) the RMs' states (0
// working, 1 prepared, 2 committed, 3 aborted), [2n, 3n) tmPrepared,
// [3n, 4n) the "prepared" messages, then the TM's state (2 bits: 0 init,
// 1 committed, 2 aborted), the commit message and the abort message.
class Packed {
 public:
  explicit Packed(unsigned n)
      : n_(n),
        tmp_(2 * n),
        msgp_(3 * n),
        tm_(4 * n),
        commit_(std::uint64_t{1} << (4 * n + 2)),
        abort_(std::uint64_t{1} << (4 * n + 3)),
        all_((std::uint64_t{1} << n) - 1) {}

  [[nodiscard]] unsigned kinds() const { return 5 * n_ + 2; }

  // Calls `f(next, kind)` for every enabled kind of `w`, in the adapter's
  // kind order (examples/tla_twophase/system.hpp).
  template <class F>
  void successors(std::uint64_t w, F&& f) const {
    const std::uint64_t tm = w >> tm_ & 3U;
    for (unsigned r = 0; r < n_; ++r) {
      const std::uint64_t state = w >> (2 * r) & 3U;
      const std::uint64_t cleared = w & ~(std::uint64_t{3} << (2 * r));
      const auto base = 5 * r;
      if (state == 0) {
        f(cleared | std::uint64_t{1} << (2 * r) | std::uint64_t{1} << (msgp_ + r), base);
        f(cleared | std::uint64_t{3} << (2 * r), base + 1);
      }
      if ((w & commit_) != 0) f(cleared | std::uint64_t{2} << (2 * r), base + 2);
      if ((w & abort_) != 0) f(cleared | std::uint64_t{3} << (2 * r), base + 3);
      if (tm == 0 && (w >> (msgp_ + r) & 1U) != 0) {
        f(w | std::uint64_t{1} << (tmp_ + r), base + 4);
      }
    }
    if (tm == 0 && (w >> tmp_ & all_) == all_) {
      f(w | std::uint64_t{1} << tm_ | commit_, 5 * n_);
    }
    if (tm == 0) f(w | std::uint64_t{2} << tm_ | abort_, 5 * n_ + 1);
  }

  // TCConsistent: no RM committed while another aborted.
  [[nodiscard]] bool consistent(std::uint64_t w) const {
    bool committed = false;
    bool aborted = false;
    for (unsigned r = 0; r < n_; ++r) {
      const std::uint64_t state = w >> (2 * r) & 3U;
      committed = committed || state == 2;
      aborted = aborted || state == 3;
    }
    return !(committed && aborted);
  }

 private:
  unsigned n_;
  unsigned tmp_;
  unsigned msgp_;
  unsigned tm_;
  std::uint64_t commit_;
  std::uint64_t abort_;
  std::uint64_t all_;
};

// Linear probing over a power-of-two array of fingerprints, {0, 0} empty,
// doubled at three quarters full.
class Visited {
 public:
  Visited() : slots_(std::size_t{1} << 20) {}

  bool insert(Fingerprint fp) {
    if (fp.lo == 0 && fp.hi == 0) fp.hi = 1;
    if (size_ * 4 >= slots_.size() * 3) grow();
    return place(fp);
  }

 private:
  bool place(const Fingerprint& fp) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = fp.lo & mask;; i = (i + 1) & mask) {
      Fingerprint& s = slots_[i];
      if (s == fp) return false;
      if (s.lo == 0 && s.hi == 0) {
        s = fp;
        ++size_;
        return true;
      }
    }
  }
  void grow() {
    std::vector<Fingerprint> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Fingerprint& fp : old) {
      if (fp.lo != 0 || fp.hi != 0) place(fp);
    }
  }

  std::vector<Fingerprint> slots_;
  std::size_t size_ = 0;
};

std::size_t peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : 0;
  if (n < 1 || n > 15) {
    std::fprintf(stderr, "bench_bare_bfs: RMS must be 1 to 15 (the world is one 64-bit word)\n");
    return 2;
  }
  const Packed sys(n);
  const auto start = std::chrono::steady_clock::now();
  Visited visited;
  std::vector<std::uint32_t> parent{0};
  std::vector<std::uint8_t> kind{0};
  std::vector<std::uint64_t> frontier{0};
  std::vector<std::uint64_t> next;
  visited.insert(merilo::core::hash128(&frontier[0], sizeof(std::uint64_t)));
  std::size_t depth = 0;
  std::uint32_t first = 0;  // the id of frontier[0]
  bool broken = false;
  while (!frontier.empty() && !broken) {
    next.clear();
    for (std::size_t i = 0; i < frontier.size(); ++i) {
      const auto id = static_cast<std::uint32_t>(first + i);
      sys.successors(frontier[i], [&](std::uint64_t w, unsigned k) {
        if (!visited.insert(merilo::core::hash128(&w, sizeof w))) return;
        broken = broken || !sys.consistent(w);
        parent.push_back(id);
        kind.push_back(static_cast<std::uint8_t>(k));
        next.push_back(w);
      });
    }
    first = static_cast<std::uint32_t>(first + frontier.size());
    frontier.swap(next);
    if (!frontier.empty()) ++depth;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.3f %zu %zu %zu\n", secs, parent.size(), depth, peak_rss());
  if (broken) std::fprintf(stderr, "bench_bare_bfs: TCConsistent broke (a bug in this program)\n");
  return broken ? 1 : 0;
}
