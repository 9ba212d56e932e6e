#include "core/arxiv_id.h"

#include <cctype>

namespace pp {

namespace {

bool digits(std::string_view s, size_t n) {
    if (s.size() != n) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

bool valid_month(std::string_view yymm) {
    int month = (yymm[2] - '0') * 10 + (yymm[3] - '0');
    return month >= 1 && month <= 12;
}

// "2505.13447": the number has 4 digits up to 1412 and 5 from 1501 on.
bool new_style(std::string_view s) {
    auto dot = s.find('.');
    if (dot != 4 || !digits(s.substr(0, 4), 4) || !valid_month(s.substr(0, 4))) return false;
    auto number = s.substr(5);
    int yymm = std::stoi(std::string(s.substr(0, 4)));
    size_t want = yymm >= 1501 ? 5 : 4;
    return digits(number, want);
}

// "math.CA/0611800": lowercase archive (letters, '-'), optional ".XX" subject
// class, then YYMMNNN.
bool old_style(std::string_view s) {
    auto slash = s.find('/');
    if (slash == std::string_view::npos || slash == 0) return false;
    auto archive = s.substr(0, slash);
    auto number = s.substr(slash + 1);
    if (!digits(number, 7) || !valid_month(number.substr(0, 4))) return false;
    auto dot = archive.find('.');
    auto name = archive.substr(0, dot);
    if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name)
        if (!std::islower(static_cast<unsigned char>(c)) && c != '-') return false;
    if (dot != std::string_view::npos) {
        auto subject = archive.substr(dot + 1);
        if (subject.size() != 2) return false;
        for (char c : subject)
            if (!std::isalpha(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

std::string_view strip_prefixes(std::string_view s) {
    for (std::string_view prefix : {"https://", "http://"})
        if (s.starts_with(prefix)) s.remove_prefix(prefix.size());
    for (std::string_view host : {"arxiv.org/", "export.arxiv.org/", "www.arxiv.org/"})
        if (s.starts_with(host)) {
            s.remove_prefix(host.size());
            for (std::string_view kind : {"abs/", "pdf/", "html/"})
                if (s.starts_with(kind)) s.remove_prefix(kind.size());
            if (s.ends_with(".pdf")) s.remove_suffix(4);
            break;
        }
    if (s.size() > 6 && (s.starts_with("arXiv:") || s.starts_with("arxiv:"))) s.remove_prefix(6);
    return s;
}

} // namespace

std::optional<ArxivId> parse_arxiv_id(std::string_view text) {
    std::string_view s = strip_prefixes(text);
    ArxivId result;
    // The version is a trailing "v" + digits; only there, never a split on "v"
    // (old-style archives such as "solv-int" contain the letter).
    auto v = s.rfind('v');
    if (v != std::string_view::npos && v + 1 < s.size()) {
        auto tail = s.substr(v + 1);
        bool numeric = true;
        for (char c : tail)
            if (!std::isdigit(static_cast<unsigned char>(c))) numeric = false;
        if (numeric && tail.size() <= 4) {
            result.version = std::stoi(std::string(tail));
            s = s.substr(0, v);
        }
    }
    if (!new_style(s) && !old_style(s)) return std::nullopt;
    result.id = std::string(s);
    return result;
}

bool is_canonical_arxiv_id(std::string_view text) {
    auto parsed = parse_arxiv_id(text);
    return parsed && parsed->version == 0 && parsed->id == text;
}

std::string arxiv_abs_url(std::string_view id) { return "https://arxiv.org/abs/" + std::string(id); }
std::string arxiv_pdf_url(std::string_view id) { return "https://arxiv.org/pdf/" + std::string(id); }
std::string arxiv_html_url(std::string_view id) {
    const bool converted = new_style(id) && id.substr(0, 4) >= "2312";
    return converted ? "https://arxiv.org/html/" + std::string(id) : std::string();
}

} // namespace pp

namespace pp {

std::string_view strip_announce_prefix(std::string_view abstract) {
    if (!abstract.starts_with("arXiv:")) return abstract;
    auto announce = abstract.find("Announce Type:");
    auto marker = abstract.find("Abstract:", announce == std::string_view::npos ? 0 : announce);
    if (announce == std::string_view::npos || marker == std::string_view::npos) return abstract;
    abstract.remove_prefix(marker + 9);
    while (!abstract.empty() && (abstract.front() == ' ' || abstract.front() == '\n')) abstract.remove_prefix(1);
    return abstract;
}

} // namespace pp
