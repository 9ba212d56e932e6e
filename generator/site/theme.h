// A mustache theme: themes/<name>/{layouts,partials,static}/ and theme.yaml.
// A site overrides single files without copying the theme: a template is
// looked up first in the site's own folder (layouts/<name>.mustache,
// layouts/partials/<name>.mustache, static/...), then in the theme.
// Every template is parsed when the theme loads, so a syntax error or a
// missing partial is reported with the file it is in before anything is
// written.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <kainjow/mustache.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pp {

using TemplateData = kainjow::mustache::data;

// kainjow's set() and list constructor copy what they are given (a string
// twice over); these move it in instead. A day's papers are most of what a
// build renders, and copying them cost more than rendering them.
void set_moved(TemplateData& object, const std::string& key, TemplateData&& value);
TemplateData text_data(std::string&& text);
TemplateData list_data(std::vector<TemplateData>&& items);
// A field with no value is false, never absent: mustache looks a missing key
// up in the enclosing contexts, so a month without failed days would show
// its year's `states`. Every context of a kind defines the same keys.
void put_text(TemplateData& data, const std::string& key, std::string value);

class ParsedLayouts; // theme.cpp

struct ThemeFile {
    std::string text;
    fs::path source; // where it was read from, for error messages
};

struct StaticAsset {
    std::string site_path; // "static/style.css"
    fs::path source;
};

struct Theme {
    std::string name;
    std::string description;
    bool math = false; // theme.yaml `math: true`: the build ships KaTeX into static/katex/
    fs::path dir;
    std::map<std::string, ThemeFile> layouts;  // "day" -> layouts/day.mustache
    std::map<std::string, ThemeFile> partials; // "head" -> partials/head.mustache
    std::vector<StaticAsset> assets;           // sorted by site path
    // Each layout with its {{> partials}} written in place, recursively
    // (absent for a theme that sets delimiters, {{=<% %>=}}). kainjow
    // renders a partial as if its text stood where the tag is, so this gives
    // the same bytes, and the template is parsed once instead of once per
    // inclusion (a day page includes `paper` once per paper).
    std::map<std::string, std::string> expanded;
    // Each of `expanded` parsed, kept for every render to come: a small pool
    // of parsed copies a layout, as many as threads render it at once (one
    // parsed template is not safe to render from two threads at once).
    // prepare_templates makes it; copies of the theme share it.
    std::shared_ptr<ParsedLayouts> parsed;
};

// The layouts every theme must have.
const std::vector<std::string>& required_layouts();

// `themes_dir` holds the themes; `site_dir` is the folder of the config file,
// where the override folders layouts/ and static/ may be.
Result<Theme> load_theme(const fs::path& themes_dir, const std::string& name, const fs::path& site_dir);

// Checks the theme's templates and fills `expanded`. Refuses, naming the
// file: a syntax error, a missing partial, a partial that includes itself
// (directly or through others), partials nested more than 16 deep, sections
// nested more than 100 deep (partials included), and a layout whose partials
// written in place exceed 4 MiB. load_theme calls it; tests and fuzzing
// call it on templates made in memory.
Result<void> prepare_templates(Theme& theme);

// `paperpress theme new NAME`: copies the theme `from` to themes_dir/NAME
// (refuses to overwrite an existing folder) and names it in its theme.yaml.
Result<fs::path> new_theme(const fs::path& themes_dir, const std::string& name, const std::string& from = "default");

// Renders layout `layout` with `data`; partials come from the theme only.
// The theme must have passed prepare_templates (load_theme does it).
Result<std::string> render_layout(const Theme& theme, const std::string& layout, const TemplateData& data);

} // namespace pp
