#include "score/topics.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pp {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "2. Efficiency" -> (2, "Efficiency"); a line not starting with a number and a dot -> 0.
std::pair<int, std::string_view> numbered(std::string_view line) {
    size_t digits = 0;
    while (digits < line.size() && digits < 4 && is_digit(line[digits])) ++digits;
    if (digits == 0 || digits >= line.size() || (line[digits] != '.' && line[digits] != ')')) return {0, {}};
    std::string_view rest = trim(line.substr(digits + 1));
    if (rest.empty()) return {0, {}};
    return {std::stoi(std::string(line.substr(0, digits))), rest};
}

// "**Model architecture**" -> "Model architecture".
std::string plain_name(std::string_view name) {
    std::string out;
    for (char c : name)
        if (c != '*' && c != '_' && c != '`') out += c;
    return std::string(trim(out));
}

// What a section is about, in words: its name (as a title) and its lines,
// without the labels and without what its "Irrelevant:" lines rule out.
TermCounts section_terms(const TopicSection& section) {
    Paper about;
    about.title = section.name;
    for (auto line : split(section.text, '\n')) {
        std::string lower = to_lower(line);
        if (lower.find("irrelevant:") != std::string::npos) continue;
        auto label = lower.find("relevant:");
        about.abstract += std::string(label == std::string::npos ? line : line.substr(label + 9)) + "\n";
    }
    return paper_terms(about);
}

// The keywords of a section found in a paper, as points (3 a title hit, 2 an
// abstract hit) and the words that say which.
std::pair<int, std::string> keyword_hits(const Paper& paper, const TopicKeywords& keywords) {
    TopicKeywords relevant_only{keywords.relevant, {}};
    EmbeddedScore score = embedded_score(paper, relevant_only);
    int points = score.relevance - 2; // 2 is the scorer's base; it caps at 10
    std::string why = score.comment;
    if (auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
    return {std::max(points, 0), why};
}

} // namespace

std::vector<TopicSection> parse_topic_sections(std::string_view topics_prompt) {
    std::vector<TopicSection> sections;
    bool inside = false; // the lines after a numbered one, until a heading or an unindented line
    for (auto raw : split(topics_prompt, '\n')) {
        std::string_view line = raw;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        auto [number, name] = numbered(line);
        if (number > 0) {
            TopicSection section;
            section.number = number;
            section.name = plain_name(name);
            section.text = section.name;
            if (!section.name.empty()) sections.push_back(std::move(section));
            inside = !sections.empty();
            continue;
        }
        if (trim(line).empty()) continue;
        if (line.front() != ' ' && line.front() != '\t') {
            inside = false;
            continue;
        }
        if (inside) sections.back().text += "\n" + std::string(trim(line));
    }
    for (auto& section : sections) section.keywords = parse_topic_keywords(section.text);
    return sections;
}

TopicAssigner::TopicAssigner(std::vector<TopicSection> sections, const std::vector<Paper>& day_papers)
    : sections_(std::move(sections)) {
    std::map<std::uint32_t, int> df;
    for (const auto& paper : day_papers)
        for (auto [term, count] : paper_terms(paper)) ++df[term];
    const double n = static_cast<double>(day_papers.size());
    for (auto [term, count] : df) idf_[term] = std::log((n + 1) / (count + 1.0)) + 1;
    unseen_idf_ = std::log(n + 1) + 1;
    for (const auto& section : sections_) section_terms_.push_back(section_terms(section));
}

// Cosine of the TF-IDF vectors (terms sorted by hash: a merge).
double TopicAssigner::similarity(const TermCounts& paper, const TermCounts& section) const {
    auto weight = [&](std::uint32_t term, std::uint16_t count) {
        auto found = idf_.find(term);
        return (1 + std::log(static_cast<double>(count))) * (found == idf_.end() ? unseen_idf_ : found->second);
    };
    auto norm = [&](const TermCounts& v) {
        double sum = 0;
        for (auto [term, count] : v) sum += weight(term, count) * weight(term, count);
        return std::sqrt(sum);
    };
    double dot = 0;
    for (size_t i = 0, j = 0; i < paper.size() && j < section.size();) {
        if (paper[i].first < section[j].first) ++i;
        else if (section[j].first < paper[i].first) ++j;
        else dot += weight(paper[i].first, paper[i].second) * weight(section[j].first, section[j].second), ++i, ++j;
    }
    double norms = norm(paper) * norm(section);
    return norms > 0 ? dot / norms : 0;
}

TopicChoice TopicAssigner::nearest(const Paper& paper) const {
    const TermCounts terms = paper_terms(paper);
    TopicChoice best;
    double best_score = 0;
    for (size_t i = 0; i < sections_.size(); ++i) {
        auto [points, why] = keyword_hits(paper, sections_[i].keywords);
        // A keyword hit outweighs any similarity (a cosine is below 1); the
        // similarity ranks sections with equal hits, and those with none.
        double score = points + similarity(terms, section_terms_[i]);
        if (score <= best_score) continue; // ties keep the earlier section
        best_score = score;
        best.topic = sections_[i].name;
        best.note = points > 0 ? "Its keywords: " + why : "Closest in wording to this topic's description.";
    }
    return best;
}

std::string TopicAssigner::resolve(std::string_view answer) const {
    std::string text = to_lower(trim(answer));
    for (std::string_view prefix : {"topic", "#", "section"})
        if (text.starts_with(prefix)) text = std::string(trim(std::string_view(text).substr(prefix.size())));
    if (text.empty()) return {};
    if (is_digit(text.front())) {
        size_t digits = 0;
        while (digits < text.size() && digits < 4 && is_digit(text[digits])) ++digits;
        int number = std::stoi(text.substr(0, digits));
        for (const auto& section : sections_)
            if (section.number == number) return section.name;
        return {};
    }
    for (const auto& section : sections_)
        if (to_lower(section.name) == text) return section.name;
    return {};
}

void assign_topics(std::vector<Paper>& papers, const std::map<std::string, ScoreReply>& scores,
                   const TopicAssigner& assigner) {
    if (assigner.sections().empty()) return;
    for (auto& paper : papers) {
        if (auto reply = scores.find(paper.id); reply != scores.end()) {
            if (std::string named = assigner.resolve(reply->second.topic); !named.empty()) {
                paper.topic = named;
                paper.topic_note.clear(); // the LLM's comment says why
                continue;
            }
        }
        if (!paper.topic.empty()) continue;
        TopicChoice choice = assigner.nearest(paper);
        paper.topic = choice.topic;
        paper.topic_note = choice.note;
    }
}

} // namespace pp
