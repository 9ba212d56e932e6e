// Shared reading of paperpress.yaml: loading the file, and reading a section
// through a table of setters, so that every section reports unknown keys and
// wrong types the same way, with the file and line.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pp {

// The parsed file; a missing file gives a null node unless `required`.
Result<YAML::Node> load_yaml_file(const fs::path& path, bool required = false);

using Setter = std::function<Result<void>(const YAML::Node& value, int line)>;

class Section {
public:
    Section(std::string file, std::string name) : file_(std::move(file)), name_(std::move(name)) {}

    // Applies the setter of each key; unknown keys are errors.
    Result<void> read(const YAML::Node& node, const std::map<std::string, Setter>& keys) const;

    Setter text(std::string& target) const;  // a single line
    // Text that passes `valid`; `expected` says what it should look like.
    Setter text(std::string& target, std::string expected, std::function<bool(const std::string&)> valid) const;
    // The name of an environment variable: a secret pasted in by mistake is
    // refused (and not echoed in the error).
    Setter env_name(std::string& target) const;
    Setter flag(bool& target) const;
    Setter number(int& target, int low, int high) const;
    Setter real(double& target, double low) const;
    Setter list(std::vector<std::string>& target) const; // a list, or one item
    // A nested section, read by `body` with its own Section.
    Setter sub(const std::string& name, std::function<Result<void>(const Section&, const YAML::Node&)> body) const;

    Result<void> problem(int line, const std::string& expected) const;
    const std::string& file() const { return file_; }

private:
    std::string file_, name_;
};

bool is_env_name(const std::string& name);

} // namespace pp
