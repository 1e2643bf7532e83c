// events.hpp — turns a history's events, one JSON object each (JSON Lines
// gives them directly, EDN maps are converted), into operations: checks
// every field, pairs each invoke with its process's completion. Shared by
// both readers so the two formats follow one set of rules.
#ifndef MERILO_TOOLS_LINCHECK_EVENTS_HPP
#define MERILO_TOOLS_LINCHECK_EVENTS_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "event.hpp"
#include "history_file.hpp"

namespace merilo::lincheck {

/// How the input spells things, for messages: `"process"` or `:process`.
enum class Syntax : std::uint8_t { json, edn };

/// Pairs events into `RawHistory::ops`, one event at a time.
class EventReader {
 public:
  /// Appends to `out`; `options` and `out` must outlive the reader.
  EventReader(const ReadOptions& options, Syntax syntax, RawHistory& out)
      : options_(options), syntax_(syntax), out_(out) {}

  /// One event (with "process", "type", "f", maybe "value", "key",
  /// "time", "index") found at `line` (and `column`, 0 if none). Without
  /// "time", JSON Lines events are ordered by their line and EDN events by
  /// their position among the events (several may share a line).
  [[nodiscard]] std::optional<InputError> event(std::size_t line, std::size_t column, Event event);
  /// The event of a flat JSON Lines line (event.hpp) at `line`, when the
  /// rules would take its fields as they are: returns false, having changed
  /// nothing, when they might refuse one (an unknown type or f, a
  /// [key value] tuple to split) so that `event` must read the line and
  /// name the problem. Otherwise returns true and sets `error` exactly as
  /// `event` would on the same line.
  [[nodiscard]] bool flat_event(std::size_t line, FlatEvent& event,
                                std::optional<InputError>& error);
  /// The end of the input: an empty history is an error.
  [[nodiscard]] std::optional<InputError> finish();

 private:
  struct Process {
    std::optional<std::size_t> open;        // index into ops of its open operation
    std::optional<std::size_t> ended_line;  // the line of its info completion
  };

  [[nodiscard]] std::string name(const char* field) const;
  [[nodiscard]] std::optional<InputError> fail(std::string message) const;
  std::optional<InputError> field_process(const Event& event, std::uint64_t& process) const;
  std::optional<InputError> field_type(const Event& event, std::string& type) const;
  std::optional<InputError> field_f(const Event& event, std::string& f) const;
  std::optional<InputError> field_time(const Event& event, std::int64_t& instant);
  std::optional<InputError> time_present(bool has);
  std::optional<InputError> time_value(std::int64_t time, std::int64_t& instant);
  std::optional<InputError> field_index(const Event& event) const;
  std::optional<InputError> field_key(const Event& event, std::optional<std::string>& key,
                                      nlohmann::json& value) const;
  std::optional<InputError> invoke(std::uint64_t process, std::string_view f, nlohmann::json value,
                                   std::optional<std::string> key, std::int64_t instant);
  std::optional<InputError> complete(std::uint64_t process, std::string_view type,
                                     std::string_view f, nlohmann::json value,
                                     const std::optional<std::string>& key, std::int64_t instant);

  const ReadOptions& options_;
  Syntax syntax_;
  RawHistory& out_;
  std::map<std::uint64_t, Process> processes_;
  std::size_t line_ = 0;
  std::size_t column_ = 0;
  std::size_t line_index_ = 0;
  std::size_t first_line_ = 0;
  std::optional<std::int64_t> last_time_;
  std::int64_t position_ = 0;  // EDN: how many events so far, nemesis ones too
  std::size_t last_line_ = 0;  // EDN: the line of the event before
};

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_EVENTS_HPP
