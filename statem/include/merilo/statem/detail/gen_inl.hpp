// merilo/statem/detail/gen_inl.hpp — template bodies of gen.hpp.
#ifndef MERILO_STATEM_DETAIL_GEN_INL_HPP
#define MERILO_STATEM_DETAIL_GEN_INL_HPP

#include <memory>       // std::shared_ptr: trees share their element lists
#include <string>       // error texts of invalid generators
#include <tuple>        // construct
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
        std::vector<Tree<T>> out = *elements_;
        out[index_] = std::move(*child);
        return vector_tree(std::move(out), min_size_)
            .with_edit(edit == 0 ? 0 : detail::label(kElementEdit, index_, edit));
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

template <class... Ts>
Tree<std::tuple<Ts...>> tuple_tree(std::tuple<Tree<Ts>...> trees);

/// The trees with field I replaced by each of its children in turn.
template <std::size_t I, class... Ts>
Seq<Tree<std::tuple<Ts...>>> tuple_shrinks_at(const std::tuple<Tree<Ts>...>& trees) {
  auto kids = std::get<I>(trees).children();
  return Seq<Tree<std::tuple<Ts...>>>{
      [trees, kids]() mutable -> std::optional<Tree<std::tuple<Ts...>>> {
        auto child = kids.next();
        if (!child) return std::nullopt;
        const std::uint64_t edit = child->edit();
        auto out = trees;
        std::get<I>(out) = std::move(*child);
        return tuple_tree<Ts...>(std::move(out)).with_edit(edit);
      }};
}

template <class... Ts, std::size_t... I>
Seq<Tree<std::tuple<Ts...>>> tuple_shrinks(const std::tuple<Tree<Ts>...>& trees,
                                           std::index_sequence<I...> /*fields*/) {
  using Out = Tree<std::tuple<Ts...>>;
  std::vector<std::function<Seq<Out>()>> parts{
      [trees]() { return tuple_shrinks_at<I, Ts...>(trees); }...};
  return concat<Out>(std::move(parts));
}

/// One tree of tuples from a tuple of trees (moved in): shrinks field 0,
/// then 1, ...
template <class... Ts>
Tree<std::tuple<Ts...>> tuple_tree(std::tuple<Tree<Ts>...> trees) {
  std::tuple<Ts...> value =
      std::apply([](const auto&... t) { return std::tuple<Ts...>{t.value()...}; }, trees);
  return Tree<std::tuple<Ts...>>{std::move(value), [trees = std::move(trees)]() {
                                   return tuple_shrinks<Ts...>(trees,
                                                               std::index_sequence_for<Ts...>{});
                                 }};
}

template <class G>
struct GenValue;
template <class T>
struct GenValue<Gen<T>> {
  using type = T;
};

/// One draw of each generator, left to right; nullopt when one gives up.
template <class First, class... Rest>
std::optional<
    std::tuple<Tree<typename GenValue<First>::type>, Tree<typename GenValue<Rest>::type>...>>
draw_fields(Rng& rng, const First& first, const Rest&... rest) {
  std::optional<Tree<typename GenValue<First>::type>> head = first(rng);
  if (!head) return std::nullopt;
  if constexpr (sizeof...(Rest) == 0) {
    return std::make_tuple(std::move(*head));
  } else {
    auto tail = draw_fields(rng, rest...);
    if (!tail) return std::nullopt;
    return std::tuple_cat(std::make_tuple(std::move(*head)), std::move(*tail));
  }
}

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
                         .with_edit(detail::label(detail::kIntegerEdit, uv, uc));
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
          return map_tree(std::move(*child), f).with_edit(edit);
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
              return filter_tree(std::move(*child), pred).with_edit(edit);
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

// ---- generators --------------------------------------------------------------

template <class T>
Gen<T> just(T value) {
  return Gen<T>{[value](Rng& /*rng*/) -> std::optional<Tree<T>> { return Tree<T>{value}; }};
}

template <std::integral I>
Gen<I> integer(I lo, I hi, I target) {
  if (lo > hi) {
    return Gen<I>::invalid("integer(" + std::to_string(lo) + ", " + std::to_string(hi) +
                           "): the range is empty (lo > hi)");
  }
  if (target < lo) target = lo;
  if (target > hi) target = hi;
  return Gen<I>{[lo, hi, target](Rng& rng) -> std::optional<Tree<I>> {
    const std::uint64_t ut = detail::to_ordered(target);
    const std::uint64_t ulo = ut - scale(ut - detail::to_ordered(lo), rng.size());
    const std::uint64_t uhi = ut + scale(detail::to_ordered(hi) - ut, rng.size());
    const std::uint64_t range = uhi - ulo;
    const std::uint64_t x = range == ~std::uint64_t{0} ? rng.next() : rng.below(range + 1);
    return integer_tree(detail::from_ordered<I>(ulo + x), target);
  }};
}

template <std::integral I>
Gen<I> integer(I lo, I hi) {
  return integer(lo, hi, I{0});
}

inline Gen<bool> boolean() {
  return map(integer<int>(0, 1), [](int v) { return v != 0; });
}

template <class T>
Gen<T> element_of(std::vector<T> values) {
  if (values.empty()) return Gen<T>::invalid("element_of: no values to choose from");
  auto shared = std::make_shared<const std::vector<T>>(std::move(values));
  const Gen<std::size_t> index = integer<std::size_t>(0, shared->size() - 1);
  // The choice of an element is not a magnitude: it ignores the size.
  const Gen<std::size_t> any_index{[index](Rng& rng) {
    Rng full{rng.next()};
    return index(full);
  }};
  return map(any_index, [shared](std::size_t i) -> T { return (*shared)[i]; });
}

template <class T>
Gen<T> frequency(std::vector<std::pair<std::uint64_t, Gen<T>>> weighted) {
  std::uint64_t sum = 0;
  for (const auto& [w, g] : weighted) {
    if (w == 0) continue;
    if (!g.error().empty()) return Gen<T>::invalid(std::string(g.error()));
    if (w > ~std::uint64_t{0} - sum) {
      return Gen<T>::invalid("frequency/one_of: the weights overflow 64 bits");
    }
    sum += w;
  }
  if (sum == 0) {
    return Gen<T>::invalid(weighted.empty() ? "one_of/frequency: no generators to choose from"
                                            : "frequency: every weight is 0");
  }
  auto shared =
      std::make_shared<const std::vector<std::pair<std::uint64_t, Gen<T>>>>(std::move(weighted));
  return Gen<T>{[shared](Rng& rng) -> std::optional<Tree<T>> {
    const auto& gens = *shared;
    std::uint64_t total = 0;
    for (const auto& [w, g] : gens) {
      if (w > ~std::uint64_t{0} - total) return std::nullopt;  // weights overflow
      total += w;
    }
    if (total == 0) return std::nullopt;
    const std::uint64_t alt_seed = rng.next();  // fixes the earlier alternatives
    std::uint64_t x = rng.below(total);
    std::size_t chosen = 0;
    while (x >= gens[chosen].first) x -= gens[chosen++].first;
    std::optional<Tree<T>> tree = gens[chosen].second(rng);
    if (!tree) return std::nullopt;
    T value = tree->value();
    return Tree<T>{
        std::move(value), [shared, chosen, alt_seed, t = std::move(*tree)]() {
          using Out = Tree<T>;
          std::vector<std::function<Seq<Out>()>> parts;
          parts.push_back([shared, chosen, alt_seed]() {
            std::size_t j = 0;
            return Seq<Out>{[shared, chosen, alt_seed, j]() mutable -> std::optional<Out> {
              while (j < chosen) {
                const std::size_t k = j++;
                if ((*shared)[k].first == 0) continue;
                Rng alt{alt_seed ^ Rng::mix(k + 1)};
                if (std::optional<Out> o = (*shared)[k].second(alt)) return o;
              }
              return std::nullopt;
            }};
          });
          parts.push_back([t]() { return t.children(); });
          return detail::concat<Out>(std::move(parts));
        }};
  }};
}

template <class T>
Gen<T> one_of(std::vector<Gen<T>> gens) {
  std::vector<std::pair<std::uint64_t, Gen<T>>> weighted;
  weighted.reserve(gens.size());
  for (Gen<T>& g : gens) weighted.emplace_back(1, std::move(g));
  return frequency(std::move(weighted));
}

template <class T, class F>
auto map(Gen<T> gen, F f) -> Gen<decltype(f(std::declval<const T&>()))> {
  using U = decltype(f(std::declval<const T&>()));
  if (!gen.error().empty()) return Gen<U>::invalid(std::string(gen.error()));
  return Gen<U>{[gen = std::move(gen), f](Rng& rng) -> std::optional<Tree<U>> {
    std::optional<Tree<T>> t = gen(rng);
    if (!t) return std::nullopt;
    return map_tree(std::move(*t), f);
  }};
}

template <class T, class P>
Gen<T> filter(Gen<T> gen, P pred, std::size_t tries) {
  if (!gen.error().empty()) return gen;
  return Gen<T>{[gen = std::move(gen), pred, tries](Rng& rng) -> std::optional<Tree<T>> {
    for (std::size_t i = 0; i < tries; ++i) {
      std::optional<Tree<T>> t = gen(rng);
      if (t && pred(t->value())) return filter_tree(std::move(*t), pred);
    }
    return std::nullopt;
  }};
}

template <class T>
Gen<std::vector<T>> vector_of(Gen<T> elem, std::size_t min_size, std::size_t max_size) {
  if (min_size > max_size) {
    return Gen<std::vector<T>>::invalid("vector_of: min_size " + std::to_string(min_size) +
                                        " > max_size " + std::to_string(max_size));
  }
  if (!elem.error().empty()) return Gen<std::vector<T>>::invalid(std::string(elem.error()));
  return Gen<std::vector<T>>{[elem = std::move(elem), min_size,
                              max_size](Rng& rng) -> std::optional<Tree<std::vector<T>>> {
    const std::uint64_t extra = scale(static_cast<std::uint64_t>(max_size - min_size), rng.size());
    const std::size_t n = min_size + static_cast<std::size_t>(rng.below(extra + 1));
    std::vector<Tree<T>> trees;
    trees.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::optional<Tree<T>> t = elem(rng);
      if (!t) return std::nullopt;
      trees.push_back(std::move(*t));
    }
    return vector_tree(std::move(trees), min_size);
  }};
}

template <class T, class... G>
Gen<T> construct(G... gens) {
  static_assert(sizeof...(G) > 0, "construct<T>() needs at least one field generator");
  std::string error;
  ((error.empty() && !gens.error().empty() ? (void)(error = gens.error()) : (void)0), ...);
  if (!error.empty()) return Gen<T>::invalid(std::move(error));
  return Gen<T>{[... gens = std::move(gens)](Rng& rng) -> std::optional<Tree<T>> {
    auto trees = detail::draw_fields(rng, gens...);
    if (!trees) return std::nullopt;
    return map_tree(detail::tuple_tree(std::move(*trees)), [](const auto& fields) {
      return std::apply([](const auto&... v) { return T{v...}; }, fields);
    });
  }};
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_DETAIL_GEN_INL_HPP
