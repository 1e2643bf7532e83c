// bill.hpp — a bill of materials as a plain value: up to `kMaxParts`
// parts, each with a value of its own and up to `kMaxLines` lines, each
// line a quantity of another part.
//
// Parts are numbered in the order they are added; names belong to the
// holder (rollup.hpp). Every field is a 64-bit word, so a bill is a value
// `==` compares and whose bytes are its value, and the machine that holds
// one (walk.hpp) stays one too.
//
//   bom::Bill b;
//   const auto wheel = b.add_part(5).part;   // part 0, value 5
//   const auto bike = b.add_part(40).part;   // part 1, value 40
//   (void)b.add_line(bike, wheel, 2);        // a bike has 2 wheels
//
// NOTE: a bill may hold a cycle (a part on a path to itself): building one
// is allowed, and the roll-up refuses it.
#ifndef MERILO_EXAMPLES_BOM_BILL_HPP
#define MERILO_EXAMPLES_BOM_BILL_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bom {

/// The most parts a bill holds.
inline constexpr std::size_t kMaxParts = 8;
/// The most lines one part holds.
inline constexpr std::size_t kMaxLines = 4;

/// Why a bill refused to change.
enum class BillError : std::uint8_t {
  none,            ///< It changed.
  too_many_parts,  ///< Already `kMaxParts` parts.
  no_such_part,    ///< A part number not below `parts()`.
  too_many_lines,  ///< The parent already has `kMaxLines` lines.
  zero_quantity,   ///< A line of quantity 0.
};

/// "none", "too many parts", ...
[[nodiscard]] constexpr std::string_view name(BillError e) noexcept {
  switch (e) {
    case BillError::none:
      return "none";
    case BillError::too_many_parts:
      return "too many parts";
    case BillError::no_such_part:
      return "no such part";
    case BillError::too_many_lines:
      return "too many lines";
    case BillError::zero_quantity:
      return "zero quantity";
  }
  return "?";
}

/// One line of a part: `quantity` of part `child`.
struct Line {
  std::uint64_t child = 0;
  std::uint64_t quantity = 0;
  /// Same child and quantity.
  friend constexpr bool operator==(const Line&, const Line&) noexcept = default;
};

/// One part: its own value and its lines.
struct Part {
  std::uint64_t value = 0;
  std::uint64_t line_count = 0;
  std::array<Line, kMaxLines> lines{};
  /// Same value and lines.
  friend constexpr bool operator==(const Part&, const Part&) noexcept = default;
};

/// What `Bill::add_part` returns: the new part's number, or why not.
struct [[nodiscard]] Added {
  std::size_t part;
  BillError error;
};

/// A bill of materials. A value type; only `add_part` and `add_line` change
/// it.
class Bill {
 public:
  /// Adds a part of value `value`; its number is the count of parts before.
  [[nodiscard]] constexpr Added add_part(std::uint64_t value) noexcept {
    if (count_ >= kMaxParts) return {0, BillError::too_many_parts};
    const auto i = static_cast<std::size_t>(count_);
    parts_[i] = Part{value, 0, {}};
    ++count_;
    return {i, BillError::none};
  }

  /// Adds the line "`quantity` of `child`" to `parent`.
  [[nodiscard]] constexpr BillError add_line(std::size_t parent, std::size_t child,
                                             std::uint64_t quantity) noexcept {
    if (parent >= count_ || child >= count_) return BillError::no_such_part;
    if (quantity == 0) return BillError::zero_quantity;
    Part& p = parts_[parent];
    if (p.line_count >= kMaxLines) return BillError::too_many_lines;
    p.lines[static_cast<std::size_t>(p.line_count)] = Line{child, quantity};
    ++p.line_count;
    return BillError::none;
  }

  /// How many parts there are.
  [[nodiscard]] constexpr std::size_t parts() const noexcept {
    return static_cast<std::size_t>(count_);
  }
  /// Part `i` (`i < parts()`).
  [[nodiscard]] constexpr const Part& part(std::size_t i) const noexcept { return parts_[i]; }

  /// Same parts and lines, in the same order.
  friend constexpr bool operator==(const Bill&, const Bill&) noexcept = default;

 private:
  std::uint64_t count_ = 0;
  std::array<Part, kMaxParts> parts_{};
};

}  // namespace bom

#endif  // MERILO_EXAMPLES_BOM_BILL_HPP
