// merilo/statem/gen.hpp — deterministic random generators with integrated
// shrinking, the raw material of statem's command lists.
//
// A generator (`Gen<T>`) turns a pseudo-random stream (`Rng`) into a shrink
// tree (`Tree<T>`): a value together with a lazily produced sequence of
// smaller candidate trees. Shrinking a failure never asks the generator
// again: it walks the tree the first draw produced, so a smaller value is
// always a child of the original one, reached without regenerating anything
// downstream of it.
//
// Use these to write a statem `Spec::command(model)`; the combinators keep
// shrink trees intact through `map`, `filter`, `one_of`, `frequency`,
// `element_of`, `vector_of` and `construct`.
//
// Example:
//
//   using merilo::statem::Gen;
//   namespace st = merilo::statem;
//   struct Put { int key; int value; };
//   Gen<Put> put = st::construct<Put>(st::integer(0, 9), st::integer(-100, 100));
//   st::Rng rng{42};
//   std::optional<st::Tree<Put>> tree = put(rng);   // nullopt only if a filter gave up
//   // tree->value() is the draw; tree->children() yields smaller Puts:
//   // first with a smaller key (toward 0), then with a smaller value.
//
// NOTE: there is no default seed anywhere: every `Rng` is built from a seed
// the caller chose, and the same seed always gives the same draws on every
// platform (only 64-bit integer arithmetic is involved). Trees and
// generators are immutable values, cheap to copy (they share their lazy
// parts, or copy them as bytes when small) and safe to read from several
// threads; an `Rng` and a `Seq` are mutable and belong to one thread.
//
// The stream is rng.hpp's `Rng`, the trees are tree.hpp's; this header
// includes both.
#ifndef MERILO_STATEM_GEN_HPP
#define MERILO_STATEM_GEN_HPP

#include <concepts>     // std::integral
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <memory>       // std::shared_ptr: a generator's error text
#include <optional>     // a generator may give up (filter)
#include <string>       // Gen::invalid
#include <string_view>  // Gen::error
#include <type_traits>  // the callable constructors' constraints
#include <utility>      // std::move, std::pair
#include <vector>       // vector_of, element_of

#include <merilo/statem/detail/shared_fn.hpp>  // detail::SharedFn
#include <merilo/statem/rng.hpp>               // Rng, kMaxSize, scale, run_seed
#include <merilo/statem/tree.hpp>              // Tree, Seq and the tree functions

namespace merilo::statem {

/// A generator: draws a shrink tree from an `Rng`, or `std::nullopt` when it
/// gives up (a `filter` found no value this time, ...).
///
/// A generator built from arguments that can never give a value (an empty
/// range `integer(10, 1)`, `element_of({})`, `one_of({})`) is *invalid*: it
/// always gives up and `error()` says why. The combinators pass an invalid
/// part's error on, and statem reports a spec whose `command()` returns an
/// invalid generator as a usage error instead of testing nothing.
template <class T>
class Gen {
 public:
  /// The drawing function.
  using Draw = std::function<std::optional<Tree<T>>(Rng&)>;

  /// A generator from a drawing function (for hand-written generators).
  explicit Gen(Draw draw)
      : draw_(draw ? detail::SharedFn<std::optional<Tree<T>>(Rng&)>::make(std::move(draw))
                   : detail::SharedFn<std::optional<Tree<T>>(Rng&)>{}) {}

  /// A generator from a const-callable drawing function: the same
  /// generator as the `Draw` constructor gives, kept in one allocation
  /// instead of two.
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, Draw> &&
           !std::is_same_v<std::remove_cvref_t<F>, std::nullptr_t> &&
           std::is_invocable_r_v<std::optional<Tree<T>>, const F&, Rng&>) explicit Gen(F draw)
      : draw_(detail::SharedFn<std::optional<Tree<T>>(Rng&)>::make(std::move(draw))) {}

  /// The invalid generator whose `error()` is `why`.
  [[nodiscard]] static Gen invalid(std::string why) {
    Gen g{nullptr};
    g.error_ = std::make_shared<const std::string>(std::move(why));
    return g;
  }

  /// Why this generator can never draw a value; empty for a valid one.
  [[nodiscard]] std::string_view error() const noexcept {
    return error_ ? std::string_view(*error_) : std::string_view{};
  }

  /// Draws one tree. The same `Rng` state always gives the same tree.
  std::optional<Tree<T>> operator()(Rng& rng) const {
    if (!draw_) return std::nullopt;
    return draw_(rng);
  }

 private:
  detail::SharedFn<std::optional<Tree<T>>(Rng&)> draw_;  // shared: copying is cheap
  std::shared_ptr<const std::string> error_;
};

// ---- generators ------------------------------------------------------------

/// Always `value`; does not shrink.
template <class T>
[[nodiscard]] Gen<T> just(T value);

/// A uniform integer in [lo, hi] (both included) that shrinks toward
/// `target`, which is clamped into [lo, hi]. At a size below kMaxSize it
/// draws uniformly from the values within `scale(d, size)` of the target
/// on each side, where d is the distance from the target to that end of the
/// range. An empty range (lo > hi) is an invalid generator.
template <std::integral I>
[[nodiscard]] Gen<I> integer(I lo, I hi, I target);

/// A uniform integer in [lo, hi] shrinking toward the value nearest 0.
template <std::integral I>
[[nodiscard]] Gen<I> integer(I lo, I hi);

/// `false` or `true`, shrinking toward `false`.
[[nodiscard]] Gen<bool> boolean();

/// One of `values`, uniformly at every size; shrinks toward earlier
/// elements. Invalid when `values` is empty.
template <class T>
[[nodiscard]] Gen<T> element_of(std::vector<T> values);

/// A draw of one of `gens`, chosen uniformly. Shrinks first toward the
/// earlier generators (each draws its own value from a stream fixed at the
/// first draw, so the candidates are always the same), then within the
/// chosen generator's tree. Gives up when the chosen one gives up; invalid
/// when `gens` is empty or any of them is invalid.
template <class T>
[[nodiscard]] Gen<T> one_of(std::vector<Gen<T>> gens);

/// Like `one_of`, but generator i is chosen with probability
/// weight_i / sum(weights). Zero-weight generators are never chosen and
/// never offered as shrinks. Invalid when the weights sum to 0 (or overflow)
/// or a generator of nonzero weight is invalid.
template <class T>
[[nodiscard]] Gen<T> frequency(std::vector<std::pair<std::uint64_t, Gen<T>>> weighted);

/// `f` applied to `gen`'s values; the shrink tree is mapped node by node.
/// Invalid when `gen` is.
template <class T, class F>
[[nodiscard]] auto map(Gen<T> gen, F f) -> Gen<decltype(f(std::declval<const T&>()))>;

/// `gen`'s values that satisfy `pred`, drawing up to `tries` times; gives up
/// after that. Shrinks are filtered too. Invalid when `gen` is.
template <class T, class P>
[[nodiscard]] Gen<T> filter(Gen<T> gen, P pred, std::size_t tries = 100);

/// A vector of `min_size + k` elements of `elem`, k uniform in
/// [0, scale(max_size - min_size, size)]; shrinks by removing
/// chunks of elements (never below `min_size`) and by shrinking elements.
/// Invalid when min_size > max_size or `elem` is invalid.
template <class T>
[[nodiscard]] Gen<std::vector<T>> vector_of(Gen<T> elem, std::size_t min_size,
                                            std::size_t max_size);

/// `T{a, b, ...}` from one draw of each of `gens`, in order; shrinks each
/// field in turn, keeping the others. Gives up if any field's generator
/// does; invalid if any is invalid.
template <class T, class... G>
[[nodiscard]] Gen<T> construct(G... gens);

}  // namespace merilo::statem

#include <merilo/statem/detail/gen_inl.hpp>

#endif  // MERILO_STATEM_GEN_HPP
