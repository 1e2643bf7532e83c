// format_execution.cpp — the text of one execution of the memory model:
// each thread's events with the store every read read (the reads-from
// edges a failure report shows), then each location's modification order.
#include <string>

#include <fmt/core.h>

#include <merilo/sync/detail/memory_model.hpp>

namespace merilo::sync::detail {

namespace {

std::string location_name(LocationId x, std::span<const std::string> names) {
  if (x < names.size()) return names[x];
  return fmt::format("x{}", x);
}

std::string thread_name(ThreadId t) {
  if (t == kInitThread) return "init";
  return fmt::format("T{}", t);
}

/// "T1.0", or "init" for a store made before every thread.
std::string where(EventRef e) {
  if (e.thread == kInitThread) return "init";
  return fmt::format("T{}.{}", e.thread, e.index);
}

std::string describe(const MemoryModel& model, const Event& e, std::span<const std::string> names) {
  const std::string x = location_name(e.location, names);
  switch (e.kind) {
    case EventKind::init:
      return fmt::format("init  {} = {}", x, e.written);
    case EventKind::store:
      return fmt::format("store {} = {} ({})", x, e.written, order_name(e.order));
    case EventKind::fence:
      return fmt::format("fence ({})", order_name(e.order));
    case EventKind::load:
    case EventKind::rmw:
    case EventKind::cas_success:
    case EventKind::cas_failure:
      break;
  }
  const Event& source = model.event(e.read_from);
  std::string text;
  if (e.kind == EventKind::load) {
    text = fmt::format("load  {} -> {} ({})", x, e.read, order_name(e.order));
  } else if (e.kind == EventKind::cas_failure) {
    text = fmt::format("cas   {} found {}, failed ({})", x, e.read, order_name(e.order));
  } else {
    text = fmt::format("{} {} {} -> {} ({})", e.kind == EventKind::rmw ? "rmw  " : "cas  ", x,
                       e.read, e.written, order_name(e.order));
  }
  text += fmt::format("   reads-from {} #{}: {} {} = {}", where(e.read_from), source.seq,
                      kind_name(source.kind), x, source.written);
  if (source.kind != EventKind::init) text += fmt::format(" ({})", order_name(source.order));
  return text;
}

}  // namespace

std::string describe_event(const MemoryModel& model, EventRef event,
                           std::span<const std::string> names) {
  return describe(model, model.event(event), names);
}

std::string format_execution(const MemoryModel& model, std::span<const std::string> names) {
  std::string out;
  const auto list = [&](ThreadId t) {
    const std::span<const Event> events = model.events(t);
    if (events.empty()) return;
    out += fmt::format("{}:\n", t == kInitThread ? "initial values" : "thread " + thread_name(t));
    for (std::size_t i = 0; i < events.size(); ++i) {
      out += fmt::format("  #{:<3} {:<6} {}\n", events[i].seq,
                         where(EventRef{t, static_cast<std::uint32_t>(i)}),
                         describe(model, events[i], names));
    }
  };
  list(kInitThread);
  for (std::size_t t = 0; t < model.thread_count(); ++t) {
    if (model.started().contains(static_cast<unsigned>(t))) list(static_cast<ThreadId>(t));
  }
  out += "modification order:\n";
  for (LocationId x = 0; x < model.locations(); ++x) {
    out += fmt::format("  {}:", location_name(x, names));
    for (const EventRef& e : model.modification_order(x)) {
      out += fmt::format(" {}={}", where(e), model.event(e).written);
    }
    out += "\n";
  }
  return out;
}

}  // namespace merilo::sync::detail
