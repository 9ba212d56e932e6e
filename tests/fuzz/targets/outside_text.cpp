// Outside text made valid at the boundary (util/text.h valid_xml_text) and
// redacted before it is shown (util/redact.h), on any bytes: the result is
// valid XML text, mending is idempotent, and redaction never crashes.
#include "target.h"
#include "util/redact.h"
#include "util/text.h"

#include <cstdlib>
#include <string_view>

PAPERPRESS_FUZZ_TARGET(outside_text) {
    const std::string valid = pp::valid_xml_text(input);
    if (pp::first_invalid_xml_char(valid) != std::string::npos) std::abort();
    if (pp::valid_xml_text(valid) != valid) std::abort();
    if ((pp::first_invalid_xml_char(input) == std::string::npos) != (valid == input)) std::abort();
    (void)pp::redact(input);
    (void)pp::redact_url(input);
}
