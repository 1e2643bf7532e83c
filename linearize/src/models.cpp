// models.cpp — the built-in register, kv, queue and bag specs, and their text.
#include <merilo/linearize/models.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <merilo/core/text.hpp>

namespace merilo::linearize {

namespace {
std::string show(const std::optional<std::int64_t>& v) {
  return v ? fmt::format("{}", *v) : std::string("null");
}
// A kv value as text: quoted with its control characters escaped (it may
// hold anything a client wrote), and past 40 bytes cut on a character
// boundary.
std::string quoted(const std::string& s) {
  constexpr std::size_t kMax = 40;
  if (s.size() <= kMax) return core::quoted(s);
  std::string cut = core::quoted(core::utf8_prefix(s, kMax));
  cut.insert(cut.size() - 1, "…");
  return fmt::format("{} ({} bytes)", cut, s.size());
}
// "[1, 2, 3]", or the first 8 and how many more.
template <class Items>
std::string list(const Items& items) {
  constexpr std::size_t kMax = 8;
  if (items.size() <= kMax) return fmt::format("[{}]", fmt::join(items, ", "));
  return fmt::format(
      "[{}, … {} more]",
      fmt::join(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kMax), ", "),
      items.size() - kMax);
}
}  // namespace

// --- register ----------------------------------------------------------------

std::optional<std::string> RegisterSpec::postcondition(const RegisterModel& m, const RegisterCmd& c,
                                                       const RegisterResponse& r) const {
  switch (c.kind) {
    case RegisterCmd::Kind::read:
      if (r.failed || r.value == m.value) return std::nullopt;
      return fmt::format("read {}, but the register held {}", show(r.value), show(m.value));
    case RegisterCmd::Kind::write:
      return std::nullopt;
    case RegisterCmd::Kind::cas: {
      const bool holds = m.value == c.value;
      if (!r.failed && !holds) {
        return fmt::format("cas [{}, {}] swapped, but the register held {}", c.value, c.swap,
                           show(m.value));
      }
      if (r.failed && holds) {
        return fmt::format("cas [{}, {}] failed, but the register held {}", c.value, c.swap,
                           c.value);
      }
      return std::nullopt;
    }
  }
  return "unknown register command";
}

RegisterModel RegisterSpec::next_model(const RegisterModel& m, const RegisterCmd& c) const {
  switch (c.kind) {
    case RegisterCmd::Kind::read:
      return m;
    case RegisterCmd::Kind::write:
      return RegisterModel{c.value};
    case RegisterCmd::Kind::cas:
      return m.value == c.value ? RegisterModel{c.swap} : m;
  }
  return m;
}

// --- kv ----------------------------------------------------------------------

std::optional<std::string> KvSpec::postcondition(const KvModel& m, const KvCmd& c,
                                                 const KvResponse& r) const {
  if (c.kind != KvCmd::Kind::get || r.failed || r.value == m.value) return std::nullopt;
  return fmt::format("get read {}, but the key held {}", quoted(r.value), quoted(m.value));
}

KvModel KvSpec::next_model(const KvModel& m, const KvCmd& c) const {
  switch (c.kind) {
    case KvCmd::Kind::get:
      return m;
    case KvCmd::Kind::put:
      return KvModel{c.value};
    case KvCmd::Kind::append:
      return KvModel{m.value + c.value};
  }
  return m;
}

std::optional<std::string> KvSpec::undo_record(const KvModel& before, const KvCmd& c) const {
  if (c.kind != KvCmd::Kind::put) return std::nullopt;
  return before.value;
}

void KvSpec::undo(KvModel& after, const KvCmd& c, std::optional<std::string> replaced) const {
  switch (c.kind) {
    case KvCmd::Kind::get:
      return;
    case KvCmd::Kind::put:
      after.value = replaced ? std::move(*replaced) : std::string();
      return;
    case KvCmd::Kind::append:
      after.value.resize(after.value.size() - c.value.size());
      return;
  }
}

// --- queue -------------------------------------------------------------------

std::optional<std::string> QueueSpec::postcondition(const QueueModel& m, const QueueCmd& c,
                                                    const QueueResponse& r) const {
  if (c.kind != QueueCmd::Kind::dequeue || r.failed) return std::nullopt;
  const std::optional<std::int64_t> front =
      m.items.empty() ? std::nullopt : std::optional<std::int64_t>(m.items.front());
  if (r.value == front) return std::nullopt;
  if (!front) return fmt::format("dequeued {}, but the queue was empty", show(r.value));
  if (!r.value) return fmt::format("found the queue empty, but it held {}", merilo_describe(m));
  return fmt::format("dequeued {}, but the front was {}", show(r.value), *front);
}

QueueModel QueueSpec::next_model(const QueueModel& m, const QueueCmd& c) const {
  QueueModel next = m;
  if (c.kind == QueueCmd::Kind::enqueue) {
    next.items.push_back(c.value);
  } else if (!next.items.empty()) {
    next.items.pop_front();
  }
  return next;
}

// --- bag ---------------------------------------------------------------------

std::optional<std::string> BagSpec::postcondition(const BagModel& m, const BagCmd& c,
                                                  const BagResponse& r) const {
  if (c.kind != BagCmd::Kind::remove) return std::nullopt;
  if (!r.value) {
    if (m.items.empty()) return std::nullopt;
    return fmt::format("found the bag empty, but it held {}", merilo_describe(m));
  }
  if (std::binary_search(m.items.begin(), m.items.end(), *r.value)) return std::nullopt;
  return fmt::format("removed {}, but the bag held {}", *r.value, merilo_describe(m));
}

BagModel BagSpec::next_model(const BagModel& m, const BagCmd& c, const BagResponse& r) const {
  BagModel next = m;
  if (c.kind == BagCmd::Kind::add) {
    next.items.insert(std::upper_bound(next.items.begin(), next.items.end(), c.value), c.value);
  } else if (r.value) {
    auto it = std::lower_bound(next.items.begin(), next.items.end(), *r.value);
    if (it != next.items.end() && *it == *r.value) next.items.erase(it);
  }
  return next;
}

std::optional<std::int64_t> QueueSpec::undo_record(const QueueModel& before,
                                                   const QueueCmd& c) const {
  if (c.kind != QueueCmd::Kind::dequeue || before.items.empty()) return std::nullopt;
  return before.items.front();
}

void QueueSpec::undo(QueueModel& after, const QueueCmd& c,
                     std::optional<std::int64_t> removed) const {
  if (c.kind == QueueCmd::Kind::enqueue) {
    after.items.pop_back();
  } else if (removed) {
    after.items.push_front(*removed);
  }
}

// --- text ----------------------------------------------------------------------

std::string merilo_describe(const RegisterCmd& c) {
  switch (c.kind) {
    case RegisterCmd::Kind::read:
      return "read";
    case RegisterCmd::Kind::write:
      return fmt::format("write {}", c.value);
    case RegisterCmd::Kind::cas:
      return fmt::format("cas [{}, {}]", c.value, c.swap);
  }
  return "?";
}
std::string merilo_describe(const KvCmd& c) {
  switch (c.kind) {
    case KvCmd::Kind::get:
      return "get";
    case KvCmd::Kind::put:
      return fmt::format("put {}", quoted(c.value));
    case KvCmd::Kind::append:
      return fmt::format("append {}", quoted(c.value));
  }
  return "?";
}
std::string merilo_describe(const QueueCmd& c) {
  return c.kind == QueueCmd::Kind::enqueue ? fmt::format("enqueue {}", c.value)
                                           : std::string("dequeue");
}
std::string merilo_describe(const BagCmd& c) {
  return c.kind == BagCmd::Kind::add ? fmt::format("add {}", c.value) : std::string("remove");
}
std::string merilo_describe(const BagResponse& r) { return show(r.value); }
std::string merilo_describe(const BagModel& m) { return list(m.items); }
std::string merilo_describe(const RegisterResponse& r) { return r.failed ? "fail" : show(r.value); }
std::string merilo_describe(const KvResponse& r) { return r.failed ? "fail" : quoted(r.value); }
std::string merilo_describe(const QueueResponse& r) { return r.failed ? "fail" : show(r.value); }
std::string merilo_describe(const RegisterModel& m) { return show(m.value); }
std::string merilo_describe(const KvModel& m) { return quoted(m.value); }
std::string merilo_describe(const QueueModel& m) { return list(m.items); }

}  // namespace merilo::linearize
