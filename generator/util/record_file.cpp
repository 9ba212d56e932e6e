#include "util/record_file.h"

#include "util/text.h"

#include <xxhash.h>

namespace pp {

void append_escaped(std::string& out, std::string_view text) {
    static constexpr ByteSet specials("\\\t\n\r");
    append_replacing(out, text, specials, [](char c) {
        return c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
    });
}

std::string unescape_value(std::string_view text) {
    if (text.find('\\') == std::string_view::npos) return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        char c = text[++i];
        out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
    }
    return out;
}

RecordWriter::RecordWriter(const RecordFormat& format, std::function<void(std::string_view)> out)
    : out_(std::move(out)), checksum_(XXH3_createState(), [](XXH3_state_s* s) { XXH3_freeState(s); }) {
    XXH3_64bits_reset(checksum_.get());
    line_ = std::string(format.name) + ' ' + std::to_string(format.version) + '\n';
    emit(line_);
    for (const RecordKind& kind : format.kinds) {
        line_.assign({'#', kind.tag});
        for (std::string_view field : kind.fields) text(field);
        end();
    }
}

void RecordWriter::emit(std::string_view bytes) {
    XXH3_64bits_update(checksum_.get(), bytes.data(), bytes.size());
    out_(bytes);
}

void RecordWriter::begin(char tag) { line_.assign(1, tag); }

void RecordWriter::text(std::string_view value) {
    line_ += '\t';
    append_escaped(line_, value);
}

void RecordWriter::hex(std::uint64_t value) {
    line_ += '\t';
    line_ += hex64(value);
}

void RecordWriter::end() {
    line_ += '\n';
    emit(line_);
    line_.clear();
}

void RecordWriter::finish() {
    line_ = "C\t" + hex64(XXH3_64bits_digest(checksum_.get())) + '\n';
    out_(line_); // not part of what it sums
    line_.clear();
}

std::string Record::text(std::size_t field) const { return unescape_value(values_[field]); }

Error RecordReader::problem(const std::string& expected) const { return Error{file_, line_, "expected " + expected}; }

Result<std::string_view> RecordReader::next_line() {
    const auto end = rest_.find('\n');
    ++line_;
    if (end == std::string_view::npos)
        return std::unexpected(problem("a line ending in a newline (the file is cut short)"));
    if (end + 1 > format_->max_line)
        return std::unexpected(problem("a line of at most " + std::to_string(format_->max_line) + " bytes"));
    std::string_view line = rest_.substr(0, end);
    rest_.remove_prefix(end + 1);
    return line;
}

Result<void> RecordReader::read_header(std::string_view& rest) {
    const std::string want = std::string(format_->name) + ' ' + std::to_string(format_->version);
    const auto end = rest.find('\n');
    line_ = 1;
    const std::string_view header =
        rest.substr(0, end == std::string_view::npos ? std::min<std::size_t>(rest.size(), 200) : end);
    if (header == want) {
        rest.remove_prefix(end + 1);
        return {};
    }
    const std::string prefix = std::string(format_->name) + ' ';
    if (header.starts_with(prefix))
        return std::unexpected(problem("version " + std::to_string(format_->version) + " of the " +
                                       std::string(format_->name) + " format, found version " +
                                       excerpt(header.substr(prefix.size()), 20)));
    return std::unexpected(problem("a " + std::string(format_->name) + " file ('" + want + "' on its first line)"));
}

Result<void> RecordReader::read_kind(std::string_view line) {
    if (line.size() < 3 || line[2] != '\t' || line[1] == 'C' || line[1] == '#')
        return std::unexpected(problem("a record kind: '#', its letter, then its fields' names"));
    split_into(line.substr(3), '\t', fields_);
    Columns& columns = columns_[static_cast<unsigned char>(line[1])];
    if (columns.kind >= 0 || !columns.of_field.empty()) return std::unexpected(problem("each record kind named once"));
    columns.of_field.assign(1, -1); // marks the kind as named
    for (std::size_t k = 0; k < format_->kinds.size(); ++k) {
        const RecordKind& kind = format_->kinds[k];
        if (kind.tag != line[1]) continue;
        columns.kind = static_cast<int>(k);
        columns.of_field.assign(kind.fields.size(), -1);
        for (std::size_t f = 0; f < kind.fields.size(); ++f) {
            for (std::size_t c = 0; c < fields_.size(); ++c)
                if (fields_[c] == kind.fields[f]) columns.of_field[f] = static_cast<int>(c);
            const bool list = kind.fields[f].ends_with('*');
            if (columns.of_field[f] < 0 || (list && columns.of_field[f] + 1 != static_cast<int>(fields_.size())))
                return std::unexpected(problem("the field '" + std::string(kind.fields[f]) + "' in record kind '" +
                                               std::string(1, kind.tag) + "'" + (list ? ", last" : "")));
            columns.list = list;
        }
    }
    return {};
}

Result<RecordReader> RecordReader::open(std::string_view bytes, const RecordFormat& format, std::string file) {
    RecordReader reader(format, std::move(file));
    const std::string_view all = bytes;
    if (auto header = reader.read_header(bytes); !header) return std::unexpected(header.error());
    // The checksum line is the last: "C\t" and 16 hex digits.
    constexpr std::size_t sum_line = 2 + 16 + 1;
    std::uint64_t recorded = 0;
    if (bytes.size() < sum_line || !bytes.ends_with('\n') ||
        !bytes.substr(bytes.size() - sum_line).starts_with("C\t") ||
        !Record::parse(bytes.substr(bytes.size() - sum_line + 2, 16), recorded, 16))
        return std::unexpected(Error{reader.file_, 0, "expected a checksum on the last line (the file is cut short)"});
    if (hash_bytes(all.substr(0, all.size() - sum_line)) != recorded)
        return std::unexpected(Error{reader.file_, 0, "expected the bytes its checksum sums (the file is damaged)"});
    reader.rest_ = bytes.substr(0, bytes.size() - sum_line);
    return reader;
}

Result<const Record*> RecordReader::next() {
    while (!rest_.empty()) {
        auto line = next_line();
        if (!line) return std::unexpected(line.error());
        if (line->starts_with('#')) {
            if (auto kind = read_kind(*line); !kind) return std::unexpected(kind.error());
            continue;
        }
        const Columns& columns = columns_[line->empty() ? 0 : static_cast<unsigned char>(line->front())];
        if (line->size() < 2 || (*line)[1] != '\t' || columns.of_field.empty())
            return std::unexpected(problem("a record of a kind named above"));
        if (columns.kind < 0) continue; // a kind this reader does not know
        split_into(line->substr(2), '\t', fields_);
        if (fields_.size() > format_->max_values)
            return std::unexpected(problem("at most " + std::to_string(format_->max_values) + " values a line"));
        record_.kind = static_cast<std::size_t>(columns.kind);
        record_.values_.resize(columns.of_field.size());
        for (std::size_t f = 0; f < columns.of_field.size(); ++f) {
            const auto column = static_cast<std::size_t>(columns.of_field[f]);
            if (column >= fields_.size() && !(columns.list && f + 1 == columns.of_field.size()))
                return std::unexpected(
                    problem("a value for each field of record kind '" + std::string(1, line->front()) + "'"));
            record_.values_[f] = column < fields_.size() ? fields_[column] : std::string_view();
        }
        record_.list_.clear();
        if (columns.list)
            record_.list_.assign(fields_.begin() + std::min<std::size_t>(columns.of_field.back(), fields_.size()),
                                 fields_.end());
        return &record_;
    }
    return nullptr;
}

} // namespace pp
