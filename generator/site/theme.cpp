#include "site/theme.h"

#include "site/render_markdown.h"

#include "util/bom.h"
#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace pp {

namespace mustache = kainjow::mustache;

const std::vector<std::string>& required_layouts() {
    static const std::vector<std::string> names = {"home", "day", "month", "year", "archive", "404"};
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
    walk_tree(dir,
              [&](const TreeEntry& entry) {
                  if ((entry.kind == TreeEntry::Kind::file || entry.links_to_file()) &&
                      entry.name.ends_with(template_extension) && entry.name.size() > template_extension.size())
                      files.emplace_back(entry.path);
                  return false;
              },
              {.recursive = false, .sorted = true});
    for (const auto& file : files) {
        std::string name = file.stem().string();
        if (into.contains(name)) continue;
        auto text = read_file_inside(dir, file); // a link out of the folder is refused
        if (!text) return std::unexpected(text.error());
        remove_bom(*text);
        into.emplace(name, ThemeFile{std::move(*text), file});
    }
    return {};
}

void collect_assets(const fs::path& dir, std::vector<StaticAsset>& into) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    walk_tree(dir,
              [&](const TreeEntry& entry) {
                  if (entry.kind == TreeEntry::Kind::folder) return true;
                  if (entry.kind != TreeEntry::Kind::file && !entry.links_to_file()) return false;
                  std::string site_path = "static/" + entry.relative;
                  bool known =
                      std::any_of(into.begin(), into.end(), [&](const auto& a) { return a.site_path == site_path; });
                  if (!known) into.push_back(StaticAsset{site_path, entry.path});
                  return false;
              },
              {.sorted = true});
}

// What a template's tags add up to, read as kainjow reads them: each file
// starts with the default delimiters, which {{=<% %>=}} changes.
struct TemplateShape {
    struct Inclusion {
        std::string name;
        int depth;                      // sections open around the tag
        std::size_t begin = 0, end = 0; // the tag's bytes in the text
    };
    std::vector<Inclusion> partials; // {{> name}}, in order
    int depth = 0;                   // deepest nesting of sections
};

TemplateShape template_shape(std::string_view text) {
    TemplateShape shape;
    std::string open = "{{", close = "}}";
    int depth = 0;
    for (std::size_t at = text.find(open); at != std::string_view::npos; at = text.find(open, at)) {
        std::size_t inner = at + open.size();
        const bool triple = open == "{{" && inner < text.size() && text[inner] == '{';
        const std::string end_tag = triple ? "}" + close : close;
        const std::size_t end = text.find(end_tag, inner);
        if (end == std::string_view::npos) break;
        const std::string_view tag = text.substr(inner, end - inner);
        const std::size_t begin = at;
        at = end + end_tag.size();
        if (tag.empty()) continue;
        const char kind = tag.front();
        if (kind == '#' || kind == '^') {
            shape.depth = std::max(shape.depth, ++depth);
        } else if (kind == '/') {
            depth = std::max(0, depth - 1);
        } else if (kind == '>') {
            shape.partials.push_back({std::string(trim(tag.substr(1))), depth, begin, at});
        } else if (kind == '=' && tag.size() > 2 && tag.back() == '=') {
            auto delimiters = split(trim(tag.substr(1, tag.size() - 2)), ' ');
            std::erase_if(delimiters, [](std::string_view part) { return part.empty(); });
            if (delimiters.size() == 2) open = delimiters[0], close = delimiters[1];
        }
    }
    return shape;
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
    if (!found || offset > file.text.size()) return Error{file.source.string(), 0, "mustache syntax error: " + message};
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
    for (const auto& partial : template_shape(file.text).partials)
        if (!partials.contains(partial.name))
            return fail("includes partial " + excerpt(partial.name) + ", which neither the site nor the theme has",
                        file.source.string(), line_of(file.text, partial.name));
    return {};
}

// Bounds on what partials may add up to. kainjow renders nested sections and
// partials by recursion, and writes a partial in full wherever it is
// included: a theme past these would overflow the stack or fill the disk.
constexpr int max_partial_depth = 16;                            // partials within partials
constexpr int max_section_depth = 100;                           // sections within sections, partials included
constexpr std::size_t max_expanded_bytes = std::size_t{4} << 20; // a layout with its partials written in place

// Walks the partials a template includes, refusing cycles and templates past
// the bounds above; records what each partial expands to.
class PartialCheck {
public:
    explicit PartialCheck(const std::map<std::string, ThemeFile>& partials) : partials_(partials) {}

    // `name` is the partial `file` is, or empty for a layout.
    Result<void> check(const ThemeFile& file, const std::string& name) {
        chain_.clear();
        if (!name.empty()) chain_.push_back(name);
        auto measured = measure(file);
        if (!measured) return std::unexpected(measured.error());
        return {};
    }

private:
    struct Size {
        std::size_t bytes = 0; // with every partial written in place
        int depth = 0;         // of sections, through partials
        int levels = 0;        // of partials within partials
    };

    std::string chain_text(std::size_t from, const std::string& last) const {
        std::string out;
        for (std::size_t i = from; i < chain_.size(); ++i) out += "'" + chain_[i] + "' > ";
        return out + "'" + last + "'";
    }

    Result<Size> measure(const ThemeFile& file) {
        const TemplateShape shape = template_shape(file.text);
        Size size{file.text.size(), shape.depth, 0};
        if (size.depth > max_section_depth) return too_deep(file);
        for (const auto& inclusion : shape.partials) {
            auto found = partials_.find(inclusion.name);
            if (found == partials_.end()) continue; // check_template names it
            auto inner = measure_partial(inclusion.name, found->second);
            if (!inner) return std::unexpected(inner.error());
            size.bytes = inner->bytes > max_expanded_bytes ? inner->bytes : size.bytes + inner->bytes;
            size.depth = std::max(size.depth, inclusion.depth + inner->depth);
            size.levels = std::max(size.levels, inner->levels);
            if (chain_.size() + inner->levels > max_partial_depth)
                return fail("expected partials nested at most " + std::to_string(max_partial_depth) +
                                " deep; including " + chain_text(0, inclusion.name) + " goes deeper",
                            file.source.string());
            if (size.bytes > max_expanded_bytes)
                return fail("expected its partials to expand to at most " + std::to_string(max_expanded_bytes >> 20) +
                                " MiB; including " + chain_text(0, inclusion.name) + " makes more",
                            file.source.string());
        }
        if (size.depth > max_section_depth) return too_deep(file);
        return size;
    }

    static std::unexpected<Error> too_deep(const ThemeFile& file) {
        return fail("expected sections nested at most " + std::to_string(max_section_depth) +
                        " deep, partials included",
                    file.source.string());
    }

    Result<Size> measure_partial(const std::string& name, const ThemeFile& file) {
        if (auto known = measured_.find(name); known != measured_.end()) return known->second;
        if (auto cycle = std::find(chain_.begin(), chain_.end(), name); cycle != chain_.end()) {
            if (cycle + 1 == chain_.end()) return fail("partial '" + name + "' includes itself", file.source.string());
            return fail("partial '" + name +
                            "' includes itself: " + chain_text(static_cast<std::size_t>(cycle - chain_.begin()), name),
                        file.source.string());
        }
        if (chain_.size() >= max_partial_depth)
            return fail("expected partials nested at most " + std::to_string(max_partial_depth) + " deep; " +
                            chain_text(0, name) + " goes deeper",
                        file.source.string());
        chain_.push_back(name);
        auto size = measure(file);
        chain_.pop_back();
        if (!size) return size;
        size->levels += 1;
        measured_.emplace(name, *size);
        return size;
    }

    const std::map<std::string, ThemeFile>& partials_;
    std::vector<std::string> chain_; // the partials being measured, outermost first
    std::map<std::string, Size> measured_;
};

// Thrown out of kainjow's render when a page costs more than its budget;
// render_layout turns it into an Error.
struct RenderBudgetExceeded : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a render may cost. kainjow renders a section's body once per list
// item, so sections over lists nested in a theme multiply (ten papers'
// lists nested seven deep: 10^7 bodies), and it looks each name up through
// every open section. A render is charged, per section entered, the number
// of sections open: that bounds the work, and, since each body is at most
// the template, the memory.
constexpr std::size_t max_output_bytes = std::size_t{1} << 30;
std::size_t work_budget(std::size_t template_bytes) {
    constexpr std::size_t most = 4'000'000, least = 400'000, bytes = std::size_t{1} << 32;
    return std::min(most, std::max(least, bytes / std::max<std::size_t>(template_bytes, 1)));
}

// A mustache context that resolves partials from the theme only, so page
// data can never stand in for a template; it charges each section entered.
class ThemeContext : public mustache::basic_context<std::string> {
public:
    ThemeContext(const TemplateData* data, const std::map<std::string, TemplateData>* partials, std::size_t work)
        : inner_(data), partials_(partials), work_left_(work) {}
    void push(const TemplateData* data) override {
        const std::size_t cost = ++open_sections_;
        if (work_left_ < cost) throw RenderBudgetExceeded("sections repeat too often (lists within lists?)");
        work_left_ -= cost;
        inner_.push(data);
    }
    void pop() override {
        --open_sections_;
        inner_.pop();
    }
    const TemplateData* get(const std::string& name) const override { return inner_.get(name); }
    const TemplateData* get_partial(const std::string& name) const override {
        auto it = partials_->find(name);
        return it == partials_->end() ? nullptr : &it->second;
    }

private:
    mustache::context<std::string> inner_;
    const std::map<std::string, TemplateData>* partials_;
    std::size_t work_left_;
    std::size_t open_sections_ = 0;
};

// Writes the partials into `text`, as kainjow would include them. Only for
// templates PartialCheck passed, so it ends and the result is bounded.
void expand_partials(const std::string& text, const std::map<std::string, ThemeFile>& partials, std::string& out) {
    std::size_t from = 0;
    for (const auto& inclusion : template_shape(text).partials) {
        out.append(text, from, inclusion.begin - from);
        if (auto it = partials.find(inclusion.name); it != partials.end())
            expand_partials(it->second.text, partials, out);
        from = inclusion.end;
    }
    out.append(text, from, std::string::npos);
}

// kainjow's own escaping, byte for byte (' is &apos;), but copying the
// runs between special bytes whole instead of appending byte by byte.
std::string escape_like_kainjow(const std::string& text) { return html_escape(text, "&apos;"); }

// kainjow writes what it renders to a stream; this one appends to a string,
// without an ostringstream and its copy of the page at the end.
struct StringSink {
    std::string& out;
    StringSink& operator<<(const std::string& text) {
        if (out.size() + text.size() > max_output_bytes) throw RenderBudgetExceeded("the page would exceed 1 GiB");
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

std::unique_ptr<mustache::mustache> parse_template(const std::string& text) {
    auto tmpl = std::make_unique<mustache::mustache>(text);
    tmpl->set_custom_escape(escape_like_kainjow);
    return tmpl;
}

} // namespace

// A pool of parsed templates for each expanded layout: a render takes one
// out (a new one is parsed when none is free) and puts it back when it
// rendered well, so each is rendered by one thread at a time.
class ParsedLayouts {
public:
    explicit ParsedLayouts(const std::map<std::string, std::string>& expanded) {
        for (const auto& entry : expanded) pools_[entry.first]; // fixed from here on: found without a lock
    }

    std::unique_ptr<mustache::mustache> take(const std::string& layout, const std::string& text) {
        if (auto pool = pools_.find(layout); pool != pools_.end()) {
            std::lock_guard lock(pool->second.mutex);
            if (!pool->second.idle.empty()) {
                auto tmpl = std::move(pool->second.idle.back());
                pool->second.idle.pop_back();
                return tmpl;
            }
        }
        return parse_template(text);
    }

    void put_back(const std::string& layout, std::unique_ptr<mustache::mustache> tmpl) {
        if (auto pool = pools_.find(layout); pool != pools_.end()) {
            std::lock_guard lock(pool->second.mutex);
            pool->second.idle.push_back(std::move(tmpl));
        }
    }

private:
    struct Pool {
        std::mutex mutex;
        std::vector<std::unique_ptr<mustache::mustache>> idle;
    };
    std::map<std::string, Pool> pools_;
};

Result<void> prepare_templates(Theme& theme) {
    // Bounds first: kainjow's parser and renderer recurse over what they are given.
    PartialCheck partial_check(theme.partials);
    for (const auto& [_, file] : theme.layouts)
        if (auto ok = partial_check.check(file, ""); !ok) return ok;
    for (const auto& [name, file] : theme.partials)
        if (auto ok = partial_check.check(file, name); !ok) return ok;
    for (const auto& [_, file] : theme.layouts)
        if (auto ok = check_template(file, theme.partials); !ok) return ok;
    for (const auto& [_, file] : theme.partials)
        if (auto ok = check_template(file, theme.partials); !ok) return ok;

    // Set delimiters ({{=<% %>=}}) last only to the end of their file: a
    // partial written into a layout would be read with the layout's. Themes
    // that set them are rendered with kainjow's partials instead.
    bool delimiters = false;
    for (const auto& [_, partial] : theme.partials) delimiters |= partial.text.find("{{=") != std::string::npos;
    theme.expanded.clear();
    for (const auto& [layout, file] : theme.layouts) {
        if (delimiters || file.text.find("{{=") != std::string::npos) continue;
        std::string out;
        expand_partials(file.text, theme.partials, out);
        theme.expanded.emplace(layout, std::move(out));
    }
    theme.parsed = std::make_shared<ParsedLayouts>(theme.expanded);
    return {};
}

Result<Theme> load_theme(const fs::path& themes_dir, const std::string& name, const fs::path& site_dir) {
    if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos)
        return fail("expected a theme name (a folder under " + themes_dir.string() + "), got " + excerpt(name));
    Theme theme;
    theme.name = name;
    theme.dir = themes_dir / name;
    std::error_code ec;
    if (!fs::is_directory(theme.dir, ec)) return fail("no such theme folder", theme.dir.string());

    std::string static_from; // another theme whose static files this one shares
    if (auto yaml_path = theme.dir / "theme.yaml"; fs::exists(yaml_path, ec)) {
        auto yaml = read_file_inside(theme.dir, yaml_path); // capped, never a device, no link out
        if (!yaml) return std::unexpected(yaml.error());
        try {
            YAML::Node node = YAML::Load(std::string(without_bom(*yaml)));
            if (node["description"] && node["description"].IsScalar()) theme.description = node["description"].Scalar();
            if (node["math"] && node["math"].IsScalar()) theme.math = node["math"].as<bool>();
            if (node["static_from"] && node["static_from"].IsScalar()) static_from = node["static_from"].Scalar();
        } catch (const YAML::Exception& e) {
            return fail("not valid YAML: " + e.msg, yaml_path.string(), e.mark.line + 1);
        }
    }

    for (auto step :
         {read_templates(site_dir / "layouts", theme.layouts), read_templates(theme.dir / "layouts", theme.layouts),
          read_templates(site_dir / "layouts" / "partials", theme.partials),
          read_templates(theme.dir / "partials", theme.partials)})
        if (!step) return std::unexpected(step.error());

    for (const auto& layout : required_layouts())
        if (!theme.layouts.contains(layout))
            return fail("theme '" + name + "' has no layout '" + layout + "' (expected layouts/" + layout +
                            ".mustache)",
                        theme.dir.string());
    if (auto ready = prepare_templates(theme); !ready) return std::unexpected(ready.error());

    collect_assets(site_dir / "static", theme.assets);
    collect_assets(theme.dir / "static", theme.assets);
    if (!static_from.empty()) {
        if (static_from.find('/') != std::string::npos || static_from.find("..") != std::string::npos ||
            !fs::is_directory(themes_dir / static_from / "static", ec))
            return fail("theme.yaml: expected 'static_from' to name another theme with a static/ folder, got " +
                            excerpt(static_from),
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
               std::all_of(n.begin(), n.end(),
                           [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_' || c == '.'; });
    };
    if (!valid(name)) return fail("expected a theme name of letters, digits, '-', '_' or '.', got " + excerpt(name));
    const fs::path source = themes_dir / from;
    const fs::path target = themes_dir / name;
    std::error_code ec;
    if (!fs::is_directory(source, ec)) return fail("no such theme folder to copy", source.string());
    if (fs::exists(target, ec)) return fail("already exists; not overwriting it", target.string());
    fs::copy(source, target, fs::copy_options::recursive, ec);
    if (ec) return fail("cannot copy the theme: " + ec.message(), target.string());
    // Name the copy in its theme.yaml; the rest (math: ...) stays.
    std::string yaml =
        "name: " + name + "\ndescription: A copy of the " + from + " theme; edit layouts/, partials/ and static/.\n";
    if (auto old = read_file_inside(source, source / "theme.yaml")) {
        for (auto line : split(*old, '\n'))
            if (!line.empty() && !line.starts_with("name:") && !line.starts_with("description:")) {
                yaml += line;
                yaml += '\n';
            }
    }
    if (auto written = write_file_inside(target, target / "theme.yaml", yaml); !written)
        return std::unexpected(written.error());
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

void put_text(TemplateData& data, const std::string& key, std::string value) {
    if (value.empty()) data.set(key, false);
    else set_moved(data, key, text_data(std::move(value)));
}

TemplateData list_data(std::vector<TemplateData>&& items) {
    TemplateData data(TemplateData::type::list);
    const_cast<std::vector<TemplateData>&>(data.list_value()) = std::move(items);
    return data;
}

namespace {

Result<std::string> render_checked(const Theme& theme, const std::string& layout, const TemplateData& data) {
    auto it = theme.layouts.find(layout);
    if (it == theme.layouts.end()) return fail("theme " + excerpt(theme.name) + " has no layout " + excerpt(layout));
    if (auto expanded = theme.expanded.find(layout); expanded != theme.expanded.end()) {
        auto tmpl = theme.parsed ? theme.parsed->take(layout, expanded->second) : parse_template(expanded->second);
        const std::map<std::string, TemplateData> no_partials;
        ThemeContext context(&data, &no_partials, work_budget(expanded->second.size()));
        std::string out = render_with(*tmpl, context);
        if (!tmpl->is_valid()) return fail("mustache error: " + tmpl->error_message(), it->second.source.string());
        if (theme.parsed) theme.parsed->put_back(layout, std::move(tmpl));
        return out;
    }
    std::map<std::string, TemplateData> partials;
    std::size_t template_bytes = it->second.text.size(); // and at most every partial, each once
    for (const auto& [name, file] : theme.partials) {
        partials.emplace(name, TemplateData(file.text));
        template_bytes += file.text.size();
    }
    auto tmpl = parse_template(it->second.text);
    ThemeContext context(&data, &partials, work_budget(template_bytes));
    std::string out = render_with(*tmpl, context);
    if (!tmpl->is_valid()) return fail("mustache error: " + tmpl->error_message(), it->second.source.string());
    return out;
}

} // namespace

Result<std::string> render_layout(const Theme& theme, const std::string& layout, const TemplateData& data) {
    auto it = theme.layouts.find(layout);
    const std::string file = it == theme.layouts.end() ? std::string() : it->second.source.string();
    try {
        return render_checked(theme, layout, data);
    } catch (const RenderBudgetExceeded& e) {
        return fail(std::string("expected the layout to render within bounds: ") + e.what(), file);
    } catch (const std::exception& e) { // kainjow's or the allocator's: no exception leaves the module
        return fail(std::string("cannot render the template: ") + e.what(), file);
    }
}

} // namespace pp
