// The memory model's API: the order of the choices it offers, the
// explanation of an execution, reset, and clear errors for misuse.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <merilo/sync/detail/memory_model.hpp>

namespace merilo::sync::detail {
namespace {

TEST(MemoryModel, OffersTheNewestStoreFirstAndTheOlderOnesAfterIt) {
  MemoryModel m;
  const LocationId x = m.new_location(0, 7);
  m.spawn(0, 1);
  m.store(1, x, 8, MemOrder::relaxed);
  m.store(1, x, 9, MemOrder::relaxed);
  const auto c = m.prepare_load(0, x, MemOrder::relaxed);
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c[0].value, 9U);
  EXPECT_EQ(c[1].value, 8U);
  EXPECT_EQ(c[2].value, 7U);
  EXPECT_EQ(c[0].store, (EventRef{1, 1}));
  EXPECT_EQ(m.commit_load(2), 7U);
  // Having read 7, the thread may not read anything older later, and it
  // still may read the newer stores.
  EXPECT_EQ(m.prepare_load(0, x, MemOrder::relaxed).size(), 3U);
}

TEST(MemoryModel, AThreadNeverReadsOlderThanItsOwnLastStore) {
  MemoryModel m;
  const LocationId x = m.new_location(0);
  m.spawn(0, 1);
  m.store(1, x, 1, MemOrder::relaxed);
  m.store(0, x, 2, MemOrder::relaxed);  // last: 0 -> 1 -> 2
  const auto c = m.prepare_load(0, x, MemOrder::relaxed);
  ASSERT_EQ(c.size(), 1U);
  EXPECT_EQ(c[0].value, 2U);
}

TEST(MemoryModel, AStoreMayGoBeforeStoresItDoesNotHappenAfter) {
  MemoryModel m;
  const LocationId x = m.new_location(0);
  m.spawn(0, 1);
  m.spawn(0, 2);
  m.store(1, x, 1, MemOrder::relaxed);
  ASSERT_EQ(m.prepare_store(2, x, MemOrder::relaxed), 2U);  // last, or before T1's store
  m.commit_store(1, 2);
  EXPECT_EQ(m.latest(x), 1U);
  const std::vector<EventRef> mo = m.modification_order(x);
  ASSERT_EQ(mo.size(), 3U);
  EXPECT_EQ(mo[1], (EventRef{2, 0}));
  EXPECT_EQ(mo[2], (EventRef{1, 0}));
}

TEST(MemoryModel, ASeqCstStoreMayGoBeforeAnUnrelatedSeqCstStoreThatRanFirst) {
  MemoryModel m;
  const LocationId x = m.new_location(0);
  m.spawn(0, 1);
  m.spawn(0, 2);
  m.store(1, x, 1, MemOrder::seq_cst);
  EXPECT_EQ(m.prepare_store(2, x, MemOrder::seq_cst), 2U);
}

TEST(MemoryModel, ASeqCstStoreNeverGoesBeforeASeqCstStoreItReadAfter) {
  // T2 read T1's store of 1 from y (seq_cst), then stores x: the seq_cst
  // order has T1's x store first (program order, then reads-from), so T2's
  // x store may not precede it in modification order.
  MemoryModel m;
  const LocationId x = m.new_location(0);
  const LocationId y = m.new_location(0);
  m.spawn(0, 1);
  m.spawn(0, 2);
  m.store(1, x, 1, MemOrder::seq_cst);
  m.store(1, y, 1, MemOrder::seq_cst);
  (void)m.prepare_load(2, y, MemOrder::relaxed);
  EXPECT_EQ(m.commit_load(0), 1U);
  EXPECT_EQ(m.prepare_store(2, x, MemOrder::seq_cst), 2U);  // relaxed read: no order
  MemoryModel s;
  const LocationId sx = s.new_location(0);
  const LocationId sy = s.new_location(0);
  s.spawn(0, 1);
  s.spawn(0, 2);
  s.store(1, sx, 1, MemOrder::seq_cst);
  s.store(1, sy, 1, MemOrder::seq_cst);
  (void)s.prepare_load(2, sy, MemOrder::seq_cst);
  EXPECT_EQ(s.commit_load(0), 1U);
  EXPECT_EQ(s.prepare_store(2, sx, MemOrder::seq_cst), 1U);
}

TEST(MemoryModel, BeyondTheExactLimitTheSeqCstOrderIsTheRunOrder) {
  // Message passing with seq_cst data and a relaxed flag: the stale data
  // is offered while the execution has fewer than kExactPscEvents seq_cst
  // events, and not after (the documented cheaper rule).
  const auto stale_data_offered = [](std::size_t prefix) {
    MemoryModel m;
    const LocationId data = m.new_location(0);
    const LocationId flag = m.new_location(0);
    const LocationId other = m.new_location(0);
    m.spawn(0, 1);
    m.spawn(0, 2);
    for (std::size_t i = 0; i < prefix; ++i) m.store(0, other, i, MemOrder::seq_cst);
    m.store(1, data, 1, MemOrder::seq_cst);
    m.store(1, flag, 1, MemOrder::relaxed);
    (void)m.prepare_load(2, flag, MemOrder::relaxed);
    (void)m.commit_load(0);
    return m.prepare_load(2, data, MemOrder::seq_cst).size() == 2;
  };
  EXPECT_TRUE(stale_data_offered(0));
  EXPECT_TRUE(stale_data_offered(kExactPscEvents - 2));
  EXPECT_FALSE(stale_data_offered(kExactPscEvents));
}

TEST(MemoryModel, ResetStartsAnEmptyExecution) {
  MemoryModel m;
  const LocationId x = m.new_location(0, 1);
  m.spawn(0, 1);
  m.store(1, x, 2, MemOrder::relaxed);
  m.reset();
  EXPECT_EQ(m.locations(), 0U);
  EXPECT_EQ(m.started(), detail::ThreadSet::of(0));
  EXPECT_TRUE(m.events(0).empty());
  EXPECT_THROW(m.store(1, 0, 1, MemOrder::relaxed), std::invalid_argument);
  const LocationId y = m.new_location(5);
  EXPECT_EQ(m.prepare_load(0, y, MemOrder::relaxed)[0].value, 5U);
}

TEST(MemoryModel, NamesEveryMisuse) {
  MemoryModel m;
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] {
              (void)m.prepare_load(3, 0, MemOrder::relaxed);
            }).find("thread 3 is not running"),
            std::string::npos);
  EXPECT_NE(message([&] {
              (void)m.prepare_load(0, 4, MemOrder::relaxed);
            }).find("location 4 does not exist"),
            std::string::npos);
  const LocationId x = m.new_location(0);
  EXPECT_NE(message([&] { (void)m.commit_load(0); }).find("committing a load but nothing"),
            std::string::npos);
  (void)m.prepare_load(0, x, MemOrder::relaxed);
  EXPECT_NE(
      message([&] { (void)m.commit_load(1); }).find("choice 1 is out of range: 1 were offered"),
      std::string::npos);
  EXPECT_NE(message([&] { m.spawn(0, 0); }).find("thread 0 was already started"),
            std::string::npos);
  EXPECT_NE(message([&] { m.spawn(0, 128); }).find("beyond the model's 128 threads"),
            std::string::npos);
  EXPECT_NE(message([&] { m.lock(0, 2); }).find("lock 2 does not exist"), std::string::npos);
  EXPECT_STREQ(order_misuse(MemOrder::release, true, false),
               "a load (or a compare-exchange's failure) cannot be release or acq_rel");
  EXPECT_STREQ(order_misuse(MemOrder::acquire, false, true),
               "a store cannot be acquire, consume or acq_rel");
  EXPECT_EQ(order_misuse(MemOrder::acq_rel, true, true), nullptr);
}

TEST(MemoryModel, ExplainsWhichStoreEachLoadRead) {
  MemoryModel m;
  const LocationId x = m.new_location(0, 0);
  m.spawn(0, 1);
  m.store(1, x, 42, MemOrder::release);
  (void)m.prepare_load(0, x, MemOrder::acquire);
  EXPECT_EQ(m.commit_load(0), 42U);
  const Event& load = m.events(0).back();
  EXPECT_EQ(load.read_from, (EventRef{1, 0}));
  const std::string names[] = {"data"};
  const std::string text = format_execution(m, names);
  EXPECT_NE(text.find("load  data -> 42 (acquire)   reads-from T1.0 #2: store data = 42 (release)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("modification order:\n  data: T0.0=0 T1.0=42"), std::string::npos) << text;
}

}  // namespace
}  // namespace merilo::sync::detail
