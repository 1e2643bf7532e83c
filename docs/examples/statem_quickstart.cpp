// docs/examples/statem_quickstart.cpp
#include <string>
#include <vector>

#include <fmt/format.h>
#include <merilo/gtest.hpp>

namespace st = merilo::statem;

struct Stack {  // the system under test; with `bug` it drops the third push
  bool bug = false;
  std::vector<int> items;
  void push(int v) {
    if (!(bug && items.size() == 2)) items.push_back(v);
  }
  int pop() {
    int v = items.empty() ? -1 : items.back();
    if (!items.empty()) items.pop_back();
    return v;
  }
};

struct Cmd {  // push(value), or pop
  bool push;
  int value;
};
// How reports print a command (merilo::core::describe finds it by ADL).
std::string merilo_describe(const Cmd& c) {
  return c.push ? fmt::format("push({})", c.value) : std::string("pop");
}

struct StackSpec {
  using model_type = std::vector<int>;  // the stack's contents, bottom first
  using command_type = Cmd;
  using sut_type = Stack;
  bool bug = false;

  model_type initial() const { return {}; }
  st::Gen<Cmd> command(const model_type&) const {
    return st::one_of<Cmd>({st::map(st::integer(0, 9),
                                    [](int v) {
                                      return Cmd{true, v};
                                    }),
                            st::just(Cmd{false, 0})});
  }
  st::Admission precondition(const model_type& m, const Cmd& c) const {
    return c.push || !m.empty() ? st::Admission::admit : st::Admission::reject;
  }
  model_type next_model(model_type m, const Cmd& c) const {
    if (c.push)
      m.push_back(c.value);
    else
      m.pop_back();
    return m;
  }
  Stack new_sut() const { return Stack{bug, {}}; }
  st::MaybeViolation execute(Stack& s, const model_type& before, const Cmd& c) const {
    if (c.push) {
      s.push(c.value);
      return st::ok();
    }
    const int got = s.pop();
    if (got == before.back()) return st::ok();
    return st::fail("stack.pop", fmt::format("pop gave {}, the model says {}", got, before.back()));
  }
  st::MaybeViolation finish(Stack&, const model_type&) const { return st::ok(); }
  void teardown(Stack&) const {}
};

TEST(StatemGuide, TheCorrectStackBehavesLikeItsModel) {
  merilo::testing::statem_check(StackSpec{}, {.seed = 1, .test_count = 200});
}

TEST(StatemGuide, TheBuggyStackShrinksToThreePushesAndAPop) {
  auto r = st::check(StackSpec{.bug = true}, {.seed = 1});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->shrunk.size(), 4u) << st::report(*r.failure);
}
