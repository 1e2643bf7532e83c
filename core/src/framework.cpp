// framework.cpp — the namespace each test framework's glue lives in.
#include <merilo/core/framework.hpp>

namespace merilo::core {

std::string_view glue_namespace(Framework framework) noexcept {
  switch (framework) {
    case Framework::googletest:
      return "merilo::testing";
    case Framework::catch2:
      return "merilo::with_catch2";
    case Framework::doctest:
      return "merilo::with_doctest";
  }
  return "merilo::testing";
}

}  // namespace merilo::core
