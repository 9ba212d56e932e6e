#include "search/words.h"

#include "search/stop_words_txt.h"
#include "util/folding.h"
#include "util/text.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace pp::search {

namespace {

// The words of folded, non-ASCII text: runs of letters and digits.
void split_folded(std::string_view folded, const std::function<void(std::string_view)>& word) {
    std::size_t start = 0, i = 0;
    auto flush = [&](std::size_t end) {
        if (end - start >= 2) word(folded.substr(start, end - start));
    };
    while (i < folded.size()) {
        utf8proc_int32_t c = 0;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(folded.data() + i),
                                        static_cast<utf8proc_ssize_t>(folded.size() - i), &c);
        const std::size_t step = n > 0 ? static_cast<std::size_t>(n) : 1;
        if (n <= 0 || !is_letter_or_digit(static_cast<std::uint32_t>(c))) {
            flush(i);
            start = i + step;
        }
        i += step;
    }
    flush(folded.size());
}

} // namespace

namespace {

// search/stop_words.txt, in byte order (binary_search).
const std::vector<std::string_view>& stop_list() {
    static const auto list = [] {
        std::vector<std::string_view> out;
        for (std::string_view line : split(stop_words_txt, '\n'))
            if (!line.empty() && line.front() != '#') out.push_back(line);
        std::sort(out.begin(), out.end());
        return out;
    }();
    return list;
}

} // namespace

bool is_stop_word(std::string_view word) {
    if (word.size() > 5) return false;
    return std::binary_search(stop_list().begin(), stop_list().end(), word);
}

std::vector<std::string_view> stop_words() { return stop_list(); }

namespace {

// A JavaScript string literal of UTF-8 text: non-ASCII as \uXXXX (the tables hold letters of the BMP).
std::string js_string(std::string_view text) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        utf8proc_int32_t c = 0;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &c);
        i += n > 0 ? static_cast<std::size_t>(n) : 1;
        char unit[8];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out += static_cast<char>(c);
        else if (c >= 0 && c < 0x10000)
            out.append(unit, static_cast<std::size_t>(std::snprintf(unit, sizeof unit, "\\u%04x", c)));
    }
    return out + "\"";
}

} // namespace

std::string words_script() {
    std::string fold, stop;
    for (const auto& [letter, ascii] : letter_folds())
        fold += (fold.empty() ? "" : ",") + js_string(letter) + ":" + js_string(ascii);
    for (std::string_view word : stop_list()) stop += (stop.empty() ? "" : ",") + js_string(word);
    return "// Written by paperpress from its util/folding.txt and search/stop_words.txt: the search page\n"
           "// folds and splits words as the build does (search/words.h).\n"
           "(function () {\n"
           "  \"use strict\";\n"
           "  var FOLD = {" +
           fold +
           "};\n"
           "  var STOP = new Set([" +
           stop +
           "]);\n"
           "  var LETTERS = new RegExp(\"[\" + Object.keys(FOLD).join(\"\") + \"]\", \"g\");\n"
           "  // NFKD, marks stripped, lower case, then the letters NFKD leaves whole (util/text.h).\n"
           "  function fold(s) {\n"
           "    return s.normalize(\"NFKD\").replace(/\\p{M}/gu, \"\").toLowerCase()\n"
           "      .replace(LETTERS, function (c) { return FOLD[c]; });\n"
           "  }\n"
           "  function bytes(word) { return new TextEncoder().encode(word).length; }\n"
           "  // Runs of letters and digits of two bytes or more, stop words left out.\n"
           "  function words(s) {\n"
           "    return fold(s).split(/[^\\p{L}\\p{N}]+/u).filter(function (w) {\n"
           "      return w && bytes(w) >= 2 && !STOP.has(w);\n"
           "    });\n"
           "  }\n"
           "  globalThis.paperpressWords = { fold: fold, words: words };\n"
           "})();\n";
}

void for_each_folded_word(std::string_view run, const std::function<void(std::string_view)>& word) {
    split_folded(fold_for_matching(run), word);
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> out;
    for_each_word(text, [&](std::string_view w) { out.emplace_back(w); });
    return out;
}

} // namespace pp::search
