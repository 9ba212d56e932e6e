#include "core/tex.h"

#include "util/text.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <utility>

namespace pp {

std::optional<std::size_t> math_end(std::string_view text, std::size_t at) {
    std::string_view close = text.substr(at, 2) == "$$" ? "$$"
                             : text[at] == '$'          ? "$"
                             : text[at + 1] == '('      ? "\\)"
                                                        : "\\]";
    const std::size_t open = text[at] == '$' ? close.size() : 2;
    for (std::size_t i = at + open; i < text.size(); ++i) {
        if (text[i] == '\\') {
            if (text.substr(i, close.size()) == close) return i + close.size();
            ++i; // an escaped character (\$) does not close
            continue;
        }
        if (text.substr(i, close.size()) == close) return i + close.size();
    }
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::size_t>> next_math(std::string_view text, std::size_t from) {
    for (std::size_t at = from; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '\\' && (at + 1 == text.size() || (text[at + 1] != '(' && text[at + 1] != '['))) {
            ++at; // an escape: "\$" is a dollar sign
            continue;
        }
        if (c != '$' && c != '\\') continue;
        if (auto end = math_end(text, at)) return std::pair{at, *end};
    }
    return std::nullopt;
}

std::size_t group_end(std::string_view text, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        if (text[i] == '\\') ++i;
        else if (text[i] == '{') ++depth;
        else if (text[i] == '}' && --depth == 0) return i;
    }
    return std::string_view::npos;
}

namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void append_utf8(std::string& out, std::uint32_t c) {
    utf8proc_uint8_t bytes[4];
    auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), bytes);
    out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
}

// The combining mark of an accent command: \'e is e + U+0301, and so on.
std::optional<std::uint32_t> accent_mark(std::string_view command) {
    if (command.size() != 1) return std::nullopt;
    switch (command[0]) {
        case '\'':
            return 0x0301;
        case '`':
            return 0x0300;
        case '^':
            return 0x0302;
        case '"':
            return 0x0308;
        case '~':
            return 0x0303;
        case '=':
            return 0x0304;
        case '.':
            return 0x0307;
        case 'u':
            return 0x0306;
        case 'v':
            return 0x030C;
        case 'H':
            return 0x030B;
        case 'c':
            return 0x0327;
        case 'k':
            return 0x0328;
        case 'r':
            return 0x030A;
        case 'b':
            return 0x0331;
        case 'd':
            return 0x0323;
        default:
            return std::nullopt;
    }
}

// Letters TeX writes as commands: \ss, \o, \l, \aa, ...
std::optional<std::uint32_t> special_letter(std::string_view name) {
    struct Entry {
        std::string_view name;
        std::uint32_t letter;
    };
    static constexpr Entry letters[] = {
        {"ss", 0xDF}, {"o", 0xF8},  {"O", 0xD8},   {"l", 0x142},  {"L", 0x141}, {"aa", 0xE5}, {"AA", 0xC5},
        {"ae", 0xE6}, {"AE", 0xC6}, {"oe", 0x153}, {"OE", 0x152}, {"i", 0x131}, {"j", 0x237},
    };
    for (const auto& entry : letters)
        if (entry.name == name) return entry.letter;
    return std::nullopt;
}

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Text-mode formatting that takes its text as an argument: \emph{x}.
bool text_format(std::string_view name) {
    return one_of(name, {"emph", "textbf", "textit", "textsl", "texttt", "textsc", "textrm", "textsf", "textup",
                         "textmd", "textnormal", "text", "underline", "mbox", "textsuperscript", "textsubscript"});
}

// The older switches, inside a group: {\it x}, {\em x}, {\bf x}.
bool format_switch(std::string_view name) {
    return one_of(name, {"it", "em", "bf", "sl", "tt", "rm", "sf", "sc", "itshape", "bfseries", "ttfamily", "slshape",
                         "scshape", "upshape", "rmfamily", "sffamily", "mdseries", "normalfont"});
}

// Commands dropped with their argument: a reader has no bibliography, labels or macro definitions.
bool dropped(std::string_view name) {
    return one_of(name, {"cite", "citep", "citet", "citealp", "citeauthor", "ref", "cref", "Cref", "eqref", "autoref",
                         "label", "color"});
}

// Commands that stand for a symbol or a word, as found outside math in
// abstracts whose dollars were lost: "\alpha" is α, "\ie" is "i.e.".
std::optional<std::string_view> symbol(std::string_view name) {
    static constexpr std::pair<std::string_view, std::string_view> symbols[] = {
        {"alpha", "α"},
        {"beta", "β"},
        {"gamma", "γ"},
        {"delta", "δ"},
        {"epsilon", "ε"},
        {"varepsilon", "ε"},
        {"zeta", "ζ"},
        {"eta", "η"},
        {"theta", "θ"},
        {"iota", "ι"},
        {"kappa", "κ"},
        {"lambda", "λ"},
        {"mu", "μ"},
        {"nu", "ν"},
        {"xi", "ξ"},
        {"pi", "π"},
        {"rho", "ρ"},
        {"sigma", "σ"},
        {"tau", "τ"},
        {"upsilon", "υ"},
        {"phi", "φ"},
        {"varphi", "φ"},
        {"chi", "χ"},
        {"psi", "ψ"},
        {"omega", "ω"},
        {"Gamma", "Γ"},
        {"Delta", "Δ"},
        {"Theta", "Θ"},
        {"Lambda", "Λ"},
        {"Xi", "Ξ"},
        {"Pi", "Π"},
        {"Sigma", "Σ"},
        {"Phi", "Φ"},
        {"Psi", "Ψ"},
        {"Omega", "Ω"},
        {"ell", "ℓ"},
        {"infty", "∞"},
        {"times", "×"},
        {"cdot", "·"},
        {"pm", "±"},
        {"leq", "≤"},
        {"le", "≤"},
        {"geq", "≥"},
        {"ge", "≥"},
        {"neq", "≠"},
        {"approx", "≈"},
        {"sim", "∼"},
        {"propto", "∝"},
        {"in", "∈"},
        {"to", "→"},
        {"rightarrow", "→"},
        {"leftarrow", "←"},
        {"uparrow", "↑"},
        {"downarrow", "↓"},
        {"sqrt", "√"},
        {"partial", "∂"},
        {"nabla", "∇"},
        {"ldots", "…"},
        {"dots", "…"},
        {"tanh", "tanh"},
        {"log", "log"},
        {"exp", "exp"},
        {"ie", "i.e."},
        {"eg", "e.g."},
        {"etal", "et al."},
        {"LaTeX", "LaTeX"},
        {"TeX", "TeX"},
        {"textemdash", "—"},
        {"textendash", "–"},
        {"guillemotleft", "«"},
        {"guillemotright", "»"},
        {"par", " "},
    };
    for (const auto& [command, text] : symbols)
        if (command == name) return text;
    return std::nullopt;
}

class Converter {
public:
    Converter(std::string_view text, bool keep_dollar) : text_(text), keep_dollar_(keep_dollar) {
        out_.reserve(text.size());
    }

    std::string run() {
        while (at_ < text_.size()) step();
        if (!composed_) return std::move(out_);
        utf8proc_uint8_t* nfc = nullptr;
        const auto length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(out_.data()),
                                         static_cast<utf8proc_ssize_t>(out_.size()), &nfc,
                                         static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
        if (length < 0) return std::move(out_); // invalid UTF-8 around: leave it as it is
        std::string result(reinterpret_cast<const char*>(nfc), static_cast<std::size_t>(length));
        std::free(nfc);
        return result;
    }

private:
    char peek(std::size_t ahead = 0) const { return peek_at(at_ + ahead); }
    char peek_at(std::size_t at) const { return at < text_.size() ? text_[at] : '\0'; }

    void step() {
        // The bytes up to the next that may start something, in one append:
        // every other byte is copied as it is.
        static constexpr ByteSet starts("$\\{-~");
        const char* const from = text_.data() + at_;
        const char* const next = find_first_of(from, text_.data() + text_.size(), starts);
        if (next != from) {
            out_.append(from, next);
            at_ = static_cast<std::size_t>(next - text_.data());
            return;
        }
        const char c = text_[at_];
        if (c == '$' || (c == '\\' && (peek(1) == '(' || peek(1) == '['))) {
            if (auto end = math_end(text_, at_)) {
                out_.append(text_.substr(at_, *end - at_));
                at_ = *end;
                return;
            }
        }
        if (c == '\\' && command()) return;
        if (c == '{' && (braced_switch() || braced_letter())) return;
        if (c == '-' && peek(1) == '-') {
            const bool em = peek(2) == '-';
            append_utf8(out_, em ? 0x2014 : 0x2013);
            at_ += em ? 3 : 2;
            return;
        }
        if (c == '~' && tie()) {
            append_utf8(out_, 0xA0);
            ++at_;
            return;
        }
        out_ += c;
        ++at_;
        if (c == '\\' && at_ < text_.size()) out_ += text_[at_++]; // "\\" and unknown escapes stay whole
    }

    // Whether the "~" at at_ is TeX's tie ("Fig.~2", "models~(LLMs)") and not
    // plain text's "about" ("~2x", "( ~ 10)") or range ("1.69~2.18").
    bool tie() const {
        if (at_ == 0 || at_ + 1 >= text_.size()) return false;
        const char before = text_[at_ - 1], after = text_[at_ + 1];
        const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
        const auto digit = [](char c) { return c >= '0' && c <= '9'; };
        if (blank(before) || blank(after) || before == '(') return false;
        return !((digit(before) || before == '%') && digit(after));
    }

    // The command at at_ ('\'), converted; false (nothing consumed) when it is not one this knows.
    bool command() {
        const std::size_t start = at_;
        std::size_t end = at_ + 1;
        if (end >= text_.size()) return false;
        const char first = text_[end];
        if (first == '$' && keep_dollar_) return false;
        if (std::string_view("&%_#${}").find(first) != std::string_view::npos) {
            out_ += first;
            at_ = end + 1;
            return true;
        }
        if (first == 'u' && unicode_escape(end + 1)) return true;
        std::string_view name;
        if (is_letter(first)) {
            while (end < text_.size() && is_letter(text_[end])) ++end;
            name = text_.substr(start + 1, end - start - 1);
        } else {
            name = text_.substr(start + 1, 1);
            ++end;
        }
        if (auto mark = accent_mark(name)) {
            // Letter accents (\c, \v) need braces ("\cdot" is no accent); symbol accents take a bare letter too.
            at_ = end;
            if (accented(*mark, is_letter(first))) return true;
            at_ = start;
            return false;
        }
        if (auto letter = special_letter(name)) {
            append_utf8(out_, *letter);
            at_ = end;
            skip_command_end();
            return true;
        }
        if (!is_letter(first)) return false;
        if (end < text_.size() && text_[end] == '{' && with_argument(name, end)) return true;
        // An unclosed or unknown argument, or a switch outside its group: as written.
        if (format_switch(name) || (peek_at(end) == '{' && peek_at(end + 1) != '}')) return false;
        // A symbol, or a macro the paper defined for itself (\svd, \BAEE{}): shown as its name.
        if (auto text = symbol(name)) out_ += *text;
        else out_ += name;
        at_ = end;
        if (peek() == '{' && peek(1) == '}') at_ += 2;
        return true;
    }

    // \emph{x} and the like as x, \footnote{x} as " (x)", \cite{key} and
    // \ref{l} as nothing (with the space or tie before them), a macro's
    // definition as nothing; false when unknown or unclosed.
    bool with_argument(std::string_view name, std::size_t open) {
        const std::size_t close = group_end(text_, open);
        if (close == std::string_view::npos) return false;
        const std::string_view inside = text_.substr(open + 1, close - open - 1);
        if (one_of(name, {"newcommand", "renewcommand", "providecommand"})) { // \newcommand{\x}[1]{...}
            std::size_t body = close + 1;
            if (body < text_.size() && text_[body] == '[') body = text_.find(']', body) + 1;
            if (body == 0 || body >= text_.size() || text_[body] != '{') return false;
            const std::size_t body_end = group_end(text_, body);
            if (body_end == std::string_view::npos) return false;
            at_ = body_end + 1;
            return true;
        }
        if (dropped(name)) {
            while (out_.ends_with(' ') || out_.ends_with("\u00A0"))
                out_.resize(out_.size() - (out_.back() == ' ' ? 1 : 2));
        } else if (name == "footnote") {
            out_ += " (" + Converter(inside, keep_dollar_).run() + ")";
        } else if (text_format(name)) {
            out_ += Converter(inside, keep_dollar_).run();
        } else {
            return false;
        }
        at_ = close + 1;
        return true;
    }

    // "{\it x}", "{\em x}", "{\bf x}": the text without the switch.
    bool braced_switch() {
        if (peek(1) != '\\') return false;
        std::size_t end = at_ + 2;
        while (end < text_.size() && is_letter(text_[end])) ++end;
        const std::size_t close = group_end(text_, at_);
        if (!format_switch(text_.substr(at_ + 2, end - at_ - 2)) || close == std::string_view::npos) return false;
        while (end < close && text_[end] == ' ') ++end;
        out_ += Converter(text_.substr(end, close - end), keep_dollar_).run();
        at_ = close + 1;
        return true;
    }

    // After a control word, TeX drops the spaces or an empty group: "\o rn", "\ss{}e".
    void skip_command_end() {
        if (peek() == '{' && peek(1) == '}') at_ += 2;
        else
            while (peek() == ' ') ++at_;
    }

    // "\u007e": a JSON or JavaScript escape that leaked into arXiv's text
    // (TeX would read a breve over "0"), read as the character it names.
    bool unicode_escape(std::size_t digits) {
        std::uint32_t code = 0;
        for (std::size_t i = digits; i < digits + 4; ++i) {
            const char c = peek_at(i);
            const int value = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
            if (value < 0) return false;
            code = code * 16 + static_cast<std::uint32_t>(value);
        }
        if (code < 0x20 || (code >= 0x7F && code < 0xA0) || (code >= 0xD800 && code < 0xE000)) return false;
        append_utf8(out_, code);
        at_ = digits + 4;
        return true;
    }

    // The accent's base letter at at_: "{e}", "{\i}", "\i" or "e" (for a
    // letter accent, `after_letters`, only after a space, as TeX reads "\k e":
    // "\cdot" is no accent); emits it with `mark`. A group of several letters,
    // "\r{ho}", gets the mark on its first, as TeX sets it over the group.
    bool accented(std::uint32_t mark, bool after_letters) {
        const std::size_t start = at_;
        const bool braced = peek() == '{';
        if (braced) ++at_;
        else if (after_letters) {
            if (peek() != ' ') return false;
            while (peek() == ' ') ++at_;
        }
        std::uint32_t base = 0;
        if (peek() == '\\' && (peek(1) == 'i' || peek(1) == 'j') && !is_letter(peek(2))) {
            base = peek(1) == 'i' ? 'i' : 'j'; // the dotless i under an accent is written as plain i
            at_ += 2;
            if (!braced) skip_command_end();
        } else if (is_letter(peek())) {
            base = static_cast<unsigned char>(peek());
            ++at_;
        }
        std::size_t rest = at_; // the group's other letters
        if (braced)
            while (is_letter(peek_at(rest)) && rest - at_ < 16) ++rest;
        if (base == 0 || (braced && peek_at(rest) != '}')) {
            at_ = start;
            return false;
        }
        append_utf8(out_, base);
        append_utf8(out_, mark);
        out_.append(text_.substr(at_, rest - at_));
        at_ = braced ? rest + 1 : rest;
        composed_ = true;
        return true;
    }

    // "{\"u}", "{\o}": one converted letter in braces loses the braces.
    bool braced_letter() {
        const std::size_t start = at_;
        const std::size_t written = out_.size();
        ++at_;
        if (peek() == '\\' && command() && peek() == '}') {
            ++at_;
            return true;
        }
        out_.resize(written);
        at_ = start;
        return false;
    }

    std::string_view text_;
    const bool keep_dollar_;
    std::size_t at_ = 0;
    std::string out_;
    bool composed_ = false;
};

} // namespace

bool has_tex(std::string_view text) {
    // Sixteen bytes at a time: std::string_view::find_first_of calls memchr
    // once a byte, which took a tenth of a full build's CPU.
    constexpr ByteSet starts("\\~-");
    const char* end = text.data() + text.size();
    for (const char* p = find_first_of(text.data(), end, starts); p < end; p = find_first_of(p + 1, end, starts))
        if (*p != '-' || (p + 1 < end && p[1] == '-')) return true;
    return false;
}

bool has_math(std::string_view text) { return next_math(text, 0).has_value(); }

bool in_math(std::string_view text, std::size_t pos) {
    for (auto span = next_math(text, 0); span && span->first <= pos; span = next_math(text, span->second))
        if (pos < span->second) return true;
    return false;
}

std::string tex_to_unicode(std::string_view text, bool for_math_renderer) {
    if (!has_tex(text)) return std::string(text);
    return Converter(text, for_math_renderer).run();
}

namespace {

// "2" as "²" (or "₂"): digits, signs and the letters Unicode has; false when some character has none.
bool append_script(std::string& out, std::string_view text, bool superscript) {
    static constexpr std::string_view plain = "0123456789+-=()niaeoxjklmpst";
    static constexpr std::string_view supers[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁺", "⁻", "⁼", "⁽",
                                                  "⁾", "ⁿ", "ⁱ", "ᵃ", "ᵉ", "ᵒ", "ˣ", "ʲ", "ᵏ", "ˡ", "ᵐ", "ᵖ", "ˢ", "ᵗ"};
    static constexpr std::string_view subs[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉", "₊", "₋", "₌", "₍",
                                                "₎", "ₙ", "ᵢ", "ₐ", "ₑ", "ₒ", "ₓ", "ⱼ", "ₖ", "ₗ", "ₘ", "ₚ", "ₛ", "ₜ"};
    std::string scripted;
    for (char c : text) {
        const auto at = plain.find(c);
        if (c == ' ') continue;
        if (at == std::string_view::npos) return false;
        scripted += superscript ? supers[at] : subs[at];
    }
    out += scripted;
    return true;
}

// The argument at `at` ("{...}" or one character) and where it ends.
std::pair<std::string_view, std::size_t> math_argument(std::string_view math, std::size_t at) {
    if (at >= math.size()) return {{}, at};
    if (math[at] != '{') return {math.substr(at, 1), at + 1};
    const std::size_t close = group_end(math, at);
    if (close == std::string_view::npos) return {math.substr(at + 1), math.size()};
    return {math.substr(at + 1, close - at - 1), close + 1};
}

// A formula's TeX as plain text: "\ell_1" is "ℓ₁", "O(n^2)" "O(n²)",
// "\frac{a}{b}" "a/b"; fonts (\mathcal, \mathbf, ...) are dropped, other commands shown by name.
std::string math_plain(std::string_view math) {
    std::string out;
    for (std::size_t at = 0; at < math.size();) {
        const char c = math[at];
        if (c == '^' || c == '_') {
            const auto [argument, end] = math_argument(math, at + 1);
            if (!append_script(out, argument, c == '^')) out += (c == '^' ? "^" : "_") + math_plain(argument);
            at = end;
        } else if (c == '\\') {
            std::size_t end = at + 1;
            while (end < math.size() && is_letter(math[end])) ++end;
            const std::string_view name = math.substr(at + 1, end - at - 1);
            if (name.empty()) { // "\," "\{"
                if (end < math.size())
                    out += std::string_view(",;:! ").find(math[end]) != std::string_view::npos ? ' ' : math[end];
                at = end + 1;
                continue;
            }
            at = end;
            if (name == "frac") {
                const auto [top, middle] = math_argument(math, at);
                const auto [bottom, after] = math_argument(math, middle);
                out += math_plain(top) + "/" + math_plain(bottom);
                at = after;
            } else if (auto text = symbol(name)) {
                out += *text;
            } else if (!name.starts_with("math") && name != "operatorname" && name != "text" && name != "left" &&
                       name != "right") {
                out += name;
            }
        } else {
            if (c != '{' && c != '}') out += c;
            ++at;
        }
    }
    return out;
}

// A formula's TeX as the Unicode text KaTeX would show, when Unicode can
// write all of it: letters, digits, the symbols (\alpha, \le, \infty),
// spacing, and scripts Unicode has ("x_{1}", "n^2"). Nullopt for anything
// else (a font, a fraction, a root, a script of other letters, an operator
// name): that is KaTeX's to typeset.
std::optional<std::string> math_faithful(std::string_view math) {
    static constexpr std::string_view punctuation = " +-=()[],.:;|<>/!'*";
    std::string out;
    for (std::size_t at = 0; at < math.size();) {
        const char c = math[at];
        if (c == '^' || c == '_') {
            const auto [argument, end] = math_argument(math, at + 1);
            if (argument.empty() || !append_script(out, argument, c == '^')) return std::nullopt;
            at = end;
        } else if (c == '\\') {
            std::size_t end = at + 1;
            while (end < math.size() && is_letter(math[end])) ++end;
            const std::string_view name = math.substr(at + 1, end - at - 1);
            if (name.empty()) { // "\," "\;" "\!" "\ ": spacing
                if (end >= math.size() || std::string_view(",;:! ").find(math[end]) == std::string_view::npos)
                    return std::nullopt;
                out += ' ';
                at = end + 1;
                continue;
            }
            const auto text = symbol(name);
            // A symbol, not a word ("\log", "\ie") nor a command with an argument ("\sqrt{n+1}").
            if (!text || std::any_of(text->begin(), text->end(), is_letter) || name == "sqrt" || name == "par")
                return std::nullopt;
            out += *text;
            at = end;
        } else if (is_letter(c) || (c >= '0' && c <= '9') || punctuation.find(c) != std::string_view::npos) {
            out += c;
            ++at;
        } else if (c == '{' || c == '}') {
            ++at; // a group: what it holds is written as it is
        } else {
            return std::nullopt;
        }
    }
    return out;
}

// The text outside math through tex_to_unicode, each formula (delimiters
// included, and how many bytes open it) through `formula`.
template <class Formula>
std::string each_formula(std::string_view text, bool for_math_renderer, Formula&& formula) {
    std::string out;
    std::size_t done = 0;
    for (auto span = next_math(text, 0); span; span = next_math(text, span->second)) {
        const auto [at, end] = *span;
        const std::size_t open = text.substr(at, 2) == "$$" ? 2 : text[at] == '$' ? 1 : 2;
        out += tex_to_unicode(text.substr(done, at - done), for_math_renderer);
        out += formula(text.substr(at, end - at), open);
        done = end;
    }
    return out + tex_to_unicode(text.substr(done), for_math_renderer);
}

} // namespace

std::string tex_for_page(std::string_view text) {
    return each_formula(text, true, [](std::string_view formula, std::size_t open) {
        // Inline $...$ only: display math is KaTeX's block, and \(...\) is rare in titles.
        const auto plain = open == 1 ? math_faithful(formula.substr(1, formula.size() - 2)) : std::nullopt;
        return plain ? *plain : std::string(formula);
    });
}

std::string tex_to_plain(std::string_view text) {
    return each_formula(text, false, [](std::string_view formula, std::size_t open) {
        return math_plain(formula.substr(open, formula.size() - 2 * open));
    });
}

} // namespace pp
