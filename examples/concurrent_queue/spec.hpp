// spec.hpp — the mailbox's parallel spec: posts and takes from two threads
// (and the prefix's), judged against what moodycamel::ConcurrentQueue
// promises: each producer's items leave in the order it posted them, and
// nothing is promised between two producers' items.
//
// The model keeps one lane per caller (branches 0..2 and the prefix as
// `parallel::kPrefixCaller`): the items that caller posted and nobody has
// taken yet, oldest first. A take must answer the oldest item of some lane,
// or nothing when every lane is empty. moodycamel's producers are threads,
// and merilo runs each branch on a thread of its own and the prefix call
// by call on one thread, so a lane per caller is a lane per producer
// (README.md says what follows when two callers share a thread).
#ifndef MERILO_EXAMPLES_CONCURRENT_QUEUE_SPEC_HPP
#define MERILO_EXAMPLES_CONCURRENT_QUEUE_SPEC_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include <concurrent_queue/mailbox.hpp>
#include <merilo/parallel/spec.hpp>

namespace concurrent_queue {

/// Callers the model keeps a lane for: the branches, then the prefix.
inline constexpr std::size_t kLanes = merilo::parallel::kPrefixCaller + 1;

/// Caller c posts items c * kItemBase + 1 .. c * kItemBase + 999, so a
/// generated case never has two callers post the same item.
inline constexpr std::int64_t kItemBase = 1000;

/// Per caller, the items it posted that are still in, oldest first.
struct Model {
  std::array<std::deque<std::int64_t>, kLanes> lanes;
  friend bool operator==(const Model&, const Model&) = default;
  /// Hashes the lanes for the checker's memo (a deque's bytes are not its
  /// items).
  template <class Sink>
  void feed(Sink& sink) const {
    for (const auto& lane : lanes) {
      const std::size_t n = lane.size();
      sink(&n, sizeof n);
      for (const std::int64_t item : lane) sink(&item, sizeof item);
    }
  }
};

/// A call: post `item`, or take (`post == false`, `item` 0).
struct Op {
  bool post = false;
  std::int64_t item = 0;
  friend bool operator==(const Op&, const Op&) = default;
};

/// "post 1007", "take".
inline std::string merilo_describe(const Op& op) {
  return op.post ? "post " + std::to_string(op.item) : std::string("take");
}

/// The spec of any mailbox type `M` with `void post(std::int64_t)` and
/// `std::optional<std::int64_t> take()`. Post answers nothing; take answers
/// the item or nothing.
template <class M>
struct SpecOf {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::optional<std::int64_t>;
  using sut_type = std::unique_ptr<M>;

  Model initial() const { return {}; }
  // The prefix mostly posts (three in four), so the race starts with items
  // in; the branches post and take half and half. Caller `who` draws its
  // items from its own range.
  merilo::statem::Gen<Op> command(const Model&, merilo::linearize::Caller who) const {
    namespace st = merilo::statem;
    const std::int64_t base = static_cast<std::int64_t>(who) * kItemBase;
    const std::uint64_t posts = who == merilo::parallel::kPrefixCaller ? 3 : 1;
    return st::frequency<Op>({{posts, st::map(st::integer<std::int64_t>(1, kItemBase - 1),
                                              [base](std::int64_t v) {
                                                return Op{true, base + v};
                                              })},
                              {1, st::just(Op{false, 0})}});
  }
  merilo::statem::Admission precondition(const Model&, const Op&) const {
    return merilo::statem::Admission::admit;
  }
  // A post joins its caller's lane; a take removes the item it answered,
  // the oldest of some lane (postcondition checked that first). Shrinking
  // may move a post to another caller, so two lanes could then start with
  // the same item: the lane whose range the item is from is tried first.
  Model next_model(const Model& m, const Op& op, const response_type& got,
                   merilo::linearize::Caller who) const {
    Model next = m;
    if (op.post) {
      next.lanes[who].push_back(op.item);
      return next;
    }
    if (!got) return next;
    const auto owner = static_cast<std::size_t>(*got / kItemBase);
    if (owner < kLanes && !next.lanes[owner].empty() && next.lanes[owner].front() == *got) {
      next.lanes[owner].pop_front();
      return next;
    }
    for (auto& lane : next.lanes) {
      if (!lane.empty() && lane.front() == *got) {
        lane.pop_front();
        break;
      }
    }
    return next;
  }
  sut_type new_sut() const { return std::make_unique<M>(); }
  response_type run(sut_type& box, const Op& op) const {
    if (!op.post) return box->take();
    box->post(op.item);
    return std::nullopt;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, const Op& op,
                                                 const response_type& got) const {
    if (op.post) {
      if (!got) return std::nullopt;
      return merilo::statem::Violation{"mailbox.response", "post answered " + std::to_string(*got)};
    }
    bool empty = true;
    for (const auto& lane : m.lanes) {
      if (got && !lane.empty() && lane.front() == *got) return std::nullopt;
      empty = empty && lane.empty();
    }
    if (!got && empty) return std::nullopt;
    return merilo::statem::Violation{
        "mailbox.order",
        got ? "took " + std::to_string(*got) + ", which is no producer's oldest item"
            : std::string("took nothing, though an item was in")};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// The spec of this example's `Mailbox<bug>`.
template <Bug bug = Bug::none>
using Spec = SpecOf<Mailbox<bug>>;

}  // namespace concurrent_queue

#endif  // MERILO_EXAMPLES_CONCURRENT_QUEUE_SPEC_HPP
