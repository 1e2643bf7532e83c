// merilo/statem/detail/gen_inl.hpp — template bodies of gen.hpp.
#ifndef MERILO_STATEM_DETAIL_GEN_INL_HPP
#define MERILO_STATEM_DETAIL_GEN_INL_HPP

#include <memory>       // std::shared_ptr
#include <string>       // error texts of invalid generators
#include <tuple>        // construct
#include <type_traits>  // std::is_signed_v

namespace merilo::statem {

namespace detail {

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
        const std::uint64_t shift = child->shift();
        auto out = trees;
        std::get<I>(out) = std::move(*child);
        return tuple_tree<Ts...>(std::move(out)).with_edit(edit).with_shift(shift);
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
