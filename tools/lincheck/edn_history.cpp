// edn_history.cpp — the EDN reader of histories: the text parsed form by
// form (edn.hpp), each event map's fields turned into the JSON values
// EventReader reads, in either layout (maps one after another, or one
// vector of maps).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <merilo/core/text.hpp>

#include "edn.hpp"
#include "events.hpp"
#include "history_file.hpp"

namespace merilo::lincheck {

namespace {

using nlohmann::json;

InputError at(const edn::Position& p, std::string message) {
  return InputError{p.line, std::move(message), p.column};
}

// A map's key as JSON object keys spell it: a keyword's name, a string as
// it is, anything else written as EDN.
std::string key_text(const edn::Value& k) {
  if (k.kind == edn::Kind::keyword || k.kind == edn::Kind::string) return k.text;
  return edn::shown(k, kMaxShown);
}

// `v` as JSON: keywords become strings (":write" is "write"), lists and sets
// arrays. Nesting is bounded by the parser's edn::kMaxDepth.
json to_json(const edn::Value& v) {
  switch (v.kind) {
    case edn::Kind::nil:
      return nullptr;
    case edn::Kind::boolean:
      return v.boolean;
    case edn::Kind::integer:
      return v.integer;
    case edn::Kind::string:
    case edn::Kind::keyword:
      return v.text;
    case edn::Kind::vector:
    case edn::Kind::list:
    case edn::Kind::set: {
      json out = json::array();
      for (const auto& item : v.items) out.push_back(to_json(item));
      return out;
    }
    case edn::Kind::map: {
      json out = json::object();
      for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
        out[key_text(v.items[i])] = to_json(v.items[i + 1]);
      }
      return out;
    }
  }
  return nullptr;
}

std::optional<InputError> event(EventReader& reader, const edn::Value& v) {
  if (v.kind != edn::Kind::map) {
    return at(v.at, fmt::format("expected a map (one event), got {} {}", edn::kind_name(v.kind),
                                edn::shown(v, kMaxShown)));
  }
  Event e;
  for (std::size_t i = 0; i < v.items.size(); i += 2) {
    const edn::Value& k = v.items[i];
    if (k.kind != edn::Kind::keyword) {
      return at(k.at, fmt::format("an event's keys are keywords (:type, :f, :value, ...), got {}",
                                  edn::shown(k, kMaxShown)));
    }
    if (auto* s = e.slot(k.text)) *s = to_json(v.items[i + 1]);
  }
  return reader.event(v.at.line, v.at.column, std::move(e));
}

std::optional<InputError> fail(const edn::Error& e) { return at(e.at, e.message); }

// EDN is UTF-8 text. A byte that is not (a string holding 0xFF) would
// reach the history's keys and values, where two different invalid keys
// could not be told apart once shown, so the whole text is checked first,
// as the JSON Lines parser checks its strings.
std::optional<InputError> not_utf8(std::string_view text) {
  const std::size_t good = core::utf8_valid_length(text);
  if (good == text.size()) return std::nullopt;
  const std::string_view before = text.substr(0, good);
  const std::size_t newline = before.rfind('\n');
  const edn::Position p{
      1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')),
      newline == std::string_view::npos ? good + 1 : good - newline};
  return at(p, fmt::format("the text is not UTF-8 (byte 0x{:02x}); EDN histories are UTF-8",
                           static_cast<unsigned>(static_cast<unsigned char>(text[good]))));
}

}  // namespace

std::optional<InputError> read_edn_history(std::istream& in, const ReadOptions& options,
                                           RawHistory& out) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (auto wrong = not_utf8(text)) return wrong;
  edn::Parser parser(text);
  EventReader reader(options, Syntax::edn, out);
  std::optional<edn::Error> error;
  const std::optional<char> first = parser.skip(error);
  if (error) return fail(*error);
  if (first.has_value() && (*first == '[' || *first == '(')) {
    // Knossos's layout: one vector (or list) of event maps.
    const edn::Position opened = parser.position();
    const char close = *first == '[' ? ']' : ')';
    parser.take();
    for (;;) {
      const std::optional<char> c = parser.skip(error);
      if (error) return fail(*error);
      if (!c) {
        return at(opened, fmt::format("the {} that holds the history is never closed", *first));
      }
      if (*c == close) {
        parser.take();
        break;
      }
      edn::Value v;
      if (auto e = parser.form(v)) return fail(*e);
      if (auto e = event(reader, v)) return e;
    }
    const std::optional<char> after = parser.skip(error);
    if (error) return fail(*error);
    if (after) {
      return at(parser.position(),
                fmt::format("more after the {}{} that holds the history", *first, close));
    }
    return reader.finish();
  }
  // history.edn's layout: one map after another (one per line as Jepsen writes it).
  for (;;) {
    const std::optional<char> c = parser.skip(error);
    if (error) return fail(*error);
    if (!c) break;
    edn::Value v;
    if (auto e = parser.form(v)) return fail(*e);
    if (auto e = event(reader, v)) return e;
  }
  return reader.finish();
}

}  // namespace merilo::lincheck
