// orderd — drives one payment order from commands on standard input, with a
// real timer for retries. A holder program: it owns an order::Holder and
// performs its actions for real (here: printing the charge request, arming
// and cancelling a deadline).
//
//   usage: orderd [--timeout-ms N]
//   commands, one per line: submit | ack | cancel | quit
//
// When input ends, orderd keeps serving the timer until the order no longer
// waits on it, then prints the final state and exits 0. Exit 2 is a usage
// error.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <order/holder.hpp>

namespace {

using Clock = std::chrono::steady_clock;

/// The real world around the order: stdout for the provider, a deadline.
class Env {
 public:
  explicit Env(std::chrono::milliseconds timeout) : timeout_(timeout) {}
  void send_charge() { std::printf("env: charge request sent to the provider\n"); }
  void start_timer() {
    deadline_ = Clock::now() + timeout_;
    std::printf("env: timer armed for %lld ms\n", static_cast<long long>(timeout_.count()));
  }
  void cancel_timer() {
    deadline_.reset();
    std::printf("env: timer cancelled\n");
  }
  [[nodiscard]] const std::optional<Clock::time_point>& deadline() const { return deadline_; }
  void expire() { deadline_.reset(); }

 private:
  std::chrono::milliseconds timeout_;
  std::optional<Clock::time_point> deadline_;
};

using Holder = order::Holder<Env>;

void fire(Holder& holder, order::Event e) {
  const order::State before = holder.order().state();
  if (auto refusal = holder.handle(e)) {
    std::printf("order: %s in %s was %s\n", order::name(e).data(), order::name(before).data(),
                refusal.what().data());
  } else {
    std::printf("order: %s: %s -> %s\n", order::name(e).data(), order::name(before).data(),
                order::name(holder.order().state()).data());
  }
  std::fflush(stdout);
}

std::optional<order::Event> parse(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (line == "submit") return order::Event::submit;
  if (line == "ack") return order::Event::ack;
  if (line == "cancel") return order::Event::cancel;
  return std::nullopt;
}

// Milliseconds until the deadline (-1: none), for poll.
int wait_ms(const Env& env) {
  if (!env.deadline()) return -1;
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(*env.deadline() - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

int usage(const char* why) {
  std::fprintf(stderr, "orderd: %s\nusage: orderd [--timeout-ms N]   (N from 1 to 600000)\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long timeout_ms = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--timeout-ms" && i + 1 < argc) {
      char* end = nullptr;
      errno = 0;
      timeout_ms = std::strtol(argv[++i], &end, 10);
      if (errno != 0 || *end != '\0' || timeout_ms < 1 || timeout_ms > 600000) {
        return usage("--timeout-ms takes a whole number of milliseconds from 1 to 600000");
      }
    } else {
      return usage(("unknown argument: " + std::string(arg)).c_str());
    }
  }
  Env env{std::chrono::milliseconds(timeout_ms)};
  Holder holder{env};
  std::string pending_input;
  bool input_open = true;
  std::printf("order: %s\n", order::name(holder.order().state()).data());
  while (input_open || env.deadline()) {
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&fd, input_open ? 1 : 0, wait_ms(env));
    if (ready < 0 && errno != EINTR) {
      std::perror("orderd: poll");
      return 1;
    }
    if (ready == 0 && env.deadline()) {
      env.expire();
      fire(holder, order::Event::timeout);
      continue;
    }
    if (ready <= 0 || !(fd.revents & (POLLIN | POLLHUP))) continue;
    char buf[256];
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) {
      input_open = false;
      continue;
    }
    pending_input.append(buf, static_cast<std::size_t>(n));
    for (auto nl = pending_input.find('\n'); nl != std::string::npos;
         nl = pending_input.find('\n')) {
      const std::string line = pending_input.substr(0, nl);
      pending_input.erase(0, nl + 1);
      if (line == "quit") {
        input_open = false;
        env.expire();
        break;
      }
      if (line.empty()) continue;
      if (auto e = parse(line)) {
        fire(holder, *e);
      } else {
        std::printf("orderd: unknown command '%s' (submit, ack, cancel, quit)\n", line.c_str());
      }
    }
  }
  std::printf("order: final state %s after %llu retries\n",
              order::name(holder.order().state()).data(),
              static_cast<unsigned long long>(holder.order().retries()));
  return 0;
}
