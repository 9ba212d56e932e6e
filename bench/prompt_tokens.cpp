// The requests a day's papers make, as the scorer sends them: reads papers
// as JSON lines ({"id", "title", "authors": [...], "summary"}) on stdin and
// writes each request's messages, joined, as one JSON string a line, for
// prompt_tokens.py to count with a real tokenizer.
//   bench_prompt_tokens PROMPTS_DIR BATCH_SIZE MAX_AUTHORS FORMAT [EXAMPLES]
// MAX_AUTHORS: the authors a paper lists before "et al." (-1: all);
// FORMAT: json_schema, json_object or text (the instruction the format adds),
// or summary: each paper's summary request (score/summary.h), one a line;
// EXAMPLES: the reader's judgements the prompt carries (score/prompt.h
// reader_examples, within its default bounds), made of the titles of the
// day's last EXAMPLES papers, stars and hides alternating; default 0.
#include "score/llm_client.h"
#include "score/prompt.h"
#include "score/summary.h"
#include "util/json.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <iostream>
#include <limits>
#include <string>

using namespace pp;

namespace {

std::vector<Paper> read_papers(std::istream& in) {
    std::vector<Paper> papers;
    std::string line;
    while (std::getline(in, line)) {
        rapidjson::Document doc;
        if (!parse_json(doc, line) || !doc.IsObject()) continue;
        Paper paper;
        paper.id = doc["id"].GetString();
        paper.title = doc["title"].GetString();
        paper.abstract = doc["summary"].GetString();
        for (const auto& name : doc["authors"].GetArray()) paper.authors.emplace_back(name.GetString());
        papers.push_back(std::move(paper));
    }
    return papers;
}

void print_json_string(const std::string& text) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
    std::cout << buffer.GetString() << "\n";
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 5 && argc != 6) {
        std::fprintf(
            stderr, "usage: bench_prompt_tokens PROMPTS_DIR BATCH_SIZE MAX_AUTHORS FORMAT [EXAMPLES] < papers.jsonl\n");
        return 2;
    }
    const fs::path dir = argv[1];
    ScoringSettings settings;
    settings.system_prompt = (dir / "system.md").string();
    settings.topics = (dir / "topics.md").string();
    settings.criteria = (dir / "score_criteria.md").string();
    settings.postfix = (dir / "postfix.md").string();
    settings.title_postfix = (dir / "title_postfix.md").string();
    auto prompts = load_prompts(settings);
    if (!prompts) {
        std::fprintf(stderr, "%s\n", prompts.error().to_string().c_str());
        return 1;
    }
    const size_t batch_size = std::stoul(argv[2]);
    const long max_authors = std::stol(argv[3]);
    PaperLayout layout;
    layout.max_authors = max_authors < 0 ? std::numeric_limits<size_t>::max() : static_cast<size_t>(max_authors);
    if (std::string(argv[4]) == "summary") {
        for (const auto& paper : read_papers(std::cin)) {
            std::string text;
            for (const auto& message : summary_messages(paper, "English")) text += message.content + "\n";
            print_json_string(text);
        }
        return 0;
    }
    const auto format = parse_reply_format(argv[4]);
    if (!format) return 2;
    const std::vector<Paper> papers = read_papers(std::cin);
    std::vector<FeedbackExample> examples;
    const size_t wanted = argc == 6 ? std::stoul(argv[5]) : 0;
    for (size_t i = 0; i < std::min(wanted, papers.size()); ++i)
        examples.push_back({i % 2 ? Verdict::hide : Verdict::star, papers[papers.size() - 1 - i].title});
    prompts->examples = reader_examples(examples);
    for (size_t i = 0; i < papers.size(); i += batch_size) {
        std::vector<Paper> batch(papers.begin() + static_cast<std::ptrdiff_t>(i),
                                 papers.begin() + static_cast<std::ptrdiff_t>(std::min(papers.size(), i + batch_size)));
        std::string text;
        for (const auto& message : scoring_messages(*prompts, batch, layout)) text += message.content + "\n";
        text += reply_format_instruction(*format);
        print_json_string(text);
    }
}
