// The one way paperpress parses JSON. rapidjson's default parser recurses
// once per nesting level, so a reply, a legacy file or a shard made of
// 200,000 '[' would overflow the stack; the iterative parser keeps its
// stack on the heap. Every Parse goes through here, so no caller can forget.
#pragma once

// Two of rapidjson 1.1's undefined behaviours stop the fuzz targets (UBSan):
// its stacks start as null pointers and test `top + n > end` before their
// first allocation (harmless), and the full-precision parser of a zero with
// an exponent ("0E0080") counts the leading zeros of 0, and reads garbage
// (1.29e266; only in text paperpress did not write). Include this header
// before any rapidjson header so that, under clang, rapidjson's functions
// are exempt from those two checks, and only those.
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
#pragma clang attribute push(__attribute__((no_sanitize("pointer-overflow", "builtin"))), apply_to = function)
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

// rapidjson 1.1's SSE2 writer (RAPIDJSON_SSE2) copies the control bytes
// 0x1A-0x1F into strings unescaped, which is not JSON. Outside strings its
// output has no control bytes, so escaping them afterwards is exact.
inline constexpr std::string_view unescaped_by_rapidjson = "\x1a\x1b\x1c\x1d\x1e\x1f";

inline std::string escape_control_bytes(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json) {
        if (unescaped_by_rapidjson.find(c) == std::string_view::npos) {
            out += c;
        } else {
            out += "\\u001";
            out += "abcdef"[c - 0x1a];
        }
    }
    return out;
}

} // namespace pp
