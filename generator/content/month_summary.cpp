#include "content/month_summary.h"

#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

namespace pp {

fs::path month_summary_path(const fs::path& root, int year, int month) {
    char folder[16];
    std::snprintf(folder, sizeof folder, "%04d/%02d", year, month);
    return root / folder / "summary.md";
}

std::string write_month_summary_text(const MonthSummary& summary) {
    std::string text = "---\n";
    text += std::string("generated: ") + (summary.generated ? "true" : "false") + "\n";
    if (!summary.model.empty()) {
        YAML::Emitter model;
        model << summary.model; // quoted when it must be
        text += std::string("model: ") + model.c_str() + "\n";
    }
    if (summary.cost) text += "cost: " + format_double(*summary.cost) + "\n";
    text += "---\n\n";
    std::string body(trim(summary.markdown));
    return text + body + (body.empty() ? "" : "\n");
}

Result<MonthSummary> read_month_summary_text(std::string_view text, const std::string& file) {
    MonthSummary summary;
    if (!text.starts_with("---\n")) {
        summary.markdown = std::string(trim(text));
        return summary;
    }
    const std::size_t close = text.find("\n---\n", 3);
    if (close == std::string_view::npos)
        return std::unexpected(Error{file, 1, "expected the front matter to end with a line '---'"});
    try {
        const YAML::Node node = YAML::Load(std::string(text.substr(4, close - 3)));
        if (node && !node.IsNull() && !node.IsMap())
            return std::unexpected(Error{file, 2, "expected 'key: value' lines in the front matter"});
        if (node["generated"]) summary.generated = node["generated"].as<bool>();
        if (node["model"]) summary.model = node["model"].as<std::string>();
        if (node["cost"]) summary.cost = node["cost"].as<double>();
    } catch (const YAML::Exception& e) {
        return std::unexpected(Error{file, e.mark.line + 2,
                                     "expected generated: true|false, model: text, cost: a "
                                     "number of dollars (" +
                                         e.msg + ")"});
    }
    summary.markdown = std::string(trim(text.substr(close + 5)));
    return summary;
}

Result<std::optional<MonthSummary>> load_month_summary(const fs::path& root, int year, int month) {
    const fs::path path = month_summary_path(root, year, month);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return std::optional<MonthSummary>();
    auto text = read_file_inside(root, path);
    if (!text) return std::unexpected(text.error());
    auto summary = read_month_summary_text(*text, path.string());
    if (!summary) return std::unexpected(summary.error());
    return std::optional<MonthSummary>(std::move(*summary));
}

Result<void> save_month_summary(const fs::path& root, int year, int month, const MonthSummary& summary) {
    const fs::path path = month_summary_path(root, year, month);
    auto written = write_file_inside(root, path, write_month_summary_text(summary));
    if (!written) return std::unexpected(written.error());
    return {};
}

} // namespace pp
