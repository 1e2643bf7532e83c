// random_programs.hpp — small litmus programs drawn from fixed seeds, for
// the tests that hold the memory model (and sync::model, which runs it
// under the partial-order reduction) against the brute-force RC11 checker.
#ifndef MERILO_TESTS_SYNC_RANDOM_PROGRAMS_HPP
#define MERILO_TESTS_SYNC_RANDOM_PROGRAMS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "litmus.hpp"

namespace merilo::sync::litmus {

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  template <class T>
  T pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
};

/// A program of 2 or 3 threads and at most `max_ops` operations on x and
/// y. Its orders follow one of four profiles, so that seq_cst shapes (SB,
/// IRIW, R, 2+2W with seq_cst accesses or fences) come up often: mixed,
/// all seq_cst, relaxed with seq_cst fences, relaxed or seq_cst.
inline Program random_program(std::uint64_t seed, std::size_t max_ops) {
  Rng rng{seed * 0x9e3779b97f4a7c15ULL + 1};
  Program p{"random", {"x", "y"}, {}, {}};
  const std::size_t profile = rng.below(4);
  const auto order = [&](std::vector<MemOrder> mixed) {
    switch (profile) {
      case 1:
        return sc;
      case 2:
        return rlx;
      case 3:
        return rng.pick<MemOrder>({rlx, sc});
      default:
        return rng.pick(mixed);
    }
  };
  const std::size_t threads = 2 + rng.below(2);
  std::size_t ops = 0;
  std::uint64_t value = 0;
  std::size_t reg = 0;
  std::vector<std::uint64_t> stored{0};
  p.threads.resize(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t count = 1 + rng.below(3);
    for (std::size_t k = 0; k < count && ops < max_ops; ++k, ++ops) {
      const std::string x = rng.pick<std::string>({"x", "y"});
      const std::string r = "r" + std::to_string(++reg);
      const std::size_t kind = rng.below(profile == 2 ? 24 : 20);
      if (kind < 6) {
        stored.push_back(++value);
        p.threads[t].push_back(st(x, value, order({rlx, rel, sc})));
      } else if (kind < 12) {
        p.threads[t].push_back(ld(r, x, order({rlx, acq, sc})));
      } else if (kind < 14) {
        if (rng.below(2) == 0) {
          p.threads[t].push_back(add(r, x, 10, order({rlx, acq, rel, ar, sc})));
        } else {
          stored.push_back(++value);
          p.threads[t].push_back(xchg(r, x, value, order({rlx, acq, rel, ar, sc})));
        }
      } else if (kind < 16) {
        const std::uint64_t expected = rng.pick(stored);
        stored.push_back(++value);
        p.threads[t].push_back(
            cas(r, x, expected, value, order({rlx, acq, rel, ar, sc}), order({rlx, acq, sc})));
      } else {
        p.threads[t].push_back(
            fence(profile == 2 ? sc : rng.pick<MemOrder>({acq, rel, ar, sc, sc})));
      }
    }
  }
  return p;
}

inline std::string text(const Program& p) {
  static const char* const kOrders[] = {"rlx", "consume", "acq", "rel", "acq_rel", "sc"};
  std::string out;
  for (std::size_t t = 0; t < p.threads.size(); ++t) {
    out += "  T" + std::to_string(t + 1) + ":";
    for (const Op& op : p.threads[t]) {
      const std::string o = kOrders[static_cast<int>(op.order)];
      switch (op.kind) {
        case OpKind::store:
          out += " " + op.location + "=" + std::to_string(op.value) + "(" + o + ");";
          break;
        case OpKind::load:
          out += " " + op.reg + "=" + op.location + "(" + o + ");";
          break;
        case OpKind::fetch_add:
          out +=
              " " + op.reg + "=" + op.location + "+=" + std::to_string(op.value) + "(" + o + ");";
          break;
        case OpKind::exchange:
          out += " " + op.reg + "=xchg(" + op.location + "," + std::to_string(op.value) + "," + o +
                 ");";
          break;
        case OpKind::cas:
          out += " " + op.reg + "=cas(" + op.location + "," + std::to_string(op.value) + "->" +
                 std::to_string(op.desired) + "," + o + "," +
                 kOrders[static_cast<int>(op.failure)] + ");";
          break;
        case OpKind::fence:
          out += " fence(" + o + ");";
          break;
        case OpKind::lock:
        case OpKind::unlock:
          break;
      }
    }
    out += "\n";
  }
  return out;
}

inline std::vector<std::string> observables(const Program& p) {
  std::vector<std::string> out;
  for (const auto& ops : p.threads) {
    for (const Op& op : ops) {
      if (!op.reg.empty()) out.push_back(op.reg);
    }
  }
  out.insert(out.end(), p.locations.begin(), p.locations.end());
  return out;
}

}  // namespace merilo::sync::litmus

#endif  // MERILO_TESTS_SYNC_RANDOM_PROGRAMS_HPP
