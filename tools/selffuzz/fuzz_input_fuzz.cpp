// fuzz_input_fuzz.cpp — fuzzes merilo::fuzz's input decoder through its
// public API only. Byte 0 picks the number of kinds (1-64); the rest is a
// fuzz input. Every byte string must decode, and the decoding must agree
// with the format in fuzz/include/merilo/fuzz/input.hpp:
//
//   * masked(k) is bit k % 8 of byte k / 8 (0 past the end);
//   * each next() consumes at least one byte and never runs past the end;
//   * re-encoding the mask and the choices (append_varint) decodes to the
//     same mask and choices, consuming every byte;
//   * choose() picks among the candidates, and picks a choice that names
//     one as it is;
//   * to_fuzz_bytes of the choices (as kinds) decodes to those kinds, with
//     nothing masked.
//
// Any disagreement prints the input's facts and aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include <merilo/fuzz/input.hpp>

#include "seeds.hpp"

namespace {

using merilo::explore::Kind;

[[noreturn]] void fail(const char* what, std::size_t kinds, std::size_t size) {
  std::fprintf(stderr, "==merilo== ERROR: fuzz input decoder: %s (%zu kinds, %zu bytes)\n", what,
               kinds, size);
  std::abort();
}

struct Decoded {
  std::vector<bool> masked;
  std::vector<std::uint64_t> choices;
  std::size_t consumed = 0;
};

Decoded decode(std::span<const std::uint8_t> bytes, std::size_t kinds) {
  Decoded d;
  merilo::fuzz::Input input(bytes, kinds);
  for (Kind k = 0; k < kinds; ++k) d.masked.push_back(input.masked(k));
  std::size_t before = input.consumed();
  for (std::uint64_t v = 0; input.next(v);) {
    if (input.consumed() <= before) fail("next() consumed nothing", kinds, bytes.size());
    if (input.consumed() > bytes.size()) fail("next() read past the end", kinds, bytes.size());
    before = input.consumed();
    d.choices.push_back(v);
  }
  d.consumed = input.consumed();
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (dir.empty()) return 0;
  std::vector<std::vector<std::uint8_t>> seeds = {
      {1},                                // 2 kinds, no bytes at all
      {1, 0x00, 0x00, 0x01, 0x01},        // input.hpp's example
      {9, 0xff, 0x03, 0x80, 0x01, 0x7f},  // 10 kinds, a mask, a two-byte varint
      {63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
       0xff, 0xff, 0x7f},  // 64 kinds, a long varint
      {2, 0x05, 0x80},     // a varint cut off by the end
  };
  merilo::selffuzz::write_seeds(dir, seeds);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t kinds = 1 + data[0] % 64U;
  const std::span<const std::uint8_t> bytes(data + 1, size - 1);
  const Decoded d = decode(bytes, kinds);

  for (Kind k = 0; k < kinds; ++k) {
    const bool expected = k / 8 < bytes.size() && ((bytes[k / 8] >> (k % 8)) & 1U) != 0;
    if (d.masked[k] != expected) fail("masked() disagrees with the mask bits", kinds, size);
  }

  // The same mask and choices, re-encoded, decode the same.
  std::vector<std::uint8_t> again(merilo::fuzz::mask_bytes(kinds), 0);
  for (std::size_t i = 0; i < again.size() && i < bytes.size(); ++i) again[i] = bytes[i];
  for (const std::uint64_t v : d.choices) merilo::fuzz::append_varint(again, v);
  const Decoded e = decode(again, kinds);
  if (e.masked != d.masked) fail("the re-encoded mask decodes differently", kinds, size);
  if (e.choices != d.choices) fail("re-encoded choices decode differently", kinds, size);
  if (e.consumed != again.size()) fail("a re-encoded input is not consumed exactly", kinds, size);

  // choose() stays among the candidates: the unmasked kinds (all when every
  // kind is masked, as the format says).
  std::vector<Kind> candidates;
  for (Kind k = 0; k < kinds; ++k) {
    if (!d.masked[k]) candidates.push_back(k);
  }
  if (candidates.empty()) {
    for (Kind k = 0; k < kinds; ++k) candidates.push_back(k);
  }
  merilo::explore::Trace trace;
  for (const std::uint64_t v : d.choices) {
    const Kind picked = merilo::fuzz::choose(v, candidates);
    bool member = false;
    for (const Kind c : candidates) member = member || c == picked;
    if (!member) fail("choose() picked a kind that is not a candidate", kinds, size);
    if (v < kinds && !d.masked[static_cast<std::size_t>(v)] && picked != v) {
      fail("choose() did not take a choice naming a candidate as it is", kinds, size);
    }
    trace.push_back(static_cast<Kind>(v % kinds));
  }

  // A trace encoded by to_fuzz_bytes decodes to itself, nothing masked.
  const merilo::fuzz::FuzzBytes encoded = merilo::fuzz::to_fuzz_bytes(kinds, trace);
  if (!encoded.ok()) fail("to_fuzz_bytes refused kinds in range", kinds, size);
  const Decoded f = decode(encoded.bytes, kinds);
  for (Kind k = 0; k < kinds; ++k) {
    if (f.masked[k]) fail("to_fuzz_bytes masked a kind", kinds, size);
  }
  if (f.choices.size() != trace.size()) fail("to_fuzz_bytes lost kinds", kinds, size);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (f.choices[i] != trace[i]) fail("to_fuzz_bytes changed a kind", kinds, size);
  }
  return 0;
}
