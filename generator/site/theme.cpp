#include "site/theme.h"

#include "site/render_markdown.h"

#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <memory>

namespace pp {

namespace mustache = kainjow::mustache;

const std::vector<std::string>& required_layouts() {
    static const std::vector<std::string> names = {"home", "day", "month", "year", "archive", "404"};
    return names;
}

const std::vector<std::string>& optional_layouts() {
    static const std::vector<std::string> names = {"search"};
    return names;
}

namespace {

constexpr std::string_view template_extension = ".mustache";

// Reads every *.mustache directly in `dir` into `into`, keyed by stem;
// files already there (from an override folder) win.
Result<void> read_templates(const fs::path& dir, std::map<std::string, ThemeFile>& into) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return {};
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == template_extension) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        std::string name = file.stem().string();
        if (into.contains(name)) continue;
        auto text = read_file_inside(dir, file); // a link out of the folder is refused
        if (!text) return std::unexpected(text.error());
        into.emplace(name, ThemeFile{std::move(*text), file});
    }
    return {};
}

void collect_assets(const fs::path& dir, std::vector<StaticAsset>& into) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (!it->is_regular_file()) continue;
        std::string site_path = "static/" + fs::relative(it->path(), dir).generic_string();
        bool known = std::any_of(into.begin(), into.end(), [&](const auto& a) { return a.site_path == site_path; });
        if (!known) into.push_back(StaticAsset{site_path, it->path()});
    }
}

// The names of the partials a template includes ({{> name}}).
std::vector<std::string> partial_references(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t at = text.find("{{>"); at != std::string::npos; at = text.find("{{>", at + 3)) {
        auto end = text.find("}}", at);
        if (end == std::string::npos) break;
        std::string name = text.substr(at + 3, end - at - 3);
        auto first = name.find_first_not_of(" \t");
        auto last = name.find_last_not_of(" \t");
        if (first != std::string::npos) names.push_back(name.substr(first, last - first + 1));
    }
    return names;
}

// Line of the first occurrence of `needle` in `text` (1-based), 0 if absent.
int line_of(const std::string& text, const std::string& needle) {
    auto at = text.find(needle);
    if (at == std::string::npos) return 0;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// kainjow ends its syntax errors with " at <offset>": names the line and column instead.
Error syntax_error(const ThemeFile& file, const std::string& message) {
    auto at = message.rfind(" at ");
    std::size_t offset = 0;
    bool found = at != std::string::npos && at + 4 < message.size() &&
                 message.find_first_not_of("0123456789", at + 4) == std::string::npos;
    if (found) offset = std::stoul(message.substr(at + 4));
    if (!found || offset > file.text.size())
        return Error{file.source.string(), 0, "mustache syntax error: " + message};
    auto begin = file.text.begin();
    int line = 1 + static_cast<int>(std::count(begin, begin + static_cast<std::ptrdiff_t>(offset), '\n'));
    auto line_start = file.text.rfind('\n', offset == 0 ? 0 : offset - 1);
    std::size_t column = line_start == std::string::npos || offset == 0 ? offset + 1 : offset - line_start;
    return Error{file.source.string(), line,
                 "mustache syntax error: " + message.substr(0, at) + " (column " + std::to_string(column) + ")"};
}

Result<void> check_template(const ThemeFile& file, const std::map<std::string, ThemeFile>& partials) {
    mustache::mustache tmpl(file.text);
    if (!tmpl.is_valid()) return std::unexpected(syntax_error(file, tmpl.error_message()));
    for (const auto& name : partial_references(file.text))
        if (!partials.contains(name))
            return fail("includes partial '" + name + "', which neither the site nor the theme has",
                        file.source.string(), line_of(file.text, name));
    return {};
}

// A mustache context that resolves partials from the theme only, so page
// data can never stand in for a template.
class ThemeContext : public mustache::basic_context<std::string> {
public:
    ThemeContext(const TemplateData* data, const std::map<std::string, TemplateData>* partials)
        : inner_(data), partials_(partials) {}
    void push(const TemplateData* data) override { inner_.push(data); }
    void pop() override { inner_.pop(); }
    const TemplateData* get(const std::string& name) const override { return inner_.get(name); }
    const TemplateData* get_partial(const std::string& name) const override {
        auto it = partials_->find(name);
        return it == partials_->end() ? nullptr : &it->second;
    }

private:
    mustache::context<std::string> inner_;
    const std::map<std::string, TemplateData>* partials_;
};

// Writes the partials into `text`; false when they nest too deep (a cycle).
bool expand_partials(const std::string& text, const std::map<std::string, ThemeFile>& partials, int depth,
                     std::string& out) {
    if (depth > 16) return false;
    std::size_t from = 0;
    for (std::size_t at = text.find("{{>"); at != std::string::npos; at = text.find("{{>", from)) {
        auto end = text.find("}}", at);
        if (end == std::string::npos) break;
        std::string name = text.substr(at + 3, end - at - 3);
        auto first = name.find_first_not_of(" \t");
        auto last = name.find_last_not_of(" \t");
        name = first == std::string::npos ? std::string() : name.substr(first, last - first + 1);
        out.append(text, from, at - from);
        if (auto it = partials.find(name); it != partials.end())
            if (!expand_partials(it->second.text, partials, depth + 1, out)) return false;
        from = end + 2;
    }
    out.append(text, from, std::string::npos);
    return true;
}

// kainjow's own escaping, byte for byte (' is &apos;), but copying the
// runs between special bytes whole instead of appending byte by byte.
std::string escape_like_kainjow(const std::string& text) { return html_escape(text, "&apos;"); }

// kainjow writes what it renders to a stream; this one appends to a string,
// without an ostringstream and its copy of the page at the end.
struct StringSink {
    std::string& out;
    StringSink& operator<<(const std::string& text) {
        out += text;
        return *this;
    }
};

std::string render_with(mustache::mustache& tmpl, mustache::basic_context<std::string>& context) {
    std::string out;
    StringSink sink{out};
    tmpl.render(context, sink);
    return out;
}

} // namespace

Result<Theme> load_theme(const fs::path& themes_dir, const std::string& name, const fs::path& site_dir) {
    if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos)
        return fail("expected a theme name (a folder under " + themes_dir.string() + "), got '" + name + "'");
    Theme theme;
    theme.name = name;
    theme.dir = themes_dir / name;
    std::error_code ec;
    if (!fs::is_directory(theme.dir, ec)) return fail("no such theme folder", theme.dir.string());

    std::string static_from; // another theme whose static files this one shares
    if (auto yaml_path = theme.dir / "theme.yaml"; fs::exists(yaml_path, ec)) {
        try {
            YAML::Node node = YAML::LoadFile(yaml_path.string());
            if (node["description"] && node["description"].IsScalar())
                theme.description = node["description"].Scalar();
            if (node["math"] && node["math"].IsScalar()) theme.math = node["math"].as<bool>();
            if (node["static_from"] && node["static_from"].IsScalar()) static_from = node["static_from"].Scalar();
        } catch (const YAML::Exception& e) {
            return fail("not valid YAML: " + e.msg, yaml_path.string(), e.mark.line + 1);
        }
    }

    for (auto step : {read_templates(site_dir / "layouts", theme.layouts),
                      read_templates(theme.dir / "layouts", theme.layouts),
                      read_templates(site_dir / "layouts" / "partials", theme.partials),
                      read_templates(theme.dir / "partials", theme.partials)})
        if (!step) return std::unexpected(step.error());

    for (const auto& layout : required_layouts())
        if (!theme.layouts.contains(layout))
            return fail("theme '" + name + "' has no layout '" + layout + "' (expected layouts/" + layout +
                            ".mustache)",
                        theme.dir.string());
    for (const auto& [_, file] : theme.layouts)
        if (auto ok = check_template(file, theme.partials); !ok) return std::unexpected(ok.error());
    for (const auto& [_, file] : theme.partials)
        if (auto ok = check_template(file, theme.partials); !ok) return std::unexpected(ok.error());

    // Set delimiters ({{=<% %>=}}) would change what "{{>" means: keep those as they are.
    for (const auto& [layout, file] : theme.layouts) {
        bool delimiters = file.text.find("{{=") != std::string::npos;
        for (const auto& [_, partial] : theme.partials) delimiters |= partial.text.find("{{=") != std::string::npos;
        std::string out;
        if (!delimiters && expand_partials(file.text, theme.partials, 0, out)) theme.expanded.emplace(layout, std::move(out));
    }

    collect_assets(site_dir / "static", theme.assets);
    collect_assets(theme.dir / "static", theme.assets);
    if (!static_from.empty()) {
        if (static_from.find('/') != std::string::npos || static_from.find("..") != std::string::npos ||
            !fs::is_directory(themes_dir / static_from / "static", ec))
            return fail("theme.yaml: expected 'static_from' to name another theme with a static/ folder, got '" +
                            static_from + "'",
                        (theme.dir / "theme.yaml").string());
        collect_assets(themes_dir / static_from / "static", theme.assets); // the theme's own files win
    }
    std::sort(theme.assets.begin(), theme.assets.end(),
              [](const auto& a, const auto& b) { return a.site_path < b.site_path; });
    return theme;
}

Result<fs::path> new_theme(const fs::path& themes_dir, const std::string& name, const std::string& from) {
    auto valid = [](const std::string& n) {
        return !n.empty() && n.front() != '.' && n.front() != '-' &&
               std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_' || c == '.'; });
    };
    if (!valid(name)) return fail("expected a theme name of letters, digits, '-', '_' or '.', got '" + name + "'");
    const fs::path source = themes_dir / from;
    const fs::path target = themes_dir / name;
    std::error_code ec;
    if (!fs::is_directory(source, ec)) return fail("no such theme folder to copy", source.string());
    if (fs::exists(target, ec)) return fail("already exists; not overwriting it", target.string());
    fs::copy(source, target, fs::copy_options::recursive, ec);
    if (ec) return fail("cannot copy the theme: " + ec.message(), target.string());
    // Name the copy in its theme.yaml; the rest (math: ...) stays.
    std::string yaml = "name: " + name + "\ndescription: A copy of the " + from + " theme; edit layouts/, partials/ and static/.\n";
    if (auto old = read_file(source / "theme.yaml")) {
        for (auto line : split(*old, '\n'))
            if (!line.empty() && !line.starts_with("name:") && !line.starts_with("description:")) {
                yaml += line;
                yaml += '\n';
            }
    }
    if (auto written = write_file_if_changed(target / "theme.yaml", yaml); !written) return std::unexpected(written.error());
    return target;
}

// kainjow offers only const access to what a value holds; the values here
// are our own, so writing through it is sound.
void set_moved(TemplateData& object, const std::string& key, TemplateData&& value) {
    object.set(key, false);
    if (const TemplateData* slot = object.get(key)) *const_cast<TemplateData*>(slot) = std::move(value);
}

TemplateData text_data(std::string&& text) {
    TemplateData data(TemplateData::type::string);
    const_cast<std::string&>(data.string_value()) = std::move(text);
    return data;
}

TemplateData list_data(std::vector<TemplateData>&& items) {
    TemplateData data(TemplateData::type::list);
    const_cast<std::vector<TemplateData>&>(data.list_value()) = std::move(items);
    return data;
}

Result<std::string> render_layout(const Theme& theme, const std::string& layout, const TemplateData& data) {
    auto it = theme.layouts.find(layout);
    if (it == theme.layouts.end()) return fail("theme '" + theme.name + "' has no layout '" + layout + "'");
    if (auto expanded = theme.expanded.find(layout); expanded != theme.expanded.end()) {
        // Parsed once per thread and text: kainjow's render is not meant to be shared across threads.
        thread_local std::map<std::string, std::unique_ptr<mustache::mustache>, std::less<>> parsed;
        auto& tmpl = parsed[expanded->second];
        if (!tmpl) {
            if (parsed.size() > 64) {
                parsed.clear(); // themes come and go (tests); keep the cache small
                return render_layout(theme, layout, data);
            }
            tmpl = std::make_unique<mustache::mustache>(expanded->second);
            tmpl->set_custom_escape(escape_like_kainjow);
        }
        const std::map<std::string, TemplateData> no_partials;
        ThemeContext context(&data, &no_partials);
        std::string out = render_with(*tmpl, context);
        if (!tmpl->is_valid()) return fail("mustache error: " + tmpl->error_message(), it->second.source.string());
        return out;
    }
    std::map<std::string, TemplateData> partials;
    for (const auto& [name, file] : theme.partials) partials.emplace(name, TemplateData(file.text));
    mustache::mustache tmpl(it->second.text);
    tmpl.set_custom_escape(escape_like_kainjow);
    ThemeContext context(&data, &partials);
    std::string out = render_with(tmpl, context);
    if (!tmpl.is_valid()) return fail("mustache error: " + tmpl.error_message(), it->second.source.string());
    return out;
}

} // namespace pp
