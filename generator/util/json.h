// The one way paperpress parses JSON. rapidjson's default parser recurses
// once per nesting level, so a reply, a legacy file or a shard made of
// 200,000 '[' would overflow the stack; the iterative parser keeps its
// stack on the heap. Every Parse goes through here, so no caller can forget.
#pragma once

#include <rapidjson/document.h>

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
