// spec.hpp — the set's parallel spec: inserts, membership tests and size
// reads of the values 1 to 3 from two or three threads, judged against a
// bit set of members.
#ifndef MERILO_EXAMPLES_SET_SPEC_HPP
#define MERILO_EXAMPLES_SET_SPEC_HPP

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <merilo/parallel/spec.hpp>
#include <set/set.hpp>

namespace set {

/// Values are drawn from 1 to kMaxValue.
inline constexpr std::int32_t kMaxValue = 3;

/// The model: bit v is set when v is a member.
struct Model {
  std::uint8_t members = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

/// What a caller does.
enum class Kind : std::uint8_t { insert, contains, size };

/// A call: its kind and, for insert and contains, the value.
struct Op {
  Kind kind = Kind::size;
  std::int32_t value = 0;  ///< 0 for size.
  friend bool operator==(const Op&, const Op&) = default;
};

/// "insert 2", "contains 1", "size".
inline std::string merilo_describe(const Op& op) {
  switch (op.kind) {
    case Kind::insert:
      return "insert " + std::to_string(op.value);
    case Kind::contains:
      return "contains " + std::to_string(op.value);
    case Kind::size:
      return "size";
  }
  return "?";
}

/// Insert and contains answer 1 or 0; size answers the count.
template <Bug bug = Bug::none>
struct Spec {
  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Set<bug>>;

  Model initial() const { return {}; }
  merilo::statem::Gen<Op> command(const Model&) const {
    namespace st = merilo::statem;
    return st::map(
        st::construct<Op>(st::element_of<Kind>({Kind::insert, Kind::contains, Kind::size}),
                          st::integer<std::int32_t>(1, kMaxValue)),
        [](Op op) {
          if (op.kind == Kind::size) op.value = 0;  // equal sizes compare equal
          return op;
        });
  }
  merilo::statem::Admission precondition(const Model&, const Op&) const {
    return merilo::statem::Admission::admit;
  }
  Model next_model(const Model& m, const Op& op) const {
    return op.kind == Kind::insert ? Model{static_cast<std::uint8_t>(m.members | bit(op.value))}
                                   : m;
  }
  sut_type new_sut() const { return std::make_unique<Set<bug>>(); }
  std::int64_t run(sut_type& s, const Op& op) const {
    switch (op.kind) {
      case Kind::insert:
        return s->insert(op.value) ? 1 : 0;
      case Kind::contains:
        return s->contains(op.value) ? 1 : 0;
      case Kind::size:
        return static_cast<std::int64_t>(s->size());
    }
    return -1;
  }
  merilo::parallel::MaybeViolation postcondition(const Model& m, const Op& op,
                                                 std::int64_t got) const {
    const bool member = (m.members & bit(op.value)) != 0;
    std::int64_t want = std::popcount(m.members);
    if (op.kind == Kind::insert) want = member ? 0 : 1;
    if (op.kind == Kind::contains) want = member ? 1 : 0;
    if (got == want) return std::nullopt;
    return merilo::statem::Violation{"set.response", merilo_describe(op) + " answered " +
                                                         std::to_string(got) + ", expected " +
                                                         std::to_string(want)};
  }
  merilo::parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}

 private:
  static std::uint8_t bit(std::int32_t value) {
    return value <= 0 ? std::uint8_t{0} : static_cast<std::uint8_t>(1U << value);
  }
};

}  // namespace set

#endif  // MERILO_EXAMPLES_SET_SPEC_HPP
