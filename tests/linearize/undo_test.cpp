// undo_test.cpp — the undo records of check_history's search (history.hpp,
// "Undo records"): KvSpec's and QueueSpec's undo brings back the model
// before each call, and the search with undo records takes exactly the
// steps, states and answers of the search that keeps a copy of the model
// per placed call, on random histories with overlapping and pending calls.
// (That the records bound the memory is tested on the built tool under a
// `ulimit -v`: tests/tools, lincheck.memory.*.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/core/describe.hpp>
#include <merilo/linearize/detail/undo.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "small_models.hpp"

namespace merilo::linearize {
namespace {

/// The built-in specs with their undo hidden: frames keep model copies.
struct CopyingKvSpec : KvSpec {
  void undo_record() const = delete;
};
struct CopyingQueueSpec : QueueSpec {
  void undo_record() const = delete;
};

static_assert(detail::DeclaresUndo<KvSpec, KvModel, KvCmd>);
static_assert(detail::DeclaresUndo<QueueSpec, QueueModel, QueueCmd>);
static_assert(!detail::DeclaresUndo<CopyingKvSpec, KvModel, KvCmd>);
static_assert(!detail::DeclaresUndo<CopyingQueueSpec, QueueModel, QueueCmd>);
static_assert(!detail::DeclaresUndo<RegisterSpec, RegisterModel, RegisterCmd>);

template <class S, class M, class C>
void expect_undone(const S& spec, const M& before, const C& cmd) {
  M after = spec.next_model(before, cmd);
  spec.undo(after, cmd, spec.undo_record(before, cmd));
  EXPECT_EQ(after, before) << merilo::core::describe(cmd) << " from "
                           << merilo::core::describe(before);
}

TEST(Undo, KvUndoBringsBackTheValueBeforeEachCall) {
  const KvSpec spec;
  for (const char* value : {"", "ab", "abc"}) {
    const KvModel m{value};
    expect_undone(spec, m, KvCmd{KvCmd::Kind::get, "k", ""});
    expect_undone(spec, m, KvCmd{KvCmd::Kind::put, "k", "xyz"});
    expect_undone(spec, m, KvCmd{KvCmd::Kind::put, "k", ""});
    expect_undone(spec, m, KvCmd{KvCmd::Kind::append, "k", "c"});
    expect_undone(spec, m, KvCmd{KvCmd::Kind::append, "k", ""});
  }
}

TEST(Undo, QueueUndoBringsBackTheQueueBeforeEachCall) {
  const QueueSpec spec;
  for (const QueueModel& m : {QueueModel{}, QueueModel{{7}}, QueueModel{{1, 2, 3}}}) {
    expect_undone(spec, m, QueueCmd{QueueCmd::Kind::enqueue, 4, ""});
    expect_undone(spec, m, QueueCmd{QueueCmd::Kind::dequeue, 0, ""});
  }
}

TEST(Undo, AnUnchangingCallLeavesNoRecordToKeep) {
  EXPECT_FALSE(KvSpec{}.undo_record(KvModel{"abc"}, KvCmd{KvCmd::Kind::append, "k", "d"}));
  EXPECT_FALSE(QueueSpec{}.undo_record(QueueModel{}, QueueCmd{QueueCmd::Kind::dequeue, 0, ""}));
  EXPECT_EQ(QueueSpec{}.undo_record(QueueModel{{5, 6}}, QueueCmd{QueueCmd::Kind::dequeue, 0, ""}),
            std::optional<std::int64_t>(5));
}

// --- the search with records is the search with copies -----------------------------

/// A random history of `calls` calls on `threads` threads with intervals
/// that overlap, some never returning, whose responses `respond` draws
/// (right or wrong: both searches must agree either way).
template <class Op, class MakeCall>
std::vector<Op> random_history(testing::Rng& rng, MakeCall make_call) {
  const int threads = 2 + rng.below(3);
  const int calls = 4 + rng.below(9);
  std::vector<std::int64_t> free_at(static_cast<std::size_t>(threads), 0);
  std::vector<Op> ops;
  for (int i = 0; i < calls; ++i) {
    const auto t = static_cast<std::size_t>(rng.below(threads));
    Op op = make_call(i);
    op.invoked_at = free_at[t] + rng.below(3);
    op.returned_at = op.invoked_at + rng.below(8);
    free_at[t] = op.returned_at + 1;
    if (rng.below(8) == 0) {
      op.response.reset();
      op.returned_at = kNever;
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

template <class S, class Copying, class M, class Op>
void expect_same_search(const std::vector<Op>& ops, int n) {
  SCOPED_TRACE("case " + std::to_string(n));
  HistoryOptions options;
  options.budget = 100'000;
  const auto with_records = check_history(S{}, M{}, ops, options);
  const auto with_copies = check_history(Copying{}, M{}, ops, options);
  ASSERT_EQ(with_records.verdict, with_copies.verdict);
  EXPECT_EQ(with_records.evaluations, with_copies.evaluations);
  EXPECT_EQ(with_records.cache_entries, with_copies.cache_entries);
  EXPECT_EQ(with_records.orders, with_copies.orders);
  EXPECT_EQ(with_records.explanation.prefix, with_copies.explanation.prefix);
  EXPECT_EQ(with_records.explanation.returned, with_copies.explanation.returned);
}

TEST(Undo, KvSearchWithRecordsMatchesTheSearchWithCopies) {
  testing::Rng rng(91);
  int refuted = 0;
  for (int n = 0; n < 1000; ++n) {
    using Op = Operation<KvCmd, KvResponse>;
    auto ops = random_history<Op>(rng, [&](int i) {
      const int roll = rng.below(10);
      const KvCmd::Kind kind = roll < 4   ? KvCmd::Kind::get
                               : roll < 8 ? KvCmd::Kind::append
                                          : KvCmd::Kind::put;
      static const char* const kValues[] = {"", "a", "ab", "b", "abc"};
      KvCmd cmd{kind, "k", kind == KvCmd::Kind::get ? "" : std::string(1, char('a' + i % 3))};
      return Op{std::move(cmd), KvResponse{false, kValues[rng.below(5)]}, 0, 0};
    });
    expect_same_search<KvSpec, CopyingKvSpec, KvModel>(ops, n);
    if (check_history(KvSpec{}, KvModel{}, ops, {}).verdict == Verdict::not_linearizable) {
      ++refuted;
    }
  }
  EXPECT_GT(refuted, 100);  // both kinds of verdict were compared
}

TEST(Undo, QueueSearchWithRecordsMatchesTheSearchWithCopies) {
  testing::Rng rng(92);
  int passed = 0;
  for (int n = 0; n < 1000; ++n) {
    using Op = Operation<QueueCmd, QueueResponse>;
    auto ops = random_history<Op>(rng, [&](int i) {
      if (rng.below(2) == 0)
        return Op{QueueCmd{QueueCmd::Kind::enqueue, i % 4, ""}, QueueResponse{}, 0, 0};
      std::optional<std::int64_t> got;
      if (rng.below(4) != 0) got = rng.below(4);
      return Op{QueueCmd{QueueCmd::Kind::dequeue, 0, ""}, QueueResponse{false, got}, 0, 0};
    });
    expect_same_search<QueueSpec, CopyingQueueSpec, QueueModel>(ops, n);
    if (check_history(QueueSpec{}, QueueModel{}, ops, {}).ok()) ++passed;
  }
  EXPECT_GT(passed, 100);
}

}  // namespace
}  // namespace merilo::linearize
