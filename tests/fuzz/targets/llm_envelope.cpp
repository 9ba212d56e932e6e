// The chat-completion envelope (score/llm_client.h): any body the endpoint
// sends is an error or a reply whose token counts the day file can hold.
// The same body read as an error reply (score/llm_scorer.h) classifies.
#include "score/llm_client.h"
#include "score/llm_scorer.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(llm_envelope) {
    const pp::ProviderError said = pp::read_provider_error(input);
    for (long status : {0L, 400L, 429L, 503L}) (void)pp::classify_llm_failure(status, said);
    auto reply = pp::parse_chat_reply(input);
    if (!reply) return;
    for (long long count : {reply->usage.prompt, reply->usage.completion, reply->usage.cached})
        if (count < 0 || count > pp::max_reply_tokens) std::abort();
}
