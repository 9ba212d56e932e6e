// The model's answer (score/reply_parser.h): whatever it says, the parser
// finds only well-formed IDs and scores from 1 to 10.
#include "core/arxiv_id.h"
#include "score/reply_parser.h"
#include "target.h"

#include <cstdlib>

namespace {

void check_score(const std::optional<int>& score) {
    if (score && (*score < 1 || *score > 10)) std::abort();
}

} // namespace

PAPERPRESS_FUZZ_TARGET(llm_reply) {
    for (const auto& reply : pp::parse_score_reply(input)) {
        if (!pp::is_canonical_arxiv_id(reply.id)) std::abort();
        check_score(reply.relevance);
        check_score(reply.novelty);
    }
    for (const auto& id : pp::parse_id_list_reply(input))
        if (!pp::is_canonical_arxiv_id(id)) std::abort();
}
