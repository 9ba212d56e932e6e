// The one way paperpress parses JSON. rapidjson's default parser recurses
// once per nesting level, so a reply, a legacy file or a shard made of
// 200,000 '[' would overflow the stack; the iterative parser keeps its
// stack on the heap. Every Parse goes through here, so no caller can forget.
#pragma once

// rapidjson 1.1's stacks start as null pointers and test `top + n > end`
// before their first allocation: harmless, but undefined behaviour that
// UBSan stops the fuzz targets on. Include this header before any rapidjson
// header so that, under clang, its functions are exempt from that one check.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <iterator>
#include <limits>
#include <new>
#include <ostream>
#include <string>
#include <utility>
#if defined(__clang__) // the standard library above keeps its attributes
#pragma clang attribute push(__attribute__((no_sanitize("pointer-overflow"))), apply_to = function)
#endif
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#if defined(__clang__)
#pragma clang attribute pop
#endif

#include <string_view>

namespace pp {

// Parses `text` into `doc`, never recursing; true when it is valid JSON.
// `Flags` adds rapidjson parse flags (e.g. kParseFullPrecisionFlag).
template <unsigned Flags = rapidjson::kParseDefaultFlags>
bool parse_json(rapidjson::Document& doc, std::string_view text) {
    doc.Parse<Flags | rapidjson::kParseIterativeFlag>(text.data(), text.size());
    return !doc.HasParseError();
}

} // namespace pp
