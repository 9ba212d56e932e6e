// The one way paperpress parses JSON. rapidjson's default parser recurses
// once per nesting level, so a reply, a legacy file or a day's data made of
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

// Visits each byte of the JSON `text` outside its strings: `visit(i)` may
// move `i` on past what it read, and returns false to stop (then so does
// this). One scan for the checks made before rapidjson reads a text.
template <class Visit>
bool outside_strings(std::string_view text, Visit&& visit) {
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (!visit(i)) {
            return false;
        }
    }
    return true;
}

// Whether every number outside strings is at most 40 characters long, with
// an exponent of at most 300 either way. rapidjson 1.1's full-precision
// parser reads outside its table of powers of ten for a long number with a
// large negative exponent (a crash, found by fuzzing); paperpress never
// writes such a number, so one is refused before rapidjson sees it.
inline bool plain_numbers(std::string_view text) {
    return outside_strings(text, [text](std::size_t& i) {
        const char c = text[i];
        if (c != '-' && (c < '0' || c > '9')) return true;
        std::size_t end = i;
        while (end < text.size() && std::string_view("0123456789+-.eE").find(text[end]) != std::string_view::npos)
            ++end;
        const std::string_view number = text.substr(i, end - i);
        if (number.size() > 40) return false;
        if (auto e = number.find_first_of("eE"); e != std::string_view::npos) {
            std::string_view exponent = number.substr(e + 1);
            if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
            while (exponent.size() > 1 && exponent[0] == '0') exponent.remove_prefix(1);
            if (exponent.size() > 3 || (exponent.size() == 3 && exponent > "300")) return false;
        }
        i = end - 1;
        return true;
    });
}

// Whether JSON nests at most `depth` arrays and objects deep (outside
// strings): rapidjson's iterative parser holds a stack entry for each level
// of "[[[[…", so a reader of files it knows the depth of checks it first.
inline bool nesting_within(std::string_view json, int depth) {
    int level = 0;
    return outside_strings(json, [&](std::size_t& i) {
        if (json[i] == '[' || json[i] == '{') return ++level <= depth;
        if (json[i] == ']' || json[i] == '}') --level;
        return true;
    });
}

// Parses `text` into `doc`, never recursing; true when it is valid JSON.
// `Flags` adds rapidjson parse flags (e.g. kParseFullPrecisionFlag, which
// also needs plain_numbers).
template <unsigned Flags = rapidjson::kParseDefaultFlags>
bool parse_json(rapidjson::Document& doc, std::string_view text) {
    if constexpr ((Flags & rapidjson::kParseFullPrecisionFlag) != 0)
        if (!plain_numbers(text)) return false;
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
