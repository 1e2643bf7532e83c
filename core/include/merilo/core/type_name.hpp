// merilo/core/type_name.hpp — what the paste-ready tests that failures print
// are made of: the name of a type as the compiler spells it (without the
// anonymous namespace, which the pasted test shares by landing in the same
// file), whether a type can be named at all from namespace scope, the
// caller's own expression text (`MERILO_EXPR`), test names made identifiers
// and string literals cut so that a reporter that wraps long lines cannot
// break them.
//
// Example:
//
//   merilo::core::type_name<turnstile::System<>>();  // "turnstile::System<turnstile::Bug::none>"
//   merilo::testing::parallel_check(MERILO_EXPR(CounterSpec{.lost_update = true}), {.seed = 7});
//   // a failure's pinned test then builds `CounterSpec{.lost_update = true}`
#ifndef MERILO_CORE_TYPE_NAME_HPP
#define MERILO_CORE_TYPE_NAME_HPP

#include <cstddef>      // std::size_t
#include <cstdlib>      // std::free (the demangler's buffer)
#include <string>       // the result
#include <string_view>  // reading __PRETTY_FUNCTION__
#include <utility>      // std::move
#include <vector>       // a long literal's chunks

#if defined(__GXX_RTTI) && __has_include(<cxxabi.h>)
#include <cxxabi.h>  // abi::__cxa_demangle, to tell a local class (clang spells it bare)
#include <typeinfo>  // typeid
#define MERILO_CORE_TYPE_NAME_DEMANGLE 1
#endif

namespace merilo::core {

namespace detail {

/// `text` without every `{anonymous}::` (g++) and `(anonymous namespace)::`
/// (clang++) qualifier.
inline std::string without_anonymous_namespace(std::string text) {
  for (const std::string_view q :
       {std::string_view("{anonymous}::"), std::string_view("(anonymous namespace)::")}) {
    for (std::size_t at = text.find(q); at != std::string::npos; at = text.find(q, at)) {
      text.erase(at, q.size());
    }
  }
  return text;
}

/// True when a spelled type names a class local to a function or a lambda:
/// "f()::Local", "f()::<lambda()>", "(lambda at f.cpp:3:9)", "{lambda()#1}".
inline bool spells_a_local_type(std::string_view spelled) {
  const std::string bare = without_anonymous_namespace(std::string(spelled));
  for (const std::string_view mark :
       {std::string_view(")::"), std::string_view("(lambda"), std::string_view("<lambda"),
        std::string_view("{lambda"), std::string_view("{unnamed type")}) {
    if (bare.find(mark) != std::string::npos) return true;
  }
  return false;
}

/// The name of `T` as `__PRETTY_FUNCTION__` spells it.
template <class T>
std::string pretty_name() {
  std::string_view f = __PRETTY_FUNCTION__;
  const std::string_view key = "T = ";
  auto start = f.find(key);
  if (start == std::string_view::npos) return "System";
  start += key.size();
  auto end = f.find_first_of(";]", start);
  return std::string(f.substr(start, end - start));
}

}  // namespace detail

/// The name of `T` as g++ and clang++ spell it in `__PRETTY_FUNCTION__`,
/// e.g. "turnstile::System", with anonymous-namespace qualifiers dropped (a
/// pinned test is pasted into the file that declares the type, where the
/// bare name resolves); "System" where it cannot be read.
template <class T>
std::string type_name() {
  return detail::without_anonymous_namespace(detail::pretty_name<T>());
}

/// True when `T` (or a type it is built from) is a class local to a
/// function, or a lambda's closure type: no test pasted at namespace scope
/// can name it. Without RTTI only what `__PRETTY_FUNCTION__` shows is seen
/// (g++ shows it; clang++ spells a local class bare).
template <class T>
bool is_local_type() {
  if (detail::spells_a_local_type(detail::pretty_name<T>())) return true;
#ifdef MERILO_CORE_TYPE_NAME_DEMANGLE
  int status = 0;
  char* demangled = abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status);
  if (demangled == nullptr) return false;
  const bool local = status == 0 && detail::spells_a_local_type(demangled);
  std::free(demangled);  // NOLINT(cppcoreguidelines-no-malloc): the demangler's contract
  return local;
#else
  return false;
#endif
}

/// A value and the text of the expression that built it, as `MERILO_EXPR`
/// makes it: glue functions that take one print pinned tests that build
/// the system with `text`, the caller's own words.
template <class T>
struct Spelled {
  T value;                ///< The system or spec.
  std::string_view text;  ///< The expression, as written at the call.
};

/// Deduces `Spelled<T>` from `Spelled{value, text}`.
template <class T>
Spelled(T, std::string_view) -> Spelled<T>;

/// `text` made a C++ identifier for a test name: every character that is
/// not a letter, digit or '_' becomes '_' (GoogleTest's TEST_P instances
/// are named "Name/0"), and a name that would start with a digit, or is
/// empty, gets a leading 'T'.
inline std::string test_identifier(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 1);
  for (const char c : text) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += keep ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), 'T');
  return out;
}

/// Where the first ": " of a pinned `TEST_CASE` name may be at most: Catch2
/// v2's console reporter indents the wrapped lines of a test name by the
/// position of its first ": ", and loops forever printing '-' when that is
/// past its line width (80 columns).
inline constexpr std::size_t kMaxNameColon = 40;

/// The name of a pinned Catch2 or doctest test case: "<test>: pinned
/// <what>", or "<test> (pinned <what>)" when that name's first ": " would
/// come after `kMaxNameColon` characters (see there).
inline std::string pinned_case_name(std::string_view test, std::string_view what) {
  std::string name = std::string(test) + ": pinned " + std::string(what);
  if (name.find(": ") <= kMaxNameColon) return name;
  return std::string(test) + " (pinned " + std::string(what) + ")";
}

/// Characters of a string literal's content per printed line: with the
/// indent and quotes a line stays well inside the 80 columns Catch2's
/// console reporter wraps messages at, so no wrap falls inside a literal.
inline constexpr std::size_t kLiteralChunk = 48;

/// `text` as C++ string literals (quotes, backslashes and control
/// characters escaped): one literal when it fits in `kLiteralChunk`
/// characters, else adjacent literals of at most that many, one per line,
/// each line starting with `indent` (the compiler joins them back).
inline std::string string_literal(std::string_view text, std::string_view indent) {
  std::vector<std::string> chunks(1);
  for (const char c : text) {
    std::string piece;
    switch (c) {
      case '"':
        piece = "\\\"";
        break;
      case '\\':
        piece = "\\\\";
        break;
      case '\n':
        piece = "\\n";
        break;
      case '\t':
        piece = "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          // Octal: at most three digits, so the next character cannot extend it.
          const auto u = static_cast<unsigned>(static_cast<unsigned char>(c));
          piece = {'\\', static_cast<char>('0' + (u >> 6U)),
                   static_cast<char>('0' + ((u >> 3U) & 7U)), static_cast<char>('0' + (u & 7U))};
        } else {
          piece = std::string(1, c);
        }
    }
    std::string& last = chunks.back();
    if (!last.empty() && last.size() + piece.size() > kLiteralChunk) {
      // Break after the chunk's last space when there is one in its second
      // half (a space is one character, never part of an escape).
      const std::size_t space = last.rfind(' ');
      std::string rest;
      if (space != std::string::npos && space + 1 >= kLiteralChunk / 2) {
        rest = last.substr(space + 1);
        last.erase(space + 1);
      }
      chunks.push_back(std::move(rest));
    }
    chunks.back() += piece;
  }
  std::string out;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0) {
      out += '\n';
      out += indent;
    }
    out += '"' + chunks[i] + '"';
  }
  return out;
}

}  // namespace merilo::core

/// A value with the text of the expression that built it
/// (`merilo::core::Spelled`), for the glue functions' pinned tests:
/// `parallel_check(MERILO_EXPR(CounterSpec{.lost_update = true}), config)`
/// prints a pinned test that builds `CounterSpec{.lost_update = true}`, not
/// `CounterSpec{}`. Variadic, so commas inside braces need no parentheses.
#define MERILO_EXPR(...) (::merilo::core::Spelled{__VA_ARGS__, #__VA_ARGS__})

#endif  // MERILO_CORE_TYPE_NAME_HPP
