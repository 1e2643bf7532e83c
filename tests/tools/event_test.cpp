// event_test.cpp — the fast scanner of JSON Lines events (event.hpp) reads
// exactly what nlohmann/json reads, or leaves the line to it.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "event.hpp"
#include "history_file.hpp"

namespace {

using merilo::lincheck::Event;
using merilo::lincheck::event_of;
using merilo::lincheck::FlatEvent;
using merilo::lincheck::RawHistory;
using merilo::lincheck::ReadOptions;
using merilo::lincheck::scan_event;
using merilo::lincheck::scan_flat_event;
using nlohmann::json;

// The fields as one JSON object, types included (3 and 3u print alike, so
// compare the type names too).
std::string fields(const Event& e) {
  std::string out;
  const std::pair<const char*, const std::optional<json>*> all[] = {
      {"process", &e.process}, {"type", &e.type}, {"f", &e.f},        {"value", &e.value},
      {"key", &e.key},         {"time", &e.time}, {"index", &e.index}};
  for (const auto& [name, v] : all) {
    out += std::string(name) + "=" + (*v ? (*v)->dump() + ":" + (*v)->type_name() : "absent") + " ";
  }
  return out;
}

// Whatever the scanner accepts, it reads as the full parser does.
void agrees(const std::string& line) {
  const std::optional<Event> fast = scan_event(line);
  if (!fast) return;
  json parsed;
  ASSERT_NO_THROW(parsed = json::parse(line)) << "the scanner accepted what JSON refuses: " << line;
  ASSERT_TRUE(parsed.is_object()) << line;
  EXPECT_EQ(fields(*fast), fields(event_of(parsed))) << line;
}

TEST(EventScan, ReadsFlatLinesAsTheJsonParserDoes) {
  const std::string line =
      R"({"process": 3, "type": "ok", "f": "cas", "value": [1, -2], "key": "r", "time": 17, "extra": [true, null]})";
  const std::optional<Event> e = scan_event(line);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e->process, 3);
  EXPECT_TRUE(e->process->is_number_unsigned());
  EXPECT_EQ(*e->value, json::array({1, -2}));
  EXPECT_FALSE(e->index);
  agrees(line);
}

TEST(EventScan, LeavesEverythingElseToTheParser) {
  for (const char* line : {
           R"({"f": "a\"b"})",                    // an escape
           "{\"f\": \"\xc3\xa9\"}",               // non-ASCII
           R"({"value": 1.5})",                   // a float
           R"({"value": 1e3})",                   // an exponent
           R"({"value": 18446744073709551616})",  // beyond uint64
           R"({"value": -9223372036854775809})",  // beyond int64
           R"({"value": 012})",                   // a leading zero
           R"({"value": {"a": 1}})",              // an object
           R"({"f": "a", "f": "b"})",             // a repeated field
           R"({"f": "a",})",                      // a trailing comma
           R"({"f": "a"} x)",                     // text after the object
           R"([1, 2])",                           // not an object
           R"({"value": [[[[[[[[[1]]]]]]]]]})",   // nested past the fast depth
           R"({"value": nul})",
       }) {
    EXPECT_FALSE(scan_event(line)) << line;
  }
}

TEST(EventScan, AgreesWithTheParserOnEveryTestHistory) {
  std::size_t scanned = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MERILO_LINCHECK_DATA)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      agrees(line);
      if (scan_event(line)) ++scanned;
    }
  }
  EXPECT_GT(scanned, 100U);  // most lines take the fast path
  for (const char* line : {R"({"process": -0})", R"({"process": -9223372036854775808})",
                           R"({"process": 18446744073709551615})", R"({ })", "\t{\"a\":[]}\r"}) {
    EXPECT_TRUE(scan_event(line)) << line;
    agrees(line);
  }
}

TEST(FlatEventScan, KeepsTheRuleFieldsAsPlainValues) {
  FlatEvent e;
  ASSERT_TRUE(
      scan_flat_event(
          R"({"process": 7, "type": "ok", "f": "cas", "value": [1, 2], "key": 12, "time": -3, "index": 0, "x": {}})"
          "",
          e) == false);  // an object among the ignored fields: the parser's
  ASSERT_TRUE(scan_flat_event(
      R"({"process": 7, "type": "ok", "f": "cas", "value": [1, 2], "key": -12, "time": -3, "index": 0})",
      e));
  EXPECT_EQ(e.process, 7U);
  EXPECT_EQ(e.type, "ok");
  EXPECT_EQ(e.f, "cas");
  EXPECT_EQ(e.value, json::array({1, 2}));
  EXPECT_EQ(e.key, "-12");
  EXPECT_EQ(e.time, -3);
  ASSERT_TRUE(scan_flat_event(R"({"process": 0, "type": "x", "f": "y", "key": "r"})", e));
  EXPECT_EQ(e.key, "\"r\"");
  EXPECT_TRUE(e.value.is_null());
  ASSERT_TRUE(scan_flat_event(R"({"process": 0, "type": "x", "f": "y", "key": null})", e));
  EXPECT_FALSE(e.key);
}

TEST(FlatEventScan, LeavesShapesTheRulesMightRefuseToTheFullReader) {
  for (const char* line : {
           R"({"type": "ok", "f": "read"})",                          // no process
           R"({"process": 0, "f": "read"})",                          // no type
           R"({"process": 0, "type": "ok"})",                         // no f
           R"({"process": -1, "type": "ok", "f": "read"})",           // negative
           R"({"process": -0, "type": "ok", "f": "read"})",           // a sign
           R"({"process": "nemesis", "type": "info", "f": "kill"})",  // nemesis
           R"({"process": 0, "type": 1, "f": "read"})",               // type not a string
           R"({"process": 0, "type": "ok", "f": null})",              // f not a string
           R"({"process": 0, "type": "ok", "f": "read", "time": 9223372036854775808})",
           R"({"process": 0, "type": "ok", "f": "read", "time": "1"})",
           R"({"process": 0, "type": "ok", "f": "read", "index": -1})",
           R"({"process": 0, "type": "ok", "f": "read", "key": [1]})",
           R"({"process": 0, "type": "ok", "f": "read", "key": true})",
           "{\"process\": 0, \"type\": \"ok\", \"f\": \"read\", \"key\": \"a\x7f\"}",
           R"({"process": 0, "process": 1, "type": "ok", "f": "read"})",  // repeated
           R"({"process": 0, "type": "ok", "f": "read", "value": 1.5})",  // beyond scan_event
       }) {
    FlatEvent e;
    EXPECT_FALSE(scan_flat_event(line, e)) << line;
  }
}

// Everything a history's reading gives: the error, or the operations.
std::string reading(const std::string& text, const std::string& model, bool fast,
                    bool independent = false) {
  ReadOptions options;
  options.model = model;
  options.fs = model == "kv" ? std::vector<std::string>{"get", "put", "append"}
                             : std::vector<std::string>{"read", "write", "cas"};
  options.independent = independent;
  options.fast_lines = fast;
  RawHistory h;
  std::istringstream in(text);
  if (auto e = merilo::lincheck::read_history(in, options, h)) return "error " + e->text();
  std::string out = "processes " + std::to_string(h.processes) + " events " +
                    std::to_string(h.events) + " timed " + std::to_string(h.timed) + " order " +
                    std::to_string(static_cast<int>(h.order)) + "\n";
  for (const auto& op : h.ops) {
    out += std::to_string(op.process) + " " + op.f + " " + op.argument.dump() + ":" +
           op.argument.type_name() + " " + op.result.dump() + ":" + op.result.type_name() + " " +
           (op.key ? *op.key : "-") + " " + std::to_string(static_cast<int>(op.completion)) + " " +
           std::to_string(op.invoked_at) + " " + std::to_string(op.returned_at) + " " +
           std::to_string(op.invoke_line) + " " + std::to_string(op.complete_line) + "\n";
  }
  return out;
}

void reads_alike(const std::string& text, const std::string& what) {
  for (const char* model : {"register", "kv"}) {
    for (const bool independent : {false, true}) {
      EXPECT_EQ(reading(text, model, true, independent), reading(text, model, false, independent))
          << what << " as " << model << (independent ? " --independent" : "");
    }
  }
}

TEST(FlatEventScan, AHistoryReadsTheSameWithAndWithoutTheFlatPath) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MERILO_LINCHECK_DATA)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    reads_alike(text.str(), entry.path().filename().string());
    ++files;
  }
  EXPECT_GT(files, 40U);
  // Rules that span lines, met on the flat path: times that go back, a
  // time on some lines only, completions that do not match their invoke,
  // a process invoking after its info, a key that changes.
  const char* invoke = R"({"process": 1, "type": "invoke", "f": "write", "value": 1)";
  const char* ok = R"({"process": 1, "type": "ok", "f": "write", "value": 1)";
  for (const std::string& text : {
           std::string(invoke) + ", \"time\": 5}\n" + ok + ", \"time\": 4}\n",
           std::string(invoke) + ", \"time\": 5}\n" + ok + "}\n",
           std::string(invoke) + "}\n" + ok + ", \"time\": 4}\n",
           std::string(invoke) + "}\n" + R"({"process": 1, "type": "ok", "f": "read"})" + "\n",
           std::string(invoke) + "}\n" + R"({"process": 1, "type": "info", "f": "write"})" + "\n" +
               invoke + "}\n",
           std::string(invoke) + ", \"key\": \"a\"}\n" + ok + ", \"key\": \"b\"}\n",
           std::string(invoke) + ", \"key\": 3}\n" + ok + ", \"key\": \"3\"}\n",
           std::string(invoke) + ", \"key\": 3}\n" + ok + ", \"key\": 3, \"index\": 4}\n",
           std::string(ok) + "}\n",
           std::string(invoke) + "}\n" + invoke + "}\n",
       }) {
    reads_alike(text, text);
  }
}

}  // namespace
