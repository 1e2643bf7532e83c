// crash.cpp — the text of an exception that escaped user code.
#include <merilo/core/crash.hpp>

#include <utility>

namespace merilo::core {

namespace {
constexpr const char* kUnknown = "an exception not derived from std::exception";
}  // namespace

std::string exception_text(std::exception_ptr error) {
  try {
    std::rethrow_exception(std::move(error));
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return kUnknown;
  }
}

std::string crash_detail(const char* where, std::exception_ptr error) {
  try {
    std::rethrow_exception(std::move(error));
  } catch (const std::exception& e) {
    return std::string("an exception escaped ") + where + ": " + e.what();
  } catch (...) {
    return std::string("an exception of unknown type escaped ") + where;
  }
}

}  // namespace merilo::core
