// merilo/statem/detail/shared_fn.hpp — the cheap-to-copy callable that
// holds the lazy parts of shrink trees and generators.
#ifndef MERILO_STATEM_DETAIL_SHARED_FN_HPP
#define MERILO_STATEM_DETAIL_SHARED_FN_HPP

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t: the inline buffer's alignment
#include <cstring>      // std::memcpy
#include <memory>       // std::shared_ptr: the shared out-of-line callable
#include <new>          // placement new: small callables kept inline
#include <type_traits>  // the constructors' constraints
#include <utility>      // std::move

namespace merilo::statem {

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

}  // namespace merilo::statem

#endif  // MERILO_STATEM_DETAIL_SHARED_FN_HPP
