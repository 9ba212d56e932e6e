// arXiv identifiers, both schemes:
//   new style  YYMM.NNNN (2007-2014) and YYMM.NNNNN (2015-), e.g. 2505.13447
//   old style  archive[.SC]/YYMMNNN, e.g. hep-th/9901001, math.CA/0611800
// each optionally followed by a version "vN", which paperpress never keeps:
// a paper is the same paper in all its versions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pp {

struct ArxivId {
    std::string id;  // without version
    int version = 0; // 0 when none was given
};

// Parses an ID, also accepting an "arXiv:" prefix and abs/pdf URLs.
// Returns nullopt for anything that is not a well-formed ID.
std::optional<ArxivId> parse_arxiv_id(std::string_view text);

// True when `text` is a well-formed ID without version or prefix.
bool is_canonical_arxiv_id(std::string_view text);

std::string arxiv_abs_url(std::string_view id);
std::string arxiv_pdf_url(std::string_view id);
// arXiv's HTML rendering, which exists only for papers submitted since
// December 2023 (IDs from 2312 on); "" for older IDs, whose link would
// answer "No HTML".
std::string arxiv_html_url(std::string_view id);

} // namespace pp

namespace pp {

// arXiv's feeds put "arXiv:2501.09412v1 Announce Type: new  Abstract: " in
// front of the abstract; this returns the abstract alone.
std::string_view strip_announce_prefix(std::string_view abstract);

} // namespace pp
