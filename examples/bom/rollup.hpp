// rollup.hpp — the holder of a `bom::Walk`: it names the parts, starts the
// walk and loops until the call returns, turning a refusal into an error
// that names the parts involved. It does no arithmetic of its own.
//
//   bom::Catalog c;
//   (void)c.add_part("wheel", 5);
//   (void)c.add_part("bike", 40);
//   (void)c.add_line("bike", "wheel", 2);
//   const bom::Rollup r = bom::rollup(c, "bike", 1000);
//   // r.error == "", r.total == 50, r.need == {{"wheel", 2}, {"bike", 1}}
#ifndef MERILO_EXAMPLES_BOM_ROLLUP_HPP
#define MERILO_EXAMPLES_BOM_ROLLUP_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <bom/bill.hpp>
#include <bom/walk.hpp>

namespace bom {

/// A bill whose parts have names.
class Catalog {
 public:
  /// Adds part `name` of value `value`; "" or what is wrong.
  [[nodiscard]] std::string add_part(std::string name, std::uint64_t value) {
    if (name.empty()) return "a part needs a name";
    if (find(name)) return "part '" + name + "' already exists";
    const Added a = bill_.add_part(value);
    if (a.error != BillError::none) {
      return "cannot add part '" + name + "': " + std::string(bom::name(a.error)) + " (at most " +
             std::to_string(kMaxParts) + ")";
    }
    names_.push_back(std::move(name));
    return "";
  }

  /// Adds the line "`quantity` of `child`" to `parent`; "" or what is wrong.
  [[nodiscard]] std::string add_line(std::string_view parent, std::string_view child,
                                     std::uint64_t quantity) {
    const auto p = find(parent);
    const auto c = find(child);
    if (!p) return "no part named '" + std::string(parent) + "'";
    if (!c) return "no part named '" + std::string(child) + "'";
    const BillError e = bill_.add_line(*p, *c, quantity);
    if (e == BillError::none) return "";
    return "cannot add " + std::to_string(quantity) + " of '" + std::string(child) + "' to '" +
           std::string(parent) + "': " + std::string(bom::name(e));
  }

  /// The part named `name`, if there is one.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return i;
    }
    return std::nullopt;
  }
  /// The name of part `i`.
  [[nodiscard]] const std::string& name(std::size_t i) const { return names_[i]; }
  /// The bill, parts numbered in the order they were added.
  [[nodiscard]] const Bill& bill() const { return bill_; }

 private:
  Bill bill_;
  std::vector<std::string> names_;
};

/// What `rollup` returns.
struct Rollup {
  std::uint64_t total = 0;  ///< The root's subtotal.
  /// How many of each part the root needs, for every part it needs (the
  /// root included, once), in the order the parts were added.
  std::vector<std::pair<std::string, std::uint64_t>> need;
  std::uint64_t calls = 0;  ///< Steps the walk took.
  std::string error;        ///< Why there is no roll-up ("" when there is one).
};

namespace detail {

inline std::string path_text(const Catalog& c, const Walk& w) {
  std::string s;
  for (std::size_t i = 0; i < w.depth(); ++i) {
    if (i > 0) s += " -> ";
    s += c.name(static_cast<std::size_t>(w.frame(i).part));
  }
  return s;
}

// The part the walk's next step looks at: the top part's next line's part,
// or the top part itself when its lines are done.
inline std::string next_part(const Catalog& c, const Walk& w) {
  const Frame& top = w.frame(w.depth() - 1);
  const Part& part = w.bill().part(static_cast<std::size_t>(top.part));
  if (top.next_line < part.line_count) {
    return c.name(
        static_cast<std::size_t>(part.lines[static_cast<std::size_t>(top.next_line)].child));
  }
  return c.name(static_cast<std::size_t>(top.part));
}

inline std::string refusal_text(const Catalog& c, const Walk& w, std::uint64_t call_limit) {
  switch (w.refusal()) {
    case Refusal::cycle:
      return "part '" + next_part(c, w) + "' is on a path to itself: " + path_text(c, w) + " -> " +
             next_part(c, w);
    case Refusal::overflow:
      return "a number for part '" + next_part(c, w) + "' would not fit in 64 bits (path " +
             path_text(c, w) + ")";
    case Refusal::call_limit:
      return "the roll-up needs more than " + std::to_string(call_limit) + " calls";
    case Refusal::none:
      break;
  }
  return "the walk refused a step for no reason it can name";
}

}  // namespace detail

/// Rolls up `catalog` from the part named `root`, allowing `call_limit`
/// calls: starts a `Walk` and fires it until it returns.
[[nodiscard]] inline Rollup rollup(const Catalog& catalog, std::string_view root,
                                   std::uint64_t call_limit) {
  Rollup out;
  const auto r = catalog.find(root);
  if (!r) {
    out.error = "no part named '" + std::string(root) + "'";
    return out;
  }
  Walk w = Walk::start(catalog.bill(), *r, call_limit);
  while (w.state() == State::walking) {
    const auto [next, actions, outcome] = w.fire(Event::step);
    if (fsm::err(outcome)) {
      out.calls = w.calls();
      out.error = detail::refusal_text(catalog, w, call_limit);
      return out;
    }
    w = next;
  }
  out.total = w.total();
  out.calls = w.calls();
  for (std::size_t p = 0; p < catalog.bill().parts(); ++p) {
    if (w.need(p) != 0) out.need.emplace_back(catalog.name(p), w.need(p));
  }
  return out;
}

}  // namespace bom

#endif  // MERILO_EXAMPLES_BOM_ROLLUP_HPP
