#include "util/text.h"

#include "util/folding.h"
#include "util/folding_txt.h"
#include "util/redact.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include <utf8proc.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pp {

std::string_view trim(std::string_view s) {
    const char* ws = " \t\r\n";
    auto first = s.find_first_not_of(ws);
    if (first == std::string_view::npos) return {};
    auto last = s.find_last_not_of(ws);
    return s.substr(first, last - first + 1);
}

void split_into(std::string_view s, char sep, std::vector<std::string_view>& parts) {
    parts.clear();
    for (;;) {
        auto pos = s.find(sep);
        parts.push_back(s.substr(0, pos));
        if (pos == std::string_view::npos) return;
        s.remove_prefix(pos + 1);
    }
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    split_into(s, sep, parts);
    return parts;
}

namespace {

// The Latin letters NFKD leaves whole, by code point (util/folding.txt).
const std::unordered_map<std::uint32_t, std::string_view>& folded_letters() {
    static const auto table = [] {
        std::unordered_map<std::uint32_t, std::string_view> map;
        for (const auto& [letter, ascii] : letter_folds()) {
            utf8proc_int32_t c = 0;
            utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(letter.data()),
                             static_cast<utf8proc_ssize_t>(letter.size()), &c);
            map.emplace(static_cast<std::uint32_t>(c), ascii);
        }
        return map;
    }();
    return table;
}

// Each letter of the table in utf8proc's valid output to its ASCII letters.
std::string fold_letters(std::string_view folded) {
    const auto& table = folded_letters();
    std::string out;
    out.reserve(folded.size());
    for (std::size_t i = 0; i < folded.size();) {
        if (static_cast<unsigned char>(folded[i]) < 0x80) {
            out += folded[i++];
            continue;
        }
        utf8proc_int32_t c = 0;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(folded.data() + i),
                                        static_cast<utf8proc_ssize_t>(folded.size() - i), &c);
        const std::size_t step = n > 0 ? static_cast<std::size_t>(n) : 1;
        const auto hit = table.find(static_cast<std::uint32_t>(c));
        if (hit != table.end()) out += hit->second;
        else out.append(folded, i, step);
        i += step;
    }
    return out;
}

} // namespace

const std::vector<std::pair<std::string_view, std::string_view>>& letter_folds() {
    static const auto pairs = [] {
        std::vector<std::pair<std::string_view, std::string_view>> out;
        for (std::string_view line : split(folding_txt, '\n')) {
            const auto space = line.find(' ');
            if (line.empty() || line.front() == '#' || space == std::string_view::npos) continue;
            out.emplace_back(line.substr(0, space), line.substr(space + 1));
        }
        return out;
    }();
    return pairs;
}

std::string fold_for_matching(std::string_view s) {
    utf8proc_uint8_t* folded = nullptr;
    const auto options = static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
                                                        UTF8PROC_STRIPMARK | UTF8PROC_CASEFOLD);
    const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                            static_cast<utf8proc_ssize_t>(s.size()), &folded, options);
    if (n < 0) return to_lower(s);
    std::string out =
        fold_letters(std::string_view(reinterpret_cast<const char*>(folded), static_cast<std::size_t>(n)));
    std::free(folded);
    return out;
}

bool is_letter_or_digit(std::uint32_t c) {
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
        case UTF8PROC_CATEGORY_LU:
        case UTF8PROC_CATEGORY_LL:
        case UTF8PROC_CATEGORY_LT:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_LO:
        case UTF8PROC_CATEGORY_ND:
        case UTF8PROC_CATEGORY_NL:
        case UTF8PROC_CATEGORY_NO:
            return true;
        default:
            return false;
    }
}

std::string excerpt(std::string_view quoted, std::size_t max_bytes) {
    // Redacted before the cut: a cut must not leave the start of a secret (an echoed key) behind.
    const std::string redacted = redact(quoted);
    const std::string_view text = redacted;
    std::size_t cut = std::min(text.size(), max_bytes);
    while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    std::string out = "'";
    for (char c : text.substr(0, cut)) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (u < 0x20 || u == 0x7f) out += '?';
        else out += c;
    }
    out += cut < text.size() ? "\u2026' (" + std::to_string(quoted.size()) + " bytes)" : "'";
    return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string> split_top_level_commas(std::string_view s) {
    std::vector<std::string> parts;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
        char c = i < s.size() ? s[i] : ',';
        if (c == '(' || c == '[') ++depth;
        if ((c == ')' || c == ']') && depth > 0) --depth;
        if (c == ',' && depth == 0) {
            auto part = trim(s.substr(start, i - start));
            if (!part.empty()) parts.emplace_back(part);
            start = i + 1;
        }
    }
    return parts;
}

std::optional<long long> parse_int(std::string_view s) {
    long long value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return value;
}

std::optional<double> parse_double(std::string_view s) {
    double value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return value;
}

std::string format_double(double value) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    (void)ec;
    return std::string(buffer, end);
}

const char* find_first_of(const char* p, const char* end, const ByteSet& set) {
#if defined(__SSE2__)
    if (set.size <= ByteSet::max_listed && end - p >= 16) {
        __m128i wanted[ByteSet::max_listed];
        for (std::size_t i = 0; i < set.size; ++i) wanted[i] = _mm_set1_epi8(set.listed[i]);
        for (; end - p >= 16; p += 16) {
            const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            __m128i hits = _mm_setzero_si128();
            for (std::size_t i = 0; i < set.size; ++i) hits = _mm_or_si128(hits, _mm_cmpeq_epi8(chunk, wanted[i]));
            if (const int mask = _mm_movemask_epi8(hits)) return p + __builtin_ctz(static_cast<unsigned>(mask));
        }
    }
#endif
    while (p < end && !set.contains(*p)) ++p;
    return p;
}

namespace {

constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

// True when a byte of `w` is below `n` (n at most 0x80; a byte with its
// high bit set may be counted too, which only sends it to the slow path).
bool has_byte_below(std::uint64_t w, unsigned n) { return ((w - ones * n) & ~w & highs) != 0; }

// The length of the valid UTF-8 sequence whose lead byte (0x80 or more) is
// at `p`: 2 to 4, or 0 when it is not one (overlong, truncated, a surrogate,
// beyond U+10FFFF).
int utf8_sequence_length(const unsigned char* p, const unsigned char* end) {
    unsigned char c = *p;
    int length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (length == 0 || end - p < length) return 0;
    for (int i = 1; i < length; ++i)
        if ((p[i] & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
        (c == 0xF4 && p[1] > 0x8F))
        return 0;
    return length;
}

// The length of the valid XML character at `p` (1 to 4 bytes), 0 when it is not one.
int xml_char_length(const unsigned char* p, const unsigned char* end) {
    unsigned char c = *p;
    if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
    if (c == 0xEF && end - p >= 3 && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return 0; // U+FFFE, U+FFFF
    return utf8_sequence_length(p, end);
}

} // namespace

std::size_t first_invalid_xml_char(std::string_view text) {
    const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = begin + text.size();
    for (const auto* p = begin; p < end;) {
        // Eight bytes at a time while they are printable ASCII (a day file is nearly all of it).
        for (std::uint64_t w; end - p >= 8; p += 8) {
            std::memcpy(&w, p, 8);
            if ((w & highs) || has_byte_below(w, 0x20)) break;
        }
        if (p == end) break;
        int length = xml_char_length(p, end);
        if (length == 0) return static_cast<std::size_t>(p - begin);
        p += length;
    }
    return std::string_view::npos;
}

std::string valid_xml_text(std::string_view text) {
    std::size_t at = first_invalid_xml_char(text);
    if (at == std::string_view::npos) return std::string(text);
    std::string out(text.substr(0, at));
    const auto* end = reinterpret_cast<const unsigned char*>(text.data()) + text.size();
    bool in_bad_run = false;
    for (const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + at; p < end;) {
        int length = xml_char_length(p, end);
        if (length == 0 && *p < 0x20) { // a control: a space, as the importer always wrote it
            out += ' ';
            in_bad_run = false;
            ++p;
            continue;
        }
        if (length == 0) {
            if (!in_bad_run) out += "\xEF\xBF\xBD"; // U+FFFD
            in_bad_run = true;
            ++p;
            continue;
        }
        in_bad_run = false;
        out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(length));
        p += length;
    }
    return out;
}

bool plain_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        // Eight bytes at a time while they are ASCII other than NUL and CR.
        for (std::uint64_t w; end - p >= 8; p += 8) {
            std::memcpy(&w, p, 8);
            if ((w & highs) || has_byte_below(w, 1) || has_byte_below(w ^ (ones * '\r'), 1)) break;
        }
        if (p == end) break;
        unsigned char c = *p;
        if (c < 0x80) {
            if (c == 0 || c == '\r') return false;
            ++p;
            continue;
        }
        int length = utf8_sequence_length(p, end);
        if (length == 0) return false;
        p += length;
    }
    return true;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string closest_name(std::string_view typed, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = 3; // more than two edits is not a typo
    for (const auto& name : known) {
        std::size_t d = edit_distance(typed, name);
        if (d < best_distance) best = name, best_distance = d;
    }
    return best;
}

} // namespace pp
