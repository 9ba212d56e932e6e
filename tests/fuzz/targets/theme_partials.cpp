// A theme whose layout and partials come from the input (site/theme.h):
// the input split at NUL bytes is the layout `home`, then partials a, b, c
// and d. Whatever they are, preparing the theme and rendering it with fixed
// data gives a page or an Error: never a crash, a hang or a flood.
#include "site/theme.h"
#include "target.h"

#include <array>
#include <cstdlib>

namespace {

const pp::TemplateData& page_data() {
    static const pp::TemplateData data = [] {
        using pp::TemplateData;
        TemplateData item(TemplateData::type::object);
        item.set("name", "<b>x</b> & 'y'");
        item.set("flag", true);
        TemplateData page(TemplateData::type::object);
        page.set("title", "A \"title\"");
        page.set("flag", true);
        page.set("empty", TemplateData(TemplateData::type::list));
        page.set("items", pp::list_data({item, item, item}));
        page.set("nested", item);
        return page;
    }();
    return data;
}

} // namespace

PAPERPRESS_FUZZ_TARGET(theme_partials) {
    pp::Theme theme;
    theme.name = "fuzz";
    static const std::array<const char*, 5> names = {"home", "a", "b", "c", "d"};
    std::size_t start = 0;
    for (std::size_t i = 0; i < names.size() && start <= input.size(); ++i) {
        std::size_t end = input.find('\0', start);
        if (end == std::string_view::npos || i + 1 == names.size()) end = input.size();
        pp::ThemeFile file{std::string(input.substr(start, end - start)), std::string(names[i]) + ".mustache"};
        (i == 0 ? theme.layouts : theme.partials).emplace(names[i], std::move(file));
        start = end + 1;
    }
    if (!pp::prepare_templates(theme)) return;
    auto page = pp::render_layout(theme, "home", page_data());
    if (page && page->size() > (std::size_t{1} << 30)) std::abort();
}
