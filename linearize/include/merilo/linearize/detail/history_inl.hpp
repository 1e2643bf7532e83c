// merilo/linearize/detail/history_inl.hpp — the recorded-history search
// behind check_history(): partitioning, the event list, the state cache and
// the Wing & Gong / Lowe walk.
#ifndef MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP
#define MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/linearize/detail/hash.hpp>
#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Does the spec say which calls never change the model?
template <class S, class C, class R>
concept DeclaresReadOnly = requires(const S& spec, const C& cmd, const std::optional<R>& response) {
  { spec.read_only(cmd, response) } -> std::convertible_to<bool>;
};

/// Does the spec say which value of the model each call reads and writes?
/// (value_of / reads_value / writes_value; see the top of history.hpp.)
template <class S, class M, class C, class R>
concept DeclaresValues = requires(const S& spec, const M& model, const C& cmd,
                                  const std::optional<R>& response) {
  requires std::totally_ordered<std::remove_cvref_t<decltype(spec.value_of(model))>>;
  requires std::copyable<std::remove_cvref_t<decltype(spec.value_of(model))>>;
  {
    spec.reads_value(cmd, response)
    } -> std::convertible_to<std::optional<std::remove_cvref_t<decltype(spec.value_of(model))>>>;
  {
    spec.writes_value(cmd, response)
    } -> std::convertible_to<std::optional<std::remove_cvref_t<decltype(spec.value_of(model))>>>;
};

/// Without declared values there is nothing to track: no call is ever
/// found doomed.
template <class S, class M, class C, class R, bool = DeclaresValues<S, M, C, R>>
class ValueTracker {
 public:
  ValueTracker(const S&, std::span<const Operation<C, R>>, const std::vector<std::size_t>&) {}
  void place(std::uint32_t) {}
  void unplace(std::uint32_t) {}
  [[nodiscard]] bool dooms(const M&, const M&, std::uint32_t) const { return false; }
  [[nodiscard]] bool cannot_fit(const M&, std::uint32_t) { return false; }
  static constexpr std::uint32_t kNone = 0xffffffffU;
};

/// Counts, per declared value, the unplaced completed calls that need it
/// and the unplaced calls that may still write it. A state whose model
/// holds b is dead when some value x != b is *lost*: a completed call still
/// needs x and no unplaced call can write it, so the model never holds x
/// again and that call can never be placed. The search keeps "no value but
/// the current one is lost" true on its path; a placement breaks it only by
/// moving the model off a lost value or by using up the last writer of a
/// value it did not leave behind, which is all `dooms` checks.
template <class S, class M, class C, class R>
class ValueTracker<S, M, C, R, true> {
 public:
  using T =
      std::remove_cvref_t<decltype(std::declval<const S&>().value_of(std::declval<const M&>()))>;
  static constexpr std::uint32_t kNone = 0xffffffffU;

  ValueTracker(const S& spec, std::span<const Operation<C, R>> all,
               const std::vector<std::size_t>& ops)
      : spec_(spec), needs_(ops.size(), kNone), writes_(ops.size(), kNone) {
    // Values get dense ids by sorting (cheaper than a map per history).
    std::vector<std::optional<T>> needs(ops.size());
    std::vector<std::optional<T>> writes(ops.size());
    for (std::size_t op = 0; op < ops.size(); ++op) {
      const Operation<C, R>& o = all[ops[op]];
      // Only a completed call has to be placed, so only it needs a value.
      if (o.response) needs[op] = spec.reads_value(o.command, o.response);
      writes[op] = spec.writes_value(o.command, o.response);
      if (needs[op]) values_.push_back(*needs[op]);
      if (writes[op]) values_.push_back(*writes[op]);
    }
    std::sort(values_.begin(), values_.end());
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    needers_left_.assign(values_.size(), 0);
    writers_left_.assign(values_.size(), 0);
    for (std::size_t op = 0; op < ops.size(); ++op) {
      if (needs[op]) {
        needs_[op] = find(*needs[op]);
        ++needers_left_[needs_[op]];
      }
      if (writes[op]) {
        writes_[op] = find(*writes[op]);
        ++writers_left_[writes_[op]];
      }
    }
  }
  void place(std::uint32_t op) {
    if (needs_[op] != kNone) --needers_left_[needs_[op]];
    if (writes_[op] != kNone) --writers_left_[writes_[op]];
  }
  void unplace(std::uint32_t op) {
    if (needs_[op] != kNone) ++needers_left_[needs_[op]];
    if (writes_[op] != kNone) ++writers_left_[writes_[op]];
  }
  /// After `op` (already counted as placed) moved the model from `before`
  /// to `after`: did it lose a value other than the new one?
  [[nodiscard]] bool dooms(const M& before, const M& after, std::uint32_t op) const {
    if (needers_left_.empty()) return false;
    const std::uint32_t b = find(spec_.value_of(after));
    if (writes_[op] != kNone && writes_[op] != b && lost(writes_[op])) return true;
    const std::uint32_t a = find(spec_.value_of(before));
    return a != b && a != kNone && lost(a);
  }
  /// True when `op` needs a value other than the model's, so by the spec's
  /// contract its postcondition fails: the search skips evaluating it
  /// (a violation is often a formatted string; this is most of the cost).
  [[nodiscard]] bool cannot_fit(const M& model, std::uint32_t op) {
    if (needs_[op] == kNone) return false;
    T v = spec_.value_of(model);
    if (!last_value_ || !(v == *last_value_)) {
      last_id_ = find(v);
      last_value_ = std::move(v);
    }
    return last_id_ != needs_[op];
  }

 private:
  std::uint32_t find(const T& v) const {
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    return it == values_.end() || !(*it == v) ? kNone
                                              : static_cast<std::uint32_t>(it - values_.begin());
  }
  bool lost(std::uint32_t v) const { return needers_left_[v] > 0 && writers_left_[v] == 0; }

  const S& spec_;
  std::vector<T> values_;              // sorted; a value's id is its index
  std::vector<std::uint32_t> needs_;   // per op: the value it needs, or kNone
  std::vector<std::uint32_t> writes_;  // per op: the value it may write, or kNone
  std::optional<T> last_value_;        // cannot_fit's memo of the last value looked up
  std::uint32_t last_id_ = kNone;
  std::vector<std::uint32_t> needers_left_;
  std::vector<std::uint32_t> writers_left_;
};

/// Does the spec also say which calls always leave their written value
/// behind (a write, a cas that swapped)?
template <class S, class M, class C, class R>
concept DeclaresOverwrites = DeclaresValues<S, M, C, R> &&
    requires(const S& spec, const C& cmd, const std::optional<R>& response) {
  { spec.sets_value(cmd, response) } -> std::convertible_to<bool>;
};

/// Looks, before any search, for a completed call `r` that needs a value x
/// every writer of which is *shadowed*: some completed call that always
/// sets a value other than x was invoked after that writer returned and
/// returned before `r` was invoked (the initial value, when it is x, counts
/// as a writer that returned at the start). Then the last call to leave x
/// before `r` in any order is followed, before `r`, by one leaving another
/// value, and only a writer of x could bring x back — so `r` never fits and
/// the history is not linearizable. Returns `r` and the few operations that
/// show it (r, every writer of x, one shadowing call per writer; indices
/// into `all`, sorted), or an empty proof. Sorting makes it O(n log n).
struct ShadowedRead {
  std::size_t read = 0;            ///< The read that never fits.
  std::vector<std::size_t> proof;  ///< Empty when there is none.
};
template <class S, class M, class C, class R>
ShadowedRead shadowed_read(const S& spec, const M& initial, std::span<const Operation<C, R>> all,
                           const std::vector<std::size_t>& ops) {
  using T = std::remove_cvref_t<decltype(spec.value_of(initial))>;
  struct Setter {
    std::int64_t invoked;
    std::int64_t returned;
    std::size_t op;
    std::uint32_t value;
  };
  std::map<T, std::uint32_t> ids;
  auto id = [&](T v) {
    return ids.emplace(std::move(v), static_cast<std::uint32_t>(ids.size())).first->second;
  };
  std::vector<std::vector<std::size_t>> writers;  // per value id
  std::vector<std::pair<std::size_t, std::uint32_t>> needers;
  std::vector<Setter> setters;
  for (const std::size_t i : ops) {
    const Operation<C, R>& o = all[i];
    if (std::optional<T> w = spec.writes_value(o.command, o.response)) {
      const std::uint32_t v = id(std::move(*w));
      if (writers.size() <= v) writers.resize(v + 1);
      writers[v].push_back(i);
      if (o.response && spec.sets_value(o.command, o.response)) {
        setters.push_back(Setter{o.invoked_at, o.returned_at, i, v});
      }
    }
    if (!o.response) continue;
    if (std::optional<T> n = spec.reads_value(o.command, o.response)) {
      needers.emplace_back(i, id(std::move(*n)));
    }
  }
  const std::uint32_t initial_value = id(spec.value_of(initial));
  writers.resize(ids.size());
  if (needers.empty()) return {};
  // Setters by invoke; per suffix, the earliest return and the earliest
  // return among setters of another value than that one.
  std::sort(setters.begin(), setters.end(),
            [](const Setter& a, const Setter& b) { return a.invoked < b.invoked; });
  constexpr std::size_t kNo = static_cast<std::size_t>(-1);
  std::vector<std::size_t> best(setters.size() + 1, kNo);
  std::vector<std::size_t> other(setters.size() + 1, kNo);
  for (std::size_t k = setters.size(); k-- > 0;) {
    std::size_t b = best[k + 1];
    std::size_t o = other[k + 1];
    auto earlier = [&](std::size_t a, std::size_t c) {
      return c == kNo || (a != kNo && setters[a].returned < setters[c].returned);
    };
    if (earlier(k, b)) {
      if (b != kNo && setters[b].value != setters[k].value) o = b;
      b = k;
    } else if (setters[k].value != setters[b].value && earlier(k, o)) {
      o = k;
    }
    best[k] = b;
    other[k] = o;
  }
  // A setter of a value other than x invoked after `after` (from index
  // `from` on) that returned before `before`, or kNo.
  auto shadow = [&](std::size_t from, std::int64_t before, std::uint32_t x) -> std::size_t {
    for (const std::size_t c : {best[from], other[from]}) {
      if (c != kNo && setters[c].value != x && setters[c].returned < before) return setters[c].op;
    }
    return kNo;
  };
  for (const auto& [r, x] : needers) {
    const std::int64_t before = all[r].invoked_at;
    std::vector<std::size_t> proof = {r};
    bool all_shadowed = true;
    if (x == initial_value) {
      const std::size_t s = shadow(0, before, x);
      all_shadowed = s != kNo;
      proof.push_back(s);
    }
    for (std::size_t k = 0; all_shadowed && k < writers[x].size(); ++k) {
      const Operation<C, R>& w = all[writers[x][k]];
      if (!w.response) {
        all_shadowed = false;
        break;
      }
      const auto from = static_cast<std::size_t>(
          std::upper_bound(setters.begin(), setters.end(), w.returned_at,
                           [](std::int64_t t, const Setter& st) { return t < st.invoked; }) -
          setters.begin());
      const std::size_t s = shadow(from, before, x);
      all_shadowed = s != kNo;
      proof.push_back(writers[x][k]);
      proof.push_back(s);
    }
    if (!all_shadowed) continue;
    std::sort(proof.begin(), proof.end());
    proof.erase(std::unique(proof.begin(), proof.end()), proof.end());
    return ShadowedRead{r, std::move(proof)};
  }
  return {};
}

/// Does the spec split histories by key?
template <class S, class C>
concept Partitioned = requires(const S& spec, const C& cmd) {
  { spec.partition(cmd) } -> std::convertible_to<std::string>;
};

/// The (placed set, model) states one part's search has visited.
///
/// A state is the position reached in each chain of completed operations
/// (see PartSearch), the bitset of pending operations (no response) placed
/// so far, and the model. The table hashes (positions, model) with XXH3 —
/// open addressing, exact comparison on a hash match — and keeps, for one
/// (positions, model), every pending set seen with it: a state is known
/// when it was visited exactly, or when a state with the same positions and
/// model but fewer pending operations placed has already failed (anything
/// that works with more pending operations placed works with fewer: the
/// others can still go last, since a pending operation never returns and
/// every spec gives every command a next model).
template <class M>
class StateCache {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffU;

  StateCache(std::size_t chains, std::size_t pending_words, std::size_t max_bytes)
      : chains_(chains), pending_words_(pending_words), max_bytes_(max_bytes) {
    grow(1024);
  }

  /// Is the state known (visited, or dominated by a failed one)?
  [[nodiscard]] bool known(const std::vector<std::uint32_t>& positions, std::uint64_t key_hash,
                           const std::vector<std::uint64_t>& pending, const M& model) {
    last_ = hash_model(model, key_hash, scratch_);
    const std::uint64_t h = last_.hash | 1U;  // 0 marks an empty slot
    for (std::size_t slot = static_cast<std::size_t>(h) & mask_; hashes_[slot] != 0;
         slot = (slot + 1) & mask_) {
      if (hashes_[slot] != h) continue;
      const std::uint32_t entry = entries_[slot];
      if (!same(entry, positions, model)) continue;
      const std::uint64_t* stored = pending_.data() + std::size_t{entry} * pending_words_;
      bool equal = true;
      bool subset = true;
      for (std::size_t w = 0; w < pending_words_; ++w) {
        equal = equal && stored[w] == pending[w];
        subset = subset && (stored[w] & ~pending[w]) == 0;
      }
      if (equal || (subset && !on_stack_[entry])) return true;
    }
    return false;
  }

  /// Remembers the state `known` was last asked about (same arguments) as
  /// on the search's current path; returns its entry, or kNone when memory
  /// is spent (the search then just does not remember it).
  std::uint32_t add(const std::vector<std::uint32_t>& positions,
                    const std::vector<std::uint64_t>& pending, const M& model) {
    const std::size_t entry_bytes =
        chains_ * sizeof(std::uint32_t) + pending_words_ * sizeof(std::uint64_t) + sizeof(M) +
        last_.bytes + 2 * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) + 1;
    if (full_ || bytes_ + entry_bytes > max_bytes_) {
      full_ = true;
      return kNone;
    }
    bytes_ += entry_bytes;
    const std::uint64_t h = last_.hash | 1U;
    std::size_t slot = static_cast<std::size_t>(h) & mask_;
    while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
    const auto entry = static_cast<std::uint32_t>(models_.size());
    hashes_[slot] = h;
    entries_[slot] = entry;
    positions_.insert(positions_.end(), positions.begin(), positions.end());
    pending_.insert(pending_.end(), pending.begin(), pending.end());
    models_.push_back(model);
    on_stack_.push_back(1);
    if (2 * models_.size() > hashes_.size()) grow(2 * hashes_.size());
    return entry;
  }

  /// The search left this state for good: it failed.
  void failed(std::uint32_t entry) {
    if (entry != kNone) on_stack_[entry] = 0;
  }

  [[nodiscard]] std::size_t size() const noexcept { return models_.size(); }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] bool full() const noexcept { return full_; }

 private:
  bool same(std::uint32_t entry, const std::vector<std::uint32_t>& positions,
            const M& model) const {
    const std::uint32_t* stored = positions_.data() + std::size_t{entry} * chains_;
    return std::equal(positions.begin(), positions.end(), stored) && models_[entry] == model;
  }

  void grow(std::size_t slots) {
    std::vector<std::uint64_t> old_hashes = std::move(hashes_);
    std::vector<std::uint32_t> old_entries = std::move(entries_);
    hashes_.assign(slots, 0);
    entries_.assign(slots, 0);
    mask_ = slots - 1;
    for (std::size_t i = 0; i < old_hashes.size(); ++i) {
      if (old_hashes[i] == 0) continue;
      std::size_t slot = static_cast<std::size_t>(old_hashes[i]) & mask_;
      while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
      hashes_[slot] = old_hashes[i];
      entries_[slot] = old_entries[i];
    }
  }

  std::size_t chains_;
  std::size_t pending_words_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  bool full_ = false;
  std::size_t mask_ = 0;
  ModelHash last_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> entries_;
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint64_t> pending_;
  std::vector<M> models_;
  std::vector<std::uint8_t> on_stack_;
  ByteBuffer scratch_;
};

/// Shared by every part of one check: what is left of the budget and time.
struct Allowance {
  std::uint64_t budget = 0;
  std::uint64_t evaluations = 0;
  std::chrono::steady_clock::time_point deadline{};
  bool has_deadline = false;
  SearchStop stop = SearchStop::none;

  /// Spends one evaluation; false (with `stop` set) when none is left.
  bool spend() {
    if (evaluations >= budget) {
      stop = SearchStop::budget;
      return false;
    }
    ++evaluations;
    if (has_deadline && (evaluations & 4095U) == 0 &&
        std::chrono::steady_clock::now() >= deadline) {
      stop = SearchStop::timeout;
      return false;
    }
    return true;
  }
};

/// The search over one part: `ops` are indices into the full operations.
///
/// Two facts keep its state small:
///
///   * Chains. The operations are split into chains, each operation
///     invoked strictly after the previous one in its chain returned (one
///     chain per process, roughly; as many chains as the most operations
///     ever open at once). The walk can only reach an operation's call after
///     passing the returns of everything that returned before it, so the
///     placed set is always a prefix of every chain: one position per chain
///     says exactly which operations are placed. That is the cache's key,
///     and it is as small as the concurrency, not the history.
///   * Placing what changes nothing. When the spec says a call is read-only
///     (it leaves every model it fits unchanged: a read, a failed cas) and
///     it fits, placing it at once is never wrong: any order that places it
///     later stays valid with it moved to now (nothing unplaced returned
///     before its invoke, and it changes no model on the way). So such a
///     placement is not a choice: if it leads nowhere, the state before it
///     leads nowhere either. (Being unchanged *here* is not enough: a write
///     of the value the register already holds changes it elsewhere.)
template <class S, class M, class C, class R, class V>
class PartSearch {
 public:
  enum class Outcome : std::uint8_t { linearizable, not_linearizable, stopped };
  /// `stop_at`'s argument meaning "no operation".
  static constexpr std::size_t kNoTarget = static_cast<std::size_t>(-1);

  PartSearch(const S& spec, std::span<const Operation<C, R>> all, std::vector<std::size_t> ops,
             std::size_t cache_bytes)
      : spec_(spec), all_(all), ops_(std::move(ops)), n_(ops_.size()), values_(spec, all, ops_) {
    build_events();
    build_chains();
    cache_.emplace(chains_, pending_words(), cache_bytes);
  }

  Outcome run(const M& initial, Allowance& allowance) {
    positions_.assign(chains_, 0);
    pending_bits_.assign(pending_words(), 0);
    key_hash_ = kSetSeed;
    for (std::uint32_t c = 0; c < chains_; ++c) key_hash_ ^= chain_key(c, 0);
    M model = initial;
    (void)cache_->known(positions_, key_hash_, pending_bits_, model);
    root_entry_ = cache_->add(positions_, pending_bits_, model);
    std::uint32_t entry = next_[head()];
    while (next_[head()] != head()) {
      const std::uint32_t op = entry >> 1U;
      if ((entry & 1U) == 0) {  // a call: try to place its operation here
        if (!allowance.spend()) return Outcome::stopped;
        const Operation<C, R>& o = operation(op);
        if (!o.response || (!values_.cannot_fit(model, op) &&
                            !spec_.postcondition(model, o.command, *o.response))) {
          M next = spec_.next_model(model, o.command);
          const bool unchanged = read_only(o) && next == model;
          place(op);
          if (prune_values_ && values_.dooms(model, next, op)) {
            ++doomed_;
            unplace(op);
            entry = next_[entry];
            continue;
          }
          if (!cache_->known(positions_, key_hash_, pending_bits_, next)) {
            const std::uint32_t id = cache_->add(positions_, pending_bits_, next);
            stack_.push_back(Frame{op, unchanged, id, std::move(model)});
            model = std::move(next);
            lift(op);
            entry = next_[head()];
            continue;
          }
          unplace(op);
          if (unchanged) {  // this state leads nowhere: back up
            if (stack_.empty()) return Outcome::not_linearizable;
            entry = back_up(model);
            continue;
          }
        }
        entry = next_[entry];
      } else {  // a return: its operation had to be placed by now
        if (op == target_) {
          note_dead_end(op);
          return Outcome::not_linearizable;
        }
        if (!have_dead_end_ || stack_.size() > dead_end_.size()) note_dead_end(op);
        if (stack_.empty()) return Outcome::not_linearizable;
        entry = back_up(model);
      }
    }
    return Outcome::linearizable;
  }

  /// Turns off the lost-value rule (ValueTracker::dooms). It only refuses
  /// placements that cannot lead to a linearization, so the verdict stays
  /// the same; but it cuts orders short before they reach a dead end, so
  /// the search that explains a failure runs without it: its dead ends are
  /// then real (a valid order, and a return nothing left can precede).
  void without_value_pruning() { prune_values_ = false; }

  /// The length of the deepest dead end recorded so far (0 when none).
  [[nodiscard]] std::size_t dead_end_depth() const noexcept {
    return have_dead_end_ ? dead_end_.size() : 0;
  }

  /// Stops the search (not linearizable) at the first dead end blocked by
  /// operation `index` (into all operations): used once that operation is
  /// known never to fit, to explain where an order first gets stuck on it.
  void stop_at(std::size_t index) {
    auto it = std::lower_bound(ops_.begin(), ops_.end(), index);
    if (it != ops_.end() && *it == index) target_ = static_cast<std::uint32_t>(it - ops_.begin());
  }

  /// The placed order, as indices into all operations (after linearizable).
  [[nodiscard]] std::vector<std::size_t> order() const {
    std::vector<std::size_t> out;
    out.reserve(stack_.size());
    for (const Frame& f : stack_) out.push_back(ops_[f.op]);
    return out;
  }

  /// The deepest dead end, or (when stopped) the longest placed prefix.
  DeadEnd<V> explain(const M& initial, bool stopped) const {
    DeadEnd<V> out;
    out.part_size = n_;
    const bool current_longer = stopped && stack_.size() >= dead_end_.size();
    if (current_longer) {
      for (const Frame& f : stack_) out.prefix.push_back(ops_[f.op]);
      return out;
    }
    for (std::uint32_t op : dead_end_) out.prefix.push_back(ops_[op]);
    if (stopped || !have_dead_end_) return out;
    out.returned = ops_[dead_end_returned_];
    // Re-derive the model and the candidates at the dead end: operations not
    // placed whose call comes before the blocking return.
    M model = initial;
    std::vector<bool> placed(n_, false);
    for (std::uint32_t op : dead_end_) {
      model = spec_.next_model(model, operation(op).command);
      placed[op] = true;
    }
    const std::uint32_t stop_at = order_of_event_[return_event(dead_end_returned_)];
    for (std::uint32_t k = 0; k < stop_at; ++k) {
      const std::uint32_t e = sorted_events_[k];
      if ((e & 1U) != 0 || placed[e >> 1U]) continue;
      if (out.candidates.size() == DeadEnd<V>::kMaxCandidates) {
        ++out.more_candidates;
        continue;
      }
      const Operation<C, R>& o = operation(e >> 1U);
      Candidate<V> c;
      c.operation = ops_[e >> 1U];
      if (o.response) c.violation = spec_.postcondition(model, o.command, *o.response);
      out.candidates.push_back(std::move(c));
    }
    return out;
  }

  [[nodiscard]] const StateCache<M>& cache() const noexcept { return *cache_; }
  /// Placements refused because they lost a value still needed.
  [[nodiscard]] std::uint64_t doomed() const noexcept { return doomed_; }

 private:
  static constexpr std::uint64_t kSetSeed = 0x7365747365656421ULL;
  static constexpr std::uint32_t kNoIndex = 0xffffffffU;
  struct Frame {
    std::uint32_t op;
    bool unchanged;       // placed because it changed nothing: not a choice
    std::uint32_t entry;  // the cache entry of the state it led to
    M model;              // the model before `op` was placed
  };

  const Operation<C, R>& operation(std::uint32_t op) const { return all_[ops_[op]]; }
  bool read_only(const Operation<C, R>& o) const {
    if constexpr (DeclaresReadOnly<S, C, R>) {
      return spec_.read_only(o.command, o.response);
    } else {
      return false;
    }
  }
  static std::uint32_t call_event(std::uint32_t op) { return op << 1U; }
  static std::uint32_t return_event(std::uint32_t op) { return (op << 1U) | 1U; }
  std::uint32_t head() const { return static_cast<std::uint32_t>(2 * n_); }
  std::int64_t return_instant(std::uint32_t op) const {
    const Operation<C, R>& o = operation(op);
    return o.response ? o.returned_at : kNever;
  }

  // Events are numbered 2*op (call) and 2*op+1 (return); the list is
  // threaded through next_/prev_ in time order, with a sentinel at 2n.
  void build_events() {
    const std::size_t events = 2 * n_;
    auto instant = [&](std::uint32_t e) {
      return (e & 1U) == 0 ? operation(e >> 1U).invoked_at : return_instant(e >> 1U);
    };
    sorted_events_.resize(events);
    for (std::uint32_t e = 0; e < events; ++e) sorted_events_[e] = e;
    // Calls before returns at equal instants: equal instants overlap.
    std::stable_sort(sorted_events_.begin(), sorted_events_.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       const std::int64_t ta = instant(a);
                       const std::int64_t tb = instant(b);
                       if (ta != tb) return ta < tb;
                       return (a & 1U) < (b & 1U);
                     });
    next_.assign(events + 1, 0);
    prev_.assign(events + 1, 0);
    order_of_event_.assign(events, 0);
    std::uint32_t last = head();
    for (std::size_t k = 0; k < events; ++k) {
      const std::uint32_t e = sorted_events_[k];
      order_of_event_[e] = static_cast<std::uint32_t>(k);
      next_[last] = e;
      prev_[e] = last;
      last = e;
    }
    next_[last] = head();
    prev_[head()] = last;
  }

  // Greedy interval partitioning of the completed operations, in invoke
  // order: each joins the chain whose last operation returned earliest, if
  // that was strictly before its invoke, else starts a chain. Pending
  // operations get a bit each instead.
  void build_chains() {
    chain_of_.assign(n_, kNoIndex);
    pending_index_.assign(n_, kNoIndex);
    std::vector<std::pair<std::int64_t, std::uint32_t>> free_at;  // min-heap (return, chain)
    auto later = [](const auto& a, const auto& b) { return a > b; };
    for (std::size_t k = 0; k < sorted_events_.size(); ++k) {
      const std::uint32_t e = sorted_events_[k];
      if ((e & 1U) != 0) continue;
      const std::uint32_t op = e >> 1U;
      if (!operation(op).response) {
        pending_index_[op] = pending_count_++;
        continue;
      }
      std::uint32_t chain = chains_;
      if (!free_at.empty() && free_at.front().first < operation(op).invoked_at) {
        chain = free_at.front().second;
        std::pop_heap(free_at.begin(), free_at.end(), later);
        free_at.pop_back();
      } else {
        ++chains_;
      }
      chain_of_[op] = chain;
      free_at.emplace_back(return_instant(op), chain);
      std::push_heap(free_at.begin(), free_at.end(), later);
    }
  }
  std::size_t pending_words() const { return (std::size_t{pending_count_} + 63) / 64; }

  static std::uint64_t chain_key(std::uint32_t chain, std::uint32_t position) {
    return mix64((std::uint64_t{chain} << 32U) | position);
  }
  void place(std::uint32_t op) {
    values_.place(op);
    const std::uint32_t p = pending_index_[op];
    if (p != kNoIndex) {
      pending_bits_[p >> 6U] ^= std::uint64_t{1} << (p & 63U);
      return;
    }
    const std::uint32_t c = chain_of_[op];
    key_hash_ ^= chain_key(c, positions_[c]) ^ chain_key(c, positions_[c] + 1);
    ++positions_[c];
  }
  void unplace(std::uint32_t op) {
    values_.unplace(op);
    const std::uint32_t p = pending_index_[op];
    if (p != kNoIndex) {
      pending_bits_[p >> 6U] ^= std::uint64_t{1} << (p & 63U);
      return;
    }
    const std::uint32_t c = chain_of_[op];
    key_hash_ ^= chain_key(c, positions_[c]) ^ chain_key(c, positions_[c] - 1);
    --positions_[c];
  }

  void unlink(std::uint32_t e) {
    next_[prev_[e]] = next_[e];
    prev_[next_[e]] = prev_[e];
  }
  void relink(std::uint32_t e) {
    next_[prev_[e]] = e;
    prev_[next_[e]] = e;
  }
  void lift(std::uint32_t op) {
    unlink(call_event(op));
    unlink(return_event(op));
  }
  void unlift(std::uint32_t op) {
    relink(return_event(op));
    relink(call_event(op));
  }

  // The current state leads nowhere: undo placements until one that was a
  // choice, marking each state left as failed, and return the event after
  // that placement's call (where the scan of its state goes on). Called
  // with a non-empty stack.
  std::uint32_t back_up(M& model) {
    for (;;) {
      Frame frame = std::move(stack_.back());
      stack_.pop_back();
      cache_->failed(frame.entry);
      low_water_ = std::min(low_water_, stack_.size());
      unplace(frame.op);
      model = std::move(frame.model);
      unlift(frame.op);
      if (!frame.unchanged) return next_[call_event(frame.op)];
      if (stack_.empty()) {  // the initial state itself leads nowhere
        cache_->failed(root_entry_);
        return head_dead();
      }
    }
  }
  // A scan position that makes run() conclude "not linearizable": the
  // first return event in the list (there always is one after a call).
  std::uint32_t head_dead() {
    std::uint32_t e = next_[head()];
    while ((e & 1U) == 0) e = next_[e];
    return e;
  }

  // Keeps the deepest dead end's prefix. Only the part of the stack below
  // which nothing was popped since the last note can be stale, so the copy
  // is amortised over the pushes.
  void note_dead_end(std::uint32_t returned) {
    have_dead_end_ = true;
    const std::size_t keep = std::min(low_water_, dead_end_.size());
    dead_end_.resize(keep);
    for (std::size_t i = keep; i < stack_.size(); ++i) dead_end_.push_back(stack_[i].op);
    low_water_ = stack_.size();
    dead_end_returned_ = returned;
  }

  const S& spec_;
  std::span<const Operation<C, R>> all_;
  std::vector<std::size_t> ops_;
  std::size_t n_;
  ValueTracker<S, M, C, R> values_;
  std::uint64_t doomed_ = 0;
  bool prune_values_ = true;
  std::uint32_t target_ = 0xffffffffU;  // see stop_at
  std::vector<std::uint32_t> next_;
  std::vector<std::uint32_t> prev_;
  std::vector<std::uint32_t> sorted_events_;
  std::vector<std::uint32_t> order_of_event_;
  std::vector<std::uint32_t> chain_of_;
  std::vector<std::uint32_t> pending_index_;
  std::uint32_t chains_ = 0;
  std::uint32_t pending_count_ = 0;
  std::uint32_t root_entry_ = 0;
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint64_t> pending_bits_;
  std::uint64_t key_hash_ = 0;
  std::vector<Frame> stack_;
  std::optional<StateCache<M>> cache_;
  std::vector<std::uint32_t> dead_end_;
  std::uint32_t dead_end_returned_ = 0;
  bool have_dead_end_ = false;
  std::size_t low_water_ = 0;
};

/// Why the operations are not a valid input, or "".
template <class C, class R>
std::string validate_operations(std::span<const Operation<C, R>> operations) {
  if (operations.size() >= (std::size_t{1} << 31U)) return "too many operations";
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const Operation<C, R>& o = operations[i];
    if (o.response && o.returned_at < o.invoked_at) {
      return "operation " + std::to_string(i) + ": returned at " + std::to_string(o.returned_at) +
             ", before it was invoked at " + std::to_string(o.invoked_at);
    }
  }
  return {};
}

template <class S, class M, class C, class R, class V>
class PartsCheck {
 public:
  using Search = PartSearch<S, M, C, R, V>;
  using Outcome = typename Search::Outcome;

  PartsCheck(const S& spec, const M& initial, std::span<const Operation<C, R>> operations,
             const HistoryOptions& options)
      : spec_(spec), initial_(initial), operations_(operations), options_(options) {
    allowance_.budget = options.budget;
    if (options.timeout.count() > 0) {
      allowance_.has_deadline = true;
      allowance_.deadline = std::chrono::steady_clock::now() + options.timeout;
    }
  }

  HistoryResult<V> run() {
    result_.error = validate_operations(operations_);
    if (!result_.error.empty()) {
      result_.verdict = Verdict::usage_error;
      return std::move(result_);
    }
    split();
    std::optional<DeadEnd<V>> undecided;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      std::optional<DeadEnd<V>> stuck;
      if constexpr (DeclaresOverwrites<S, M, C, R>) {
        if (refute_shadowed_read(p, undecided)) return finish_not_linearizable(p);
        if (allowance_.stop != SearchStop::none) continue;
      }
      Search search(spec_, operations_, parts_[p], options_.cache_bytes);
      const Outcome outcome = search.run(initial_, allowance_);
      note_cache(search);
      if (outcome == Outcome::linearizable) {
        result_.orders.push_back(search.order());
        continue;
      }
      if (outcome == Outcome::stopped) {
        // Out of budget or time: later parts get nothing, but one of them
        // could not be shown linearizable either; keep the first.
        if (!undecided) {
          undecided = search.explain(initial_, true);
          undecided->partition = result_.partitions[p];
        }
        continue;
      }
      result_.explanation = search.explain(initial_, false);
      result_.explanation.longest = !DeclaresValues<S, M, C, R>;
      if constexpr (DeclaresValues<S, M, C, R>) explain_without_pruning(p, Search::kNoTarget);
      return finish_not_linearizable(p);
    }
    result_.evaluations = allowance_.evaluations;
    if (undecided) {
      result_.verdict = Verdict::undecided;
      result_.stop = allowance_.stop;
      result_.explanation = std::move(*undecided);
      result_.orders.clear();
    } else {
      result_.verdict = Verdict::linearizable;
    }
    return std::move(result_);
  }

 private:
  // Parts in the order their keys first appear.
  void split() {
    if constexpr (Partitioned<S, C>) {
      std::map<std::string, std::size_t> index;
      for (std::size_t i = 0; i < operations_.size(); ++i) {
        std::string key = spec_.partition(operations_[i].command);
        auto [it, fresh] = index.emplace(key, parts_.size());
        if (fresh) {
          parts_.emplace_back();
          result_.partitions.push_back(std::move(key));
        }
        parts_[it->second].push_back(i);
      }
    } else {
      parts_.emplace_back();
      result_.partitions.emplace_back();
      for (std::size_t i = 0; i < operations_.size(); ++i) parts_[0].push_back(i);
    }
  }

  // A read the real-time order alone rules out: search just the few
  // operations that show it. True when they are refuted (the explanation
  // is then set); on running out of budget `undecided` is set. (Should
  // that search not refute them, the spec broke its contract; the full
  // search decides.)
  bool refute_shadowed_read(std::size_t p, std::optional<DeadEnd<V>>& undecided) {
    ShadowedRead shadowed = shadowed_read(spec_, initial_, operations_, parts_[p]);
    if (shadowed.proof.empty()) return false;
    Search small(spec_, operations_, std::move(shadowed.proof), options_.cache_bytes);
    const Outcome outcome = small.run(initial_, allowance_);
    if (outcome == Outcome::stopped) {
      if (!undecided) {
        undecided = small.explain(initial_, true);
        undecided->partition = result_.partitions[p];
        undecided->part_size = parts_[p].size();
      }
      return false;
    }
    if (outcome != Outcome::not_linearizable) return false;
    // Decided. The few operations of the proof explain it unless a walk of
    // the whole part finds where an order first gets stuck on that read.
    result_.explanation = small.explain(initial_, false);
    result_.explanation.longest = false;
    explain_without_pruning(p, shadowed.read);
    return true;
  }

  // Searches part `p` again without the lost-value rule, which cuts orders
  // short, so that the explanation is a real dead end: a valid order, and
  // the operation that cannot follow it. With a `target` (an operation
  // known never to fit) it stops at the first dead end that operation
  // blocks; without, it finds the deepest. What is left of the budget goes
  // to it (no later part matters now); if it runs out, the deeper of its
  // dead ends and the one already found explains.
  void explain_without_pruning(std::size_t p, std::size_t target) {
    Search full(spec_, operations_, parts_[p], options_.cache_bytes);
    full.without_value_pruning();
    if (target != Search::kNoTarget) full.stop_at(target);
    Allowance rest = allowance_;
    const Outcome outcome = full.run(initial_, rest);
    allowance_.evaluations = rest.evaluations;
    note_cache(full);
    if (outcome == Outcome::not_linearizable) {
      result_.explanation = full.explain(initial_, false);
      result_.explanation.longest = target == Search::kNoTarget;
    } else if (outcome == Outcome::stopped &&
               full.dead_end_depth() > result_.explanation.prefix.size()) {
      result_.explanation = full.explain(initial_, false);
      result_.explanation.longest = false;
    }
  }

  HistoryResult<V> finish_not_linearizable(std::size_t p) {
    result_.verdict = Verdict::not_linearizable;
    result_.orders.clear();
    result_.explanation.partition = result_.partitions[p];
    result_.explanation.part_size = parts_[p].size();
    // No order places every operation, so one that misses only one is longest.
    if (result_.explanation.prefix.size() + 1 >= parts_[p].size()) {
      result_.explanation.longest = true;
    }
    result_.evaluations = allowance_.evaluations;
    return std::move(result_);
  }

  void note_cache(const Search& search) {
    if (search.cache().size() > result_.cache_entries) {
      result_.cache_entries = search.cache().size();
      result_.cache_bytes = search.cache().bytes();
    }
    result_.cache_full = result_.cache_full || search.cache().full();
  }

  const S& spec_;
  const M& initial_;
  std::span<const Operation<C, R>> operations_;
  const HistoryOptions& options_;
  Allowance allowance_;
  std::vector<std::vector<std::size_t>> parts_;
  HistoryResult<V> result_;
};

}  // namespace merilo::linearize::detail

namespace merilo::linearize {

template <class S, class M, class C, class R>
auto check_history(const S& spec, const M& initial, std::span<const Operation<C, R>> operations,
                   const HistoryOptions& options) noexcept {
  static_assert(Model<M>,
                "linearize::check_history: the model must be copyable, comparable with ==, and "
                "hashable: trivially copyable without padding (fsm::ByteHashable) or with a "
                "`feed(sink)` member (fsm::FeedsBytes)");
  static_assert(SpecFor<S, M, C, R>,
                "linearize::check_history: the spec needs `std::optional<V> postcondition(const "
                "M&, const C&, const R&) const` and `M next_model(const M&, const C&) const`");
  using V = violation_t<S, M, C, R>;
  HistoryResult<V> result;
  try {
    return detail::PartsCheck<S, M, C, R, V>(spec, initial, operations, options).run();
  } catch (const std::bad_alloc&) {
    result.verdict = Verdict::crashed;
    result.error = "out of memory";
  } catch (const std::exception& e) {
    result.verdict = Verdict::crashed;
    result.error = std::string("the spec or model threw: ") + e.what();
  } catch (...) {
    result.verdict = Verdict::crashed;
    result.error = "the spec or model threw a non-standard exception";
  }
  return result;
}

template <class S, class M, class C, class R>
auto check_history(const S& spec, const M& initial, const std::vector<Operation<C, R>>& operations,
                   const HistoryOptions& options) noexcept {
  return check_history(spec, initial, std::span<const Operation<C, R>>(operations), options);
}

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP
