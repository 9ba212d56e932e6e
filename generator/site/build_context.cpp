#include "site/build_context.h"

#include "content/prompt_store.h"

namespace pp {

const Prompt& Prompts::get(const std::string& reference) {
    std::lock_guard lock(mutex_);
    if (auto it = prompts_.find(reference); it != prompts_.end()) return it->second;
    Prompt prompt;
    if (!reference.empty()) {
        auto text = load_prompt(content_, reference);
        if (text) prompt.text = std::move(*text);
        else prompt.error = text.error();
    }
    prompt.hash = hash_bytes(prompt.text);
    prompt.site_path = prompt_path_of(reference);
    prompt.html = render_prompt(prompt.text);
    if (prompt.error) any_failed_ = true;
    return prompts_.emplace(reference, std::move(prompt)).first->second;
}

bool Prompts::any_failed() {
    std::lock_guard lock(mutex_);
    return any_failed_;
}

} // namespace pp
