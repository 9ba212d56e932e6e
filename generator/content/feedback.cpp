#include "content/feedback.h"

#include "core/arxiv_id.h"
#include "util/bom.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace pp {

const char* to_string(Verdict verdict) { return verdict == Verdict::star ? "star" : "hide"; }

namespace {

constexpr std::string_view expected_form = "expected 'YYYY-MM-DD star|hide ARXIV-ID' (an optional '# comment' after)";

bool is_space(char c) { return c == ' ' || c == '\t'; }

// The line's fields, split at runs of spaces, the comment cut off.
std::vector<std::string_view> fields_of(std::string_view line) {
    line = line.substr(0, line.find('#'));
    std::vector<std::string_view> fields;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && is_space(line[at])) ++at;
        std::size_t end = at;
        while (end < line.size() && !is_space(line[end])) ++end;
        if (end > at) fields.push_back(line.substr(at, end - at));
        at = end;
    }
    return fields;
}

Result<Judgement> parse_line(std::string_view line) {
    const auto fields = fields_of(line);
    if (fields.size() != 3) return fail(std::string(expected_form) + ", got " + excerpt(line));
    auto date = parse_iso_date(fields[0]);
    if (!date) return fail("expected the judgement's date as YYYY-MM-DD, got " + excerpt(fields[0]));
    if (fields[1] != "star" && fields[1] != "hide")
        return fail("expected the verdict 'star' or 'hide', got " + excerpt(fields[1]));
    if (!is_canonical_arxiv_id(fields[2]))
        return fail("expected an arXiv ID without version (2511.01234 or hep-th/9901001), got " + excerpt(fields[2]));
    return Judgement{*date, fields[1] == "star" ? Verdict::star : Verdict::hide, std::string(fields[2])};
}

} // namespace

FeedbackFile parse_feedback(std::string_view text, const std::string& file) {
    FeedbackFile parsed;
    int number = 0;
    for (std::string_view line : split(without_bom(text), '\n')) {
        ++number;
        if (line.ends_with('\r')) line.remove_suffix(1); // saved on Windows
        const std::string_view content = trim(line);
        if (content.empty() || content.starts_with('#')) continue;
        auto judgement = parse_line(content);
        if (judgement) parsed.judgements.push_back(std::move(*judgement));
        else parsed.errors.push_back({file, number, judgement.error().message});
    }
    return parsed;
}

FeedbackFile scan_feedback(const fs::path& content_root) {
    FeedbackFile all;
    const fs::path folder = content_root / "feedback";
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(folder, ec))) return all;
    std::vector<std::string> files;
    all.errors = walk_tree(folder,
                           [&](const TreeEntry& entry) {
                               const bool file = entry.kind == TreeEntry::Kind::file || entry.links_to_file();
                               if (file && entry.name.ends_with(".txt") && !entry.name.starts_with("."))
                                   files.push_back(entry.path);
                               return false;
                           },
                           {.recursive = false, .sorted = true});
    std::sort(files.begin(), files.end()); // by name: a later file wins on equal dates
    for (const auto& path : files) {
        auto text = read_file_inside(content_root, path, max_feedback_file_bytes); // no link out of the tree
        if (!text) {
            all.errors.push_back(in_file(text.error(), path));
            continue;
        }
        auto parsed = parse_feedback(*text, path);
        all.judgements.insert(all.judgements.end(), parsed.judgements.begin(), parsed.judgements.end());
        all.errors.insert(all.errors.end(), parsed.errors.begin(), parsed.errors.end());
    }
    return all;
}

Result<std::vector<Judgement>> read_feedback(const fs::path& content_root) {
    auto scan = scan_feedback(content_root);
    if (!scan.errors.empty()) return std::unexpected(scan.errors.front());
    return std::move(scan.judgements);
}

std::vector<Judgement> judgements_in_force(std::vector<Judgement> all) {
    // Stable: of equal id and date, the later file and line stays later, and wins.
    std::stable_sort(all.begin(), all.end(), [](const Judgement& a, const Judgement& b) {
        return a.id != b.id ? a.id < b.id : a.date < b.date;
    });
    std::vector<Judgement> in_force;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (i + 1 == all.size() || all[i + 1].id != all[i].id) in_force.push_back(std::move(all[i]));
    return in_force;
}

std::string feedback_line(const Judgement& judgement) {
    return judgement.date.iso() + " " + to_string(judgement.verdict) + " " + judgement.id + "\n";
}

fs::path feedback_month_path(const fs::path& content_root, const Date& today) {
    char name[32];
    std::snprintf(name, sizeof name, "%04d-%02d.txt", today.year, today.month);
    return content_root / "feedback" / name;
}

Result<WriteOutcome> append_feedback(const fs::path& content_root, const Date& today,
                                     const std::vector<Judgement>& lines) {
    const fs::path path = feedback_month_path(content_root, today);
    std::string text;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(path, ec))) {
        auto old = read_file_inside(content_root, path, max_feedback_file_bytes);
        if (!old) return std::unexpected(old.error());
        text = std::move(*old);
        if (!text.empty() && !text.ends_with('\n')) text += '\n';
    }
    for (const auto& judgement : lines) text += feedback_line(judgement);
    remove_dead_temp_files_of(path); // left by a writer that was killed
    return write_file_inside(content_root, path, text);
}

} // namespace pp
