// register_sim.hpp — a simulated linearizable register that records
// Jepsen-style histories (invoke / ok / fail / info events), optionally with
// one injected stale read. Used by the linearize tests, the lincheck tool
// tests (as JSON Lines) and the benchmarks.
#ifndef MERILO_TESTS_LINEARIZE_REGISTER_SIM_HPP
#define MERILO_TESTS_LINEARIZE_REGISTER_SIM_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <merilo/core/hash.hpp>  // core::SplitMix64
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

namespace merilo::linearize::sim {

enum class Type : std::uint8_t { invoke, ok, fail, info };

/// One recorded event, as a Jepsen history line would hold it.
struct Event {
  std::uint64_t process = 0;
  Type type = Type::invoke;
  RegisterCmd command;                 // f and the invoke's arguments
  std::optional<std::int64_t> result;  // ok read: the value read
};

struct Options {
  std::size_t processes = 10;
  std::size_t operations = 10'000;
  std::uint64_t seed = 1;
  std::size_t info_per_mille = 5;            // operations that end in info
  std::size_t keys = 1;                      // > 1: independent registers "k0", "k1", ...
  std::optional<std::size_t> stale_read_at;  // inject one stale read after this many ops
};

class Rng : public merilo::core::SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  std::size_t below(std::size_t n) {
    return static_cast<std::size_t>(SplitMix64::below(static_cast<std::uint64_t>(n)));
  }
};

/// Simulates `options.processes` clients of one atomic register. Each
/// operation takes effect at one instant between its invoke and its
/// completion; written values are unique, so the injected stale read (a
/// read, after two sequential writes u1 then u2, that returns u1) can never
/// be linearized.
inline std::vector<Event> simulate_register(const Options& options) {
  struct Client {
    std::uint64_t id = 0;
    int phase = 0;  // 0 idle, 1 invoked, 2 took effect (or was lost)
    RegisterCmd cmd;
    std::optional<std::int64_t> read;
    bool swapped = false;
    bool crashes = false;
  };
  Rng rng(options.seed);
  std::vector<Event> out;
  std::vector<Client> clients(options.processes);
  for (std::size_t i = 0; i < clients.size(); ++i) clients[i].id = i;
  std::uint64_t next_id = clients.size();
  std::map<std::string, std::optional<std::int64_t>> regs;
  std::int64_t unique = 1;
  std::size_t started = 0;
  bool injected = false;

  auto invoke = [&](Client& c, RegisterCmd cmd) {
    c.cmd = std::move(cmd);
    c.phase = 1;
    c.crashes = rng.below(1000) < options.info_per_mille;
    out.push_back(Event{c.id, Type::invoke, c.cmd, std::nullopt});
    ++started;
  };
  auto apply = [&](Client& c) {
    c.phase = 2;
    if (c.crashes && rng.below(2) == 0) return;  // lost: never took effect
    std::optional<std::int64_t>& reg = regs[c.cmd.key];
    switch (c.cmd.kind) {
      case RegisterCmd::Kind::read:
        c.read = reg;
        break;
      case RegisterCmd::Kind::write:
        reg = c.cmd.value;
        break;
      case RegisterCmd::Kind::cas:
        c.swapped = reg == c.cmd.value;
        if (c.swapped) reg = c.cmd.swap;
        break;
    }
  };
  auto complete = [&](Client& c) {
    c.phase = 0;
    if (c.crashes) {
      out.push_back(Event{c.id, Type::info, c.cmd, std::nullopt});
      c.id = next_id++;  // Jepsen: a new process after an info
      return;
    }
    const bool failed = c.cmd.kind == RegisterCmd::Kind::cas && !c.swapped;
    out.push_back(Event{c.id, failed ? Type::fail : Type::ok, c.cmd, c.read});
  };
  auto solo = [&](RegisterCmd cmd, std::optional<std::optional<std::int64_t>> forced_read) {
    Client& c = clients[0];
    invoke(c, std::move(cmd));
    c.crashes = false;
    apply(c);
    if (forced_read) c.read = *forced_read;
    complete(c);
  };

  for (;;) {
    const bool draining = options.stale_read_at && !injected && started >= *options.stale_read_at;
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < clients.size(); ++i) {
      if (clients[i].phase != 0 || (!draining && started < options.operations)) live.push_back(i);
    }
    if (live.empty()) {
      if (!draining) break;
      // Everyone is idle: two sequential writes, then a read answering the
      // older one.
      const std::int64_t u1 = unique++;
      const std::int64_t u2 = unique++;
      solo(RegisterCmd::write(u1), std::nullopt);
      solo(RegisterCmd::write(u2), std::nullopt);
      solo(RegisterCmd::read(), std::optional<std::int64_t>(u1));
      injected = true;
      continue;
    }
    Client& c = clients[live[rng.below(live.size())]];
    switch (c.phase) {
      case 0: {
        const std::string key =
            options.keys > 1 ? "k" + std::to_string(rng.below(options.keys)) : std::string();
        const std::optional<std::int64_t>& reg = regs[key];
        const std::size_t pick = rng.below(10);
        c.read.reset();
        c.swapped = false;
        if (pick < 5) {
          invoke(c, RegisterCmd::read(key));
        } else if (pick < 8) {
          invoke(c, RegisterCmd::write(unique++, key));
        } else {
          const std::int64_t expected =
              rng.below(2) == 0 && reg
                  ? *reg
                  : static_cast<std::int64_t>(rng.below(static_cast<std::size_t>(unique))) + 1;
          invoke(c, RegisterCmd::cas(expected, unique++, key));
        }
        break;
      }
      case 1:
        apply(c);
        break;
      default:
        complete(c);
        break;
    }
  }
  return out;
}

/// The events as operations for check_history: instants are event indices,
/// fail completions of reads/writes are dropped (they took no effect), a
/// failed cas is kept, info completions and unfinished invokes never return.
inline std::vector<Operation<RegisterCmd, RegisterResponse>> to_operations(
    const std::vector<Event>& events) {
  std::vector<Operation<RegisterCmd, RegisterResponse>> ops;
  std::map<std::uint64_t, std::size_t> open;
  std::vector<bool> dropped;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const auto t = static_cast<std::int64_t>(i);
    if (e.type == Type::invoke) {
      open[e.process] = ops.size();
      ops.push_back({e.command, std::nullopt, t, kNever});
      dropped.push_back(false);
      continue;
    }
    const std::size_t k = open.at(e.process);
    open.erase(e.process);
    if (e.type == Type::info) continue;
    if (e.type == Type::fail && e.command.kind != RegisterCmd::Kind::cas) {
      dropped[k] = true;
      continue;
    }
    ops[k].response = RegisterResponse{e.type == Type::fail, e.result};
    ops[k].returned_at = t;
  }
  std::vector<Operation<RegisterCmd, RegisterResponse>> kept;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (!dropped[k]) kept.push_back(std::move(ops[k]));
  }
  return kept;
}

/// The events as JSON Lines (Jepsen's conventions), one per line.
inline std::string to_jsonl(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events) {
    static const char* const kTypes[] = {"invoke", "ok", "fail", "info"};
    std::string f;
    std::string value = "null";
    switch (e.command.kind) {
      case RegisterCmd::Kind::read:
        f = "read";
        if (e.type == Type::ok) value = e.result ? std::to_string(*e.result) : "null";
        break;
      case RegisterCmd::Kind::write:
        f = "write";
        value = std::to_string(e.command.value);
        break;
      case RegisterCmd::Kind::cas:
        f = "cas";
        value = "[" + std::to_string(e.command.value) + ", " + std::to_string(e.command.swap) + "]";
        break;
    }
    if (e.type == Type::info) value = "\"timed-out\"";
    const std::string key = e.command.key.empty() ? "" : ", \"key\": \"" + e.command.key + "\"";
    out += "{\"process\": " + std::to_string(e.process) + ", \"type\": \"" +
           kTypes[static_cast<int>(e.type)] + "\", \"f\": \"" + f + "\"" + key +
           ", \"value\": " + value + "}\n";
  }
  return out;
}

}  // namespace merilo::linearize::sim

#endif  // MERILO_TESTS_LINEARIZE_REGISTER_SIM_HPP
