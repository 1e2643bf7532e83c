// jepsen_sim.hpp — simulated Jepsen-style histories of two shapes that are
// hard for a linearizability checker, written as JSON Lines with "time":
//
//   * kv: clients doing get / put / append of unique strings ("x 15 8 y")
//     on a few keys; a get returns the whole value. Some calls are delayed
//     a long time, so a few appends stay open across many others. Optionally
//     one get is made stale (it returns the value from before an append
//     that completed before the get was invoked): never linearizable.
//   * etcd: one register with read / write / cas of small values and a few
//     live clients; a call can time out (info), possibly taking effect much
//     later, and the client then continues under a fresh process id, so a
//     history has many processes and many info operations.
//
// Every operation takes effect at one instant between its invoke and its
// return (an info one: at any later instant, or never), so without the
// injected stale get the histories are linearizable.
#ifndef MERILO_TESTS_TOOLS_JEPSEN_SIM_HPP
#define MERILO_TESTS_TOOLS_JEPSEN_SIM_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <merilo/core/hash.hpp>  // core::SplitMix64

namespace merilo::jepsen_sim {

/// splitmix64: the same histories on every standard library.
class Rng : public core::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  std::int64_t below(std::int64_t n) {
    return static_cast<std::int64_t>(SplitMix64::below(static_cast<std::uint64_t>(n)));
  }
};

/// One simulated call: what was asked, when, and (when it took effect)
/// when and with what result.
struct Call {
  std::uint64_t process = 0;
  std::string f;
  std::string key;
  std::string argument = "null";  ///< JSON text.
  std::string result = "null";    ///< JSON text of the ok value.
  std::int64_t invoked = 0;
  std::int64_t effect = 0;    ///< When it took effect (kNoEffect: never).
  std::int64_t returned = 0;  ///< When its completion line is written.
  std::string type = "ok";    ///< ok, fail or info.
};
inline constexpr std::int64_t kNoEffect = -1;

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// The calls as JSON Lines, events ordered by time (invokes first at equal
/// times, as any real recorder would have them apart).
inline std::string to_jsonl(const std::vector<Call>& calls) {
  struct Line {
    std::int64_t time;
    int order;
    std::string text;
  };
  std::vector<Line> lines;
  for (const Call& c : calls) {
    const std::string head = "{\"process\": " + std::to_string(c.process) + ", \"f\": \"" + c.f +
                             "\", \"key\": " + jepsen_sim::quoted(c.key);
    lines.push_back({c.invoked, 0,
                     head + ", \"type\": \"invoke\", \"value\": " + c.argument +
                         ", \"time\": " + std::to_string(c.invoked) + "}"});
    const std::string value =
        c.type == "ok" ? (c.f == "get" || c.f == "read" ? c.result : c.argument) : "\"timed-out\"";
    lines.push_back({c.returned, 1,
                     head + ", \"type\": \"" + c.type + "\", \"value\": " + value +
                         ", \"time\": " + std::to_string(c.returned) + "}"});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.time != b.time ? a.time < b.time : a.order < b.order;
  });
  std::string out;
  for (const Line& l : lines) out += l.text + "\n";
  return out;
}

/// kv: `clients` clients, `operations` calls over `keys` keys; 1 call in 50
/// takes 100 times as long as usual. With `stale`, one get about halfway
/// returns the value from before an append that completed before it began.
inline std::vector<Call> simulate_kv(std::size_t clients, std::size_t operations, std::size_t keys,
                                     std::uint64_t seed, bool stale) {
  Rng rng(seed);
  std::vector<Call> calls;
  std::vector<std::int64_t> free_at(clients, 0);
  for (std::size_t i = 0; i < operations; ++i) {
    const auto c = static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(clients)));
    Call call;
    call.process = c;
    call.key = "k" + std::to_string(rng.below(static_cast<std::int64_t>(keys)));
    const std::int64_t roll = rng.below(10);
    call.f = roll < 5 ? "get" : roll < 9 ? "append" : "put";
    if (call.f != "get") {
      call.argument = jepsen_sim::quoted("x " + std::to_string(c) + " " + std::to_string(i) + " y");
    }
    call.invoked = free_at[c] + 1 + rng.below(20);
    const std::int64_t duration = (rng.below(50) == 0 ? 100 : 1) * (1 + rng.below(100));
    call.returned = call.invoked + duration;
    call.effect = call.invoked + rng.below(duration + 1);
    free_at[c] = call.returned;
    calls.push_back(std::move(call));
  }
  // Apply in effect order; a get reads the whole value.
  std::vector<std::size_t> by_effect(calls.size());
  for (std::size_t i = 0; i < by_effect.size(); ++i) by_effect[i] = i;
  std::stable_sort(by_effect.begin(), by_effect.end(),
                   [&](std::size_t a, std::size_t b) { return calls[a].effect < calls[b].effect; });
  std::vector<std::pair<std::string, std::string>> value_of;  // key -> value
  auto slot = [&](const std::string& key) -> std::string& {
    for (auto& kv : value_of) {
      if (kv.first == key) return kv.second;
    }
    value_of.emplace_back(key, "");
    return value_of.back().second;
  };
  std::vector<std::string> before(calls.size());  // each call's key's value before it
  for (const std::size_t i : by_effect) {
    Call& call = calls[i];
    std::string& v = slot(call.key);
    before[i] = v;
    const std::string arg =
        call.argument.size() >= 2 ? call.argument.substr(1, call.argument.size() - 2) : "";
    if (call.f == "get") call.result = jepsen_sim::quoted(v);
    if (call.f == "put") v = arg;
    if (call.f == "append") v += arg;
  }
  if (stale) {
    // The first get past halfway with a write to its key that returned
    // before it was invoked reads the value from before that write.
    for (std::size_t i = calls.size() / 2; i < calls.size(); ++i) {
      if (calls[i].f != "get") continue;
      std::optional<std::size_t> last;
      for (std::size_t j = 0; j < calls.size(); ++j) {
        if (calls[j].f != "get" && calls[j].key == calls[i].key &&
            calls[j].returned < calls[i].invoked &&
            (!last || calls[j].effect > calls[*last].effect)) {
          last = j;
        }
      }
      if (!last || jepsen_sim::quoted(before[*last]) == calls[i].result) continue;
      calls[i].result = jepsen_sim::quoted(before[*last]);
      break;
    }
  }
  return calls;
}

/// etcd: one register "r" with values 0-4, `live` clients at a time,
/// `operations` calls; 1 call in 10 times out (info): it takes effect at a
/// random instant up to 1000 later, or (half of them) never, and its client
/// carries on as a new process.
inline std::vector<Call> simulate_etcd(std::size_t live, std::size_t operations,
                                       std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Call> calls;
  std::vector<std::int64_t> free_at(live, 0);
  std::vector<std::uint64_t> process(live);
  std::uint64_t next_process = 0;
  for (auto& p : process) p = next_process++;
  for (std::size_t i = 0; i < operations; ++i) {
    const auto c = static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(live)));
    Call call;
    call.process = process[c];
    call.key = "r";
    const std::int64_t roll = rng.below(10);
    call.f = roll < 4 ? "read" : roll < 7 ? "write" : "cas";
    if (call.f == "write") call.argument = std::to_string(rng.below(5));
    if (call.f == "cas") {
      call.argument =
          "[" + std::to_string(rng.below(5)) + ", " + std::to_string(rng.below(5)) + "]";
    }
    call.invoked = free_at[c] + 1 + rng.below(10);
    const std::int64_t duration = 1 + rng.below(50);
    call.returned = call.invoked + duration;
    call.effect = call.invoked + rng.below(duration + 1);
    if (rng.below(10) == 0) {
      call.type = "info";
      call.effect = rng.below(2) == 0 ? kNoEffect : call.invoked + rng.below(1000);
      process[c] = next_process++;
    }
    free_at[c] = call.returned;
    calls.push_back(std::move(call));
  }
  std::vector<std::size_t> by_effect;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].effect != kNoEffect) by_effect.push_back(i);
  }
  std::stable_sort(by_effect.begin(), by_effect.end(),
                   [&](std::size_t a, std::size_t b) { return calls[a].effect < calls[b].effect; });
  std::optional<std::int64_t> value;
  for (const std::size_t i : by_effect) {
    Call& call = calls[i];
    if (call.f == "read") {
      call.result = value ? std::to_string(*value) : "null";
    } else if (call.f == "write") {
      value = std::stoll(call.argument);
    } else {
      const std::int64_t expected = std::stoll(call.argument.substr(1));
      const std::int64_t swap = std::stoll(call.argument.substr(call.argument.find(',') + 1));
      const bool swapped = value == expected;
      if (swapped) value = swap;
      if (call.type == "ok" && !swapped) call.type = "fail";
    }
  }
  return calls;
}

}  // namespace merilo::jepsen_sim

#endif  // MERILO_TESTS_TOOLS_JEPSEN_SIM_HPP
