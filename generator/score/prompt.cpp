#include "score/prompt.h"

#include "util/bom.h"

#include "util/files.h"
#include "util/text.h"

namespace pp {

namespace {

constexpr size_t max_abstract_chars = 4000;

// Cuts at a UTF-8 character boundary.
std::string clip(const std::string& text, size_t limit) {
    if (text.size() <= limit) return text;
    size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end) + " ...";
}

std::string scoring_prefix(const PromptSet& p) {
    return p.topics + "\n\n" + (p.examples.empty() ? "" : p.examples + "\n\n") + p.criteria + "\n\n" + p.postfix +
           "\n\n## Papers\n\n";
}

std::string authors_line(const std::vector<std::string>& authors, size_t max_authors) {
    if (authors.size() <= max_authors) return join(authors, ", ");
    std::vector<std::string> first(authors.begin(), authors.begin() + static_cast<std::ptrdiff_t>(max_authors));
    first.push_back("et al.");
    return join(first, ", ");
}

std::string paper_item(const Paper& paper, const PaperLayout& layout) {
    return "ArXiv ID: " + paper.id + "\nTitle: " + paper.title +
           "\nAuthors: " + authors_line(paper.authors, layout.max_authors) +
           "\nAbstract: " + clip(paper.abstract, max_abstract_chars);
}

constexpr std::size_t max_example_title_bytes = 200; // a runaway title does not take the section

} // namespace

std::string reader_examples(const std::vector<FeedbackExample>& newest_first, const ExampleBounds& bounds) {
    std::string lines;
    std::size_t count = 0;
    const std::string head = "## The reader's recent judgements\n\nTitles of papers the reader marked, newest first "
                             "(star: more like this; hide: not for me). Weigh similar papers accordingly.\n";
    for (const auto& example : newest_first) {
        std::string line = std::string("- ") + to_string(example.verdict) + ": " +
                           clip(tidy_line(example.title), max_example_title_bytes) + "\n";
        if (count == bounds.max_count || head.size() + lines.size() + line.size() > bounds.max_bytes) break;
        lines += line;
        ++count;
    }
    return lines.empty() ? std::string() : head + lines.substr(0, lines.size() - 1);
}

Result<std::string> read_prompt_file(const fs::path& path) {
    // The nearest folder of the path named prompts/ or content/ is the root it is read beneath.
    fs::path root;
    for (fs::path folder = path.parent_path(); !folder.empty(); folder = folder.parent_path()) {
        if (folder.filename() == "prompts" || folder.filename() == "content") {
            root = folder;
            break;
        }
        if (folder == folder.parent_path()) break; // "/"
    }
    if (root.empty())
        return fail("expected a prompt file beneath a prompts/ or content/ folder: prompts are published with the "
                    "days they scored, so they are never read from elsewhere",
                    path.string());
    return read_file_inside(root, path); // a link that leads out of that folder is refused
}

Result<PromptSet> load_prompts(const ScoringSettings& settings) {
    PromptSet prompts;
    struct Part {
        const std::string& path;
        std::string& target;
    };
    for (Part part : {Part{settings.system_prompt, prompts.system}, Part{settings.topics, prompts.topics},
                      Part{settings.criteria, prompts.criteria}, Part{settings.postfix, prompts.postfix},
                      Part{settings.title_postfix, prompts.title_postfix}}) {
        auto text = read_prompt_file(part.path);
        if (!text)
            return std::unexpected(Error{part.path, 0,
                                         "cannot read this prompt file (" + text.error().message +
                                             "; see scoring.* in docs/configuration.md)"});
        part.target = std::string(trim(without_bom(*text)));
    }
    return prompts;
}

std::vector<ChatMessage> scoring_messages(const PromptSet& prompts, const std::vector<Paper>& batch,
                                          const PaperLayout& layout) {
    std::string user = scoring_prefix(prompts);
    for (size_t i = 0; i < batch.size(); ++i) user += (i ? "\n\n" : "") + paper_item(batch[i], layout);
    return {{"system", prompts.system}, {"user", user}};
}

std::vector<ChatMessage> title_filter_messages(const PromptSet& prompts, const std::vector<Paper>& batch) {
    std::string user = prompts.topics + "\n\n" + prompts.title_postfix + "\n\n## Papers\n\n";
    for (size_t i = 0; i < batch.size(); ++i)
        user += (i ? "\n\n" : "") + ("ArXiv ID: " + batch[i].id + "\nTitle: " + batch[i].title);
    return {{"system", prompts.system}, {"user", user}};
}

std::string prompt_record(const PromptSet& prompts) {
    return "## System prompt\n\n" + prompts.system + "\n\n## User prompt\n\n" + scoring_prefix(prompts) +
           "[the papers of the batch: ArXiv ID, Title, Authors (the first 3, then et al.), Abstract]\n";
}

} // namespace pp
