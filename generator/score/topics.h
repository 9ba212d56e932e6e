// Topic assignment: each kept paper gets the numbered section of the topics
// prompt (prompts/topics.md: "1. Model architecture" and its indented lines)
// that it fits best. The LLM names it in its reply (TOPIC: the section's
// number); without one, or when its answer names no section, the nearest
// section by wording serves: the section's keywords found in the title and
// abstract, then TF-IDF similarity to the section's name and lines, with the
// day's papers as the background. docs/scoring.md describes it.
#pragma once

#include "core/paper.h"
#include "score/embedded_scorer.h"
#include "score/learned_scorer.h"
#include "score/reply_parser.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

struct TopicSection {
    int number = 0;
    std::string name;       // "Model architecture": what the day file's Topic holds
    std::string text;       // the name and the section's lines
    TopicKeywords keywords; // its own Relevant / Irrelevant lines
};

// The numbered sections ("1. Name" at the start of a line, then its indented
// lines) of a topics prompt, in order. None when the prompt has no numbered list.
std::vector<TopicSection> parse_topic_sections(std::string_view topics_prompt);

struct TopicChoice {
    std::string topic; // a section's name; empty when no section shares a word with the paper
    std::string note;  // why it fits, for the day file's "Topic match"
};

class TopicAssigner {
public:
    // `day_papers` are the background of the similarity: words that every
    // paper of the day holds say nothing about a topic.
    TopicAssigner(std::vector<TopicSection> sections, const std::vector<Paper>& day_papers);

    const std::vector<TopicSection>& sections() const { return sections_; }

    // The nearest section by wording.
    TopicChoice nearest(const Paper& paper) const;

    // The section an LLM's answer names: its number ("2", "2."), its name, or
    // both ("2. Efficiency and compression"); empty when it names none.
    std::string resolve(std::string_view answer) const;

private:
    std::vector<TopicSection> sections_;
    std::vector<TermCounts> section_terms_;
    std::map<std::uint32_t, double> idf_;
    double unseen_idf_ = 1;
    double similarity(const TermCounts& paper, const TermCounts& section) const;
};

// Sets each paper's topic: the LLM's answer in `scores` when it names a
// section, else the paper's topic if it has one (a resumed day), else the
// nearest section.
void assign_topics(std::vector<Paper>& papers, const std::map<std::string, ScoreReply>& scores,
                   const TopicAssigner& assigner);

} // namespace pp
