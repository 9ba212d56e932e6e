// The config values pages may read, and only these: pages get a
// PageSettings, never the Config. The pages' key hashes every field through
// fields(), and a field left out of fields() fails to compile, so a value a
// page reads cannot be missing from the key (a stale page, with no error).
#pragma once

#include "config/config.h"
#include "util/hash.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

namespace pp {

struct PageSettings {
    std::string title, description, author;
    std::string base_url;            // the pages' links (SiteUrls) are made from it
    int home_days = 0;               // days listed on the home page
    bool group_by_topic = false;     // a day's papers under topic headings
    bool data_has_full_text = false; // the month data holds abstracts (what title-only search searches)
    std::string repository, branch;  // where the reading list proposes the reader's feedback file

    auto fields() const {
        return std::tie(title, description, author, base_url, home_days, group_by_topic, data_has_full_text, repository,
                        branch);
    }
};

namespace detail {
struct AnyField {
    template <class T>
    operator T() const;
};
// The number of fields of an aggregate: the most initializers it takes.
template <class T, class... Fields>
constexpr std::size_t field_count() {
    if constexpr (requires { T{Fields{}..., AnyField{}}; }) return field_count<T, Fields..., AnyField>();
    else return sizeof...(Fields);
}
} // namespace detail

static_assert(detail::field_count<PageSettings>() ==
                  std::tuple_size_v<decltype(std::declval<const PageSettings&>().fields())>,
              "every field of PageSettings must be in fields(), so that the pages' key covers it");

inline PageSettings page_settings(const Config& config) {
    return {config.title,          config.description,          config.author,     config.base_url, config.home_days,
            config.group_by_topic, config.data_has_full_text(), config.repository, config.branch};
}

// Adds every field to `hasher`.
inline void add_page_settings(Hasher& hasher, const PageSettings& settings) {
    std::apply(
        [&](const auto&... field) {
            auto add = [&](const auto& value) {
                if constexpr (std::is_convertible_v<decltype(value), std::string_view>)
                    hasher.add(std::string_view(value));
                else hasher.add(static_cast<std::uint64_t>(value));
            };
            (add(field), ...);
        },
        settings.fields());
}

} // namespace pp
