// Tests of merilo/core/describe.hpp: every rule of the overview, in order.
#include <merilo/core/describe.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace core = merilo::core;

namespace shop {
struct Item {
  int sku = 0;
};
inline std::string merilo_describe(const Item& i) { return "sku " + std::to_string(i.sku); }

enum class Colour : std::uint8_t { red, green };
inline std::string_view name(Colour c) { return c == Colour::red ? "red" : "green"; }

enum class Size : std::uint8_t { small = 1, large = 7 };

struct Point {
  int x = 0;
  int y = 0;
};
inline std::ostream& operator<<(std::ostream& os, const Point& p) {
  return os << '<' << p.x << ',' << p.y << '>';
}

// Both a customization and an operator<<: the customization wins.
struct Both {};
inline std::string merilo_describe(const Both&) { return "custom"; }
inline std::ostream& operator<<(std::ostream& os, const Both&) { return os << "stream"; }

struct Opaque {};
}  // namespace shop

TEST(Describe, UsesTheAdlCustomizationFirst) {
  EXPECT_EQ(core::describe(shop::Item{12}), "sku 12");
  EXPECT_EQ(core::describe(shop::Both{}), "custom");
}

TEST(Describe, PrintsEnumsByNameElseByNumber) {
  EXPECT_EQ(core::describe(shop::Colour::green), "green");
  EXPECT_EQ(core::describe(shop::Size::large), "7");
}

TEST(Describe, PrintsScalarsAndQuotesStrings) {
  EXPECT_EQ(core::describe(true), "true");
  EXPECT_EQ(core::describe(-3), "-3");
  EXPECT_EQ(core::describe(std::uint8_t{200}), "200");
  EXPECT_EQ(core::describe(0.5), "0.5");
  EXPECT_EQ(core::describe('a'), "\"a\"");
  EXPECT_EQ(core::describe(std::string("a\"b\n")), "\"a\\\"b\\n\"");
  EXPECT_EQ(core::describe("lit"), "\"lit\"");
}

TEST(Describe, PrintsContainersElementByElement) {
  EXPECT_EQ(core::describe(std::vector<shop::Item>{{1}, {2}}), "[sku 1, sku 2]");
  EXPECT_EQ(core::describe(std::array<int, 0>{}), "[]");
  EXPECT_EQ(core::describe(std::optional<int>{}), "nullopt");
  EXPECT_EQ(core::describe(std::optional<int>{4}), "4");
  EXPECT_EQ(core::describe(std::pair{1, std::string("x")}), "(1, \"x\")");
  EXPECT_EQ(core::describe(std::tuple{shop::Colour::red}), "(red)");
  EXPECT_EQ(core::describe(std::map<int, int>{{1, 2}}), "[(1, 2)]");
}

TEST(Describe, FallsBackToOperatorStream) { EXPECT_EQ(core::describe(shop::Point{1, 2}), "<1,2>"); }

TEST(Describe, RefusesATypeItCannotPrintAtCompileTime) {
  static_assert(!core::Describable<shop::Opaque>);
  static_assert(core::Describable<std::vector<shop::Point>>);
}
