#include "score/embedded_scorer.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace pp {

namespace {

// "Mixture of Experts (MoE)" -> {"mixture of experts", "moe"};
// "Sparse/Sparsity" -> {"sparse", "sparsity"}.
std::vector<std::string> aliases(std::string_view keyword) {
    std::vector<std::string> out;
    std::string text = to_lower(keyword);
    std::string inner;
    if (auto open = text.find('('); open != std::string::npos) {
        auto close = text.find(')', open);
        inner = text.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
        text.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
    }
    for (const std::string& part : {text, inner})
        for (auto alias : split(part, '/')) {
            std::string a(trim(alias));
            if (a.size() >= 2 && a != "etc" && a != "etc.") out.push_back(a);
        }
    return out;
}

// Keywords of a line such as "- Irrelevant: Reinforcement Learning, Diffusion Models, etc."
std::vector<std::vector<std::string>> keywords_after(std::string_view line, size_t colon) {
    std::vector<std::vector<std::string>> out;
    for (const auto& keyword : split_top_level_commas(line.substr(colon + 1))) {
        auto list = aliases(keyword);
        if (!list.empty()) out.push_back(list);
    }
    return out;
}

// "Transformers" and "Transformer" are one keyword.
std::string stem(const std::string& word) {
    return word.size() > 3 && word.back() == 's' ? word.substr(0, word.size() - 1) : word;
}

// Adds keywords not seen yet; a keyword seen before lends it its new aliases.
void add_new(std::vector<std::vector<std::string>>& into, const std::vector<std::vector<std::string>>& found) {
    for (const auto& keyword : found) {
        std::vector<std::string>* known = nullptr;
        for (auto& existing : into)
            for (const auto& a : existing)
                for (const auto& b : keyword)
                    if (stem(a) == stem(b)) known = &existing;
        if (!known) {
            into.push_back(keyword);
            continue;
        }
        for (const auto& alias : keyword)
            if (std::find(known->begin(), known->end(), alias) == known->end()) known->push_back(alias);
    }
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// True when `phrase` occurs in `text` starting at a word boundary.
bool contains_word(const std::string& text, const std::string& phrase) {
    for (size_t pos = text.find(phrase); pos != std::string::npos; pos = text.find(phrase, pos + 1))
        if (pos == 0 || !is_word_char(text[pos - 1])) return true;
    return false;
}

} // namespace

TopicKeywords parse_topic_keywords(std::string_view topics_prompt) {
    TopicKeywords keywords;
    for (auto raw : split(topics_prompt, '\n')) {
        std::string line = to_lower(trim(raw));
        while (!line.empty() && (line[0] == '-' || line[0] == '*' || line[0] == ' ')) line.erase(0, 1);
        if (line.starts_with("relevant:")) add_new(keywords.relevant, keywords_after(line, line.find(':')));
        else if (line.starts_with("irrelevant:")) add_new(keywords.irrelevant, keywords_after(line, line.find(':')));
    }
    return keywords;
}

EmbeddedScore embedded_score(const Paper& paper, const TopicKeywords& keywords) {
    const std::string title = to_lower(paper.title);
    const std::string abstract = to_lower(paper.abstract);
    std::vector<std::string> in_title, in_abstract, against;
    for (const auto& keyword : keywords.relevant) {
        for (const auto& alias : keyword) {
            if (contains_word(title, alias)) in_title.push_back(keyword.front());
            else if (contains_word(abstract, alias)) in_abstract.push_back(keyword.front());
            else continue;
            break;
        }
    }
    for (const auto& keyword : keywords.irrelevant)
        for (const auto& alias : keyword)
            if (contains_word(title, alias) || contains_word(abstract, alias)) {
                against.push_back(keyword.front());
                break;
            }
    // A title hit says more than an abstract hit; each counter-topic costs two.
    int points = 2 + 3 * static_cast<int>(in_title.size()) + 2 * static_cast<int>(in_abstract.size()) -
                 2 * static_cast<int>(against.size());
    EmbeddedScore score;
    score.relevance = std::clamp(points, 1, 10);
    std::vector<std::string> parts;
    if (!in_title.empty()) parts.push_back("title matches " + join(in_title, ", "));
    if (!in_abstract.empty()) parts.push_back("abstract matches " + join(in_abstract, ", "));
    if (!against.empty()) parts.push_back("against: " + join(against, ", "));
    score.comment =
        parts.empty() ? "Embedded scorer: no topic keyword matched." : "Embedded scorer: " + join(parts, "; ") + ".";
    return score;
}

} // namespace pp
