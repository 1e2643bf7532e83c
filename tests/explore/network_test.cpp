// network_test.cpp — explore::Network: the messages in flight as a sorted,
// bounded multiset a world holds by value.
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include <merilo/explore/network.hpp>
#include <merilo/fsm/world.hpp>

namespace {

namespace ex = merilo::explore;

enum class Msg : std::uint8_t { none, prepare, vote, commit };

struct Tagged {  // a struct message: type 0 means none
  std::uint8_t type = 0;
  std::uint8_t from = 0;
  friend constexpr bool operator==(const Tagged&, const Tagged&) noexcept = default;
};
struct ByFromFirst {  // a custom order: sender, then type
  constexpr bool operator()(const Tagged& a, const Tagged& b) const noexcept {
    return a.from != b.from ? a.from < b.from : a.type < b.type;
  }
};

TEST(Network, TheOrderOfSendingDoesNotMatter) {
  ex::Network<Msg, 4> a;
  ex::Network<Msg, 4> b;
  EXPECT_TRUE(a.send(Msg::commit));
  EXPECT_TRUE(a.send(Msg::prepare));
  EXPECT_TRUE(a.send(Msg::vote));
  EXPECT_TRUE(b.send(Msg::vote));
  EXPECT_TRUE(b.send(Msg::commit));
  EXPECT_TRUE(b.send(Msg::prepare));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[0], Msg::prepare);
  EXPECT_EQ(a[1], Msg::vote);
  EXPECT_EQ(a[2], Msg::commit);
  EXPECT_EQ(a[3], Msg::none);  // empty slots last
  EXPECT_EQ(a.size(), 3U);
}

TEST(Network, TakeRemovesOneCopyAndKeepsTheRestSorted) {
  ex::Network<Msg, 4> n;
  n.send(Msg::vote);
  n.send(Msg::prepare);
  n.send(Msg::vote);
  EXPECT_EQ(n.take(1), Msg::vote);  // one of the two votes
  EXPECT_EQ(n.size(), 2U);
  EXPECT_EQ(n[0], Msg::prepare);
  EXPECT_EQ(n[1], Msg::vote);
  EXPECT_EQ(n.take(3), Msg::none);  // an empty slot: nothing taken
  EXPECT_EQ(n.size(), 2U);
  EXPECT_EQ(n.take(0), Msg::prepare);
  EXPECT_EQ(n.take(0), Msg::vote);
  EXPECT_TRUE(n.empty());
}

TEST(Network, AFullNetworkRefusesSendsAndDuplicates) {
  ex::Network<Msg, 2> n;
  EXPECT_FALSE(n.duplicate(0));  // nothing to duplicate
  EXPECT_TRUE(n.send(Msg::commit));
  EXPECT_FALSE(n.full());
  EXPECT_TRUE(n.duplicate(0));
  EXPECT_TRUE(n.full());
  const ex::Network<Msg, 2> before = n;
  EXPECT_FALSE(n.send(Msg::prepare));
  EXPECT_FALSE(n.duplicate(0));
  EXPECT_EQ(n, before);
  EXPECT_TRUE(n.occupied(1));
  EXPECT_FALSE(n.occupied(2));  // past the end
}

TEST(Network, ACustomOrderSortsStructMessages) {
  ex::Network<Tagged, 3, ByFromFirst> n;
  n.send(Tagged{1, 2});
  n.send(Tagged{2, 1});
  n.send(Tagged{1, 1});
  EXPECT_EQ(n[0], (Tagged{1, 1}));
  EXPECT_EQ(n[1], (Tagged{2, 1}));
  EXPECT_EQ(n[2], (Tagged{1, 2}));
}

TEST(Network, AWorldHoldingOneIsHashableByItsBytes) {
  struct World {
    ex::Network<Msg, 4> net;
    std::uint8_t phase = 0;
    std::uint8_t pad[3] = {};
  };
  static_assert(merilo::fsm::ByteHashable<World>);
  static_assert(sizeof(ex::Network<Msg, 4>) == 4);
  World a;
  World b;
  a.net.send(Msg::vote);
  a.net.send(Msg::prepare);
  b.net.send(Msg::prepare);
  b.net.send(Msg::vote);
  // The explorer compares worlds by their bytes: these two are one world.
  EXPECT_EQ(std::memcmp(&a, &b, sizeof(World)), 0);
}

}  // namespace
