// merilo/statem/detail/shrink_inl.hpp — the shrinker of one failing run
// (docs/design/statem-shrinking.md has the schedule and why). Included by
// statem_inl.hpp.
#ifndef MERILO_STATEM_DETAIL_SHRINK_INL_HPP
#define MERILO_STATEM_DETAIL_SHRINK_INL_HPP

#include <algorithm>  // std::equal
#include <utility>    // std::pair

namespace merilo::statem::detail {

/// How many children of a command are scanned for one with a given edit
/// label when shrinking equal values together.
inline constexpr std::size_t kJointScan = 64;

/// Greedy shrinking of one failing list to a 1-minimal one.
template <class S>
class Shrinker {
 public:
  using Cmd = command_t<S>;

  Shrinker(S& spec, const CheckOptions& config, std::vector<Tree<Cmd>> trees, Violation violation,
           FailureStage stage, std::size_t step)
      : spec_(spec),
        config_(config),
        trees_(std::move(trees)),
        tag_(violation.tag),
        violation_(std::move(violation)),
        stage_(stage),
        step_(step) {
    origins_.reserve(trees_.size());
    for (std::size_t i = 0; i < trees_.size(); ++i) origins_.push_back(Origin{i, {}});
    cut();
    reset_tried();
  }

  /// Shrinks until 1-minimal or a bound stops it.
  void run() {
    if (trees_.empty()) return;
    if (attempt({}, {}) != Try::rejected) return;  // the empty list, once
    for (;;) {
      const bool deleted = halving_sweep();
      if (stopped_) return;
      const bool shrunk = value_pass();
      if (stopped_) return;
      if (deleted || shrunk) continue;
      // Nothing changed in a halving sweep and a whole value pass: the
      // chunk sizes the sweep skipped are all that is left to try.
      if (every_chunk()) continue;
      if (stopped_) return;
      // 1-minimal: last, two commands' values moved by the same amount.
      if (shift_pass()) continue;
      return;  // 1-minimal and no shift pairs (or stopped)
    }
  }

  const std::vector<Tree<Cmd>>& current() const { return trees_; }
  const std::vector<Origin>& origins() const { return origins_; }
  const Violation& violation() const { return violation_; }
  FailureStage stage() const { return stage_; }
  std::size_t step() const { return step_; }
  std::size_t shrinks() const { return accepted_; }
  std::size_t executions() const { return executions_; }
  std::size_t dropped() const { return inadmissible_; }
  ShrinkEnd end() const { return stopped_ ? ShrinkEnd::bound_hit : ShrinkEnd::converged; }

 private:
  enum class Try : std::uint8_t { accepted, rejected, stop };

  /// Drops everything after the failing command: it cannot matter.
  void cut() {
    if (stage_ == FailureStage::command && step_ + 1 < trees_.size()) {
      trees_.erase(trees_.begin() + static_cast<std::ptrdiff_t>(step_ + 1), trees_.end());
      origins_.erase(origins_.begin() + static_cast<std::ptrdiff_t>(step_ + 1), origins_.end());
      if (kids_.size() > trees_.size()) kids_.resize(trees_.size());
    }
  }

  void reset_tried() {
    const std::size_t n = trees_.size();
    tried_.assign((n + 1) * (n + 1), false);
  }

  /// Whether deleting `chunk` commands at `offset` was tried on this list.
  std::vector<bool>::reference tried(std::size_t offset, std::size_t chunk) {
    return tried_[offset * (trees_.size() + 1) + chunk];
  }

  Try delete_chunk(std::size_t offset, std::size_t chunk) {
    tried(offset, chunk) = true;
    std::vector<Tree<Cmd>> trees;
    std::vector<Origin> origins;
    trees.reserve(trees_.size() - chunk);
    origins.reserve(trees_.size() - chunk);
    for (std::size_t i = 0; i < trees_.size(); ++i) {
      if (i >= offset && i < offset + chunk) continue;
      trees.push_back(trees_[i]);
      origins.push_back(origins_[i]);
    }
    drop_inadmissible(trees, origins);
    return attempt(std::move(trees), std::move(origins));
  }

  /// Deletes from a candidate every command that its preconditions now
  /// reject, first to last (a deletion can strand a later command: a
  /// commit whose begin went, a close whose open went). Executing the
  /// candidate as it was could only stop at that command, so this never
  /// loses a failure; it finds the ones that need both gone.
  void drop_inadmissible(std::vector<Tree<Cmd>>& trees, std::vector<Origin>& origins) {
    for (;;) {
      const std::size_t p = first_inadmissible(spec_, values(trees));
      if (p >= trees.size()) return;
      trees.erase(trees.begin() + static_cast<std::ptrdiff_t>(p));
      origins.erase(origins.begin() + static_cast<std::ptrdiff_t>(p));
    }
  }

  /// Every command's children (within `kJointScan`) that carry a shift
  /// label, each moved together with one other command's child of the same
  /// shift: values that must stay related (a key and the key one above it)
  /// shrink only together, and their edit labels differ because they start
  /// from different values. Pairs whose edit labels also match were the
  /// joint move's. Tried only on a 1-minimal list; returns at the first
  /// success.
  bool shift_pass() {
    for (std::size_t i = 0; i < trees_.size(); ++i) {
      for (std::size_t q = 0; q < children_of(i).size(); ++q) {
        const std::uint64_t shift = children_of(i)[q].shift();
        if (shift == 0) continue;
        for (std::size_t j = i + 1; j < trees_.size(); ++j) {
          const std::vector<Tree<Cmd>>& kids = children_of(j);
          for (std::size_t r = 0; r < kids.size(); ++r) {
            if (kids[r].shift() != shift) continue;
            const Tree<Cmd>& a = children_of(i)[q];
            if (a.edit() != 0 && a.edit() == kids[r].edit()) break;  // the joint move did it
            std::vector<Tree<Cmd>> trees = trees_;
            std::vector<Origin> origins = origins_;
            trees[i] = a;
            trees[j] = kids[r];
            origins[i].path.push_back(static_cast<std::uint32_t>(q));
            origins[j].path.push_back(static_cast<std::uint32_t>(r));
            const Try t = attempt(std::move(trees), std::move(origins));
            if (t == Try::accepted) return true;
            if (t == Try::stop) return false;
            break;  // one partner child per command
          }
        }
      }
    }
    return false;
  }

  /// Chunks of n/2, n/4, ..., 1 at every offset; after a success the sweep
  /// goes on from the same chunk size and offset on the shorter list.
  bool halving_sweep() {
    bool any = false;
    for (std::size_t chunk = trees_.size() / 2; chunk >= 1; chunk /= 2) {
      for (std::size_t offset = 0; offset + chunk <= trees_.size();) {
        if (tried(offset, chunk)) {
          ++offset;
          continue;
        }
        const Try t = delete_chunk(offset, chunk);
        if (t == Try::stop) return any;
        if (t == Try::accepted) {
          any = true;
        } else {
          ++offset;
        }
      }
    }
    return any;
  }

  /// Every chunk size from n down to 1 at every offset not tried on this
  /// list; returns at the first success.
  bool every_chunk() {
    for (std::size_t chunk = trees_.size(); chunk >= 1; --chunk) {
      for (std::size_t offset = 0; offset + chunk <= trees_.size(); ++offset) {
        if (tried(offset, chunk)) continue;
        const Try t = delete_chunk(offset, chunk);
        if (t == Try::accepted) return true;
        if (t == Try::stop) return false;
      }
    }
    return false;
  }

  /// The first `kJointScan` children of command `j`, computed once per
  /// command (an accepted candidate keeps the entries of the commands it
  /// did not change: same origin, same tree).
  const std::vector<Tree<Cmd>>& children_of(std::size_t j) {
    if (kids_.size() < trees_.size()) kids_.resize(trees_.size());
    if (!kids_[j]) {
      std::vector<Tree<Cmd>>& out = kids_[j].emplace();
      Seq<Tree<Cmd>> kids = trees_[j].children();
      while (out.size() < kJointScan) {
        std::optional<Tree<Cmd>> child;
        try {
          child = kids.next();
        } catch (...) {  // a throwing map/filter ends this command's shrinks
          child.reset();
        }
        if (!child) break;
        out.push_back(std::move(*child));
      }
    }
    return *kids_[j];
  }

  /// The first child (within `kJointScan`) of command `j` with edit `edit`.
  std::optional<std::pair<std::uint32_t, Tree<Cmd>>> child_with_edit(std::size_t j,
                                                                     std::uint64_t edit) {
    const std::vector<Tree<Cmd>>& kids = children_of(j);
    for (std::size_t q = 0; q < kids.size(); ++q) {
      if (kids[q].edit() == edit) return std::make_pair(static_cast<std::uint32_t>(q), kids[q]);
    }
    return std::nullopt;
  }

  /// Command `i` replaced by child `q` (`child`), together with every other
  /// command that offers a child with the same edit label.
  Try joint(std::size_t i, std::uint32_t q, const Tree<Cmd>& child) {
    std::vector<std::pair<std::size_t, std::pair<std::uint32_t, Tree<Cmd>>>> moves;
    for (std::size_t j = 0; j < trees_.size(); ++j) {
      if (j == i) continue;
      if (auto found = child_with_edit(j, child.edit())) moves.emplace_back(j, std::move(*found));
    }
    if (moves.empty()) return Try::rejected;  // nothing to move with it: no candidate
    std::vector<Tree<Cmd>> trees = trees_;
    std::vector<Origin> origins = origins_;
    for (auto& [j, found] : moves) {
      trees[j] = std::move(found.second);
      origins[j].path.push_back(found.first);
    }
    trees[i] = child;
    origins[i].path.push_back(q);
    return attempt(std::move(trees), std::move(origins));
  }

  /// Each command in turn, each child of its tree: first together with the
  /// commands holding the same value (same edit label), then alone. After a
  /// success the same command goes on from its new tree.
  bool value_pass() {
    bool any = false;
    for (std::size_t i = 0; i < trees_.size(); ++i) {
      bool again = true;
      while (again && i < trees_.size()) {
        again = false;
        Seq<Tree<Cmd>> kids = trees_[i].children();
        for (std::uint32_t q = 0;; ++q) {
          std::optional<Tree<Cmd>> child;
          try {
            child = kids.next();
          } catch (...) {  // a throwing map/filter ends this command's shrinks
            child.reset();
          }
          if (!child) break;
          if (child->edit() != 0) {
            const Try t = joint(i, q, *child);
            if (t == Try::stop) return any;
            if (t == Try::accepted) {
              any = again = true;
              break;
            }
          }
          std::vector<Tree<Cmd>> trees = trees_;
          std::vector<Origin> origins = origins_;
          trees[i] = std::move(*child);
          origins[i].path.push_back(q);
          const Try t = attempt(std::move(trees), std::move(origins));
          if (t == Try::stop) return any;
          if (t == Try::accepted) {
            any = again = true;
            break;
          }
        }
      }
    }
    return any;
  }

  /// Whether the first `p` commands of a candidate are those of the current
  /// list, a prefix known to pass: the current list failed only at its
  /// last command (it is cut there) or in finish.
  bool known_passing_prefix(const std::vector<Origin>& origins, std::size_t p) const {
    const bool passes = (stage_ == FailureStage::command && p <= step_) ||
                        (stage_ == FailureStage::finish && p <= origins_.size());
    return passes && p <= origins_.size() &&
           std::equal(origins.begin(), origins.begin() + static_cast<std::ptrdiff_t>(p),
                      origins_.begin());
  }

  /// Tries one candidate. One that a precondition rejects at command p is
  /// dropped unexecuted when its first p commands are a prefix known to
  /// pass (executing it could only end in a precondition violation);
  /// otherwise it is executed, which judges it as `replay` would: a
  /// failure before command p counts, cut after the failing command.
  /// Accepted on the first same-tag failure of `1 + shrink_retries`
  /// executions.
  Try attempt(std::vector<Tree<Cmd>> trees, std::vector<Origin> origins) {
    const std::vector<Cmd> list = values(trees);
    const std::size_t p = first_inadmissible(spec_, list);
    if (p < list.size() && known_passing_prefix(origins, p)) {
      if (++inadmissible_ >= kMaxInadmissible) return stop();
      return Try::rejected;
    }
    for (std::size_t a = 0; a <= config_.shrink_retries; ++a) {
      if (executions_ >= config_.max_shrinks) return stop();
      if (config_.shrink_stop) {
        ShrinkStop answer = ShrinkStop::stop_shrinking;
        try {
          answer = config_.shrink_stop();
        } catch (...) {  // a throwing predicate stops shrinking
          answer = ShrinkStop::stop_shrinking;
        }
        if (answer == ShrinkStop::stop_shrinking) return stop();
      }
      ++executions_;
      Execution e = execute_list(spec_, list);
      if (e.violation.has_value() && e.violation.value().tag == tag_) {
        std::vector<std::optional<std::vector<Tree<Cmd>>>> kept(origins.size());
        for (std::size_t k = 0; k < origins.size(); ++k) {
          for (std::size_t m = 0; m < kids_.size() && m < origins_.size(); ++m) {
            if (kids_[m] && origins_[m] == origins[k]) {
              kept[k] = std::move(kids_[m]);
              break;
            }
          }
        }
        kids_ = std::move(kept);
        trees_ = std::move(trees);
        origins_ = std::move(origins);
        violation_ = std::move(e.violation).value();
        stage_ = e.stage;
        step_ = e.step;
        ++accepted_;
        cut();
        reset_tried();
        return Try::accepted;
      }
    }
    return Try::rejected;
  }

  Try stop() {
    stopped_ = true;
    return Try::stop;
  }

  S& spec_;
  const CheckOptions& config_;
  std::vector<Tree<Cmd>> trees_;
  std::vector<Origin> origins_;  // where each command of trees_ came from
  std::vector<bool> tried_;      // (offset, chunk) deletions tried on trees_
  std::vector<std::optional<std::vector<Tree<Cmd>>>> kids_;  // children_of, per command
  std::string tag_;
  Violation violation_;  // of trees_
  FailureStage stage_;
  std::size_t step_;
  std::size_t accepted_ = 0;
  std::size_t executions_ = 0;
  std::size_t inadmissible_ = 0;
  bool stopped_ = false;
};

}  // namespace merilo::statem::detail

#endif  // MERILO_STATEM_DETAIL_SHRINK_INL_HPP
