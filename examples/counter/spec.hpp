// spec.hpp — the counter's parallel spec: increments and reads from two or
// three threads, judged against a plain integer model.
#ifndef MERILO_EXAMPLES_COUNTER_SPEC_HPP
#define MERILO_EXAMPLES_COUNTER_SPEC_HPP

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <counter/counter.hpp>
#include <merilo/parallel/spec.hpp>

namespace counter {

/// The model: the value a correct counter holds.
struct Model {
  std::int64_t value = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

/// What a caller does.
enum class Op : std::uint8_t { increment, get };

[[nodiscard]] constexpr std::string_view name(Op op) noexcept {
  return op == Op::increment ? "increment" : "get";
}

/// Increments and reads racing on one `Counter<bug>`.
template <Bug bug = Bug::none>
struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Counter<bug>>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    return merilo::statem::element_of<Op>({Op::increment, Op::get});
  }
  merilo::statem::Admission precondition(const Model&, Op) const {
    return merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, Op op) const {
    return op == Op::increment ? Model{m.value + 1} : m;
  }
  sut_type new_sut() const { return std::make_unique<Counter<bug>>(); }
  std::int64_t run(sut_type& c, Op op) const {
    return op == Op::increment ? c->increment() : c->get();
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, Op op, std::int64_t got) const {
    const std::int64_t want = op == Op::increment ? m.value + 1 : m.value;
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{"counter.value", std::string(name(op)) + " returned " +
                                                          std::to_string(got) + ", expected " +
                                                          std::to_string(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

}  // namespace counter

#endif  // MERILO_EXAMPLES_COUNTER_SPEC_HPP
