// edn_test.cpp — the strict EDN reader (tools/lincheck/edn.hpp) and the EDN
// history reader built on it (read_edn_history): what they accept, and the
// line and column of each refusal.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "edn.hpp"
#include "history_file.hpp"
#include "lincheck.hpp"

namespace {

using merilo::lincheck::edn::Kind;
using merilo::lincheck::edn::Parser;
using merilo::lincheck::edn::Value;

// The one form in `text`, or the error's text.
std::string parse_error(const std::string& text) {
  Parser p(text);
  Value v;
  auto e = p.form(v);
  return e ? e->text() : "";
}

Value parse(const std::string& text) {
  Parser p(text);
  Value v;
  auto e = p.form(v);
  EXPECT_FALSE(e) << e->text();
  return v;
}

TEST(Edn, ReadsAJepsenEventMap) {
  const Value v = parse("{:type :invoke, :f :write, :value 3, :process 0, :time 123, :index 7}");
  ASSERT_EQ(v.kind, Kind::map);
  ASSERT_EQ(v.items.size(), 12U);
  EXPECT_TRUE(v.get("type")->is_keyword("invoke"));
  EXPECT_EQ(v.get("value")->integer, 3);
  EXPECT_EQ(v.get("time")->integer, 123);
  EXPECT_EQ(v.get("missing"), nullptr);
}

TEST(Edn, ReadsScalarsOfEveryKind) {
  EXPECT_EQ(parse("nil").kind, Kind::nil);
  EXPECT_TRUE(parse("true").boolean);
  EXPECT_FALSE(parse("false").boolean);
  EXPECT_EQ(parse("-42").integer, -42);
  EXPECT_EQ(parse("+7").integer, 7);
  EXPECT_EQ(parse("12N").integer, 12);
  EXPECT_EQ(parse("-9223372036854775808").integer, INT64_MIN);
  EXPECT_EQ(parse("9223372036854775807").integer, INT64_MAX);
  EXPECT_EQ(parse(":jepsen/op").text, "jepsen/op");
  EXPECT_EQ(parse(R"("a\"b\\c\n\u00e9\ud83d\ude00")").text, "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(Edn, ReadsCollectionsCommentsCommasAndDiscards) {
  const Value v = parse("[1, (2 3) #{4 5} ; a comment\n #_ :dropped {:a [nil]}]");
  ASSERT_EQ(v.kind, Kind::vector);
  ASSERT_EQ(v.items.size(), 4U);
  EXPECT_EQ(v.items[1].kind, Kind::list);
  EXPECT_EQ(v.items[2].kind, Kind::set);
  EXPECT_EQ(v.items[3].kind, Kind::map);
  EXPECT_EQ(v.items[3].at.line, 2U);
  EXPECT_EQ(v.items[3].at.column, 14U);
}

TEST(Edn, RefusesWhatHistoriesDoNotUseNamingLineAndColumn) {
  EXPECT_EQ(parse_error("{:value 1.5}"),
            "line 1, column 9: `1.5` is not an integer: only integers are supported (no floats, "
            "ratios or radix numbers)");
  EXPECT_EQ(parse_error("\n  #jepsen.history.Op{:type :ok}").substr(0, 61),
            "line 2, column 3: the tagged literal #jepsen.history.Op is no");
  EXPECT_EQ(parse_error("#inst \"2020\"").substr(0, 47),
            "line 1, column 1: the tagged literal #inst is n");
  EXPECT_EQ(parse_error("[a]"),
            "line 1, column 2: unexpected symbol `a` (a history holds nil, true, false, integers, "
            "strings, keywords and collections)");
  EXPECT_EQ(parse_error("\\c"),
            "line 1, column 1: characters (\\c) are not supported: write a string");
  EXPECT_EQ(parse_error("1/2").substr(0, 30), "line 1, column 1: `1/2` is not");
  EXPECT_EQ(parse_error("012"),
            "line 1, column 1: `012` has a leading zero, which EDN does not allow");
  EXPECT_EQ(parse_error("9223372036854775808"),
            "line 1, column 1: the integer `9223372036854775808` does not fit in 64 bits");
  EXPECT_EQ(parse_error("::a"), "line 1, column 1: auto-resolved keywords (`::a`) are not EDN");
  EXPECT_EQ(parse_error(":"), "line 1, column 1: a keyword needs a name after its colon");
  EXPECT_EQ(parse_error("\"\\q\""), "line 1, column 2: unknown escape \\q in a string");
  EXPECT_EQ(parse_error("\"\\ud800\""),
            "line 1, column 2: \\u escape is a high surrogate without its low half");
  EXPECT_EQ(parse_error("#(inc %)"), "line 1, column 1: `#(` is not part of the EDN histories use");
}

TEST(Edn, RefusesBrokenStructureAtTheRightPlace) {
  EXPECT_EQ(parse_error("{:a 1\n :b"), "line 1, column 1: the `{` opened here is never closed");
  EXPECT_EQ(parse_error("[1 2}"),
            "line 1, column 5: expected `]` to close the `[` on line 1, column 1, found `}`");
  EXPECT_EQ(parse_error("{:a 1 :b}"),
            "line 1, column 1: this map has a key without a value (3 forms)");
  EXPECT_EQ(parse_error("{:a 1 :a 2}"), "line 1, column 7: the key :a appears twice in this map");
  EXPECT_EQ(parse_error("#{1 1}"), "line 1, column 5: the element 1 appears twice in this set");
  EXPECT_EQ(parse_error("\"abc"), "line 1, column 1: the string opened here is never closed");
  EXPECT_EQ(parse_error(")"), "line 1, column 1: unexpected `)`: nothing is open here");
  EXPECT_EQ(parse_error("  ; only a comment"),
            "line 1, column 19: expected a value, found the end of the input");
}

TEST(Edn, RefusesNestingDeeperThanTheLimit) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(parse_error(deep), "line 1, column 65: values nest deeper than 64 levels");
  std::string discards;
  for (int i = 0; i < 100000; ++i) discards += "#_";
  EXPECT_EQ(parse_error(discards + "1"), "line 1, column 129: values nest deeper than 64 levels");
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_EQ(parse_error(ok), "");
}

TEST(Edn, BoundsEachFormByItsBytes) {
  const std::string text = "[1 2 3] [1 2 3 4]";
  Parser p(text);
  Value v;
  EXPECT_FALSE(p.form(v, 7));  // exactly the bound
  EXPECT_EQ(v.items.size(), 3U);
  auto e = p.form(v, 7);  // one byte over
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->too_long);
  EXPECT_EQ(e->text(), "line 1, column 9: longer than 7 bytes");
  const std::string long_string = "\"" + std::string(100000, 'a') + "\"";
  Parser q(long_string);
  e = q.form(v, 1000);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->too_long);
  EXPECT_TRUE(v.text.empty());
}

TEST(Edn, KeepsOnlyTheWantedValuesOfTheTopMap) {
  const std::string text = "{:f :read, :extra [1 [2 #{3}] \"x\"], :value {:a [4]}}";
  Parser p(text);
  Value v;
  ASSERT_FALSE(p.form(v, SIZE_MAX, [](std::string_view k) { return k == "f" || k == "value"; }));
  ASSERT_EQ(v.items.size(), 6U);
  EXPECT_TRUE(v.get("f")->is_keyword("read"));
  EXPECT_EQ(v.get("extra")->kind, Kind::nil);  // checked, not kept
  EXPECT_EQ(v.get("value")->kind, Kind::map);
  EXPECT_EQ(v.get("value")->items.size(), 2U);
  // An unwanted value is still read as EDN: an error in it is an error.
  Parser odd("{:f :read, :extra [{:a}]}");
  EXPECT_EQ(odd.form(v, SIZE_MAX, [](std::string_view k) { return k == "f"; })->text(),
            "line 1, column 20: this map has a key without a value (1 forms)");
  EXPECT_EQ(parse_error("#_ {:a} 1"),
            "line 1, column 4: this map has a key without a value (1 forms)");
  Parser bad("{:f :read, :extra [1.5]}");
  EXPECT_EQ(bad.form(v, SIZE_MAX, [](std::string_view k) { return k == "f"; })->text(),
            "line 1, column 20: `1.5` is not an integer: only integers are supported (no floats, "
            "ratios or radix numbers)");
}

TEST(Edn, NamesAByteOrderMarkAsAnEscape) {
  EXPECT_EQ(parse_error("[1 \xef\xbb\xbf]"),
            "line 1, column 4: unexpected symbol `\\ufeff` (a history holds nil, true, false, "
            "integers, strings, keywords and collections)");
}

TEST(Edn, ShowsValuesBackAsEdnCutShort) {
  EXPECT_EQ(merilo::lincheck::edn::shown(parse("{:a [1 \"x\"], :b #{nil}}"), 80),
            "{:a [1 \"x\"], :b #{nil}}");
  EXPECT_EQ(merilo::lincheck::edn::shown(parse("[1 2 3 4 5 6 7 8 9]"), 6), "[1 2 3…");
}

// --- read_edn_history -------------------------------------------------------

using merilo::lincheck::Completion;
using merilo::lincheck::RawHistory;
using merilo::lincheck::ReadOptions;

ReadOptions register_options() {
  ReadOptions o;
  o.fs = {"read", "write", "cas"};
  o.model = "register";
  return o;
}

std::string read_error(const std::string& text, const ReadOptions& options = register_options()) {
  std::istringstream in(text);
  RawHistory h;
  auto e = merilo::lincheck::read_edn_history(in, options, h);
  return e ? e->text() : "";
}

TEST(EdnHistory, ReadsOneMapPerLineSkippingTheNemesis) {
  std::istringstream in(
      "{:type :invoke, :f :write, :value 3, :process 0, :time 1, :index 0}\n"
      "{:type :info, :f :start, :value nil, :process :nemesis, :time 2, :index 1}\n"
      "{:type :ok, :f :write, :value 3, :process 0, :time 3, :index 2}\n");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].f, "write");
  EXPECT_EQ(h.ops[0].argument, 3);
  EXPECT_EQ(h.ops[0].completion, Completion::ok);
  EXPECT_EQ(h.ops[0].invoke_line, 1U);
  EXPECT_EQ(h.ops[0].complete_line, 3U);
  EXPECT_TRUE(h.timed);
}

TEST(EdnHistory, ReadsKnossosVectorOfMapsWithCas) {
  std::istringstream in(
      "[{:process 0, :type :invoke, :f :cas, :value [0 2]}\n"
      " {:process 0, :type :fail, :f :cas, :value [0 2]}]\n");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].argument, nlohmann::json::array({0, 2}));
  EXPECT_EQ(h.ops[0].completion, Completion::fail);
  EXPECT_EQ(h.ops[0].complete_line, 2U);
  EXPECT_EQ(h.ops[0].complete_column, 2U);
}

TEST(EdnHistory, IndependentTuplesGiveTheKey) {
  ReadOptions o = register_options();
  o.independent = true;
  std::istringstream in(
      "({:process 0, :type :invoke, :f :write, :value [:x 4]}\n"
      " {:process 0, :type :ok, :f :write, :value [:x 4]})");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, o, h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].key, "\"x\"");
  EXPECT_EQ(h.ops[0].argument, 4);
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :write, :value 4}", o),
            "line 1, column 1: --independent needs every :value to be a [key value] tuple, got 4");
}

TEST(EdnHistory, RefusesTextThatIsNotUtf8WhereverItIs) {
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read}\n{:process \"a\xff\"}"),
            "line 2, column 13: the text is not UTF-8 (byte 0xff); EDN histories are UTF-8");
  EXPECT_EQ(read_error("; \xc3\n{}"),
            "line 1, column 3: the text is not UTF-8 (byte 0xc3); EDN histories are UTF-8");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :\xe2\x82}]"),
            "line 1, column 34: the text is not UTF-8 (byte 0xe2); EDN histories are UTF-8");
}

TEST(EdnHistory, NamesLineAndColumnOfEveryProblem) {
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}\n 7]"),
            "line 2, column 2: expected a map (one event), got an integer 7");
  EXPECT_EQ(read_error("{:process 0, :type :invoke}"), "line 1, column 1: missing :f");
  EXPECT_EQ(read_error("  {:process -1, :type :invoke, :f :read}"),
            "line 1, column 3: :process must be a non-negative integer (or :nemesis), got -1");
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read, \"x\" 1}"),
            "line 1, column 39: an event's keys are keywords (:type, :f, :value, ...), got \"x\"");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}"),
            "line 1, column 1: the [ that holds the history is never closed");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}] {}"),
            "line 1, column 41: more after the [] that holds the history");
  EXPECT_EQ(read_error("; nothing\n"),
            "the history is empty: no events (expected maps such as {:process 0, :type :invoke, "
            ":f :read, :value nil})");
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read, :index -3}"),
            "line 1, column 1: :index must be a non-negative integer, got -3");
}

TEST(EdnHistory, OrdersEventsByPositionEvenOnOneLine) {
  std::istringstream in(
      "[{:process 0, :type :invoke, :f :write, :value 1} {:process 0, :type :ok, :f :write, "
      ":value 1} {:process 1, :type :invoke, :f :read}]\n{:process 1, :type :ok, :f :read}");
  RawHistory h;
  // (the vector ends the history: read the maps layout on one line instead)
  EXPECT_TRUE(merilo::lincheck::read_edn_history(in, register_options(), h));
  std::istringstream maps(
      "{:process 0, :type :invoke, :f :write, :value 1} {:process 0, :type :ok, :f :write, "
      ":value 1} {:process 1, :type :invoke, :f :read}\n{:process 1, :type :ok, :f :read}");
  RawHistory m;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(maps, register_options(), m));
  ASSERT_EQ(m.ops.size(), 2U);
  EXPECT_EQ(m.order, merilo::lincheck::Order::position);
  EXPECT_TRUE(m.shared_lines);
  EXPECT_EQ(m.ops[0].invoked_at, 1);
  EXPECT_EQ(m.ops[0].returned_at, 2);
  EXPECT_EQ(m.ops[1].invoked_at, 3);  // after the write returned, though on its line
  EXPECT_EQ(m.ops[1].returned_at, 4);
  EXPECT_EQ(m.ops[1].invoke_line, 1U);
  EXPECT_EQ(m.ops[1].invoke_column, 95U);
}

TEST(EdnHistory, EventsOneALineAreInLineOrder) {
  std::istringstream in(
      "{:process 0, :type :invoke, :f :read}\n{:process 0, :type :ok, :f :read, :value 1}\n");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  EXPECT_FALSE(h.shared_lines);
  EXPECT_EQ(h.ops[0].invoked_at, 1);
  EXPECT_EQ(h.ops[0].returned_at, 2);
}

TEST(EdnHistory, RefusesASetWhereAValueIsRead) {
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :cas, :value #{2 1}}"),
            "line 1, column 45: a set (#{2 1}) has no order, so it cannot be read as :value (a "
            "cas's [expected new], a [key value] tuple): write a vector");
  ReadOptions o = register_options();
  o.independent = true;
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :cas, :value [:x #{1 2}]}", o).substr(0, 40),
            "line 1, column 49: a set (#{1 2}) has no");
  // A fail or info completion's value is ignored, set or not.
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :cas, :value [1 2]}\n"
                       "{:process 0, :type :fail, :f :cas, :value #{:timeout}}"),
            "");
}

TEST(EdnHistory, SkipsALeadingByteOrderMark) {
  std::istringstream in("\xef\xbb\xbf{:process 0, :type :invoke, :f :read}");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  EXPECT_EQ(h.ops[0].invoke_column, 1U);
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read}\n\xef\xbb\xbf").substr(0, 44),
            "line 2, column 1: unexpected symbol `\\ufeff`");
}

TEST(EdnHistory, BoundsEachEventByMaxLineBytes) {
  ReadOptions o = register_options();
  o.max_line_bytes = 60;
  const std::string event = "{:process 0, :type :invoke, :f :read}";  // 37 bytes
  EXPECT_EQ(
      read_error("[" + event + "\n " + event.substr(0, 36) + ", :extra [1 2 3 4 5 6 7 8]}]", o),
      "line 2, column 2: this event is longer than 60 bytes (in EDN --max-line-bytes bounds "
      "each event; raise it if the event is meant to be)");
  // The whole vector is longer than the bound; each event is not.
  std::string three = "[";
  for (char p : {'0', '1', '2'})
    three += "{:process " + std::string(1, p) + ", :type :invoke, :f :read}\n";
  EXPECT_EQ(read_error(three + "]", o), "");
}

// --- Jepsen's meaning (EDN's default) and merilo's (JSON Lines') --------------

// The exit status of merilo-lincheck on `text`, read as the file `name`.
int verdict(const std::string& text, const std::string& name, const std::string& model,
            const std::string& meaning = "auto", std::optional<std::int64_t> initial = {}) {
  merilo::lincheck::Args args;
  args.model = model;
  args.input = name;
  args.meaning = meaning;
  args.initial = initial;
  std::istringstream in(text);
  std::ostringstream out;
  std::ostringstream err;
  return merilo::lincheck::run(args, in, out, err);
}

TEST(EdnMeaning, AFailedCasTookNoEffect) {
  const std::string h =
      "{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :write, "
      ":value 1}\n{:process 1, :type :invoke, :f :cas, :value [1 2]}\n{:process 1, :type :fail, "
      ":f :cas, :value [1 2]}\n";
  EXPECT_EQ(verdict(h, "h.edn", "register"), 0);
  EXPECT_EQ(verdict(h, "h.edn", "register", "merilo"), 1);  // "did not hold 1": it did
}

TEST(EdnMeaning, ANilReadConstrainsNothing) {
  const std::string h =
      "[{:process 0, :type :invoke, :f :write, :value 1} {:process 0, :type :ok, :f :write, "
      ":value 1}\n {:process 1, :type :invoke, :f :read} {:process 1, :type :ok, :f :read, "
      ":value nil}]";
  EXPECT_EQ(verdict(h, "h.edn", "register"), 0);
  EXPECT_EQ(verdict(h, "h.edn", "register", "jepsen", 0), 0);
  EXPECT_EQ(verdict(h, "h.edn", "register", "merilo"), 1);
}

TEST(EdnMeaning, ANonNilReadStillConstrainsFromEitherInitialValue) {
  const std::string h =
      "{:process 1, :type :invoke, :f :read}\n{:process 1, :type :ok, :f :read, :value 0}\n";
  EXPECT_EQ(verdict(h, "h.edn", "register", "auto", 0), 0);  // (cas-register 0)
  EXPECT_EQ(verdict(h, "h.edn", "register"), 1);             // (cas-register): nil at first
}

TEST(EdnMeaning, ANilGetConstrainsNothing) {
  const std::string h =
      "{:process 0, :type :invoke, :f :put, :key :x, :value \"a\"}\n{:process 0, :type :ok, :f "
      ":put, :key :x, :value \"a\"}\n{:process 1, :type :invoke, :f :get, :key :x}\n{:process 1, "
      ":type :ok, :f :get, :key :x, :value nil}\n";
  EXPECT_EQ(verdict(h, "h.edn", "kv"), 0);
  EXPECT_EQ(verdict(h, "h.edn", "kv", "merilo"), 1);  // a nil get reads "", after "a"
}

TEST(EdnMeaning, AnOkDequeueOrRemoveOfNilIsRefused) {
  const std::string q =
      "{:process 1, :type :invoke, :f :dequeue}\n{:process 1, :type :ok, :f :dequeue, :value "
      "nil}\n";
  EXPECT_EQ(verdict(q, "h.edn", "queue"), 3);
  EXPECT_EQ(verdict(q, "h.edn", "queue", "merilo"), 0);  // the queue was empty
  const std::string b =
      "{:process 1, :type :invoke, :f :remove}\n{:process 1, :type :ok, :f :remove, :value nil}\n";
  EXPECT_EQ(verdict(b, "h.edn", "bag"), 3);
  EXPECT_EQ(verdict(b, "h.edn", "bag", "merilo"), 0);
}

TEST(EdnMeaning, JsonLinesKeepsItsOwnMeaningUnlessAsked) {
  const std::string h =
      "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1}\n"
      "{\"process\": 0, \"type\": \"ok\", \"f\": \"write\", \"value\": 1}\n"
      "{\"process\": 1, \"type\": \"invoke\", \"f\": \"read\"}\n"
      "{\"process\": 1, \"type\": \"ok\", \"f\": \"read\", \"value\": null}\n";
  EXPECT_EQ(verdict(h, "h.jsonl", "register"), 1);
  EXPECT_EQ(verdict(h, "h.jsonl", "register", "jepsen"), 0);
}

}  // namespace
