// small_models.hpp — the small register, queue and set specs, the random
// history generator and the brute-force oracle the linearize tests share.
#ifndef MERILO_TESTS_LINEARIZE_SMALL_MODELS_HPP
#define MERILO_TESTS_LINEARIZE_SMALL_MODELS_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <merilo/core/hash.hpp>  // core::SplitMix64
#include <merilo/fsm/world.hpp>
#include <merilo/linearize/check.hpp>

namespace merilo::linearize::testing {

/// One command for every small model: `kind` picks the operation.
struct Cmd {
  std::uint8_t kind = 0;  // register: 0 read, 1 write a, 2 cas a->b; queue: 0 deq, 1 enq a;
                          // set: 0 contains a, 1 add a, 2 remove a
  int a = 0;
  int b = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;  // lets the search pair twins
};
using Resp = int;  // a read/dequeue/contains result; cas/add/remove: 1 done, 0 not
using SmallCall = Call<Cmd, Resp>;
using SmallHistory = History<Cmd, Resp>;

/// A register holding a small integer (ByteHashable: one int).
struct Reg {
  int value = 0;
  friend bool operator==(const Reg&, const Reg&) = default;
};
struct RegisterSpec {
  static constexpr int kKinds = 3;
  std::optional<std::string> postcondition(const Reg& m, const Cmd& c, Resp r) const {
    switch (c.kind) {
      case 0:
        if (r != m.value) return "read " + std::to_string(r) + ", holds " + std::to_string(m.value);
        return std::nullopt;
      case 1:
        return r == 0 ? std::nullopt
                      : std::optional<std::string>("write answered " + std::to_string(r));
      default:
        if (r != (m.value == c.a ? 1 : 0)) return "cas answered " + std::to_string(r);
        return std::nullopt;
    }
  }
  Reg next_model(const Reg& m, const Cmd& c) const {
    if (c.kind == 1) return Reg{c.a};
    if (c.kind == 2 && m.value == c.a) return Reg{c.b};
    return m;
  }
  Resp response(const Reg& m, const Cmd& c) const {
    if (c.kind == 0) return m.value;
    if (c.kind == 1) return 0;
    return m.value == c.a ? 1 : 0;
  }
};

/// The same register, saying that reads change nothing (so check_history
/// places them greedily).
struct ReadOnlyRegisterSpec : RegisterSpec {
  bool read_only(const Cmd& c, const std::optional<Resp>&) const { return c.kind == 0; }
};

/// The same register, also declaring which value each call needs and may
/// write (so check_history refuses placements that lose a needed value).
/// Values repeat here (0..2), unlike the simulator's unique writes.
struct ValuesRegisterSpec : ReadOnlyRegisterSpec {
  int value_of(const Reg& m) const { return m.value; }
  std::optional<int> reads_value(const Cmd& c, const std::optional<Resp>& r) const {
    if (!r) return std::nullopt;
    if (c.kind == 0) return *r;
    if (c.kind == 2 && *r == 1) return c.a;
    return std::nullopt;
  }
  std::optional<int> writes_value(const Cmd& c, const std::optional<Resp>& r) const {
    if (c.kind == 1) return c.a;
    if (c.kind == 2 && (!r || *r == 1)) return c.b;
    return std::nullopt;
  }
  bool sets_value(const Cmd& c, const std::optional<Resp>& r) const {
    return r && (c.kind == 1 || (c.kind == 2 && *r == 1));
  }
};

/// The register declaring its values but not which calls always set them,
/// so check_history prunes lost values in the search but cannot rule out a
/// shadowed read before it.
struct ValuesOnlyRegisterSpec : ReadOnlyRegisterSpec {
  int value_of(const Reg& m) const { return m.value; }
  std::optional<int> reads_value(const Cmd& c, const std::optional<Resp>& r) const {
    return ValuesRegisterSpec{}.reads_value(c, r);
  }
  std::optional<int> writes_value(const Cmd& c, const std::optional<Resp>& r) const {
    return ValuesRegisterSpec{}.writes_value(c, r);
  }
};

/// A FIFO queue (FeedsBytes: a vector). Dequeue on empty answers -1.
struct Queue {
  std::vector<int> items;
  friend bool operator==(const Queue&, const Queue&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    const std::size_t n = items.size();
    sink(&n, sizeof n);
    if (n != 0) sink(items.data(), n * sizeof(int));
  }
};
struct QueueSpec {
  static constexpr int kKinds = 2;
  std::optional<std::string> postcondition(const Queue& m, const Cmd& c, Resp r) const {
    if (c.kind == 1) return r == 0 ? std::nullopt : std::optional<std::string>("enqueue answered");
    const int expect = m.items.empty() ? -1 : m.items.front();
    if (r != expect) return "dequeued " + std::to_string(r) + ", head " + std::to_string(expect);
    return std::nullopt;
  }
  Queue next_model(const Queue& m, const Cmd& c) const {
    Queue n = m;
    if (c.kind == 1) {
      n.items.push_back(c.a);
    } else if (!n.items.empty()) {
      n.items.erase(n.items.begin());
    }
    return n;
  }
  Resp response(const Queue& m, const Cmd& c) const {
    if (c.kind == 1) return 0;
    return m.items.empty() ? -1 : m.items.front();
  }
};

/// A set of small integers as a bit mask (ByteHashable).
struct Set {
  std::uint32_t bits = 0;
  friend bool operator==(const Set&, const Set&) = default;
};
struct SetSpec {
  static constexpr int kKinds = 3;
  static std::uint32_t bit(int a) { return std::uint32_t{1} << static_cast<unsigned>(a); }
  std::optional<std::string> postcondition(const Set& m, const Cmd& c, Resp r) const {
    if (r != response(m, c)) return "set op answered " + std::to_string(r);
    return std::nullopt;
  }
  Set next_model(const Set& m, const Cmd& c) const {
    if (c.kind == 1) return Set{m.bits | bit(c.a)};
    if (c.kind == 2) return Set{m.bits & ~bit(c.a)};
    return m;
  }
  Resp response(const Set& m, const Cmd& c) const {
    const bool in = (m.bits & bit(c.a)) != 0;
    if (c.kind == 0) return in ? 1 : 0;
    if (c.kind == 1) return in ? 0 : 1;
    return in ? 1 : 0;
  }
};

/// A value with padding between its fields: not hashable by its bytes, so
/// not a `Model`.
struct Padded {
  std::uint8_t small = 0;
  std::uint64_t big = 0;
  friend bool operator==(const Padded&, const Padded&) = default;
};

/// A small deterministic PRNG (splitmix64), so the cases are the same on
/// every standard library.
class Rng : public merilo::core::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  int below(int n) { return static_cast<int>(SplitMix64::below(static_cast<std::uint64_t>(n))); }
};

/// Random histories of a simulated atomic object: each call takes effect at
/// one instant between its invoke and its return, so the result is
/// linearizable; when `perturb`, one response is then replaced at random
/// (which may or may not break it — the oracle decides).
template <class S, class M>
std::vector<SmallHistory> generate(const S& spec, M model, Rng& rng, int threads, int max_calls,
                                   int max_total, bool perturb) {
  std::vector<SmallHistory> histories(static_cast<std::size_t>(threads));
  std::vector<int> remaining(histories.size());
  int total = 0;
  for (auto& r : remaining) {
    r = std::min(rng.below(max_calls + 1), max_total - total);
    total += r;
  }
  // phase per thread: 0 idle, 1 invoked, 2 took effect
  std::vector<int> phase(histories.size(), 0);
  std::int64_t now = 0;
  for (;;) {
    std::vector<std::size_t> live;
    for (std::size_t t = 0; t < histories.size(); ++t) {
      if (remaining[t] > 0 || phase[t] != 0) live.push_back(t);
    }
    if (live.empty()) break;
    const std::size_t t = live[static_cast<std::size_t>(rng.below(static_cast<int>(live.size())))];
    now += rng.below(2);  // equal instants happen
    auto& h = histories[t];
    if (phase[t] == 0) {
      Cmd c{static_cast<std::uint8_t>(rng.below(S::kKinds)), rng.below(3), rng.below(3)};
      h.push_back(SmallCall{c, 0, now, now});
      --remaining[t];
      phase[t] = 1;
    } else if (phase[t] == 1) {
      h.back().response = spec.response(model, h.back().command);
      model = spec.next_model(model, h.back().command);
      phase[t] = 2;
    } else {
      h.back().returned_at = now;
      phase[t] = 0;
    }
  }
  if (perturb && total > 0) {
    int pick = rng.below(total);
    for (auto& h : histories) {
      for (auto& c : h) {
        if (pick-- == 0) c.response = rng.below(4) - 1;
      }
    }
  }
  return histories;
}

/// What the oracle found: whether some interleaving works, and the longest
/// prefix of any interleaving that satisfies the order rules and the model.
struct OracleAnswer {
  bool linearizable = false;
  std::size_t longest_prefix = 0;
};

/// Tries every interleaving of the threads' calls (abandoning one as soon as
/// its prefix breaks real time or the model). No memo, no cleverness.
template <class S, class M>
class Oracle {
 public:
  Oracle(const S& spec, const std::vector<SmallHistory>& histories)
      : spec_(spec), histories_(histories), positions_(histories.size(), 0) {
    for (const auto& h : histories) total_ += h.size();
  }
  OracleAnswer run(const M& initial) {
    OracleAnswer answer;
    answer.linearizable = search(initial, 0, answer);
    return answer;
  }

 private:
  // May `thread`'s next call go now? No unplaced call of any thread may have
  // returned strictly before it was invoked.
  bool allowed(std::size_t thread) const {
    const auto& candidate = histories_[thread][positions_[thread]];
    for (std::size_t t = 0; t < histories_.size(); ++t) {
      for (std::size_t i = positions_[t]; i < histories_[t].size(); ++i) {
        if (t == thread && i == positions_[t]) continue;
        if (histories_[t][i].returned_at < candidate.invoked_at) return false;
      }
    }
    return true;
  }
  bool search(const M& model, std::size_t depth, OracleAnswer& answer) {
    answer.longest_prefix = std::max(answer.longest_prefix, depth);
    if (depth == total_) return true;
    bool found = false;
    for (std::size_t t = 0; t < histories_.size(); ++t) {
      if (positions_[t] >= histories_[t].size() || !allowed(t)) continue;
      const auto& call = histories_[t][positions_[t]];
      if (spec_.postcondition(model, call.command, call.response)) continue;
      ++positions_[t];
      // Keep going after a success only to learn nothing more: stop.
      found = search(spec_.next_model(model, call.command), depth + 1, answer);
      --positions_[t];
      if (found) return true;
    }
    return false;
  }

  const S& spec_;
  const std::vector<SmallHistory>& histories_;
  std::vector<std::size_t> positions_;
  std::size_t total_ = 0;
};

/// Empty when `order` is a valid linearization of `histories` from `initial`
/// (every call once, threads' orders kept, real time respected, every
/// postcondition holding); otherwise what is wrong with it. With `complete`
/// false it checks a prefix only.
template <class S, class M>
std::string validate_order(const S& spec, M model, const std::vector<SmallHistory>& histories,
                           const std::vector<CallRef>& order, bool complete) {
  std::vector<std::size_t> positions(histories.size(), 0);
  std::size_t total = 0;
  for (const auto& h : histories) total += h.size();
  if (complete && order.size() != total) return "order has the wrong length";
  for (std::size_t k = 0; k < order.size(); ++k) {
    const CallRef c = order[k];
    if (c.history >= histories.size() || c.index != positions[c.history] ||
        c.index >= histories[c.history].size()) {
      return "step " + std::to_string(k) + " breaks its thread's order";
    }
    const auto& call = histories[c.history][c.index];
    for (std::size_t t = 0; t < histories.size(); ++t) {
      for (std::size_t i = positions[t]; i < histories[t].size(); ++i) {
        if ((t != c.history || i != c.index) && histories[t][i].returned_at < call.invoked_at) {
          return "step " + std::to_string(k) + " breaks real time";
        }
      }
    }
    if (spec.postcondition(model, call.command, call.response)) {
      return "step " + std::to_string(k) + " breaks the model";
    }
    model = spec.next_model(model, call.command);
    ++positions[c.history];
  }
  return {};
}

}  // namespace merilo::linearize::testing

#endif  // MERILO_TESTS_LINEARIZE_SMALL_MODELS_HPP
