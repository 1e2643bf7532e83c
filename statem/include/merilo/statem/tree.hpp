// merilo/statem/tree.hpp — shrink trees: a value together with a lazily
// produced sequence of smaller candidate trees.
//
// A generator (gen.hpp) draws a `Tree<T>`; shrinking a failure walks the
// tree that first draw produced, so a smaller value is always a child of
// the original one, reached without regenerating anything downstream.
//
// Example:
//
//   namespace st = merilo::statem;
//   st::Tree<int> t = st::integer_tree(40, 0);   // 40, shrinking toward 0
//   st::Seq<st::Tree<int>> kids = t.children();  // 0, 20, 30, 35, ...
//   while (auto kid = kids.next()) use(kid->value());
//
// NOTE: trees are immutable values, cheap to copy (they share their lazy
// parts, or copy them as bytes when small) and safe to read from several
// threads; a `Seq` is mutable and belongs to one thread.
#ifndef MERILO_STATEM_TREE_HPP
#define MERILO_STATEM_TREE_HPP

#include <concepts>     // std::integral
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t: edit labels
#include <functional>   // std::function: type-erased lazy parts
#include <memory>       // std::shared_ptr: shared lazy parts
#include <optional>     // Seq::next
#include <type_traits>  // the callable constructors' constraints
#include <utility>      // std::move
#include <vector>       // vector_tree

#include <merilo/statem/detail/shared_fn.hpp>  // detail::SharedFn
#include <merilo/statem/rng.hpp>               // edit labels are mixed as the stream is

namespace merilo::statem {

/// A lazy, single-pass sequence: `next()` yields elements until it returns
/// `std::nullopt`. A default-built `Seq` is empty.
template <class T>
class Seq {
 public:
  /// The function that produces the next element (nullopt at the end).
  using Next = std::function<std::optional<T>()>;

  Seq() = default;
  /// A sequence whose elements are successive calls of `next`.
  explicit Seq(Next next) : next_(std::move(next)) {}

  /// The next element, or nullopt once the sequence is exhausted.
  std::optional<T> next() {
    if (!next_) return std::nullopt;
    std::optional<T> v = next_();
    if (!v) next_ = nullptr;
    return v;
  }

 private:
  Next next_;
};

/// A value and its shrinks: `children()` returns a fresh lazy sequence of
/// smaller trees each time it is called, simplest first.
///
/// A child may carry an *edit label*: a nonzero number naming the change
/// that made it from its parent (an integer moving from one value to
/// another, an element deleted from a vector, ...). Combinators pass a
/// part's label on unchanged (`map`, `filter`, a field of `construct`, the
/// chosen alternative of `one_of`), so two commands holding the same integer
/// offer children with the same label for the same move; statem's shrinker
/// uses that to shrink equal values in several commands together. 0 means
/// no label.
///
/// A child may also carry a *shift label*, naming the move by its size
/// alone (an integer moving 3 down, whatever it started from), passed on
/// by the combinators the same way. Two commands whose values must stay
/// related (a key and the key one above it) offer children with the same
/// shift label, and the shrinker tries moving such a pair together once
/// nothing else shrinks. 0 means no label.
template <class T>
class Tree {
 public:
  /// Produces the children sequence; empty means the value cannot shrink.
  using Children = std::function<Seq<Tree<T>>()>;

  /// A tree with `value` and the given children (none by default).
  explicit Tree(T value, Children children = {})
      : value_(std::move(value)),
        children_(children ? detail::SharedFn<Seq<Tree>()>::make(std::move(children))
                           : detail::SharedFn<Seq<Tree>()>{}) {}

  /// A tree with `value` whose children come from calling `children` (a
  /// const-callable returning `Seq<Tree<T>>`). The same tree as the
  /// `Children` constructor gives, kept in one allocation instead of two.
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, Children> &&
           std::is_invocable_r_v<Seq<Tree<T>>, const F&>) explicit Tree(T value, F children)
      : value_(std::move(value)),
        children_(detail::SharedFn<Seq<Tree>()>::make(std::move(children))) {}

  /// The value drawn.
  [[nodiscard]] const T& value() const noexcept { return value_; }
  /// Smaller candidates, simplest first, computed lazily.
  [[nodiscard]] Seq<Tree<T>> children() const { return children_ ? children_() : Seq<Tree<T>>{}; }
  /// The edit label of this tree as a child of its parent (0: none).
  [[nodiscard]] std::uint64_t edit() const noexcept { return edit_; }
  /// This tree with edit label `label`.
  [[nodiscard]] Tree with_edit(std::uint64_t label) && {
    edit_ = label;
    return std::move(*this);
  }
  /// The shift label of this tree as a child of its parent (0: none).
  [[nodiscard]] std::uint64_t shift() const noexcept { return shift_; }
  /// This tree with shift label `label`.
  [[nodiscard]] Tree with_shift(std::uint64_t label) && {
    shift_ = label;
    return std::move(*this);
  }

 private:
  T value_;
  detail::SharedFn<Seq<Tree>()> children_;  // shared: copying a tree is cheap
  std::uint64_t edit_ = 0;
  std::uint64_t shift_ = 0;
};

// ---- shrink trees on their own --------------------------------------------

/// The shrink tree of the integer `value` toward `target`. Its children are
/// `target` and then values halving the distance back toward `value`
/// (`value - d/2`, `value - d/4`, ..., `value - 1` for d = value - target);
/// each child shrinks the same way. Every node lies between `target` and
/// `value`, both included.
template <std::integral I>
[[nodiscard]] Tree<I> integer_tree(I value, I target);

/// A tree that does not shrink.
template <class T>
[[nodiscard]] Tree<T> leaf(T value) {
  return Tree<T>{std::move(value)};
}

/// `f` applied to every node of `tree` (taken by value: pass an rvalue to
/// move it in).
template <class T, class F>
[[nodiscard]] auto map_tree(Tree<T> tree, F f) -> Tree<decltype(f(tree.value()))>;

/// The nodes of `tree` whose value satisfies `pred`: the root is kept as it
/// is, and a child that fails `pred` is skipped together with its subtree.
template <class T, class P>
[[nodiscard]] Tree<T> filter_tree(Tree<T> tree, P pred);

/// A list of trees as one tree: first chunk deletions (all n elements, then
/// n/2, n/4, ..., 1 at every offset, never below `min_size` elements), then
/// each element replaced by one of its children, left to right.
template <class T>
[[nodiscard]] Tree<std::vector<T>> vector_tree(std::vector<Tree<T>> elements, std::size_t min_size);

}  // namespace merilo::statem

#include <merilo/statem/detail/tree_inl.hpp>

#endif  // MERILO_STATEM_TREE_HPP
