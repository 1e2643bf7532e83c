// mailbox.hpp — a sender, a receiver and the letters between them, with a
// `show()` of the letters in flight: the subject of the trace page's tests.
// The invariant "at most two letters in flight" breaks first on the trace
// {0, 0, 0}. With `hostile`, every text the system gives the page (a kind's
// description, the tuple, `show`) carries markup that would run a script if
// the page did not escape it.
#ifndef MERILO_TESTS_EXPLORE_MAILBOX_HPP
#define MERILO_TESTS_EXPLORE_MAILBOX_HPP

#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/invariant.hpp>
#include <merilo/explore/system.hpp>

namespace mailbox {

namespace ex = merilo::explore;

/// Markup a page must show as text: were it parsed, it would mark `#status`
/// as tampered with.
inline constexpr const char* kHostile =
    "<script>document.getElementById('status').dataset.state='hacked'</script>"
    "<img src=x onerror=\"document.title='hacked'\">";

template <bool hostile = false>
class System {
 public:
  static constexpr ex::Kind kSend = 0;     // the sender posts a letter
  static constexpr ex::Kind kReceive = 1;  // the receiver takes the oldest
  struct World {
    std::uint8_t in_flight = 0;
    std::uint8_t sent = 0;
    std::uint8_t received = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    return k == kSend ? w_.sent < 4 : w_.in_flight > 0;
  }
  ex::Status apply(ex::Kind k) {
    if (k == kSend) {
      ++w_.sent;
      ++w_.in_flight;
    } else {
      ++w_.received;
      --w_.in_flight;
    }
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const {
    return std::string("sender:") + (w_.sent == 0 ? "idle" : "posting") +
           " receiver:" + (w_.received == 0 ? "waiting" : "reading") + (hostile ? kHostile : "");
  }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const {
    return std::string(k == kSend ? "send" : "receive") + (hostile ? kHostile : "");
  }
  [[nodiscard]] std::string show() const {
    std::string letters;
    for (std::uint8_t i = w_.received; i < w_.sent; ++i) {
      letters += (letters.empty() ? "" : " ") + std::string("letter") + std::to_string(i + 1);
    }
    return "flight=[" + letters + "] sent=" + std::to_string(w_.sent) + (hostile ? kHostile : "");
  }
  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {{{"at most two letters in flight", [](const System& s) -> ex::InvariantCheck {
                if (s.w_.in_flight <= 2) return true;
                return ex::InvariantCheck::fails(std::to_string(s.w_.in_flight) + " in flight");
              }}}};
  }

 private:
  World w_{};
};

}  // namespace mailbox

#endif  // MERILO_TESTS_EXPLORE_MAILBOX_HPP
