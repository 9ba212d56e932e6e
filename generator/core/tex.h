// TeX as arXiv writes it in names, titles and abstracts ("Fran\c{c}ois",
// "Sch\"utze", "Q\&A", "2--3"), turned into the Unicode text a reader
// expects. For display, search words and notifications only: the content
// tree keeps the text as arXiv gave it. Pure text, no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace pp {

// Accents (\'e, \"{o}, {\"u}, \c{c}, \v{s}, \k{a}, \.z, \u{g}, ...), the
// special letters (\ss, \o, \l, \aa, \ae, \oe, \i, ...), the escapes
// \& \% \_ \# \$ \{ \}, "--" and "---" as dashes and a tie "~" ("Fig.~2") as a
// no-break space; a "~" that means "about" ("~2x") or a range ("1~2") stays.
// Math ($...$, $$...$$, \(...\), \[...\]) is copied unchanged for a math
// renderer. Outside it, text formatting, \emph{x} \textbf{x} \texttt{x} ...
// and the older {\it x} {\em x} {\bf x} ..., is reduced to its text;
// \footnote{x} to " (x)"; \cite{key}, \ref{label} and \newcommand{...}{...}
// are dropped (a reader has no bibliography); a symbol (\alpha, \infty,
// \ie) is its letter or words, and any other command (a paper's own macro,
// \svd) its name. Composed to NFC.
// `for_math_renderer`: text for a page where KaTeX typesets $...$ keeps "\$"
// as it is, so an escaped dollar never opens a formula there.
std::string tex_to_unicode(std::string_view text, bool for_math_renderer = false);

// `text` for where no math renderer runs (the feed, a page's description):
// as tex_to_unicode, and its math as plain Unicode too ("$\ell_1$-norm" is
// "ℓ₁-norm", "$O(n^2)$" "O(n²)"; a command without a letter by its name).
std::string tex_to_plain(std::string_view text);

// `text` for a page where KaTeX runs: as tex_to_unicode(text, true), with
// each inline formula that Unicode writes whole ("$x_{1}$" is "x₁",
// "$\phi$-Balancing" "φ-Balancing") written so at build time, so the page
// does not move when KaTeX arrives; the others ($\mathcal{O}(\frac{1}{T})$)
// stay for KaTeX.
std::string tex_for_page(std::string_view text);

// Whether tex_to_unicode could change `text` (a quick check for the common
// case of plain text).
bool has_tex(std::string_view text);

// The closing brace of the group whose "{" is at `open` ("\{" and "\}" do
// not count); npos when it is never closed.
std::size_t group_end(std::string_view text, std::size_t open);

// Whether `text` holds math a renderer would typeset: a closed $...$,
// $$...$$, \(...\) or \[...\].
bool has_math(std::string_view text);

// The end of the math that starts at `at` ("$", "$$", "\(" or "\["), just
// past its closing delimiter; nullopt when it is never closed.
std::optional<std::size_t> math_end(std::string_view text, std::size_t at);
// The first formula that opens at or after `from`, escapes skipped: where it
// opens and where it ends (has_math, in_math and tex_to_plain walk these).
std::optional<std::pair<std::size_t, std::size_t>> next_math(std::string_view text, std::size_t from);

// Whether the byte at `pos` is inside math (its delimiters included).
bool in_math(std::string_view text, std::size_t pos);

} // namespace pp
