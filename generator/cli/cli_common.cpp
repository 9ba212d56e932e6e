#include "cli/cli_common.h"

#include "content/content_tree.h"
#include "util/redact.h"

#include <cstdlib>
#include <iostream>

namespace pp::cli {

void print_error(const Error& error) { std::cerr << "error: " << redact(error.to_string()) << "\n"; }
void print_warning(const std::string& warning) { std::cerr << "warning: " << redact(warning) << "\n"; }

namespace {

// The value of the variable `name` (empty when unset), registered as a secret.
std::string secret_variable(const std::string& name) {
    if (name.empty()) return {};
    const char* value = std::getenv(name.c_str());
    if (!value || !*value) return {};
    register_secret(value, name);
    return value;
}

} // namespace

Secrets read_secrets(const Config& config) {
    const auto& notify = config.notify;
    for (const std::string* name :
         {&notify.slack.webhook_env, &notify.slack.token_env, &notify.webhook.url_env, &notify.email.password_env})
        secret_variable(*name);
    return Secrets{.llm_api_key = secret_variable(config.llm.api_key_env),
                   .push_token = secret_variable(config.publish.token_env)};
}

std::optional<TreeLock> lock_content_tree(const GlobalOptions& global) {
    auto lock = lock_content(global.content, [&](long pid) {
        std::cerr << "another paperpress is writing " << global.content << "/"
                  << (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) << "; waiting\n";
    });
    if (!lock) {
        print_error(lock.error());
        return std::nullopt;
    }
    return std::move(*lock);
}

} // namespace pp::cli
