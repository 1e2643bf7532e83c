// docs/examples/parallel_per_producer.cpp
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <merilo/gtest.hpp>

namespace parallel = merilo::parallel;
namespace st = merilo::statem;
using merilo::linearize::Caller;

// The system: a queue that promises only each producer's order. Each thread
// pushes into a lane of its own; pop takes the front of the next non-empty
// lane, taking turns (-1 when all are empty). A strict FIFO model refuses
// it; "each producer's items come out in its order" accepts it. The mutant,
// `lifo`, is one locked stack.
struct LaneQueue {
  bool lifo = false;
  std::mutex mu;
  std::map<std::thread::id, std::deque<std::int64_t>> lanes;
  std::size_t turn = 0;
  void push(std::int64_t v) {
    std::lock_guard lock(mu);
    lanes[lifo ? std::thread::id{} : std::this_thread::get_id()].push_back(v);
  }
  std::int64_t pop() {
    std::lock_guard lock(mu);
    for (std::size_t k = 0; k < lanes.size(); ++k) {
      auto lane = std::next(lanes.begin(), static_cast<std::ptrdiff_t>((turn + k) % lanes.size()));
      if (lane->second.empty()) continue;
      turn = (turn + k + 1) % lanes.size();
      const std::int64_t v = lifo ? lane->second.back() : lane->second.front();
      if (lifo)
        lane->second.pop_back();
      else
        lane->second.pop_front();
      return v;
    }
    return -1;
  }
};

struct Cmd {
  bool push = false;
  std::int64_t value = 0;  // push: the item
};
std::string merilo_describe(const Cmd& c) {
  return c.push ? "push " + std::to_string(c.value) : "pop";
}

// Per caller (branches 0..2, the prefix as kPrefixCaller = 3), the items it
// pushed that are still in, oldest first.
struct Lanes {
  std::array<std::deque<std::int64_t>, parallel::kPrefixCaller + 1> lane;
  friend bool operator==(const Lanes&, const Lanes&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    for (const auto& l : lane) {
      const std::size_t n = l.size();
      sink(&n, sizeof n);
      for (const std::int64_t v : l) sink(&v, sizeof v);
    }
  }
};

struct PerProducerSpec {
  bool lifo = false;

  using model_type = Lanes;
  using command_type = Cmd;
  using response_type = std::int64_t;  // pop: the item, or -1; push: 0
  using sut_type = std::unique_ptr<LaneQueue>;

  Lanes initial() const { return {}; }
  // Caller c draws items c*100 .. c*100+99, so no two callers push the same
  // item. (Shrinking may move a command to another branch or the prefix:
  // the model takes the caller from next_model, never from the item.)
  st::Gen<Cmd> command(const Lanes&, Caller who) const {
    const auto base = static_cast<std::int64_t>(who) * 100;
    return st::one_of<Cmd>({st::map(st::integer<std::int64_t>(0, 99),
                                    [base](std::int64_t v) {
                                      return Cmd{true, base + v};
                                    }),
                            st::just(Cmd{false, 0})});
  }
  st::Admission precondition(const Lanes&, const Cmd&) const { return st::Admission::admit; }
  // A push goes to its caller's lane; a pop takes out the item it returned,
  // the oldest of some lane (postcondition checked that first).
  Lanes next_model(const Lanes& m, const Cmd& c, std::int64_t got, Caller who) const {
    Lanes next = m;
    if (c.push) {
      next.lane[who].push_back(c.value);
      return next;
    }
    for (auto& l : next.lane) {
      if (!l.empty() && l.front() == got) {
        l.pop_front();
        break;
      }
    }
    return next;
  }
  sut_type new_sut() const {
    auto q = std::make_unique<LaneQueue>();
    q->lifo = lifo;
    return q;
  }
  std::int64_t run(sut_type& q, const Cmd& c) const {
    if (!c.push) return q->pop();
    q->push(c.value);
    return 0;
  }
  // A pop returns the oldest item of some lane, or -1 when every lane is empty.
  parallel::MaybeViolation postcondition(const Lanes& m, const Cmd& c, std::int64_t got) const {
    if (c.push) return std::nullopt;
    bool empty = true;
    for (const auto& l : m.lane) {
      if (!l.empty() && l.front() == got) return std::nullopt;
      empty = empty && l.empty();
    }
    if (got < 0 && empty) return std::nullopt;
    return st::Violation{"queue.order",
                         "popped " + std::to_string(got) + ", which is no producer's oldest item"};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(ParallelPerProducer, ALaneQueueKeepsEachProducersOrder) {
  merilo::testing::parallel_check(PerProducerSpec{}, {.seed = 42});
}

TEST(ParallelPerProducer, ALockedStackIsCaught) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {  // shrinking moves commands between branches
    const auto r = parallel::check(PerProducerSpec{.lifo = true}, {.seed = seed});
    EXPECT_TRUE(r.failure.has_value()) << "seed " << seed << ": " << r.error;
  }
}
