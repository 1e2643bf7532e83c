// Seeded deep bugs for statem's tests and benchmark: each system, its spec
// with the bug switched on by default, and a predicate for the minimal
// counterexample (shortest length and smallest values).
//
//   * sorted_set: a set on a sorted vector whose erase of an absent value
//     removes the next larger one. Minimal: insert(1) erase(0) contains(1).
//   * lru: a cache of capacity 2 whose get does not refresh recency.
//     Minimal: five commands, e.g. put(0, 0) put(1, 0) get(0) put(2, 0)
//     get(0); the three keys are 0, 1 and 2 in some order and every value
//     is 0 (which key plays which part depends on the draw: moving one key
//     onto another's value changes the failure).
//   * hashmap: a map that loses bucket 0's keys when it grows from 8 to 16
//     buckets (on the 9th distinct key). Minimal: nine puts of the keys
//     0..8 in any order, then get(0); 10 commands.
//   * trie: a word set whose erase also erases every longer word it is a
//     prefix of (even when it is not itself a word). Minimal: insert("aa")
//     erase("a") contains("aa").
//   * neighbour: a map whose get of an absent key returns the entry of the
//     key one below it. Minimal: put(0, 0) get(1); the two keys must stay
//     one apart while they shrink (related values).
//   * tx_counter: a counter that reads 10 as 0, whose increments may sit
//     inside begin/commit brackets and whose read is allowed only outside
//     one. Minimal: ten incs, then read (11 commands); a bracket goes only
//     by deleting its begin and its commit together (a deep counter).
#ifndef MERILO_TESTS_STATEM_DEEP_SYSTEMS_HPP
#define MERILO_TESTS_STATEM_DEEP_SYSTEMS_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <merilo/statem/statem.hpp>

namespace deep_systems {

namespace st = merilo::statem;

/// A command on a keyed container: `kind`, a key and (for puts) a value.
enum class Op : std::uint8_t { insert, erase, contains };

/// "nothing" for an absent value (values are >= 0), else the value.
inline constexpr int kAbsent = -1;
inline std::string text(int v) { return v == kAbsent ? "nothing" : std::to_string(v); }

inline std::string_view name(Op op) {
  return op == Op::insert ? "insert" : op == Op::erase ? "erase" : "contains";
}

// ---- sorted-vector set -------------------------------------------------------

namespace sorted_set {

struct Cmd {
  Op op;
  int x = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) { return fmt::format("{}({})", name(c.op), c.x); }

class SortedSet {
 public:
  explicit SortedSet(bool bug) : bug_(bug) {}
  void insert(int x) {
    auto it = std::lower_bound(items_.begin(), items_.end(), x);
    if (it == items_.end() || *it != x) items_.insert(it, x);
  }
  void erase(int x) {
    auto it = std::lower_bound(items_.begin(), items_.end(), x);
    if (it == items_.end()) return;
    if (*it == x || bug_) items_.erase(it);  // the bug: erases the next larger value
  }
  bool contains(int x) const { return std::binary_search(items_.begin(), items_.end(), x); }

 private:
  bool bug_;
  std::vector<int> items_;
};

struct Spec {
  using model_type = std::set<int>;
  using command_type = Cmd;
  using sut_type = SortedSet;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    return st::construct<Cmd>(st::element_of<Op>({Op::insert, Op::erase, Op::contains}),
                              st::integer(0, 99));
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.op == Op::insert) m.insert(c.x);
    if (c.op == Op::erase) m.erase(c.x);
    return m;
  }
  sut_type new_sut() const { return SortedSet{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    switch (c.op) {
      case Op::insert:
        s.insert(c.x);
        return st::ok();
      case Op::erase:
        s.erase(c.x);
        return st::ok();
      case Op::contains: {
        const bool want = before.count(c.x) > 0;
        if (s.contains(c.x) == want) return st::ok();
        return st::fail("set.contains", fmt::format("contains({}) was {}", c.x, !want));
      }
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  return l == std::vector<Cmd>{{Op::insert, 1}, {Op::erase, 0}, {Op::contains, 1}};
}

}  // namespace sorted_set

// ---- LRU cache ---------------------------------------------------------------

namespace lru {

inline constexpr std::size_t kCapacity = 2;

struct Cmd {
  bool put = false;  // put(key, value), else get(key)
  int key = 0;
  int value = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) {
  return c.put ? fmt::format("put({}, {})", c.key, c.value) : fmt::format("get({})", c.key);
}

/// Most recently used first.
using Entries = std::list<std::pair<int, int>>;

class Cache {
 public:
  explicit Cache(bool bug) : bug_(bug) {}
  void put(int k, int v) {
    entries_.remove_if([k](const auto& e) { return e.first == k; });
    entries_.emplace_front(k, v);
    if (entries_.size() > kCapacity) entries_.pop_back();
  }
  std::optional<int> get(int k) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != k) continue;
      const int v = it->second;
      if (!bug_) entries_.splice(entries_.begin(), entries_, it);  // the bug: no refresh
      return v;
    }
    return std::nullopt;
  }

 private:
  bool bug_;
  Entries entries_;
};

struct Spec {
  using model_type = Entries;
  using command_type = Cmd;
  using sut_type = Cache;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    const auto key = st::integer(0, 9);
    return st::one_of<Cmd>({st::construct<Cmd>(st::just(true), key, st::integer(0, 99)),
                            st::construct<Cmd>(st::just(false), key, st::just(0))});
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.put) {
      m.remove_if([&c](const auto& e) { return e.first == c.key; });
      m.emplace_front(c.key, c.value);
      if (m.size() > kCapacity) m.pop_back();
    } else {
      for (auto it = m.begin(); it != m.end(); ++it) {
        if (it->first == c.key) {
          m.splice(m.begin(), m, it);
          break;
        }
      }
    }
    return m;
  }
  sut_type new_sut() const { return Cache{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    if (c.put) {
      s.put(c.key, c.value);
      return st::ok();
    }
    int want = kAbsent;  // values are >= 0
    for (const auto& e : before) {
      if (e.first == c.key) want = e.second;
    }
    const int got = s.get(c.key).value_or(kAbsent);
    if (got == want) return st::ok();
    return st::fail(
        "lru.get", fmt::format("get({}) gave {}, the model says {}", c.key, text(got), text(want)));
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  if (l.size() != 5) return false;
  std::set<int> keys;
  for (const Cmd& c : l) {
    if (c.value != 0) return false;
    keys.insert(c.key);
  }
  return keys == std::set<int>{0, 1, 2};
}

}  // namespace lru

// ---- hash map that loses a bucket on growth -------------------------------------

namespace hashmap {

struct Cmd {
  Op op;  // insert = put(key, value), erase, contains = get(key)
  int key = 0;
  int value = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) {
  switch (c.op) {
    case Op::insert:
      return fmt::format("put({}, {})", c.key, c.value);
    case Op::erase:
      return fmt::format("erase({})", c.key);
    case Op::contains:
      return fmt::format("get({})", c.key);
  }
  return "?";
}

/// Separate chaining; grows (doubles) when the entries outnumber the buckets.
class Map {
 public:
  explicit Map(bool bug) : bug_(bug), buckets_(8) {}
  void put(int k, int v) {
    auto& b = bucket(k);
    for (auto& e : b) {
      if (e.first == k) {
        e.second = v;
        return;
      }
    }
    b.emplace_back(k, v);
    if (++size_ > buckets_.size()) grow();
  }
  void erase(int k) {
    auto& b = bucket(k);
    const auto before = b.size();
    std::erase_if(b, [k](const auto& e) { return e.first == k; });
    size_ -= before - b.size();
  }
  std::optional<int> get(int k) const {
    for (const auto& e : buckets_[index(k, buckets_.size())]) {
      if (e.first == k) return e.second;
    }
    return std::nullopt;
  }

 private:
  static std::size_t index(int k, std::size_t n) { return static_cast<std::size_t>(k) % n; }
  std::vector<std::pair<int, int>>& bucket(int k) { return buckets_[index(k, buckets_.size())]; }
  void grow() {
    std::vector<std::vector<std::pair<int, int>>> next(buckets_.size() * 2);
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
      if (bug_ && i == 0 && buckets_.size() == 8) {  // the bug: bucket 0 is lost on 8 -> 16
        size_ -= buckets_[i].size();
        continue;
      }
      for (const auto& e : buckets_[i]) next[index(e.first, next.size())].push_back(e);
    }
    buckets_ = std::move(next);
  }

  bool bug_;
  std::vector<std::vector<std::pair<int, int>>> buckets_;
  std::size_t size_ = 0;
};

struct Spec {
  using model_type = std::map<int, int>;
  using command_type = Cmd;
  using sut_type = Map;
  bool buggy = true;

  model_type initial() const { return {}; }
  /// The same generator for every model, built once (cheap to copy).
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    static const st::Gen<Cmd> gen = [] {
      const auto key = st::integer(0, 63);
      return st::frequency<Cmd>(
          {{3, st::construct<Cmd>(st::just(Op::insert), key, st::integer(0, 999))},
           {1, st::construct<Cmd>(st::just(Op::contains), key, st::just(0))},
           {1, st::construct<Cmd>(st::just(Op::erase), key, st::just(0))}});
    }();
    return gen;
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.op == Op::insert) m[c.key] = c.value;
    if (c.op == Op::erase) m.erase(c.key);
    return m;
  }
  sut_type new_sut() const { return Map{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    switch (c.op) {
      case Op::insert:
        s.put(c.key, c.value);
        return st::ok();
      case Op::erase:
        s.erase(c.key);
        return st::ok();
      case Op::contains: {
        const auto it = before.find(c.key);
        const int want = it == before.end() ? kAbsent : it->second;  // values are >= 0
        const int got = s.get(c.key).value_or(kAbsent);
        if (got == want) return st::ok();
        return st::fail("map.get", fmt::format("get({}) gave {}, the model says {}", c.key,
                                               text(got), text(want)));
      }
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  if (l.size() != 10 || l.back() != Cmd{Op::contains, 0, 0}) return false;
  std::set<int> keys;
  for (std::size_t i = 0; i + 1 < l.size(); ++i) {
    if (l[i].op != Op::insert || l[i].value != 0) return false;
    keys.insert(l[i].key);
  }
  return keys == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8};
}

}  // namespace hashmap

// ---- trie ------------------------------------------------------------------------

namespace trie {

struct Cmd {
  Op op;
  std::string word;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) {
  return fmt::format("{}(\"{}\")", name(c.op), c.word);
}

/// Words over {a, b, c}.
class Trie {
 public:
  explicit Trie(bool bug) : bug_(bug) { nodes_.emplace_back(); }
  void insert(const std::string& w) { nodes_[walk(w, true)].end = true; }
  bool contains(const std::string& w) const {
    const std::size_t n = find(w);
    return n != kNone && nodes_[n].end;
  }
  void erase(const std::string& w) {
    const std::size_t n = find(w);
    if (n == kNone) return;
    nodes_[n].end = false;
    if (bug_) nodes_[n].next.fill(kNone);  // the bug: drops every longer word too
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};
  struct Node {
    std::array<std::size_t, 3> next{kNone, kNone, kNone};
    bool end = false;
  };
  static std::size_t slot(char c) { return static_cast<std::size_t>(c - 'a'); }
  std::size_t find(const std::string& w) const {
    std::size_t n = 0;
    for (char c : w) {
      n = nodes_[n].next[slot(c)];
      if (n == kNone) return kNone;
    }
    return n;
  }
  std::size_t walk(const std::string& w, bool create) {
    std::size_t n = 0;
    for (char c : w) {
      if (nodes_[n].next[slot(c)] == kNone && create) {
        nodes_[n].next[slot(c)] = nodes_.size();
        nodes_.emplace_back();
      }
      n = nodes_[n].next[slot(c)];
    }
    return n;
  }

  bool bug_;
  std::vector<Node> nodes_;
};

struct Spec {
  using model_type = std::set<std::string>;
  using command_type = Cmd;
  using sut_type = Trie;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    const auto word =
        st::map(st::vector_of(st::element_of<char>({'a', 'b', 'c'}), 1, 4),
                [](const std::vector<char>& v) { return std::string(v.begin(), v.end()); });
    return st::construct<Cmd>(st::element_of<Op>({Op::insert, Op::erase, Op::contains}), word);
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.op == Op::insert) m.insert(c.word);
    if (c.op == Op::erase) m.erase(c.word);
    return m;
  }
  sut_type new_sut() const { return Trie{buggy}; }
  st::MaybeViolation execute(sut_type& t, const model_type& before, const Cmd& c) const {
    switch (c.op) {
      case Op::insert:
        t.insert(c.word);
        return st::ok();
      case Op::erase:
        t.erase(c.word);
        return st::ok();
      case Op::contains: {
        const bool want = before.count(c.word) > 0;
        if (t.contains(c.word) == want) return st::ok();
        return st::fail("trie.contains", fmt::format("contains(\"{}\") was {}", c.word, !want));
      }
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*t*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*t*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  return l == std::vector<Cmd>{{Op::insert, "aa"}, {Op::erase, "a"}, {Op::contains, "aa"}};
}

}  // namespace trie

// ---- map whose get of an absent key finds the key below ------------------------

namespace neighbour {

struct Cmd {
  Op op;  // insert = put(key, value), erase, contains = get(key)
  int key = 0;
  int value = 0;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) {
  switch (c.op) {
    case Op::insert:
      return fmt::format("put({}, {})", c.key, c.value);
    case Op::erase:
      return fmt::format("erase({})", c.key);
    case Op::contains:
      return fmt::format("get({})", c.key);
  }
  return "?";
}

/// An ordered map whose lookup, on a miss, looks one key lower.
class Map {
 public:
  explicit Map(bool bug) : bug_(bug) {}
  void put(int k, int v) { entries_[k] = v; }
  void erase(int k) { entries_.erase(k); }
  std::optional<int> get(int k) const {
    auto it = entries_.find(k);
    if (it == entries_.end() && bug_) it = entries_.find(k - 1);  // the bug: an off-by-one probe
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }

 private:
  bool bug_;
  std::map<int, int> entries_;
};

struct Spec {
  using model_type = std::map<int, int>;
  using command_type = Cmd;
  using sut_type = Map;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    static const st::Gen<Cmd> gen = [] {
      const auto key = st::integer(0, 99);
      return st::frequency<Cmd>(
          {{2, st::construct<Cmd>(st::just(Op::insert), key, st::integer(0, 99))},
           {2, st::construct<Cmd>(st::just(Op::contains), key, st::just(0))},
           {1, st::construct<Cmd>(st::just(Op::erase), key, st::just(0))}});
    }();
    return gen;
  }
  st::Admission precondition(const model_type& /*m*/, const Cmd& /*c*/) const {
    return st::Admission::admit;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.op == Op::insert) m[c.key] = c.value;
    if (c.op == Op::erase) m.erase(c.key);
    return m;
  }
  sut_type new_sut() const { return Map{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    switch (c.op) {
      case Op::insert:
        s.put(c.key, c.value);
        return st::ok();
      case Op::erase:
        s.erase(c.key);
        return st::ok();
      case Op::contains: {
        const auto it = before.find(c.key);
        const int want = it == before.end() ? kAbsent : it->second;  // values are >= 0
        const int got = s.get(c.key).value_or(kAbsent);
        if (got == want) return st::ok();
        return st::fail("neighbour.get", fmt::format("get({}) gave {}, the model says {}", c.key,
                                                     text(got), text(want)));
      }
    }
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  return l == std::vector<Cmd>{{Op::insert, 0, 0}, {Op::contains, 1, 0}};
}

}  // namespace neighbour

// ---- counter with transactions that misreads 10 ----------------------------------

namespace tx_counter {

/// The reading bug's count: the least counterexample is this many incs and a read.
inline constexpr int kBad = 10;

enum class Kind : std::uint8_t { inc, begin, commit, read };

struct Cmd {
  Kind kind;
  friend bool operator==(const Cmd&, const Cmd&) = default;
};

inline std::string merilo_describe(const Cmd& c) {
  switch (c.kind) {
    case Kind::inc:
      return "inc";
    case Kind::begin:
      return "begin";
    case Kind::commit:
      return "commit";
    case Kind::read:
      return "read";
  }
  return "?";
}

/// A count and whether a transaction is open (the model and the system).
struct State {
  int count = 0;
  bool open = false;
};

class Counter {
 public:
  explicit Counter(bool bug) : bug_(bug) {}
  void apply(Kind k) {
    if (k == Kind::inc) ++state_.count;
    if (k == Kind::begin) state_.open = true;
    if (k == Kind::commit) state_.open = false;
  }
  int read() const { return bug_ && state_.count == kBad ? 0 : state_.count; }  // the bug

 private:
  bool bug_;
  State state_;
};

struct Spec {
  using model_type = State;
  using command_type = Cmd;
  using sut_type = Counter;
  bool buggy = true;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type& /*m*/) const {
    return st::frequency<Cmd>({{6, st::construct<Cmd>(st::just(Kind::inc))},
                               {1, st::construct<Cmd>(st::just(Kind::begin))},
                               {1, st::construct<Cmd>(st::just(Kind::commit))},
                               {1, st::construct<Cmd>(st::just(Kind::read))}});
  }
  /// begin only outside a transaction, commit only inside, read only outside.
  st::Admission precondition(const model_type& m, const Cmd& c) const {
    const bool ok = c.kind == Kind::inc || (c.kind == Kind::commit) == m.open;
    return ok ? st::Admission::admit : st::Admission::reject;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.kind == Kind::inc) ++m.count;
    if (c.kind == Kind::begin) m.open = true;
    if (c.kind == Kind::commit) m.open = false;
    return m;
  }
  sut_type new_sut() const { return Counter{buggy}; }
  st::MaybeViolation execute(sut_type& s, const model_type& before, const Cmd& c) const {
    s.apply(c.kind);
    if (c.kind != Kind::read || s.read() == before.count) return st::ok();
    return st::fail("counter.read",
                    fmt::format("read gave {}, the model says {}", s.read(), before.count));
  }
  st::MaybeViolation finish(sut_type& /*s*/, const model_type& /*m*/) const { return st::ok(); }
  void teardown(sut_type& /*s*/) const {}
};

inline bool minimal(const std::vector<Cmd>& l) {
  std::vector<Cmd> want(static_cast<std::size_t>(kBad), Cmd{Kind::inc});
  want.push_back(Cmd{Kind::read});
  return l == want;
}

}  // namespace tx_counter

}  // namespace deep_systems

#endif  // MERILO_TESTS_STATEM_DEEP_SYSTEMS_HPP
