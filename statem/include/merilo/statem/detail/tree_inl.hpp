// merilo/statem/detail/tree_inl.hpp — template bodies of tree.hpp.
#ifndef MERILO_STATEM_DETAIL_TREE_INL_HPP
#define MERILO_STATEM_DETAIL_TREE_INL_HPP

#include <functional>   // concat's factories
#include <memory>       // std::shared_ptr: trees share their element lists
#include <type_traits>  // std::is_signed_v

namespace merilo::statem {

namespace detail {

inline constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

/// An order-preserving map of any integer type onto uint64.
template <std::integral I>
constexpr std::uint64_t to_ordered(I v) noexcept {
  if constexpr (std::is_signed_v<I>) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) ^ kSignBit;
  } else {
    return static_cast<std::uint64_t>(v);
  }
}

/// The inverse of `to_ordered` (on values that came from an `I`).
template <std::integral I>
constexpr I from_ordered(std::uint64_t u) noexcept {
  if constexpr (std::is_signed_v<I>) {
    return static_cast<I>(static_cast<std::int64_t>(u ^ kSignBit));
  } else {
    return static_cast<I>(u);
  }
}

/// A nonzero label from the parts of a change.
constexpr std::uint64_t label(std::uint64_t kind, std::uint64_t a, std::uint64_t b) noexcept {
  return Rng::mix(Rng::mix(Rng::mix(kind) ^ a) ^ Rng::remix(b)) | 1;
}

inline constexpr std::uint64_t kIntegerEdit = 1;
inline constexpr std::uint64_t kDeleteEdit = 2;
inline constexpr std::uint64_t kElementEdit = 3;
inline constexpr std::uint64_t kIntegerShift = 4;

/// The sequences made by `factories`, one after the other, each created
/// only when the previous one is exhausted.
template <class T>
Seq<T> concat(std::vector<std::function<Seq<T>()>> factories) {
  struct State {
    std::vector<std::function<Seq<T>()>> factories;
    std::size_t index = 0;
    std::optional<Seq<T>> current;
  };
  auto state = std::make_shared<State>(State{std::move(factories), 0, std::nullopt});
  return Seq<T>{[state]() -> std::optional<T> {
    while (state->index < state->factories.size()) {
      if (!state->current) state->current = state->factories[state->index]();
      if (std::optional<T> v = state->current->next()) return v;
      state->current.reset();
      ++state->index;
    }
    return std::nullopt;
  }};
}

/// The children of a vector tree (see `vector_tree`).
template <class T>
class VectorShrinks {
 public:
  VectorShrinks(std::shared_ptr<const std::vector<Tree<T>>> elements, std::size_t min_size)
      : elements_(std::move(elements)), min_size_(min_size), chunk_(elements_->size()) {}

  std::optional<Tree<std::vector<T>>> operator()() {
    const std::size_t n = elements_->size();
    // Phase 1: delete `chunk_` elements at `offset_`, for chunk = n, n/2, ...
    while (chunk_ > 0) {
      if (n - chunk_ >= min_size_ && offset_ + chunk_ <= n) {
        std::vector<Tree<T>> out;
        out.reserve(n - chunk_);
        for (std::size_t i = 0; i < n; ++i) {
          if (i < offset_ || i >= offset_ + chunk_) out.push_back((*elements_)[i]);
        }
        const std::uint64_t where = detail::label(kDeleteEdit, n, offset_);
        ++offset_;
        return vector_tree(std::move(out), min_size_)
            .with_edit(detail::label(kDeleteEdit, where, chunk_));
      }
      chunk_ /= 2;
      offset_ = 0;
    }
    // Phase 2: replace element `index_` by each of its children.
    while (index_ < n) {
      if (!kids_) kids_ = (*elements_)[index_].children();
      if (std::optional<Tree<T>> child = kids_->next()) {
        const std::uint64_t edit = child->edit();
        const std::uint64_t shift = child->shift();
        std::vector<Tree<T>> out = *elements_;
        out[index_] = std::move(*child);
        return vector_tree(std::move(out), min_size_)
            .with_edit(edit == 0 ? 0 : detail::label(kElementEdit, index_, edit))
            .with_shift(shift == 0 ? 0 : detail::label(kElementEdit, index_, shift));
      }
      kids_.reset();
      ++index_;
    }
    return std::nullopt;
  }

 private:
  std::shared_ptr<const std::vector<Tree<T>>> elements_;
  std::size_t min_size_;
  std::size_t chunk_;
  std::size_t offset_ = 0;
  std::size_t index_ = 0;
  std::optional<Seq<Tree<T>>> kids_;
};

}  // namespace detail

// ---- trees -------------------------------------------------------------------

template <std::integral I>
Tree<I> integer_tree(I value, I target) {
  return Tree<I>{value, [value, target]() {
                   const std::uint64_t uv = detail::to_ordered(value);
                   const std::uint64_t ut = detail::to_ordered(target);
                   const bool down = uv > ut;
                   const std::uint64_t distance = down ? uv - ut : ut - uv;
                   unsigned k = 0;
                   return Seq<Tree<I>>{[=]() mutable -> std::optional<Tree<I>> {
                     if (k >= 64) return std::nullopt;
                     const std::uint64_t step = distance >> k;
                     if (step == 0) return std::nullopt;
                     ++k;
                     const std::uint64_t uc = down ? uv - step : uv + step;
                     return integer_tree(detail::from_ordered<I>(uc), target)
                         .with_edit(detail::label(detail::kIntegerEdit, uv, uc))
                         .with_shift(detail::label(detail::kIntegerShift, down ? 1 : 0, step));
                   }};
                 }};
}

template <class T, class F>
auto map_tree(Tree<T> tree, F f) -> Tree<decltype(f(tree.value()))> {
  using U = decltype(f(tree.value()));
  U value = f(tree.value());
  return Tree<U>{
      std::move(value), [tree = std::move(tree), f]() {
        return Seq<Tree<U>>{[kids = tree.children(), f]() mutable -> std::optional<Tree<U>> {
          std::optional<Tree<T>> child = kids.next();
          if (!child) return std::nullopt;
          const std::uint64_t edit = child->edit();
          const std::uint64_t shift = child->shift();
          return map_tree(std::move(*child), f).with_edit(edit).with_shift(shift);
        }};
      }};
}

template <class T, class P>
Tree<T> filter_tree(Tree<T> tree, P pred) {
  T value = tree.value();
  return Tree<T>{
      std::move(value), [tree = std::move(tree), pred]() {
        return Seq<Tree<T>>{[kids = tree.children(), pred]() mutable -> std::optional<Tree<T>> {
          while (std::optional<Tree<T>> child = kids.next()) {
            if (pred(child->value())) {
              const std::uint64_t edit = child->edit();
              const std::uint64_t shift = child->shift();
              return filter_tree(std::move(*child), pred).with_edit(edit).with_shift(shift);
            }
          }
          return std::nullopt;
        }};
      }};
}

template <class T>
Tree<std::vector<T>> vector_tree(std::vector<Tree<T>> elements, std::size_t min_size) {
  std::vector<T> values;
  values.reserve(elements.size());
  for (const Tree<T>& e : elements) values.push_back(e.value());
  auto shared = std::make_shared<const std::vector<Tree<T>>>(std::move(elements));
  return Tree<std::vector<T>>{
      std::move(values), [shared, min_size]() {
        return Seq<Tree<std::vector<T>>>{detail::VectorShrinks<T>{shared, min_size}};
      }};
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_DETAIL_TREE_INL_HPP
