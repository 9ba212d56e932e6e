#include "search/words.h"

#include "util/text.h"

#include <utf8proc.h>

namespace pp::search {

namespace {

bool ascii_word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
}

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

// ASCII letters and digits are lower-cased here; a run that holds other
// bytes goes through utf8proc (most of an archive's text is ASCII).
void for_each_word(std::string_view text, const std::function<void(std::string_view)>& word) {
    std::string ascii;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80 && !ascii_word_byte(c)) {
            ++i;
            continue;
        }
        std::size_t end = i;
        bool plain = true;
        while (end < text.size()) {
            const auto b = static_cast<unsigned char>(text[end]);
            if (b < 0x80 && !ascii_word_byte(b)) break;
            plain = plain && b < 0x80;
            ++end;
        }
        const std::string_view run = text.substr(i, end - i);
        if (plain) {
            if (run.size() >= 2) {
                ascii.assign(run);
                for (char& ch : ascii)
                    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
                word(ascii);
            }
        } else {
            split_folded(fold_for_matching(run), word);
        }
        i = end;
    }
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> out;
    for_each_word(text, [&](std::string_view w) { out.emplace_back(w); });
    return out;
}

} // namespace pp::search
