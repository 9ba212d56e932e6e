#include "content/markdown.h"

#include "util/text.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <vector>

namespace pp {

// cmark allocates every node and text buffer on its own and frees them one
// by one; for a day file that is most of what parsing costs. Here they are
// bumped out of blocks owned by the thread instead, and freeing is a no-op:
// the blocks are reused once the thread holds no tree.
class NodeArena {
public:
    void* allocate(std::size_t size) {
        if (size > max_size) std::abort(); // as cmark's own allocator does when memory runs out
        const std::size_t capacity = round_up(size);
        if (blocks_.empty() || used_ + header + capacity > blocks_[current_].size) next_block(header + capacity);
        std::byte* at = blocks_[current_].memory.get() + used_;
        std::memcpy(at, &capacity, sizeof capacity);
        used_ += header + capacity;
        last_ = at + header;
        return last_;
    }

    void* reallocate(void* pointer, std::size_t size) {
        if (!pointer) return allocate(size);
        if (size > max_size) std::abort();
        std::size_t capacity;
        std::memcpy(&capacity, static_cast<std::byte*>(pointer) - header, sizeof capacity);
        if (size <= capacity) return pointer;
        const std::size_t grown = round_up(size);
        if (pointer == last_ && used_ + grown - capacity <= blocks_[current_].size) { // the newest: grow in place
            used_ += grown - capacity;
            std::memcpy(static_cast<std::byte*>(pointer) - header, &grown, sizeof grown);
            return pointer;
        }
        void* moved = allocate(size);
        std::memcpy(moved, pointer, capacity);
        return moved;
    }

    // Trees are alive on this thread: their memory must stay.
    void hold() { ++trees_; }
    void release() {
        assert(trees_ > 0);
        if (--trees_ > 0) return;
        current_ = 0;
        used_ = 0;
        last_ = nullptr;
    }

private:
    static constexpr std::size_t header = 16; // the capacity, keeping 16-byte alignment
    static constexpr std::size_t block_size = std::size_t{1} << 20;
    static constexpr std::size_t max_size = std::size_t{1} << 40; // far above what cmark asks for
    static std::size_t round_up(std::size_t size) { return (size + 15) & ~std::size_t{15}; }

    void next_block(std::size_t need) {
        while (++current_ < blocks_.size())
            if (blocks_[current_].size >= need) break;
        if (blocks_.empty() || current_ >= blocks_.size()) {
            std::size_t size = std::max(block_size, need);
            std::unique_ptr<std::byte[]> memory(new (std::nothrow) std::byte[size]);
            if (!memory) std::abort(); // cmark cannot take a failed allocation
            blocks_.push_back(Block{std::move(memory), size});
            current_ = blocks_.size() - 1;
        }
        used_ = 0;
    }

    struct Block {
        std::unique_ptr<std::byte[]> memory;
        std::size_t size;
    };
    std::vector<Block> blocks_;
    std::size_t current_ = 0;
    std::size_t used_ = 0;
    std::byte* last_ = nullptr;
    int trees_ = 0;
};

namespace {

thread_local NodeArena arena;

void* arena_calloc(std::size_t count, std::size_t size) {
    if (size != 0 && count > SIZE_MAX / size) std::abort();
    void* memory = arena.allocate(count * size);
    std::memset(memory, 0, count * size);
    return memory;
}
void* arena_realloc(void* pointer, std::size_t size) { return arena.reallocate(pointer, size); }
void arena_free(void*) {}

cmark_mem arena_allocator{arena_calloc, arena_realloc, arena_free};

} // namespace

bool with_markdown(std::string_view text, const std::function<bool(cmark_node* document)>& read) {
    struct Hold { // the arena's memory stays while a document is read (calls may nest)
        Hold() { arena.hold(); }
        ~Hold() { arena.release(); }
    } hold;
    cmark_parser* parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, &arena_allocator);
    cmark_parser_feed(parser, text.data(), text.size());
    cmark_node* document = cmark_parser_finish(parser);
    cmark_parser_free(parser);
    return read(document);
}

namespace {

// CommonMark's escapable characters (whatever the C locale says).
bool is_ascii_punctuation(char c) {
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

} // namespace

std::size_t append_plain_until_syntax(std::string_view text, std::string& out) {
    static constexpr ByteSet inline_syntax("\\`*_&<[]");
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    const char* p = begin;
    for (const char* hit = find_first_of(p, end, inline_syntax);; hit = find_first_of(p, end, inline_syntax)) {
        out.append(p, static_cast<std::size_t>(hit - p));
        if (hit == end || *hit != '\\' || hit + 1 == end) return static_cast<std::size_t>(hit - begin);
        if (is_ascii_punctuation(hit[1])) { // an escape: the character itself
            out += hit[1];
            p = hit + 2;
        } else { // a backslash before anything else is itself
            out += '\\';
            p = hit + 1;
        }
    }
}

bool append_plain_text(std::string_view text, std::string& out) {
    return !text.empty() && static_cast<unsigned char>(text.back()) > ' ' && plain_utf8(text) &&
           append_plain_until_syntax(text, out) == text.size();
}

namespace {

// Whether a line (up to three spaces in) could open a block that spans an
// ATX heading: a fence or an HTML block. (In a block quote or a list item
// they end with it, at the heading's line.)
bool opens_spanning_block(std::string_view line) {
    std::size_t i = 0;
    while (i < 3 && i < line.size() && line[i] == ' ') ++i;
    line.remove_prefix(i);
    return line.starts_with("```") || line.starts_with("~~~") || line.starts_with('<');
}

bool is_section_heading(std::string_view line) {
    return line.starts_with("##") && (line.size() == 2 || line[2] == ' ' || line[2] == '\t');
}

// A line cmark takes for blank: spaces and tabs only.
bool is_blank_line(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

// Whether a line may start a paragraph's line and nothing else: not a
// heading, quote, list item, thematic break, setext underline, fence, HTML
// block, link definition or indented code.
bool starts_only_text(std::string_view line) {
    static constexpr ByteSet other("!\"$%'(),./:;?@\\^{}");
    const char first = line[0];
    if ((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || static_cast<unsigned char>(first) >= 0x80 ||
        other.contains(first))
        return true;
    if (first < '0' || first > '9') return false;
    const std::size_t digits = line.find_first_not_of("0123456789");
    return digits != std::string_view::npos && line[digits] != '.' && line[digits] != ')'; // "1." "1)": a list
}

// Appends the text of one line of a plain paragraph to `out`; false, and
// `out` unfinished, for a line cmark would read otherwise.
bool append_plain_line(std::string_view line, std::string& out) {
    return !line.empty() && starts_only_text(line) && append_plain_text(line, out);
}

// The plain paragraphs that end `section` (a section's text, with no CR),
// read into `paragraphs` (line: from 1 in the section); returns where the
// first of them begins, or the section's size when it ends otherwise. Each
// starts after a blank line, at column 0 with text, so no block open before
// it (list item, quote, code) goes on into it: cmark sees the same blocks in
// the section without them.
std::size_t read_plain_tail(std::string_view section, std::vector<MarkdownBlock>& paragraphs) {
    paragraphs.clear();
    std::size_t tail = section.size();
    bool in_run = false, plain = false; // in a run of non-blank lines; that run plain so far
    int line_number = 1;
    for (std::size_t at = 0; at < section.size(); ++line_number) {
        std::size_t end = section.find('\n', at);
        if (end == std::string_view::npos) end = section.size();
        const std::string_view line = section.substr(at, end - at);
        if (is_blank_line(line)) {
            in_run = false;
        } else if (!in_run) { // a run starts: a paragraph if its lines are all plain
            in_run = true;
            if (paragraphs.empty()) tail = at;
            MarkdownBlock& paragraph = paragraphs.emplace_back();
            paragraph.line = line_number;
            plain = append_plain_line(line, paragraph.text);
        } else if (plain) {
            paragraphs.back().text += '\n';
            plain = append_plain_line(line, paragraphs.back().text);
        }
        if (in_run && !plain && !paragraphs.empty()) { // cmark reads this run, and all before it
            paragraphs.clear();
            tail = section.size();
        }
        at = end + 1;
    }
    return paragraphs.empty() ? section.size() : tail;
}

} // namespace

std::optional<std::vector<std::string>> plain_paragraphs(std::string_view text) {
    std::vector<MarkdownBlock> blocks;
    const std::size_t tail = read_plain_tail(text, blocks);
    if (text.substr(0, tail).find_first_not_of(" \t\n") != std::string_view::npos) return std::nullopt; // other blocks
    std::vector<std::string> paragraphs;
    for (auto& block : blocks) paragraphs.push_back(std::move(block.text));
    return paragraphs;
}

bool for_each_block(std::string_view text, const std::function<bool(const MarkdownBlock&)>& visit,
                    const BlockReading& reading) {
    // Where a section starts at column 0 with "## ", every block open before
    // it has ended, so the sections parse alone to the same blocks.
    std::vector<std::pair<std::size_t, int>> starts{{0, 0}}; // byte offset, lines before it
    // A link reference definition ("[label]: url", in any block) serves the
    // whole document: then it is one piece. So does a byte order mark, which
    // cmark skips before the first line's syntax.
    bool whole = text.find("]:") != std::string_view::npos || text.starts_with("\xEF\xBB\xBF");
    int line_number = 0;
    // Lines end as cmark ends them: "\n", "\r\n" or a lone "\r".
    constexpr ByteSet line_ends("\r\n");
    for (std::size_t at = 0; at < text.size() && !whole; ++line_number) {
        const std::size_t end = static_cast<std::size_t>(
            find_first_of(text.data() + at, text.data() + text.size(), line_ends) - text.data());
        const std::string_view line = text.substr(at, end - at);
        if (opens_spanning_block(line)) {
            starts.assign({{0, 0}});
            whole = true;
            break;
        }
        if (at > 0 && is_section_heading(line)) starts.emplace_back(at, line_number);
        at = end + (text.substr(end).starts_with("\r\n") ? 2 : 1);
    }
    // Without cmark, only what has no CR (cmark's line ends) and is sectioned.
    const bool shortcuts = !whole && text.find('\r') == std::string_view::npos;
    MarkdownBlock block;
    std::vector<MarkdownBlock> plain;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::size_t from = starts[i].first;
        const std::size_t to = i + 1 < starts.size() ? starts[i + 1].first : text.size();
        const std::string_view section = text.substr(from, to - from);
        if (shortcuts && reading.read_section && reading.read_section(section)) continue;
        const std::size_t tail =
            shortcuts && reading.plain_paragraphs ? read_plain_tail(section, plain) : section.size();
        block.lines_before = starts[i].second;
        if (tail > 0) {
            const bool read = with_markdown(section.substr(0, tail), [&](cmark_node* document) {
                for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node)) {
                    block.node = node;
                    block.line = block.lines_before + cmark_node_get_start_line(node);
                    if (!visit(block)) return false;
                }
                return true;
            });
            if (!read) return false;
        }
        if (tail == section.size()) continue;
        for (MarkdownBlock& paragraph : plain) {
            paragraph.lines_before = starts[i].second;
            paragraph.line += starts[i].second;
            if (!visit(paragraph)) return false;
        }
    }
    return true;
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string blank_reference(char c) { return c == '\t' ? "&#9;" : "&#32;"; }

// Characters that can start or end inline syntax anywhere in a line.
bool needs_escape(char c) {
    switch (c) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '<':
        case '>':
        case '&':
        case '|':
        case '~':
            return true;
        default:
            return false;
    }
}

// Escapes the block syntax a line could start with: headings, block quotes,
// list markers, setext underlines, ordered-list numbers ("1." / "1)").
std::string escape_line_start(std::string escaped) {
    if (escaped.empty()) return escaped;
    char first = escaped[0];
    if (first == '#' || first == '-' || first == '+' || first == '=') return escaped.insert(0, 1, '\\');
    size_t digits = 0;
    while (digits < escaped.size() && std::isdigit(static_cast<unsigned char>(escaped[digits]))) ++digits;
    if (digits > 0 && digits < escaped.size() && (escaped[digits] == '.' || escaped[digits] == ')'))
        escaped.insert(escaped.begin() + static_cast<std::ptrdiff_t>(digits), '\\');
    return escaped;
}

} // namespace

std::string escape_markdown_line(std::string_view line, bool at_line_start) {
    size_t lead = 0;
    while (lead < line.size() && is_blank(line[lead])) ++lead;
    size_t tail = line.size();
    while (tail > lead && is_blank(line[tail - 1])) --tail;

    std::string out;
    for (size_t i = 0; i < lead; ++i) out += blank_reference(line[i]);
    std::string body;
    for (size_t i = lead; i < tail; ++i) {
        if (needs_escape(line[i])) body += '\\';
        body += line[i];
    }
    out += lead == 0 && at_line_start ? escape_line_start(std::move(body)) : body;
    for (size_t i = tail; i < line.size(); ++i) out += blank_reference(line[i]);
    return out;
}

std::string escape_markdown_lines(std::string_view text, std::string_view indent, bool first_at_line_start) {
    std::string out;
    bool first = true;
    for (auto line : split(text, '\n')) {
        if (!first) {
            out += '\n';
            if (!line.empty()) out += indent; // a blank line separates paragraphs
        }
        out += escape_markdown_line(line, !first || first_at_line_start);
        first = false;
    }
    return out;
}

// Walks the inline nodes from `first` on, and their descendants, in document
// order without recursion: a hand-edited file may nest emphasis or links a
// hundred thousand deep, which would overflow the stack.
static void append_inline_text(cmark_node* first, std::string& out) {
    if (!first) return;
    cmark_node* const stop = cmark_node_parent(first); // the walk ends back there
    cmark_node* node = first;
    while (node) {
        switch (cmark_node_get_type(node)) {
            case CMARK_NODE_TEXT:
            case CMARK_NODE_CODE:
            case CMARK_NODE_HTML_INLINE:
                if (const char* literal = cmark_node_get_literal(node)) out += literal;
                break;
            case CMARK_NODE_SOFTBREAK:
            case CMARK_NODE_LINEBREAK:
                out += '\n';
                break;
            default:
                if (cmark_node* child = cmark_node_first_child(node)) {
                    node = child;
                    continue;
                }
        }
        // Next in document order: the next sibling of the nearest node that has one.
        while (node && node != stop && !cmark_node_next(node)) node = cmark_node_parent(node);
        node = node && node != stop ? cmark_node_next(node) : nullptr;
    }
}

std::string inline_text(cmark_node* node) {
    std::string out;
    append_inline_text(cmark_node_first_child(node), out);
    return out;
}

std::string inline_text_from(cmark_node* first) {
    std::string out;
    append_inline_text(first, out);
    return out;
}

std::string node_kind(cmark_node* node) {
    const char* name = cmark_node_get_type_string(node);
    return name ? name : "node";
}

} // namespace pp
