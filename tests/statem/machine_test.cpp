// The machine bridge on a tiny door machine and its holder, with seeded
// holder bugs: statem finds each and shrinks it to its minimal event list.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <merilo/statem/machine.hpp>

namespace st = merilo::statem;
namespace fsm = merilo::fsm;

namespace door {

enum class State : std::uint8_t { none, closed, open, locked };
enum class Event : std::uint8_t { none, open, close, lock, unlock };
enum class Action : std::uint8_t { chime, bolt, unbolt };

constexpr std::string_view name(Event e) {
  switch (e) {
    case Event::none:
      return "none";
    case Event::open:
      return "open";
    case Event::close:
      return "close";
    case Event::lock:
      return "lock";
    case Event::unlock:
      return "unlock";
  }
  return "?";
}

class Door {
 public:
  static constexpr Door make() { return Door{State::closed}; }
  constexpr Door() = default;
  [[nodiscard]] constexpr fsm::Fired<Door, Action> fire(Event e) const {
    auto to = [](State s, fsm::ActionSet<Action> a) {
      return fsm::Fired<Door, Action>{Door{s}, a, fsm::Outcome::moved};
    };
    switch (state_) {
      case State::closed:
        if (e == Event::open) return to(State::open, Action::chime);
        if (e == Event::lock) return to(State::locked, Action::bolt);
        break;
      case State::open:
        if (e == Event::close) return to(State::closed, {});
        break;
      case State::locked:
        if (e == Event::unlock) return to(State::closed, Action::unbolt);
        break;
      case State::none:
        return {*this, {}, fsm::Outcome::invalid};
    }
    return {*this, {}, fsm::Outcome::rejected};
  }
  [[nodiscard]] constexpr State state() const { return state_; }
  friend constexpr bool operator==(const Door&, const Door&) = default;

 private:
  constexpr explicit Door(State s) : state_(s) {}
  State state_ = State::none;
};

enum class Bug : std::uint8_t { none, forget_unbolt, double_chime, stale_machine };

/// The production wrapper: owns a Door, performs its actions on `hardware`.
template <Bug bug>
class Holder {
 public:
  explicit Holder(std::array<int, 3>& hardware) : hardware_(hardware) {}
  bool handle(Event e) {
    auto [next, actions, outcome] = door_.fire(e);
    if (fsm::err(outcome)) return false;
    if (!(bug == Bug::stale_machine && e == Event::unlock)) door_ = next;
    actions.for_each([this](Action a) {
      if (bug == Bug::forget_unbolt && a == Action::unbolt) return;
      ++hardware_[static_cast<std::size_t>(a)];
      if (bug == Bug::double_chime && a == Action::chime) ++hardware_[0];
    });
    return true;
  }
  const Door& door() const { return door_; }

 private:
  std::array<int, 3>& hardware_;
  Door door_ = Door::make();
};

/// What the holder did with one event: accepted or not, and how often it
/// performed each action.
struct Response {
  bool accepted = false;
  std::array<int, 3> performed{};
  friend bool operator==(const Response&, const Response&) = default;
};

template <Bug bug>
struct Rig {
  std::array<int, 3> hardware{};
  Holder<bug> holder{hardware};
};

template <Bug bug>
struct Binding {
  using machine_type = Door;
  using event_type = Event;
  using sut_type = std::unique_ptr<Rig<bug>>;
  using response_type = Response;

  std::shared_ptr<int> torn = std::make_shared<int>(0);

  Door initial() const { return Door::make(); }
  st::Gen<Event> events(const Door& /*d*/) const {
    return st::element_of<Event>({Event::open, Event::close, Event::lock, Event::unlock});
  }
  sut_type new_sut() const { return std::make_unique<Rig<bug>>(); }
  Response apply(sut_type& rig, Event e) const {
    const auto before = rig->hardware;
    Response r;
    r.accepted = rig->holder.handle(e);
    for (std::size_t i = 0; i < 3; ++i) r.performed[i] = rig->hardware[i] - before[i];
    return r;
  }
  Response expected(const Door& /*before*/, Event /*e*/, const fsm::Fired<Door, Action>& f) const {
    Response r;
    r.accepted = !fsm::err(f.outcome);
    f.actions.for_each([&r](Action a) { ++r.performed[static_cast<std::size_t>(a)]; });
    return r;
  }
  Door observe(const sut_type& rig) const { return rig->holder.door(); }
  void teardown(sut_type& /*rig*/) const { ++*torn; }
};

inline std::string merilo_describe(const Response& r) {
  return fmt::format("{} chime={} bolt={} unbolt={}", r.accepted ? "accepted" : "refused",
                     r.performed[0], r.performed[1], r.performed[2]);
}
inline std::string merilo_describe(const Door& d) {
  switch (d.state()) {
    case State::none:
      return "none";
    case State::closed:
      return "closed";
    case State::open:
      return "open";
    case State::locked:
      return "locked";
  }
  return "?";
}

}  // namespace door

namespace {

template <door::Bug bug>
std::vector<std::string> shrunk_events(std::uint64_t seed, std::string* tag = nullptr) {
  auto r = st::check(st::machine_spec(door::Binding<bug>{}), {.seed = seed});
  std::vector<std::string> out;
  if (!r.failure) return out;
  if (tag) *tag = r.failure->violation.tag;
  for (const auto& c : r.failure->shrunk) out.push_back(merilo::core::describe(c));
  return out;
}

}  // namespace

static_assert(st::Spec<st::MachineSpec<door::Binding<door::Bug::none>>>);

TEST(MachineBridge, ACorrectHolderAgreesWithItsMachine) {
  door::Binding<door::Bug::none> binding;
  auto spec = st::machine_spec(binding);
  auto r = st::check(spec, {.seed = 1, .test_count = 200});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(*binding.torn, 200);  // the binding's teardown runs for every system
}

TEST(MachineBridge, AForgottenActionIsFoundAndShrunkToLockUnlock) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    std::string tag;
    EXPECT_EQ(shrunk_events<door::Bug::forget_unbolt>(seed, &tag),
              (std::vector<std::string>{"lock", "unlock"}));
    EXPECT_EQ(tag, st::kResponseTag);
  }
}

TEST(MachineBridge, AnActionPerformedTwiceIsFoundAndShrunkToOneEvent) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(shrunk_events<door::Bug::double_chime>(seed), (std::vector<std::string>{"open"}));
  }
}

TEST(MachineBridge, AHolderThatDoesNotKeepTheNextMachineIsAStateViolation) {
  std::string tag;
  EXPECT_EQ(shrunk_events<door::Bug::stale_machine>(3, &tag),
            (std::vector<std::string>{"lock", "unlock"}));
  EXPECT_EQ(tag, st::kStateTag);
}

TEST(MachineBridge, TheReportDescribesEventsResponsesAndStates) {
  auto r = st::check(st::machine_spec(door::Binding<door::Bug::forget_unbolt>{}), {.seed = 5});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->violation.detail,
            "event unlock in locked: the holder answered accepted chime=0 bolt=0 unbolt=0, the "
            "machine says accepted chime=0 bolt=0 unbolt=1");
  EXPECT_NE(st::report(*r.failure).find("  -> 1  unlock\n"), std::string::npos);
}
