// The chat-completion envelope (score/llm_client.h): any body the endpoint
// sends is an error or a reply whose token counts the day file can hold.
#include "score/llm_client.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(llm_envelope) {
    auto reply = pp::parse_chat_reply(input);
    if (!reply) return;
    for (long long count : {reply->usage.prompt, reply->usage.completion, reply->usage.cached})
        if (count < 0 || count > pp::max_reply_tokens) std::abort();
}
