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
#ifndef MERILO_STATEM_GEN_HPP
#define MERILO_STATEM_GEN_HPP

#include <concepts>     // std::integral
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <functional>   // std::function: type-erased lazy parts
#include <memory>       // std::shared_ptr: shared lazy parts, a generator's error text
#include <new>          // placement new: small callables kept inline
#include <optional>     // a generator may give up (filter)
#include <string>       // Gen::invalid
#include <string_view>  // Gen::error
#include <type_traits>  // the callable constructors' constraints
#include <utility>      // std::move, std::pair
#include <vector>       // vector_of, element_of

namespace merilo::statem {

/// The largest size (see `Rng::size`): full ranges and full lengths.
inline constexpr std::uint64_t kMaxSize = 100;

/// A deterministic 64-bit pseudo-random generator (SplitMix64) that also
/// carries a *size*.
///
/// Stream derivation: `Rng{s}` produces `mix(s + k * kGamma)` for k = 1, 2,
/// ..., where `mix` is SplitMix64's finaliser. `split()` takes the next output,
/// passes it through a second, different mixer and seeds a child `Rng` with
/// it, so a parent and its children draw from unrelated streams.
///
/// Size: a number in [0, kMaxSize] that says how big draws may be. statem
/// gives early runs small sizes and later runs `kMaxSize`; `integer` draws
/// from the part of its range around its target scaled by size / kMaxSize,
/// and `vector_of` scales its extra length the same way. `Rng{seed}` has
/// size `kMaxSize`, so a generator used outside statem draws from its whole
/// range. The size never changes the stream itself, only how draws use it.
class Rng {
 public:
  /// The Weyl-sequence increment of SplitMix64 (the golden ratio in 64 bits).
  static constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;

  /// A stream starting at `seed`, at size `size` (clamped to kMaxSize).
  /// There is deliberately no default constructor: every stream names its
  /// seed.
  constexpr explicit Rng(std::uint64_t seed, std::uint64_t size = kMaxSize) noexcept
      : state_(seed), size_(size < kMaxSize ? size : kMaxSize) {}

  /// How big draws may be, in [0, kMaxSize].
  [[nodiscard]] constexpr std::uint64_t size() const noexcept { return size_; }

  /// The next 64 uniformly distributed bits.
  constexpr std::uint64_t next() noexcept {
    state_ += kGamma;
    return mix(state_);
  }

  /// A uniform value in [0, bound). `bound == 0` means the full 64-bit range.
  /// Uses rejection, so the result is unbiased.
  constexpr std::uint64_t below(std::uint64_t bound) noexcept {
    if (bound == 0) return next();
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    for (;;) {
      const std::uint64_t x = next();
      if (x < limit) return x % bound;
    }
  }

  /// A child stream of the same size; advances this one by one draw.
  constexpr Rng split() noexcept { return Rng{remix(next()), size_}; }

  /// SplitMix64's output function (a bijection on 64-bit values).
  static constexpr std::uint64_t mix(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  /// A second bijective mixer (MurmurHash3's 64-bit finaliser), different
  /// from `mix`, used only to seed children.
  static constexpr std::uint64_t remix(std::uint64_t z) noexcept {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
  }

  /// The same state: the same numbers follow.
  friend constexpr bool operator==(const Rng&, const Rng&) noexcept = default;

 private:
  std::uint64_t state_;
  std::uint64_t size_;
};

/// `distance * size / kMaxSize`, rounded up, without overflow: how far from
/// its target a draw at `size` may go when the full range allows `distance`.
[[nodiscard]] constexpr std::uint64_t scale(std::uint64_t distance, std::uint64_t size) noexcept {
  if (size >= kMaxSize) return distance;
  const std::uint64_t whole = (distance / kMaxSize) * size;
  const std::uint64_t part = (distance % kMaxSize) * size;
  return whole + part / kMaxSize + (part % kMaxSize != 0 ? 1 : 0);
}

/// The seed of run `run` of a check seeded with `seed`: output number
/// `run + 1` of `Rng{seed}`, computed directly, so run i can be reproduced
/// without generating runs 0 .. i-1.
[[nodiscard]] constexpr std::uint64_t run_seed(std::uint64_t seed, std::uint64_t run) noexcept {
  return Rng::mix(seed + (run + 1) * Rng::kGamma);
}

namespace detail {

template <class Sig>
class SharedFn;

/// A const callable `R(A...)`, cheap to copy. A small trivially copyable
/// callable (an integer tree's bounds, a generator's range) is kept inline
/// and copied as bytes, with no allocation and no reference count. Any
/// other lives behind one shared allocation, in the same block as the
/// reference count, where a `std::shared_ptr<const std::function>` needs a
/// second allocation for a capture larger than `std::function`'s small
/// buffer. Copies share it.
template <class R, class... A>
class SharedFn<R(A...)> {
 public:
  SharedFn() = default;

  /// Holds `f` (called as a const object).
  template <class F>
  [[nodiscard]] static SharedFn make(F f) {
    SharedFn out;
    if constexpr (std::is_trivially_copyable_v<F> && sizeof(F) <= kInline &&
                  alignof(F) <= alignof(std::uint64_t)) {
      ::new (static_cast<void*>(out.inline_)) F(std::move(f));
      out.call_inline_ = [](const void* p, A... args) -> R {
        return (*static_cast<const F*>(p))(std::forward<A>(args)...);
      };
    } else {
      out.impl_ = std::make_shared<const Impl<F>>(std::move(f));
    }
    return out;
  }

  /// Whether a callable is held.
  explicit operator bool() const noexcept { return call_inline_ != nullptr || impl_ != nullptr; }

  /// Calls the held callable (which must exist).
  R operator()(A... args) const {
    if (call_inline_ != nullptr) return call_inline_(inline_, std::forward<A>(args)...);
    return impl_->call(std::forward<A>(args)...);
  }

 private:
  static constexpr std::size_t kInline = 16;

  struct Base {
    Base() = default;
    Base(const Base&) = delete;
    Base& operator=(const Base&) = delete;
    virtual ~Base() = default;
    virtual R call(A... args) const = 0;
  };
  template <class F>
  struct Impl final : Base {
    explicit Impl(F fn) : f(std::move(fn)) {}
    R call(A... args) const override { return f(std::forward<A>(args)...); }
    F f;
  };

  alignas(std::uint64_t) unsigned char inline_[kInline] = {};
  R (*call_inline_)(const void*, A...) = nullptr;
  std::shared_ptr<const Base> impl_;
};

}  // namespace detail

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

 private:
  T value_;
  detail::SharedFn<Seq<Tree>()> children_;  // shared: copying a tree is cheap
  std::uint64_t edit_ = 0;
};

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
