// model_adapters.hpp — how merilo-lincheck reads a history's operations as
// each built-in model's commands and responses (linearize/models.hpp): one
// adapter per model names its operations, its first state and how one raw
// operation becomes an operation for `check_history`, checking the shape of
// its values. What a completion (ok, fail, info, never completed) means is
// decided once, by `complete` in model_adapters.cpp; each adapter only says
// what a fail leaves behind, and what an empty result means under each
// `Meaning` (history_file.hpp).
#ifndef MERILO_TOOLS_LINCHECK_MODEL_ADAPTERS_HPP
#define MERILO_TOOLS_LINCHECK_MODEL_ADAPTERS_HPP

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "history_file.hpp"
#include "lincheck.hpp"

namespace merilo::lincheck {

/// What happens to one raw operation: an error, dropped (a fail that took
/// no effect), or an operation for the checker.
template <class C, class R>
struct Converted {
  std::optional<InputError> error;               ///< A value of the wrong shape.
  std::optional<linearize::Operation<C, R>> op;  ///< The operation, unless dropped.
};

/// The types every adapter names, and a first state that is the model's
/// default (empty).
template <class S, class M, class C, class R>
struct ModelTypes {
  using Spec = S;   ///< The model's spec.
  using Model = M;  ///< Its state.
  using Cmd = C;    ///< Its calls.
  using Resp = R;   ///< Its responses.
  /// The model's default state.
  static M initial(const Args&) { return M{}; }
};

/// The register: read, write v, cas [expected, new]; --initial sets its
/// first value.
struct RegisterAdapter : ModelTypes<linearize::RegisterSpec, linearize::RegisterModel,
                                    linearize::RegisterCmd, linearize::RegisterResponse> {
  static constexpr const char* kName = "register";    ///< --model's value.
  static constexpr const char* kHolder = "register";  ///< What holds the state, in messages.
  /// The operations (`f`) it knows.
  static std::vector<std::string> fs() { return {"read", "write", "cas"}; }
  /// Whether a response of `c` carries a value worth printing.
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::read; }
  /// Null, or --initial's value (Knossos's registers start at 0).
  static Model initial(const Args& args) { return Model{args.initial}; }
  /// `raw` as a register operation (see the header overview).
  static Converted<Cmd, Resp> convert(const RawOp& raw, Meaning meaning);
};

/// Keys of strings: get, put v, append v; every operation needs a key.
struct KvAdapter
    : ModelTypes<linearize::KvSpec, linearize::KvModel, linearize::KvCmd, linearize::KvResponse> {
  static constexpr const char* kName = "kv";     ///< --model's value.
  static constexpr const char* kHolder = "key";  ///< What holds the state, in messages.
  /// The operations (`f`) it knows.
  static std::vector<std::string> fs() { return {"get", "put", "append"}; }
  /// Whether a response of `c` carries a value worth printing.
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::get; }
  /// `raw` as a kv operation (see the header overview).
  static Converted<Cmd, Resp> convert(const RawOp& raw, Meaning meaning);
};

/// A FIFO queue of integers: enqueue v, dequeue.
struct QueueAdapter : ModelTypes<linearize::QueueSpec, linearize::QueueModel, linearize::QueueCmd,
                                 linearize::QueueResponse> {
  static constexpr const char* kName = "queue";    ///< --model's value.
  static constexpr const char* kHolder = "queue";  ///< What holds the state, in messages.
  /// The operations (`f`) it knows.
  static std::vector<std::string> fs() { return {"enqueue", "dequeue"}; }
  /// Whether a response of `c` carries a value worth printing.
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::dequeue; }
  /// `raw` as a queue operation (see the header overview).
  static Converted<Cmd, Resp> convert(const RawOp& raw, Meaning meaning);
};

/// A multiset of integers: add v, remove (any element).
struct BagAdapter : ModelTypes<linearize::BagSpec, linearize::BagModel, linearize::BagCmd,
                               linearize::BagResponse> {
  static constexpr const char* kName = "bag";    ///< --model's value.
  static constexpr const char* kHolder = "bag";  ///< What holds the state, in messages.
  /// The operations (`f`) it knows.
  static std::vector<std::string> fs() { return {"add", "remove"}; }
  /// Whether a response of `c` carries a value worth printing.
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::remove; }
  /// `raw` as a bag operation (see the header overview).
  static Converted<Cmd, Resp> convert(const RawOp& raw, Meaning meaning);
};

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_MODEL_ADAPTERS_HPP
