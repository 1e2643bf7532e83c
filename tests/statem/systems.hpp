// Seeded-bug systems for statem's tests and benchmarks, each with its
// spec, a switch for the bug, and the known minimal counterexample.
//
//   * queue: a bounded queue (capacity 3) that silently drops the element
//     that would fill it, and so later accepts a push it should refuse.
//     Minimal: push(0) push(0) push(0) push(0).
//   * kv: a key-value store that appends on overwrite and whose delete
//     removes only the newest entry, leaving a stale one. Minimal:
//     put(0, 0) put(0, 0) del(0) get(0): the four keys must stay equal to
//     fail, and the shrinker moves them to 0 together.
//   * counter: a counter with limit 3 that wraps to 0 instead of refusing.
//     Minimal: inc inc inc inc.
#ifndef MERILO_TESTS_STATEM_SYSTEMS_HPP
#define MERILO_TESTS_STATEM_SYSTEMS_HPP

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <merilo/statem/statem.hpp>

namespace statem_systems {

namespace st = merilo::statem;

// ---- bounded queue -----------------------------------------------------------

namespace queue {

inline constexpr std::size_t kCapacity = 3;

struct Cmd {
  enum class Kind : std::uint8_t { push, pop } kind;
  int value = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline Cmd push(int v) { return {Cmd::Kind::push, v}; }
inline Cmd pop() { return {Cmd::Kind::pop, 0}; }

inline std::string merilo_describe(const Cmd& c) {
  return c.kind == Cmd::Kind::push ? fmt::format("push({})", c.value) : std::string("pop");
}

class BoundedQueue {
 public:
  explicit BoundedQueue(bool drop_at_capacity) : bug_(drop_at_capacity) {}
  bool push(int v) {
    if (items_.size() >= kCapacity) return false;
    if (bug_ && items_.size() + 1 == kCapacity) return true;  // the seeded bug
    items_.push_back(v);
    return true;
  }
  std::optional<int> pop() {
    if (items_.empty()) return std::nullopt;
    int v = items_.front();
    items_.erase(items_.begin());
    return v;
  }

 private:
  bool bug_;
  std::vector<int> items_;
};

struct Spec {
  using model_type = std::vector<int>;
  using command_type = Cmd;
  using sut_type = BoundedQueue;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    return st::one_of<Cmd>(
        {st::map(st::integer(0, 100), [](int v) { return push(v); }), st::just(pop())});
  }
  st::Admission precondition(const model_type& m, const Cmd& c) const {
    // A push into a full queue is admissible: the queue must refuse it.
    const bool ok = c.kind == Cmd::Kind::push || !m.empty();
    return ok ? st::Admission::admit : st::Admission::reject;
  }
  model_type next_model(const model_type& m, const Cmd& c) const {
    model_type next = m;
    if (c.kind == Cmd::Kind::push) {
      if (next.size() < kCapacity) next.push_back(c.value);
    } else {
      next.erase(next.begin());
    }
    return next;
  }
  sut_type new_sut() const { return BoundedQueue{buggy}; }
  st::MaybeViolation execute(sut_type& q, const model_type& before, const Cmd& c) const {
    if (c.kind == Cmd::Kind::push) {
      const bool accepted = q.push(c.value);
      const bool room = before.size() < kCapacity;
      if (accepted == room) return st::ok();
      return st::fail(
          "queue", fmt::format("push({}) with {} of {} slots used was {}", c.value, before.size(),
                               kCapacity, accepted ? "accepted" : "refused"));
    }
    const std::optional<int> got = q.pop();
    if (got != before.front()) {
      return st::fail("queue",
                      fmt::format("pop returned {}, the model says {}",
                                  got ? fmt::format("{}", *got) : "nothing", before.front()));
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*q*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*q*/) const {}
};

inline std::vector<Cmd> minimal() { return {push(0), push(0), push(0), push(0)}; }

}  // namespace queue

// ---- key-value store ------------------------------------------------------------

namespace kv {

struct Cmd {
  enum class Kind : std::uint8_t { put, get, del } kind;
  int key = 0;
  int value = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline Cmd put(int k, int v) { return {Cmd::Kind::put, k, v}; }
inline Cmd get(int k) { return {Cmd::Kind::get, k, 0}; }
inline Cmd del(int k) { return {Cmd::Kind::del, k, 0}; }

inline std::string merilo_describe(const Cmd& c) {
  switch (c.kind) {
    case Cmd::Kind::put:
      return fmt::format("put({}, {})", c.key, c.value);
    case Cmd::Kind::get:
      return fmt::format("get({})", c.key);
    case Cmd::Kind::del:
      return fmt::format("del({})", c.key);
  }
  return "?";
}

/// Entries in insertion order; reads see the newest entry of a key.
class Store {
 public:
  explicit Store(bool stale_after_overwrite) : bug_(stale_after_overwrite) {}
  void put(int k, int v) {
    if (!bug_) {
      for (auto& e : entries_) {
        if (e.first == k) {
          e.second = v;
          return;
        }
      }
    }
    entries_.emplace_back(k, v);  // the bug: an overwrite appends
  }
  std::optional<int> get(int k) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->first == k) return it->second;
    }
    return std::nullopt;
  }
  void del(int k) {  // removes the newest entry of k only
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->first == k) {
        entries_.erase(std::next(it).base());
        return;
      }
    }
  }

 private:
  bool bug_;
  std::vector<std::pair<int, int>> entries_;
};

struct Spec {
  using model_type = std::map<int, int>;
  using command_type = Cmd;
  using sut_type = Store;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    auto key = st::integer(0, 3);
    return st::one_of<Cmd>({
        st::map(st::construct<std::pair<int, int>>(key, st::integer(0, 100)),
                [](const std::pair<int, int>& kv) { return put(kv.first, kv.second); }),
        st::map(key, [](int k) { return get(k); }),
        st::map(key, [](int k) { return del(k); }),
    });
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(const model_type& m, const Cmd& c) const {
    model_type next = m;
    if (c.kind == Cmd::Kind::put) next[c.key] = c.value;
    if (c.kind == Cmd::Kind::del) next.erase(c.key);
    return next;
  }
  sut_type new_sut() const { return Store{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    switch (c.kind) {
      case Cmd::Kind::put:
        s.put(c.key, c.value);
        return st::ok();
      case Cmd::Kind::del:
        s.del(c.key);
        return st::ok();
      case Cmd::Kind::get: {
        const std::optional<int> got = s.get(c.key);
        const auto it = before.find(c.key);
        const bool present = it != before.end();
        if (present ? got.has_value() && *got == it->second : !got.has_value()) return st::ok();
        return st::fail("kv.get", fmt::format("get({}) returned {}, the model says {}", c.key,
                                              got ? fmt::format("{}", *got) : "nothing",
                                              present ? fmt::format("{}", it->second) : "nothing"));
      }
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline std::vector<Cmd> minimal(int key) { return {put(key, 0), put(key, 0), del(key), get(key)}; }

}  // namespace kv

// ---- counter -----------------------------------------------------------------------

namespace counter {

inline constexpr int kLimit = 3;

enum class Cmd : std::uint8_t { inc, reset, get };

constexpr std::string_view name(Cmd c) {
  return c == Cmd::inc ? "inc" : c == Cmd::reset ? "reset" : "get";
}

class Counter {
 public:
  explicit Counter(bool wraps) : bug_(wraps) {}
  bool inc() {
    if (value_ == kLimit) {
      if (!bug_) return false;
      value_ = 0;  // the seeded bug: wraps instead of refusing
      return true;
    }
    ++value_;
    return true;
  }
  void reset() { value_ = 0; }
  int get() const { return value_; }

 private:
  bool bug_;
  int value_ = 0;
};

struct Spec {
  using model_type = int;
  using command_type = Cmd;
  using sut_type = Counter;
  bool buggy = true;

  int initial() const { return 0; }
  st::Gen<Cmd> command(const int& /*m*/) const {
    return st::element_of<Cmd>({Cmd::inc, Cmd::reset, Cmd::get});
  }
  st::Admission precondition(const int& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  int next_model(const int& m, const Cmd& c) const {
    if (c == Cmd::inc) return m < kLimit ? m + 1 : m;
    if (c == Cmd::reset) return 0;
    return m;
  }
  sut_type new_sut() const { return Counter{buggy}; }
  st::MaybeViolation execute(sut_type& s, const int& before, const Cmd& c) const {
    switch (c) {
      case Cmd::inc: {
        const bool moved = s.inc();
        if (moved != (before < kLimit)) {
          return st::fail("counter.inc", fmt::format("inc at {} reported {}, the model says {}",
                                                     before, moved, before < kLimit));
        }
        return st::ok();
      }
      case Cmd::reset:
        s.reset();
        return st::ok();
      case Cmd::get:
        if (s.get() != before) {
          return st::fail("counter.get",
                          fmt::format("get returned {}, the model says {}", s.get(), before));
        }
        return st::ok();
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*s*/, const int& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline std::vector<Cmd> minimal() { return {Cmd::inc, Cmd::inc, Cmd::inc, Cmd::inc}; }

}  // namespace counter

}  // namespace statem_systems

#endif  // MERILO_TESTS_STATEM_SYSTEMS_HPP
