#include "core/paper.h"

#include "util/text.h"

namespace pp {

int Paper::score() const {
    if (!relevance || !novelty) return 0;
    return *relevance + *novelty;
}

const char* to_string(DayStatus status) {
    switch (status) {
        case DayStatus::announced:
            return "announced";
        case DayStatus::failed:
            return "failed";
        case DayStatus::partial:
            return "partial";
        case DayStatus::stale:
            return "stale";
    }
    return "announced";
}

std::optional<DayStatus> parse_day_status(std::string_view text) {
    if (text == "announced") return DayStatus::announced;
    if (text == "failed") return DayStatus::failed;
    if (text == "partial") return DayStatus::partial;
    if (text == "stale") return DayStatus::stale;
    return std::nullopt;
}

AuthorParts split_author(std::string_view author) {
    author = trim(author);
    if (!author.ends_with(')')) return {std::string(author), {}};
    // Walk back from the last ')' to the '(' that opens it.
    int depth = 0;
    for (size_t i = author.size(); i-- > 0;) {
        if (author[i] == ')') ++depth;
        if (author[i] == '(' && --depth == 0) {
            std::string_view name = trim(author.substr(0, i));
            if (name.empty()) break; // "(Anonymous)": no name before the group
            return {std::string(name), std::string(trim(author.substr(i + 1, author.size() - i - 2)))};
        }
    }
    return {std::string(author), {}}; // unbalanced: all of it is the name
}

std::string feed_author(std::string_view name, const std::vector<std::string>& affiliations) {
    std::vector<std::string> kept;
    for (const auto& affiliation : affiliations)
        if (!trim(affiliation).empty()) kept.emplace_back(trim(affiliation));
    std::string out(trim(name));
    if (!kept.empty()) out += " (" + join(kept, ", ") + ")";
    return out;
}

std::string tidy_line(std::string_view raw) {
    const std::string valid = valid_xml_text(raw);
    std::string out;
    bool space = false;
    for (char c : valid) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string tidy_text(std::string_view text) {
    const std::string valid = valid_xml_text(text);
    std::string out;
    int pending_newlines = 0;
    for (auto raw : split(valid, '\n')) {
        std::string_view line = raw;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.remove_suffix(1);
        if (trim(line).empty()) {
            if (!out.empty()) pending_newlines = 2;
            continue;
        }
        if (!out.empty()) out.append(std::max(pending_newlines, 1), '\n');
        else line = trim(line); // the text starts with its first word
        pending_newlines = 0;
        out += line;
    }
    return out;
}

void tidy_paper(Paper& paper) {
    paper.title = tidy_line(paper.title);
    for (auto& author : paper.authors) author = tidy_line(author);
    std::erase_if(paper.authors, [](const std::string& a) { return a.empty(); });
    paper.abstract = tidy_text(paper.abstract);
    paper.comment = tidy_text(paper.comment);
    paper.topic = tidy_line(paper.topic);
    for (auto& topic : paper.also_topics) topic = tidy_line(topic);
    paper.topic_note = tidy_text(paper.topic_note);
    paper.unscored = tidy_text(paper.unscored);
    for (std::string* part : {&paper.summary.tldr, &paper.summary.motivation, &paper.summary.method,
                              &paper.summary.result, &paper.summary.conclusion})
        *part = tidy_text(*part);
    paper.summary.failed = tidy_text(paper.summary.failed);
}

std::optional<std::string> summary_problem(const Paper& paper) {
    const PaperSummary& summary = paper.summary;
    const bool parts = !(summary.motivation + summary.method + summary.result + summary.conclusion).empty();
    if (!summary.failed.empty() && (parts || !summary.tldr.empty()))
        return "expected either the summary's fields (TL;DR, ...) or 'Summary failed' in paper " + paper.id +
               ", not both";
    if (parts && summary.tldr.empty())
        return "expected a 'TL;DR' field with the other parts of paper " + paper.id + "'s summary";
    return std::nullopt;
}

} // namespace pp
