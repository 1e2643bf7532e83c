// model_adapters.cpp — each built-in model's reading of a raw operation,
// and the one place a completion's meaning is decided (`complete`).
#include "model_adapters.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace merilo::lincheck {

namespace {

using nlohmann::json;
namespace lin = merilo::linearize;

std::optional<std::int64_t> as_int(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return std::nullopt;
}

// A value of the wrong shape in the invoke of `op`.
InputError shape(const RawOp& op, std::string what, const json& got) {
  return InputError{op.invoke_line, fmt::format("{} needs {}, got {}", op.f, what, shown(got)),
                    op.invoke_column};
}

// A value of the wrong shape in the completion of `op`.
InputError bad_result(const RawOp& op, std::string what) {
  return InputError{op.complete_line, std::move(what), op.complete_column};
}

template <class C, class R>
lin::Operation<C, R> make(const RawOp& raw, C cmd, std::optional<R> response) {
  lin::Operation<C, R> op{std::move(cmd), std::move(response), raw.invoked_at, lin::kNever};
  if (op.response) op.returned_at = raw.returned_at;
  op.process = static_cast<lin::Caller>(raw.process);
  return op;
}

// What `raw`'s completion makes of `cmd`, for every model: ok returns `ok`;
// fail returns `failed` when the model learns something from it (a cas that
// did not swap) and is dropped otherwise (it took no effect); info and never
// completed may have taken effect at any time after the invoke, or never,
// so the checker gets no response.
template <class C, class R>
Converted<C, R> complete(const RawOp& raw, C cmd, R ok, std::optional<R> failed = std::nullopt) {
  Converted<C, R> out;
  switch (raw.completion) {
    case Completion::ok:
      out.op = make<C, R>(raw, std::move(cmd), std::move(ok));
      break;
    case Completion::fail:
      if (failed) out.op = make<C, R>(raw, std::move(cmd), std::move(failed));
      break;
    case Completion::info:
    case Completion::missing:
      out.op = make<C, R>(raw, std::move(cmd), std::nullopt);
      break;
  }
  return out;
}

// `error` is moved into the result; clang-tidy 14 reads the assignment to a
// dependent type as a use by const reference.
template <class C, class R>
Converted<C, R> refused(InputError error) {  // NOLINT(performance-unnecessary-value-param)
  Converted<C, R> out;
  out.error = std::move(error);
  return out;
}

/// An operation of a container of integers (queue, bag): one f puts an
/// integer in, the other takes one out and returns it (null: it was empty).
struct PutTake {
  bool put = false;
  std::int64_t value = 0;             ///< put: the integer.
  std::optional<std::int64_t> taken;  ///< take, completed ok: what came out.
};

/// Reads `raw` as a put (its f is `put_f`) or a take from `container`; an
/// error names the value of the wrong shape. Under Jepsen's meaning a take
/// that ended ok returned what it took: Jepsen's clients end a take from an
/// empty container :fail, and Knossos's queue models cannot take nil, so an
/// ok nil is refused rather than read one way or the other.
std::optional<InputError> read_put_take(const RawOp& raw, Meaning meaning, const char* put_f,
                                        const char* container, PutTake& out) {
  out.put = raw.f == put_f;
  if (out.put) {
    const auto v = as_int(raw.argument);
    if (!v) return shape(raw, "an integer value", raw.argument);
    out.value = *v;
  } else if (raw.completion == Completion::ok && raw.result.is_null() &&
             meaning == Meaning::jepsen) {
    return bad_result(raw,
                      fmt::format("a {} that ended ok returned nil: with Jepsen's meaning (EDN's "
                                  "default) an ok {} returns what it took, and one that found "
                                  "the {} empty ends :fail; give --meaning merilo to read an ok "
                                  "nil as \"the {} was empty\"",
                                  raw.f, raw.f, container, container));
  } else if (raw.completion == Completion::ok && !raw.result.is_null()) {
    out.taken = as_int(raw.result);
    if (!out.taken) {
      return bad_result(raw, fmt::format("a {}'s ok value must be an integer, or null for an "
                                         "empty {}, got {}",
                                         raw.f, container, shown(raw.result)));
    }
  }
  return std::nullopt;
}

}  // namespace

Converted<RegisterAdapter::Cmd, RegisterAdapter::Resp> RegisterAdapter::convert(const RawOp& raw,
                                                                                Meaning meaning) {
  const bool jepsen = meaning == Meaning::jepsen;
  // Jepsen: a read whose ok value is nil is an unknown read (Knossos's
  // cas-register accepts it in every state, and a read changes nothing), so
  // it is left out, as a failed one is.
  if (jepsen && raw.f == "read" && raw.completion == Completion::ok && raw.result.is_null()) {
    return {};
  }
  Cmd cmd;
  cmd.key = raw.key.value_or("");
  if (raw.f == "read") {
    cmd.kind = Cmd::Kind::read;
  } else if (raw.f == "write") {
    const auto v = as_int(raw.argument);
    if (!v) return refused<Cmd, Resp>(shape(raw, "an integer value", raw.argument));
    cmd.kind = Cmd::Kind::write;
    cmd.value = *v;
  } else {
    const json& a = raw.argument;
    if (!a.is_array() || a.size() != 2 || !as_int(a[0]) || !as_int(a[1])) {
      return refused<Cmd, Resp>(shape(raw, "[expected, new] (two integers)", a));
    }
    cmd.kind = Cmd::Kind::cas;
    cmd.value = *as_int(a[0]);
    cmd.swap = *as_int(a[1]);
  }
  Resp ok;
  if (raw.completion == Completion::ok && cmd.kind == Cmd::Kind::read && !raw.result.is_null()) {
    ok.value = as_int(raw.result);
    if (!ok.value) {
      return refused<Cmd, Resp>(bad_result(
          raw,
          fmt::format("a read's ok value must be an integer or null, got {}", shown(raw.result))));
    }
  }
  // merilo: a failed cas means the register did not hold `expected`; any
  // other fail took no effect and says nothing. Jepsen: no fail took effect,
  // so none says anything (a failed cas is left out, invoke and completion).
  const bool cas = cmd.kind == Cmd::Kind::cas && !jepsen;
  return complete<Cmd, Resp>(raw, std::move(cmd), ok,
                             cas ? std::optional<Resp>(Resp::fail()) : std::nullopt);
}

Converted<KvAdapter::Cmd, KvAdapter::Resp> KvAdapter::convert(const RawOp& raw, Meaning meaning) {
  if (!raw.key) {
    return refused<Cmd, Resp>(InputError{
        raw.invoke_line, "kv operations need a \"key\" (or --independent [key value] tuples)",
        raw.invoke_column});
  }
  // Jepsen: a get whose ok value is nil is an unknown read, as a register's
  // (merilo reads it as "", the value of a key never written).
  if (meaning == Meaning::jepsen && raw.f == "get" && raw.completion == Completion::ok &&
      raw.result.is_null()) {
    return {};
  }
  Cmd cmd;
  cmd.key = *raw.key;
  if (raw.f == "get") {
    cmd.kind = Cmd::Kind::get;
  } else {
    if (!raw.argument.is_string()) {
      return refused<Cmd, Resp>(shape(raw, "a string value", raw.argument));
    }
    cmd.kind = raw.f == "put" ? Cmd::Kind::put : Cmd::Kind::append;
    cmd.value = raw.argument.get<std::string>();
  }
  Resp ok;
  if (raw.completion == Completion::ok && cmd.kind == Cmd::Kind::get) {
    if (raw.result.is_string()) {
      ok.value = raw.result.get<std::string>();
    } else if (!raw.result.is_null()) {  // null: never written, reads ""
      return refused<Cmd, Resp>(
          bad_result(raw, fmt::format("a get's ok value must be a string (or null for a key never "
                                      "written), got {}",
                                      shown(raw.result))));
    }
  }
  return complete<Cmd, Resp>(raw, std::move(cmd), ok);
}

Converted<QueueAdapter::Cmd, QueueAdapter::Resp> QueueAdapter::convert(const RawOp& raw,
                                                                       Meaning meaning) {
  PutTake read;
  if (auto error = read_put_take(raw, meaning, "enqueue", "queue", read)) {
    return refused<Cmd, Resp>(std::move(*error));
  }
  Cmd cmd{read.put ? Cmd::Kind::enqueue : Cmd::Kind::dequeue, read.value, raw.key.value_or("")};
  return complete<Cmd, Resp>(raw, std::move(cmd), Resp{false, read.taken});
}

Converted<BagAdapter::Cmd, BagAdapter::Resp> BagAdapter::convert(const RawOp& raw,
                                                                 Meaning meaning) {
  PutTake read;
  if (auto error = read_put_take(raw, meaning, "add", "bag", read)) {
    return refused<Cmd, Resp>(std::move(*error));
  }
  Cmd cmd{read.put ? Cmd::Kind::add : Cmd::Kind::remove, read.value, raw.key.value_or("")};
  const bool unknown = raw.completion == Completion::info || raw.completion == Completion::missing;
  if (unknown && read.put) {
    // Took effect at some moment after its invoke, or never; never is the
    // same, to every later remove, as taking effect after them all. So it
    // is an add that returns at the end of time.
    Converted<Cmd, Resp> out;
    out.op = make<Cmd, Resp>(raw, std::move(cmd), Resp{});
    out.op->returned_at = lin::kNever;
    return out;
  }
  if (unknown) {
    return refused<Cmd, Resp>(InputError{
        raw.invoke_line,
        fmt::format("the remove invoked here {}: the bag model cannot tell which element it "
                    "took, if any (only completed removes can be checked)",
                    raw.completion == Completion::info ? "ended with info" : "never completed"),
        raw.invoke_column});
  }
  return complete<Cmd, Resp>(raw, std::move(cmd), Resp{read.taken});
}

}  // namespace merilo::lincheck
