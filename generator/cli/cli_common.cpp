#include "cli/cli_common.h"

#include "content/content_tree.h"
#include "util/redact.h"

#include <cstdlib>
#include <iostream>

namespace pp::cli {

void print_error(const Error& error) { std::cerr << "error: " << error.to_string() << "\n"; }
void print_warning(const std::string& warning) { std::cerr << "warning: " << warning << "\n"; }

namespace {

// The value of the variable `name`; empty when unset (or no name).
std::string variable(const std::string& name) {
    const char* value = name.empty() ? nullptr : std::getenv(name.c_str());
    return value ? std::string(value) : std::string();
}

// The same, registered as a secret for redact().
std::string secret_variable(const std::string& name) {
    std::string value = variable(name);
    if (!value.empty()) register_secret(value, name);
    return value;
}

} // namespace

Secrets read_secrets(const Config& config) {
    // Each channel names the variables it reads (notify/channel.h). A login
    // name is no secret (it is shown), but it is read here too.
    auto notify_variable = [](const std::string& name, bool secret) {
        return secret ? secret_variable(name) : variable(name);
    };
    return {.llm_api_key = secret_variable(config.llm.api_key_env),
            .push_token = secret_variable(config.publish.token_env),
            .notify = read_notify_secrets(config.notify, notify_variable)};
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
