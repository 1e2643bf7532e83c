// probe.hpp — a small, correct concurrent system whose spec lets a test
// reach into every callback: block or throw in `run`, throw in
// `postcondition`, fail `finish`, count systems built, torn down and
// destroyed.
#ifndef MERILO_TESTS_PARALLEL_PROBE_HPP
#define MERILO_TESTS_PARALLEL_PROBE_HPP

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <merilo/parallel/parallel.hpp>

namespace probe {

namespace st = merilo::statem;

/// Tokens held: `add` puts one in, `take` removes one (refused at zero),
/// `read` returns the count.
struct Model {
  std::int64_t tokens = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

enum class Op : std::uint8_t { add, take, read };

[[nodiscard]] constexpr std::string_view name(Op op) noexcept {
  switch (op) {
    case Op::add:
      return "add";
    case Op::take:
      return "take";
    case Op::read:
      return "read";
  }
  return "?";
}

/// What a test observes and injects. Shared by every copy of the spec.
struct Hooks {
  std::function<void(Op)> in_run;            ///< Called inside run, on the racing thread.
  std::function<void(Op)> in_postcondition;  ///< Called inside postcondition.
  std::function<merilo::parallel::MaybeViolation()> in_finish;  ///< finish's answer.
  std::function<std::int64_t(Op, std::int64_t)> alter;          ///< Rewrites run's response.
  bool take_needs_token = true;                                 ///< The precondition of take.
  bool only_adds = false;                                       ///< command() draws only add.
  bool single_add = false;        ///< Admit only add, and only with no token: no two commands race.
  std::atomic<int> built{0};      ///< new_sut calls.
  std::atomic<int> torn_down{0};  ///< teardown calls.
  std::atomic<int> destroyed{0};  ///< systems destroyed.
  std::atomic<int> runs{0};       ///< run calls.
};

/// The system: a token count under a mutex (correct).
class Pool {
 public:
  explicit Pool(std::shared_ptr<Hooks> hooks) : hooks_(std::move(hooks)) {}
  ~Pool() { hooks_->destroyed.fetch_add(1); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  std::int64_t apply(Op op) {
    std::lock_guard lock(mu_);
    switch (op) {
      case Op::add:
        return ++tokens_;
      case Op::take:
        if (tokens_ == 0) return -1;
        return --tokens_;
      case Op::read:
        return tokens_;
    }
    return -2;
  }

 private:
  std::shared_ptr<Hooks> hooks_;
  std::mutex mu_;
  std::int64_t tokens_ = 0;
};

struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Pool>;

  std::shared_ptr<Hooks> hooks = std::make_shared<Hooks>();

  Model initial() const { return {}; }
  st::Gen<Op> command(const Model&) const {
    if (hooks->only_adds) return st::just(Op::add);
    return st::element_of<Op>({Op::add, Op::take, Op::read});
  }
  st::Admission precondition(const Model& m, Op op) const {
    if (hooks->single_add) {
      return op == Op::add && m.tokens == 0 ? st::Admission::admit : st::Admission::reject;
    }
    if (op == Op::take && hooks->take_needs_token && m.tokens == 0) return st::Admission::reject;
    return st::Admission::admit;
  }
  Model next_model(const Model& m, Op op) const {
    switch (op) {
      case Op::add:
        return {m.tokens + 1};
      case Op::take:
        return {m.tokens == 0 ? 0 : m.tokens - 1};
      case Op::read:
        return m;
    }
    return m;
  }
  sut_type new_sut() const {
    hooks->built.fetch_add(1);
    return std::make_unique<Pool>(hooks);
  }
  std::int64_t run(sut_type& pool, Op op) const {
    hooks->runs.fetch_add(1);
    if (hooks->in_run) hooks->in_run(op);
    const std::int64_t got = pool->apply(op);
    return hooks->alter ? hooks->alter(op, got) : got;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, Op op, std::int64_t got) const {
    if (hooks->in_postcondition) hooks->in_postcondition(op);
    std::int64_t want = 0;
    switch (op) {
      case Op::add:
        want = m.tokens + 1;
        break;
      case Op::take:
        want = m.tokens == 0 ? -1 : m.tokens - 1;
        break;
      case Op::read:
        want = m.tokens;
        break;
    }
    if (got == want) return std::nullopt;
    return st::Violation{"probe.value", std::string(name(op)) + " returned " + std::to_string(got) +
                                            ", expected " + std::to_string(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const {
    return hooks->in_finish ? hooks->in_finish() : std::nullopt;
  }
  void teardown(sut_type&) const { hooks->torn_down.fetch_add(1); }
};

/// `config` with the first seed whose run 0 draws a prefix holding a
/// `read` (found with generate_case, so a test does not hang on one
/// seed's draw).
inline merilo::parallel::CheckOptions with_read_in_prefix(merilo::parallel::CheckOptions config) {
  Spec spec;
  for (std::uint64_t seed = 1;; ++seed) {
    config.seed = seed;
    for (Op op : merilo::parallel::generate_case(spec, config, 0).drawn.prefix) {
      if (op == Op::read) return config;
    }
  }
}

}  // namespace probe

#endif  // MERILO_TESTS_PARALLEL_PROBE_HPP
