// merilo/linearize/detail/part_search.hpp — the Wing & Gong / Lowe walk over one
// part of a recorded history: event list, chains, the state cache, dead ends.
#ifndef MERILO_LINEARIZE_DETAIL_PART_SEARCH_HPP
#define MERILO_LINEARIZE_DETAIL_PART_SEARCH_HPP

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <merilo/linearize/detail/allowance.hpp>
#include <merilo/linearize/detail/hash.hpp>
#include <merilo/linearize/detail/sequence_tracker.hpp>
#include <merilo/linearize/detail/state_cache.hpp>
#include <merilo/linearize/detail/undo.hpp>
#include <merilo/linearize/detail/value_tracker.hpp>
#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Does the spec say which calls never change the model?
template <class S, class C, class R>
concept DeclaresReadOnly = requires(const S& spec, const C& cmd, const std::optional<R>& response) {
  { spec.read_only(cmd, response) } -> std::convertible_to<bool>;
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
  enum class Result : std::uint8_t { linearizable, not_linearizable, stopped };

  PartSearch(const S& spec, std::span<const Operation<C, R>> all, std::vector<std::size_t> ops,
             std::size_t cache_bytes)
      : spec_(spec),
        all_(all),
        ops_(std::move(ops)),
        n_(ops_.size()),
        values_(spec, all, ops_),
        sequences_(spec, all, ops_) {
    build_events();
    build_chains();
    link_twins();
    cache_.emplace(chains_, pending_words(), cache_bytes);
  }

  Result run(const M& initial, Allowance& allowance) {
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
        if (twin_before_[op] != kNoIndex && !placed_pending(twin_before_[op])) {
          entry = next_[entry];  // its earlier twin goes first
          continue;
        }
        if (!allowance.spend()) return Result::stopped;
        const Operation<C, R>& o = operation(op);
        if (!o.response || (!values_.cannot_fit(model, op) && !sequences_.cannot_fit(model, op) &&
                            !spec_.postcondition(model, o.command, *o.response))) {
          M next = advance(spec_, model, o);
          const bool unchanged = read_only(o) && next == model;
          place(op);
          if (prune_values_ && (values_.dooms(model, next, op) || sequences_.dooms(next, op))) {
            ++doomed_;
            unplace(op);
            entry = next_[entry];
            continue;
          }
          if (!cache_->known(positions_, key_hash_, pending_bits_, next)) {
            const std::uint32_t id = cache_->add(positions_, pending_bits_, next);
            // An unchanged model needs nothing to come back: it is `next`.
            std::optional<Record> undo;
            if (!unchanged) undo.emplace(UndoOf::save(spec_, model, o.command));
            stack_.push_back(Frame{op, unchanged, id, std::move(undo)});
            model = std::move(next);
            lift(op);
            entry = next_[head()];
            continue;
          }
          unplace(op);
          if (unchanged) {  // this state leads nowhere: back up
            if (stack_.empty()) return Result::not_linearizable;
            entry = back_up(model);
            continue;
          }
        }
        entry = next_[entry];
      } else {  // a return: its operation had to be placed by now
        if (op == target_) {
          note_dead_end(op);
          return Result::not_linearizable;
        }
        if (!have_dead_end_ || stack_.size() > dead_end_.size()) note_dead_end(op);
        if (stack_.empty()) return Result::not_linearizable;
        entry = back_up(model);
      }
    }
    return Result::linearizable;
  }

  /// Turns off the lost-value rule (ValueTracker::dooms) and the sequence
  /// rule (SequenceTracker::dooms). They only refuse placements that cannot
  /// lead to a linearization, so the verdict stays the same; but they cut
  /// orders short, so the deepest dead end recorded may be far shallower
  /// than the longest valid order. The search that explains a failure runs
  /// without them to find the longest.
  void without_value_pruning() { prune_values_ = false; }

  /// Keeps the lost-value rule but never for the value operation `index`
  /// (into all operations) needs: used with `stop_at(index)` once that
  /// operation is known never to fit, so that orders are not cut short for
  /// losing a value it would never get anyway and walk on to it.
  void spare_value_of(std::size_t index) {
    auto it = std::lower_bound(ops_.begin(), ops_.end(), index);
    if (it != ops_.end() && *it == index) {
      values_.spare(static_cast<std::uint32_t>(it - ops_.begin()));
      sequences_.spare(static_cast<std::uint32_t>(it - ops_.begin()));
    }
  }

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
      model = advance(spec_, model, operation(op));
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
  using UndoOf = Undo<S, M, C>;
  using Record = typename UndoOf::Record;
  struct Frame {
    std::uint32_t op;
    bool unchanged;       // placed because it changed nothing: not a choice
    std::uint32_t entry;  // the cache entry of the state it led to
    // What brings back the model before `op` was placed from the one after
    // (undo.hpp): the model itself, or the spec's undo record; none when
    // `op` left the model unchanged.
    std::optional<Record> undo;
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
    // Sorted by (instant, calls before returns, event number): equal
    // instants overlap, and the event number keeps the order of the
    // operations among equals. The instants are looked up once each
    // (a comparator reading them through the operations cost a tenth of a
    // small history's check).
    std::vector<std::pair<std::int64_t, std::uint32_t>> keyed(events);
    for (std::uint32_t e = 0; e < events; ++e) {
      const std::uint32_t op = e >> 1U;
      keyed[e] = {(e & 1U) == 0 ? operation(op).invoked_at : return_instant(op), e};
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      if ((a.second & 1U) != (b.second & 1U)) return (a.second & 1U) < (b.second & 1U);
      return a.second < b.second;
    });
    sorted_events_.resize(events);
    for (std::size_t k = 0; k < events; ++k) sorted_events_[k] = keyed[k].second;
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
  bool placed_pending(std::uint32_t op) const {
    const std::uint32_t p = pending_index_[op];
    return ((pending_bits_[p >> 6U] >> (p & 63U)) & 1U) != 0;
  }

  // Twins: operations that never returned, with equal commands. Any order
  // placing some of them stays valid with the earliest invoked ones in the
  // earliest places (each place is after the invoke of whichever op was
  // there, and k places after k invokes are after the k-th earliest), and
  // they change the model alike, so the search places a twin only after
  // the one invoked just before it: the placed twins are always the first
  // ones, and k placed twins are one state instead of one per k-subset.
  // Classes are found by comparing with one member of each (commands need
  // not be hashable or ordered); past kMaxTwinClasses classes, the rest
  // are left unlinked, which is always sound.
  void link_twins() {
    twin_before_.assign(n_, kNoIndex);
    if constexpr (std::equality_comparable<C>) {
      std::vector<std::uint32_t> latest;  // per class: its member invoked last so far
      for (const std::uint32_t e : sorted_events_) {
        if ((e & 1U) != 0 || pending_index_[e >> 1U] == kNoIndex) continue;
        const std::uint32_t op = e >> 1U;
        bool linked = false;
        for (std::uint32_t& last : latest) {
          if (operation(last).command == operation(op).command) {
            twin_before_[op] = last;
            last = op;
            linked = true;
            break;
          }
        }
        if (!linked && latest.size() < kMaxTwinClasses) latest.push_back(op);
      }
    }
  }
  static constexpr std::size_t kMaxTwinClasses = 256;

  static std::uint64_t chain_key(std::uint32_t chain, std::uint32_t position) {
    return mix64((std::uint64_t{chain} << 32U) | position);
  }
  void place(std::uint32_t op) {
    values_.place(op);
    sequences_.place(op);
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
    sequences_.unplace(op);
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
      // The top frame is used in place and popped last (moving it out
      // made g++ -O1 warn that the moved optional may be uninitialised).
      Frame& frame = stack_.back();
      const std::uint32_t op = frame.op;
      const bool unchanged = frame.unchanged;
      cache_->failed(frame.entry);
      low_water_ = std::min(low_water_, stack_.size() - 1);
      unplace(op);
      if (frame.undo) UndoOf::restore(spec_, model, operation(op).command, std::move(*frame.undo));
      stack_.pop_back();
      unlift(op);
      if (!unchanged) return next_[call_event(op)];
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
  SequenceTracker<S, M, C, R> sequences_;
  std::uint64_t doomed_ = 0;
  bool prune_values_ = true;
  std::uint32_t target_ = 0xffffffffU;  // see stop_at
  std::vector<std::uint32_t> next_;
  std::vector<std::uint32_t> prev_;
  std::vector<std::uint32_t> sorted_events_;
  std::vector<std::uint32_t> order_of_event_;
  std::vector<std::uint32_t> chain_of_;
  std::vector<std::uint32_t> pending_index_;
  std::vector<std::uint32_t> twin_before_;  // per op: the twin invoked just before it, or kNoIndex
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

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_PART_SEARCH_HPP
