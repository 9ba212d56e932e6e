// A push through git's own client, which sends thin packs (push_clients.h).
// The token reaches git through a credential helper given in git's
// environment (GIT_CONFIG_COUNT), which prints it from a variable of that
// environment: never on a command line, in a file or in git's config. The
// helper list is reset first, so no helper of the user's stores the token,
// and git gets none of the caller's git variables (GIT_CONFIG_PARAMETERS,
// read after ours, could add a helper again; GIT_DIR could name another
// repository): libgit2 reads none of them either.
#include "publish/push_clients.h"

#include "util/redact.h"
#include "util/subprocess.h"
#include "util/text.h"

#include <cstdlib>
#include <map>

namespace pp::push {

namespace {

constexpr const char* token_variable = "PAPERPRESS_PUSH_TOKEN";

// Answers `get` with the URL's user (git sends it when there is one) or
// x-access-token, and the token; ignores `store` and `erase`.
// printf, not echo: the shell's echo would read a backslash in the token as an escape.
constexpr const char* credential_helper =
    "!f() { test \"$1\" = get || exit 0; user=; while read -r line; do case \"$line\" in username=?*) user=1;; "
    "esac; done; test -n \"$user\" || printf 'username=x-access-token\\n'; "
    "printf 'password=%s\\n' \"$PAPERPRESS_PUSH_TOKEN\"; }; f";

// The variables git would read from the caller: configuration, and which
// repository to work on.
const std::vector<std::string> callers_git_variables = {"GIT_CONFIG_PARAMETERS",
                                                        "GIT_CONFIG_COUNT",
                                                        "GIT_CONFIG_KEY_*",
                                                        "GIT_CONFIG_VALUE_*",
                                                        "GIT_DIR",
                                                        "GIT_WORK_TREE",
                                                        "GIT_INDEX_FILE",
                                                        "GIT_OBJECT_DIRECTORY",
                                                        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                                                        "GIT_COMMON_DIR",
                                                        "GIT_NAMESPACE"};

// git's environment: English messages (they are read below), no prompt, and
// the credential helper. With a token, an extra header configured for the
// remote's URL (actions/checkout writes one unless told not to) is dropped
// too: git would send it instead of asking for credentials.
std::vector<std::string> git_environment(const std::string& url, const PublishSettings& config) {
    std::vector<std::pair<std::string, std::string>> settings = {{"credential.helper", ""}};
    if (!config.token.empty()) {
        settings.emplace_back("credential.helper", credential_helper);
        if (url.starts_with("http://") || url.starts_with("https://"))
            settings.emplace_back("http." + url + ".extraheader", "");
    }
    std::vector<std::string> env = {"LC_ALL=C",
                                    "LANGUAGE=",
                                    "GIT_TERMINAL_PROMPT=0",
                                    "GIT_ASKPASS=",
                                    std::string(token_variable) + "=" + config.token,
                                    "GIT_CONFIG_COUNT=" + std::to_string(settings.size())};
    for (size_t i = 0; i < settings.size(); ++i) {
        env.push_back("GIT_CONFIG_KEY_" + std::to_string(i) + "=" + settings[i].first);
        env.push_back("GIT_CONFIG_VALUE_" + std::to_string(i) + "=" + settings[i].second);
    }
    return env;
}

// A line of `git push --porcelain`: "FLAG\tFROM:TO\tSUMMARY", where FLAG is
// ' ' (fast-forward), '*' (new), '=' (up to date), '!' (rejected), and
// SUMMARY is "OLD..NEW", "[new branch]", "[up to date]" or "[rejected] (why)".
struct RefLine {
    char flag = ' ';
    std::string ref; // the remote's, "refs/heads/gh-pages"
    std::string summary;
};

std::vector<RefLine> ref_lines(std::string_view out) {
    std::vector<RefLine> lines;
    for (std::string_view line : split(out, '\n')) {
        if (line.size() < 3 || line[1] != '\t') continue;
        size_t tab = line.find('\t', 2);
        std::string_view refs = line.substr(2, tab == std::string_view::npos ? std::string_view::npos : tab - 2);
        size_t colon = refs.find(':');
        if (colon == std::string_view::npos) continue;
        RefLine ref{line[0], std::string(refs.substr(colon + 1)), {}};
        if (tab != std::string_view::npos) ref.summary = std::string(line.substr(tab + 1));
        lines.push_back(std::move(ref));
    }
    return lines;
}

// "(fetch first)" of "[rejected] (fetch first)".
std::string reason_of(const std::string& summary) {
    size_t open = summary.find('(');
    size_t close = summary.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return summary;
    return summary.substr(open + 1, close - open - 1);
}

// The full id of a commit id git printed shortened; as printed when unknown here.
std::string full_id(git_repository* repo, const std::string& abbreviated) {
    git_oid prefix;
    git_object* object = nullptr;
    if (git_oid_fromstrn(&prefix, abbreviated.c_str(), abbreviated.size()) != 0 ||
        git_object_lookup_prefix(&object, repo, &prefix, abbreviated.size(), GIT_OBJECT_COMMIT) != 0)
        return abbreviated;
    std::string id = git::hex(*git_object_id(object));
    git_object_free(object);
    return id;
}

bool says(const std::string& text, std::string_view what) { return text.find(what) != std::string::npos; }

Error failure(const ProcessResult& ran, const Request& request, const PublishSettings& config) {
    const std::string& err = ran.err;
    const auto asked = config.token.empty() ? git::CredentialProblem::no_token : git::CredentialProblem::refused;
    if (says(err, "terminal prompts disabled") || says(err, "could not read Username") ||
        says(err, "could not read Password") || says(err, "Authentication failed") ||
        says(err, "Invalid username or password") || says(err, "returned error: 403"))
        return credential_error(asked, request.where, config);
    // What git says first is the cause; what follows, advice.
    std::string cause;
    for (std::string_view line : split(err, '\n')) {
        line = trim(line);
        if (line.starts_with("fatal:") || line.starts_with("error:")) {
            cause = std::string(line);
            break;
        }
        if (cause.empty() && !line.empty()) cause = std::string(line);
    }
    return Error{{},
                 0,
                 "push to " + request.where + " failed (git exited with " + std::to_string(ran.exit_code) +
                     "): " + excerpt(redact(cause), 400)};
}

} // namespace

Result<PushOutcome> with_git(const Request& request, const PublishSettings& config, PushOutcome outcome) {
    std::vector<std::string> argv = {"git",         "-C",          request.repo_dir.string(), "push",
                                     "--porcelain", "--no-verify", "--no-follow-tags",        "--recurse-submodules=no",
                                     "--",          config.remote};
    argv.insert(argv.end(), request.specs.begin(), request.specs.end());
    ProcessOptions options;
    options.env = git_environment(request.url, config);
    options.unset = callers_git_variables;
    options.timeout = std::chrono::minutes(20); // a first push of a large site over a slow line
    auto ran = run_process(argv, options);
    if (!ran) return std::unexpected(ran.error());

    Updates updates;
    Refusals refusals;
    for (const RefLine& line : ref_lines(ran->out)) {
        if (line.flag == '!') {
            refusals[line.ref] = reason_of(line.summary);
            continue;
        }
        if (line.flag != ' ' && line.flag != '*') continue; // '=': up to date
        auto tip = git::resolve(request.repo, line.ref);
        std::string new_id = tip && *tip ? git::hex(**tip) : "";
        std::string old_id;
        if (size_t dots = line.summary.find(".."); line.flag == ' ' && dots != std::string::npos)
            old_id = full_id(request.repo, line.summary.substr(0, dots));
        updates[line.ref] = {old_id, new_id};
    }
    if (!refusals.empty()) return refused(refusals, request, config, std::move(outcome));
    if (ran->exit_code != 0) return std::unexpected(failure(*ran, request, config));
    outcome.branches = pushed_branches(request.repo, request.branches, updates);
    return outcome;
}

} // namespace pp::push
