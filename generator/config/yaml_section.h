// Shared reading of paperpress.yaml: parsing the text, and reading a section
// through a table of setters, so that every section reports unknown keys and
// wrong types the same way, with the file and line.
#pragma once

#include "core/date.h"
#include "util/error.h"
#include "util/files.h"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

// The parsed text (a leading byte order mark is skipped); `file` names it in errors.
Result<YAML::Node> parse_yaml(std::string_view text, const std::string& file);

using Setter = std::function<Result<void>(const YAML::Node& value, int line)>;
// Takes a key a section's table has no setter for.
using OtherKey = std::function<Result<void>(const std::string& key, const YAML::Node& value, int line)>;

class Section {
public:
    // `name` is the section's dotted path ("notify.email"); empty for the top level.
    Section(std::string file, std::string name) : file_(std::move(file)), name_(std::move(name)) {}

    // Applies the setter of each key; unknown keys are errors. With `other`,
    // a key not in `keys` goes to it instead, unless it is a typo of one
    // that is (notify: keeps its channels' sections so).
    Result<void> read(const YAML::Node& node, const std::map<std::string, Setter>& keys,
                      const OtherKey& other = {}) const;

    Setter text(std::string& target) const; // a single line
    // Text that passes `valid`; `expected` says what it should look like.
    Setter text(std::string& target, std::string expected, std::function<bool(const std::string&)> valid) const;
    // A path of the project's: relative, without '..' (util/files.h's
    // is_plain_relative_path). What it names is read beneath the project, so
    // no path or link of the config can put a file from elsewhere
    // (/proc/self/environ, .git/config) into the site.
    Setter project_path(std::string& target) const;
    // A prompt file: a project path to a Markdown file (.md) beneath prompts/
    // or content/, the folders score/prompt.h reads prompts beneath.
    Setter prompt_path(std::string& target) const;
    // The name of an environment variable: a secret pasted in by mistake is
    // refused (and not echoed in the error).
    Setter env_name(std::string& target) const;
    Setter flag(bool& target) const;
    Setter number(int& target, int low, int high) const;
    Setter real(double& target, double low) const;
    Setter list(std::vector<std::string>& target) const; // a list, or one item
    Setter dates(std::vector<Date>& target) const;       // a list of YYYY-MM-DD dates, or one
    // A nested section, read by `body` with its own Section.
    Setter sub(const std::string& name, std::function<Result<void>(const Section&, const YAML::Node&)> body) const;

    // "unknown key 'notify.x'; did you mean 'y'? (see docs/configuration.md)":
    // `key` is none of `known`; `note` goes before the pointer to the docs.
    Result<void> unknown_key(const std::string& key, int line, const std::vector<std::string>& known,
                             const std::string& note = "") const;
    // A mistake in the section as a whole: "expected X in section 'llm'".
    Result<void> problem(int line, const std::string& expected) const;
    // A wrong value of the key being read: "expected 'llm.timeout' to be X".
    Result<void> wrong_value(int line, const std::string& expected) const;
    std::string qualified(const std::string& key) const; // "llm.model"; top-level keys as they are
    const std::string& file() const { return file_; }

private:
    std::string file_, name_;
    mutable std::string key_; // the key read() is applying
};

bool is_env_name(const std::string& name);

// Reads data compiled into the program (`text`, named `file`) through the
// setters `keys` makes. Such data is part of the program: one that does not
// read is a build defect, caught by the unit tests, so it aborts with the
// error rather than being an error for a user to fix.
void read_built_in(std::string_view text, const std::string& file,
                   const std::function<std::map<std::string, Setter>(const Section&)>& keys);

} // namespace pp
