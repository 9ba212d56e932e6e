#include "score/learned_scorer.h"
#include "core/tex.h"
#include "score/reader_feedback.h"
#include "score/taste_sources.h"
#include "util/hash.h"
#include "util/memory.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <numeric>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace pp {

namespace {

// Words that say nothing about a topic.
// (A table of words, kept as a paragraph.)
// clang-format off
const std::unordered_set<std::string_view>& stopwords() {
    static const std::unordered_set<std::string_view> words = {
        "a", "about", "above", "across", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
        "been", "being", "both", "but", "by", "can", "could", "do", "does", "due", "each", "either", "et", "etc",
        "for", "from", "further", "has", "have", "here", "how", "however", "i", "if", "in", "into", "is", "it",
        "its", "may", "more", "most", "much", "must", "new", "no", "not", "of", "on", "one", "only", "or",
        "other", "our", "over", "paper", "propose", "proposed", "provide", "show", "shows", "so", "such",
        "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through",
        "thus", "to", "two", "under", "up", "upon", "use", "used", "uses", "using", "via", "was", "we", "well",
        "were", "what", "when", "where", "whether", "which", "while", "who", "whose", "why", "will", "with",
        "within", "without", "work", "would", "yet", "al", "based", "results", "approach", "method", "methods",
        "novel", "existing", "different", "various", "present", "introduce", "address", "achieve", "achieves",
        "demonstrate", "significant", "significantly", "specifically", "extensive", "experiments", "code",
        "available", "https", "github", "com", "our", "first", "however", "while", "like", "make", "makes",
    };
    return words;
}
// clang-format on

// "models" -> "model", "strategies" -> "strategy"; "loss" and "bias" stay.
std::string_view singular(std::string_view word, std::string& scratch) {
    if (word.size() > 4 && word.ends_with("ies")) {
        scratch.assign(word.substr(0, word.size() - 3));
        scratch += 'y';
        return scratch;
    }
    if (word.size() > 3 && word.back() == 's' && !word.ends_with("ss") && !word.ends_with("us") &&
        !word.ends_with("is"))
        return word.substr(0, word.size() - 1);
    return word;
}

std::uint32_t term_hash(std::string_view term) { return static_cast<std::uint32_t>(hash_bytes(term)); }

// Unigram and adjacent-word bigram hashes of `text`, appended to `out`.
void add_terms(std::string_view text, std::vector<std::uint32_t>& out) {
    std::string word, scratch, previous, bigram;
    auto flush = [&] {
        if (word.size() < 2 || stopwords().contains(word)) {
            if (!word.empty()) previous.clear(); // a stopword breaks a bigram
            word.clear();
            return;
        }
        std::string_view w = singular(word, scratch);
        out.push_back(term_hash(w));
        if (!previous.empty()) {
            bigram.assign(previous).append(" ").append(w);
            out.push_back(term_hash(bigram));
        }
        previous.assign(w);
        word.clear();
    };
    for (char c : text) {
        unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) word += static_cast<char>(std::tolower(u));
        else if (c == '-' && !word.empty()) continue; // "state-space" -> "statespace"
        else flush();
    }
    flush();
}

// Each author is a term of its own ("@" and the folded name, letters only), so
// a paper by an author the reader picked before resembles that pick.
void add_author_terms(const std::vector<std::string>& authors, std::vector<std::uint32_t>& out) {
    std::string key;
    for (const auto& name : authors) {
        key.assign("@");
        for (char c : fold_for_matching(tex_to_unicode(name)))
            if (c != ' ' && c != '.' && c != '-' && c != '\'' && c != ',') key += c;
        if (key.size() > 2) out.insert(out.end(), 1, term_hash(key));
    }
}

TermCounts count_terms(std::vector<std::uint32_t>& hashes) {
    std::sort(hashes.begin(), hashes.end());
    TermCounts counts;
    for (std::uint32_t h : hashes) {
        if (!counts.empty() && counts.back().first == h) {
            if (counts.back().second < 65535) ++counts.back().second;
        } else {
            counts.emplace_back(h, 1);
        }
    }
    return counts;
}

} // namespace

// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
long days_since_epoch(const Date& d) {
    int y = d.year - (d.month <= 2);
    long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = static_cast<unsigned>(y - era * 400);
    unsigned doy = (153 * (d.month + (d.month > 2 ? -3 : 9)) + 2) / 5 + d.day - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long>(doe) - 719468;
}

IndexedPaper indexed(const Date& date, const Paper& paper) {
    return IndexedPaper{date, paper.id, paper.title, paper_terms(paper)};
}

TermCounts paper_terms(const Paper& paper) {
    std::vector<std::uint32_t> hashes;
    add_terms(paper.title, hashes);
    add_terms(paper.title, hashes); // the title says more than a sentence of the abstract
    add_terms(paper.abstract, hashes);
    add_author_terms(paper.authors, hashes);
    return count_terms(hashes);
}

TasteIndex assemble_taste_index(std::vector<IndexSource> sources) {
    TasteIndex index;
    std::unordered_map<long, std::set<std::string>> picked_on;
    std::set<long> self_scored;
    for (auto& source : sources) {
        if (source.is_feed) continue;
        if (source.self_scored) self_scored.insert(days_since_epoch(source.date));
        if (!source.papers.empty()) index.picks_per_day.push_back(static_cast<int>(source.papers.size()));
        for (auto& pick : source.papers) {
            picked_on[days_since_epoch(source.date)].insert(pick.id);
            index.picks.push_back(std::move(pick)); // moved, not copied: the index is large
        }
    }
    for (auto& source : sources) {
        if (!source.is_feed) continue;
        const auto& picked = picked_on[days_since_epoch(source.date)];
        for (auto& paper : source.papers)
            if (!picked.contains(paper.id)) index.background.push_back(std::move(paper));
        if (!picked.empty() && source.candidates > 0)
            index.feed_shares.push_back({source.date, static_cast<int>(source.candidates),
                                         static_cast<int>(picked.size()),
                                         self_scored.contains(days_since_epoch(source.date))});
    }
    auto by_date = [](const IndexedPaper& a, const IndexedPaper& b) { return a.date < b.date; };
    std::stable_sort(index.picks.begin(), index.picks.end(), by_date);
    std::stable_sort(index.background.begin(), index.background.end(), by_date);
    std::stable_sort(index.feed_shares.begin(), index.feed_shares.end(),
                     [](const auto& a, const auto& b) { return a.date < b.date; });
    return index;
}

IndexSource day_source(const Day& day) {
    IndexSource source{false, day.model == "embedded", day.date, {}, {}}; // an offline run's day (llm_pass.cpp)
    if (day.status != DayStatus::announced) return source;
    for (const auto& paper : day.papers)
        if (paper.unscored.empty()) source.papers.push_back(indexed(day.date, paper)); // unscored: kept, not chosen
    return source;
}

IndexSource feed_source(const PastFeed& feed) {
    IndexSource source{true, false, feed.date, {}, {}};
    for (const auto& paper : feed.papers) source.papers.push_back(indexed(feed.date, paper));
    source.candidates = static_cast<std::uint32_t>(feed.candidates ? feed.candidates : feed.papers.size());
    return source;
}

TasteIndex build_taste_index(const std::vector<Day>& days, const std::vector<PastFeed>& feeds) {
    std::vector<IndexSource> sources;
    for (const auto& day : days) sources.push_back(day_source(day));
    for (const auto& feed : feeds) sources.push_back(feed_source(feed));
    return assemble_taste_index(std::move(sources));
}

double usual_daily_picks(const TasteIndex& index, int recent_days) {
    const auto& counts = index.picks_per_day;
    if (counts.empty()) return 0;
    size_t n = std::min(counts.size(), static_cast<size_t>(std::max(recent_days, 1)));
    return std::accumulate(counts.end() - static_cast<long>(n), counts.end(), 0.0) / static_cast<double>(n);
}

namespace {

// The picked share of the last `days` past feeds, pooled; a day this scorer kept counts as the picks it expected.
double picked_share(const std::vector<TasteIndex::FeedShare>& shares, int days, double keep_multiple) {
    const size_t n = std::min(shares.size(), static_cast<size_t>(std::max(days, 1)));
    double candidates = 0, picked = 0;
    for (auto it = shares.end() - static_cast<long>(n); it != shares.end(); ++it)
        candidates += it->candidates, picked += it->self_scored ? it->picked / keep_multiple : it->picked;
    return picked / candidates;
}

} // namespace

double expected_picks(const TasteIndex& index, std::size_t feed_size, const LearnedScorerOptions& options) {
    const auto& shares = index.feed_shares;
    if (shares.empty() || options.share_days <= 0) return usual_daily_picks(index, options.usual_days);
    // A fall in the share shows in the last few feeds first: follow it at once, a rise only as the longer window does.
    const double multiple = std::max(options.keep_multiple, 1.0);
    double share = picked_share(shares, options.share_days, multiple);
    if (options.recent_share_days > 0)
        share = std::min(share, picked_share(shares, options.recent_share_days, multiple));
    return share * static_cast<double>(feed_size);
}

std::size_t cascade_size(std::size_t feed_size, const TasteIndex& index, double fraction) {
    if (index.picks.empty()) return feed_size;
    return std::min(feed_size, static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(feed_size))));
}

namespace {

template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>; // on huge pages (util/memory.h)

// A TF-IDF vector of unit length: (dense term id, weight), a view into the
// run's one array of weights.
using Weight = std::pair<std::uint32_t, float>;
using Vector = std::span<const Weight>;

// Every paper of one scoring run by its terms: views into the index's term
// counts and today's feed's, not a copy of the archive's millions of entries.
using TermsView = std::span<const TermCounts::value_type>;

constexpr std::uint32_t no_term = 0xffffffffu;

// The feed's distinct terms, by hash: open addressing in one array, a slot
// being (hash << 32) | (index + 1), 0 when empty.
class FeedVocabulary {
public:
    explicit FeedVocabulary(std::size_t entries) {
        std::size_t size = 1024;
        while (size < 2 * entries) size *= 2;
        slots_.assign(size, 0);
        mask_ = size - 1;
    }
    std::uint32_t size() const { return size_; }
    std::uint32_t add(std::uint32_t hash) {
        std::size_t at = slot_of(hash);
        if (slots_[at] == 0) slots_[at] = (std::uint64_t{hash} << 32) | ++size_;
        return static_cast<std::uint32_t>(slots_[at]) - 1;
    }
    std::uint32_t find(std::uint32_t hash) const {
        const std::uint64_t slot = slots_[slot_of(hash)];
        return slot == 0 ? no_term : static_cast<std::uint32_t>(slot) - 1;
    }

private:
    std::size_t slot_of(std::uint32_t hash) const {
        std::size_t at = (std::uint64_t{hash} * 0x9e3779b97f4a7c15ull >> 32) & mask_;
        while (slots_[at] != 0 && (slots_[at] >> 32) != hash) at = (at + 1) & mask_;
        return at;
    }
    BigVector<std::uint64_t> slots_;
    std::size_t mask_ = 0;
    std::uint32_t size_ = 0;
};

// The run's terms as dense ids. Only a term today's feed holds can add to a
// feed paper's score, so only those get one, and only when a second paper
// holds them; the others still count in a paper's length, weighed as a rare
// term. One hash table of the feed's terms, probed once per entry: no sort
// of the archive's millions of entries.
struct TermIds {
    FeedVocabulary vocabulary;        // the feed's terms
    std::vector<std::uint32_t> dense; // by vocabulary entry: its id, or no_term
    BigVector<float> idf;             // by id; 0: in too much of the background to carry a signal
    float single_idf[2] = {0, 0};     // a term without an id: a pick's, a background paper's
    std::uint32_t id_of(std::uint32_t hash) const {
        const std::uint32_t entry = vocabulary.find(hash);
        return entry == no_term ? no_term : dense[entry];
    }
};

// Ids and idf over the background: the papers from `first_background` on
// (past feeds' unpicked papers and today's feed, from `first_feed` on).
// Terms in more than `max_df_fraction` of the background weigh 0.
TermIds term_ids(const std::vector<TermsView>& papers, std::size_t first_background, std::size_t first_feed,
                 double max_df_fraction) {
    const double n = static_cast<double>(papers.size() - first_background);
    const double max_df = std::max(2.0, max_df_fraction * n);
    auto idf_of = [&](double df) {
        return df > max_df ? 0.0f : static_cast<float>(std::log((n + 1) / (df + 1.0)) + 1);
    };
    std::size_t feed_entries = 0;
    for (std::size_t p = first_feed; p < papers.size(); ++p) feed_entries += papers[p].size();
    TermIds ids{FeedVocabulary(feed_entries), {}, {}, {0, 0}};
    ids.single_idf[0] = idf_of(0);
    ids.single_idf[1] = idf_of(1);
    for (std::size_t p = first_feed; p < papers.size(); ++p)
        for (auto [hash, count] : papers[p]) ids.vocabulary.add(hash);
    std::vector<std::uint32_t> holders(ids.vocabulary.size(), 0), df(ids.vocabulary.size(), 0);
    for (std::size_t p = 0; p < papers.size(); ++p) {
        for (auto [hash, count] : papers[p]) {
            const std::uint32_t entry = ids.vocabulary.find(hash);
            if (entry == no_term) continue;
            ++holders[entry]; // a paper holds a term once
            if (p >= first_background) ++df[entry];
        }
    }
    ids.dense.assign(ids.vocabulary.size(), no_term);
    for (std::uint32_t t = 0; t < ids.vocabulary.size(); ++t) {
        if (holders[t] < 2) continue;
        ids.dense[t] = static_cast<std::uint32_t>(ids.idf.size());
        ids.idf.push_back(idf_of(df[t]));
    }
    return ids;
}

// Every paper's TF-IDF vector, of unit length, as views into `weights`.
std::vector<Vector> weigh_all(const std::vector<TermsView>& papers, std::size_t first_background, const TermIds& ids,
                              BigVector<Weight>& weights) {
    weights.clear();
    std::vector<std::uint32_t> begin(papers.size() + 1, 0);
    for (size_t p = 0; p < papers.size(); ++p) {
        begin[p] = static_cast<std::uint32_t>(weights.size());
        double norm = 0;
        for (auto [hash, count] : papers[p]) {
            const std::uint32_t id = ids.id_of(hash);
            const float idf = id != no_term ? ids.idf[id] : ids.single_idf[p >= first_background];
            if (idf <= 0) continue;
            float x = (1.0f + std::log(static_cast<float>(count))) * idf;
            norm += static_cast<double>(x) * x;
            if (id != no_term) weights.emplace_back(id, x);
        }
        if (norm > 0)
            for (size_t w = begin[p]; w < weights.size(); ++w)
                weights[w].second = static_cast<float>(weights[w].second / std::sqrt(norm));
    }
    begin[papers.size()] = static_cast<std::uint32_t>(weights.size());
    std::vector<Vector> vectors;
    vectors.reserve(papers.size());
    for (size_t p = 0; p < papers.size(); ++p) vectors.emplace_back(weights.data() + begin[p], begin[p + 1] - begin[p]);
    return vectors;
}

// A value per term id, as large as the run's vocabulary.
using TermArray = BigVector<double>;

double dot(const Vector& a, const TermArray& b) {
    double sum = 0;
    for (auto [id, x] : a) sum += x * b[id];
    return sum;
}

// The weighted sum of `vectors`, of unit length.
TermArray centroid(const std::vector<Vector>& vectors, const std::vector<double>& weight, size_t terms) {
    TermArray sum(terms, 0.0);
    for (size_t i = 0; i < vectors.size(); ++i)
        for (auto [id, x] : vectors[i]) sum[id] += weight[i] * x;
    double norm = 0;
    for (double x : sum) norm += x * x;
    if (norm > 0)
        for (double& x : sum) x /= std::sqrt(norm);
    return sum;
}

// A logistic regression of picks against background papers, by stochastic
// gradient descent in a fixed order (deterministic). Picks are weighted by
// recency and both classes count as much in all; the background's papers
// from `first_hidden` on are the reader's hidden ones, weighted `hidden`.
TermArray pick_classifier(const std::vector<Vector>& picks, const std::vector<double>& recency,
                          const std::vector<Vector>& background, size_t first_hidden, const std::vector<double>& hidden,
                          size_t terms, int epochs, double rate0) {
    TermArray w(terms + 1, 0.0); // the last is the bias
    double pick_weight = 0;
    for (double r : recency) pick_weight += r;
    const double negative_weight = pick_weight / std::max<double>(1.0, static_cast<double>(first_hidden));
    // Interleave the classes so each step sees both.
    const double lambda = 1e-4;
    std::vector<std::pair<std::uint32_t, bool>> order;
    for (size_t i = 0, j = 0; i < picks.size() || j < background.size();) {
        if (i < picks.size()) order.emplace_back(static_cast<std::uint32_t>(i++), true);
        if (j < background.size()) order.emplace_back(static_cast<std::uint32_t>(j++), false);
    }
    std::uint64_t state = 0x9e3779b97f4a7c15ull; // a fixed shuffle per epoch
    for (int epoch = 0; epoch < epochs; ++epoch) {
        for (size_t k = order.size(); k > 1; --k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(order[k - 1], order[(state >> 33) % k]);
        }
        const double rate = rate0 / (1.0 + epoch);
        for (auto [i, positive] : order) {
            const Vector& x = positive ? picks[i] : background[i];
            double margin = dot(x, w) + w[terms];
            double p = 1.0 / (1.0 + std::exp(-margin));
            const double weight = positive ? recency[i] : i < first_hidden ? negative_weight : hidden[i - first_hidden];
            double g = (positive ? 1.0 - p : -p) * weight * rate;
            for (auto [id, v] : x) w[id] += g * v - rate * lambda * w[id];
            w[terms] += g;
        }
    }
    return w;
}

struct Neighbour {
    std::uint32_t pick;
    double similarity; // recency-weighted cosine
};

// Earlier picks by term, for the nearest-neighbour search: term t's
// (pick, weight) pairs are items[start[t] .. start[t + 1]).
struct Postings {
    BigVector<std::uint32_t> start;
    BigVector<std::pair<std::uint32_t, float>> items;
    std::span<const std::pair<std::uint32_t, float>> operator[](std::uint32_t term) const {
        return {items.data() + start[term], start[term + 1] - start[term]};
    }
};

// Two passes (count, then fill) so each term's list is one slice of one array.
Postings postings_of(const std::vector<Vector>& picks, const std::vector<bool>& in_window, std::uint32_t terms) {
    Postings postings;
    postings.start.assign(terms + 1, 0);
    for (std::uint32_t i = 0; i < picks.size(); ++i)
        if (in_window[i])
            for (auto [id, x] : picks[i]) ++postings.start[id + 1];
    for (size_t t = 1; t <= terms; ++t) postings.start[t] += postings.start[t - 1];
    postings.items.resize(postings.start[terms]);
    std::vector<std::uint32_t> next(postings.start.begin(), postings.start.end() - 1);
    for (std::uint32_t i = 0; i < picks.size(); ++i)
        if (in_window[i])
            for (auto [id, x] : picks[i]) postings.items[next[id]++] = {i, x};
    return postings;
}

// The `k` most similar earlier picks, best first.
std::vector<Neighbour> nearest(const Vector& paper, const Postings& postings, const std::vector<double>& recency,
                               std::vector<double>& scratch, std::vector<std::uint32_t>& touched, int k) {
    touched.clear();
    for (auto [id, x] : paper) {
        for (auto [pick, y] : postings[id]) {
            if (scratch[pick] == 0) touched.push_back(pick);
            scratch[pick] += static_cast<double>(x) * y;
        }
    }
    std::vector<Neighbour> found;
    found.reserve(touched.size());
    for (std::uint32_t pick : touched) {
        found.push_back({pick, scratch[pick] * recency[pick]});
        scratch[pick] = 0;
    }
    size_t keep = std::min(found.size(), static_cast<size_t>(std::max(k, 1)));
    std::partial_sort(found.begin(), found.begin() + static_cast<long>(keep), found.end(),
                      [](const Neighbour& a, const Neighbour& b) {
                          return a.similarity != b.similarity ? a.similarity > b.similarity : a.pick < b.pick;
                      });
    found.resize(keep);
    return found;
}

// 10 for the best quarter of the expected keeps down to 7 for the last of
// them (`keep` papers in all), then lower by distance from the cut.
int relevance_for_rank(size_t rank, double keep) {
    double q = (static_cast<double>(rank) + 0.5) / std::max(keep, 1.0);
    static const double bounds[] = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
    int relevance = 10;
    for (double bound : bounds) {
        if (q < bound) return relevance;
        --relevance;
    }
    return 1;
}

// Names the two most similar earlier picks (a paper picked twice once).
std::string neighbour_comment(const std::vector<Neighbour>& neighbours, const std::vector<const IndexedPaper*>& picks) {
    std::vector<const IndexedPaper*> named;
    for (const auto& n : neighbours) {
        if (n.similarity <= 0 || named.size() == 2) break;
        const IndexedPaper* pick = picks[n.pick];
        if (std::none_of(named.begin(), named.end(), [&](const IndexedPaper* p) { return p->id == pick->id; }))
            named.push_back(pick);
    }
    if (named.empty()) return "Learned scorer: resembles no earlier pick.";
    std::string out = "Learned scorer: resembles ";
    for (size_t i = 0; i < named.size(); ++i)
        out += (i ? "; \"" : "\"") + named[i]->title + "\" (" + named[i]->date.iso() + ")";
    return out + ".";
}

// How many of today's papers stand out: those the classifier rates above all
// but `share` of the past feeds' papers the reader left, less the `share` of
// today's feed that gets there as those did. It reads the day itself, which
// the past feeds' picked share cannot: the LLM's count swings with the day.
double standout_papers(const std::vector<LearnedScore>& scored, const std::vector<Vector>& left,
                       const TermArray& classifier, double share) {
    const size_t bias = classifier.size() - 1;
    std::vector<double> margins;
    margins.reserve(left.size());
    for (const auto& paper : left) margins.push_back(dot(paper, classifier) + classifier[bias]);
    const auto bar = margins.begin() + static_cast<long>((1 - share) * static_cast<double>(margins.size() - 1));
    std::nth_element(margins.begin(), bar, margins.end());
    double above = 0;
    for (const auto& score : scored) above += score.margin > *bar;
    return std::max(1.0, above - share * static_cast<double>(scored.size()));
}

std::vector<LearnedScore> keyword_only(const std::vector<Paper>& feed, const TopicKeywords& prior) {
    std::vector<LearnedScore> out;
    for (const auto& paper : feed) {
        auto score = embedded_score(paper, prior);
        out.push_back({static_cast<double>(score.relevance), score.relevance, 0,
                       score.comment + " (No earlier picks to learn from yet.)"});
    }
    return out;
}

// The papers a pick classifier learns against: past feeds' unpicked papers
// (or today's feed), today's feed too where asked, and the hidden ones.
struct Negatives {
    const std::vector<Vector>& ordinary;
    const std::vector<Vector>& feed;
    const std::vector<Vector>& hidden;
};

TermArray train_classifier(const std::vector<Vector>& picks, const std::vector<double>& recency,
                           const Negatives& negatives, const TasteIndex& index, bool has_background, size_t terms,
                           const LearnedScorerOptions& options) {
    if (options.classifier_weight <= 0) return {};
    // Today's feed is mostly papers the reader will not pick, and of today's topics.
    std::vector<Vector> against = negatives.ordinary;
    if (options.feed_negatives && has_background)
        against.insert(against.end(), negatives.feed.begin(), negatives.feed.end());
    const size_t ordinary = against.size();
    against.insert(against.end(), negatives.hidden.begin(), negatives.hidden.end());
    std::vector<double> hidden_weights;
    for (const auto& paper : index.hidden) hidden_weights.push_back(paper.weight);
    return pick_classifier(picks, recency, against, ordinary, hidden_weights, terms, options.classifier_epochs,
                           has_background ? options.classifier_rate : options.feed_only_rate);
}

// Ratings by rank: a multiple of the picks expected today rate 7 or more.
void rate_by_rank(std::vector<LearnedScore>& out, const TasteIndex& index, const std::vector<Vector>& background,
                  const TermArray& classifier, const LearnedScorerOptions& options) {
    std::vector<size_t> order(out.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out[a].score > out[b].score; });
    double expected = expected_picks(index, out.size(), options);
    // Two estimates with errors of their own, combined: the past feeds' share and today's standouts.
    const bool from_shares = !index.feed_shares.empty() && options.share_days > 0; // as expected_picks() predicts
    if (from_shares && options.standout_share > 0 && !classifier.empty() && !background.empty())
        expected = std::sqrt(expected * standout_papers(out, background, classifier, options.standout_share));
    const double keep = options.keep_multiple * expected;
    for (size_t rank = 0; rank < order.size(); ++rank) out[order[rank]].relevance = relevance_for_rank(rank, keep);
}

} // namespace

std::vector<LearnedScore> learned_scores(const std::vector<Paper>& feed, const TasteIndex& index,
                                         const TopicKeywords& prior, const Date& today,
                                         const LearnedScorerOptions& options) {
    if (index.picks.empty()) return keyword_only(feed, prior);
    const long now = days_since_epoch(today);
    const double half_life = std::max(options.half_life_days, 1.0);
    auto age = [&](const Date& d) { return static_cast<double>(std::max(0L, now - days_since_epoch(d))); };

    // Picks older than eight half-lives weigh under 1/256: left out.
    std::vector<const IndexedPaper*> pick_papers;
    for (const auto& pick : index.picks)
        if (age(pick.date) <= 8 * half_life) pick_papers.push_back(&pick);
    const size_t skipped = index.background.size() - std::min(index.background.size(), options.max_background);
    const auto past_background = std::span(index.background).subspan(skipped);
    std::vector<TermCounts> feed_terms;
    for (const auto& paper : feed) feed_terms.push_back(paper_terms(paper));

    std::vector<TermsView> all_terms;
    all_terms.reserve(pick_papers.size() + index.hidden.size() + past_background.size() + feed.size());
    for (const IndexedPaper* pick : pick_papers) all_terms.emplace_back(pick->terms);
    for (const auto& paper : index.hidden) all_terms.emplace_back(paper.terms); // negatives, outside the background
    const size_t first_background = all_terms.size();
    for (const auto& paper : past_background) all_terms.emplace_back(paper.terms);
    const size_t first_feed = all_terms.size();
    for (const auto& terms : feed_terms) all_terms.emplace_back(terms); // today's feed is mostly background too
    const TermIds ids = term_ids(all_terms, first_background, first_feed, options.max_df_fraction);
    const size_t terms = ids.idf.size();

    size_t entries = 0;
    for (const auto& view : all_terms) entries += view.size();
    BigVector<Weight> weights;
    weights.reserve(entries);
    const std::vector<Vector> all = weigh_all(all_terms, first_background, ids, weights);
    const auto first_hidden = all.begin() + static_cast<long>(pick_papers.size());
    const std::vector<Vector> picks(all.begin(), first_hidden),
        hidden(first_hidden, first_hidden + static_cast<long>(index.hidden.size()));
    const std::vector<Vector> background(all.begin() + static_cast<long>(first_background),
                                         all.begin() + static_cast<long>(first_feed));
    const std::vector<Vector> papers(all.begin() + static_cast<long>(first_feed), all.end());
    std::vector<double> recency;
    std::vector<bool> in_window;
    for (const IndexedPaper* pick : pick_papers) {
        recency.push_back(std::exp2(-age(pick->date) / half_life) * pick->weight);
        in_window.push_back(age(pick->date) <= options.neighbour_window_days);
    }
    const Postings postings = postings_of(picks, in_window, static_cast<std::uint32_t>(terms));
    const auto taste = centroid(picks, recency, terms);
    // The background: past feeds' unpicked papers, or else today's feed.
    const auto& negatives = background.empty() ? papers : background;
    const auto against = centroid(negatives, std::vector<double>(negatives.size(), 1.0), terms);
    const TermArray classifier =
        train_classifier(picks, recency, {negatives, papers, hidden}, index, !background.empty(), terms, options);

    // The topics prompt's keywords are a prior for a young archive; the
    // reader's own picks say more once there are many.
    const double prior_weight = options.prior_weight * options.prior_fade_picks /
                                (options.prior_fade_picks + static_cast<double>(picks.size()));
    std::vector<LearnedScore> out(feed.size());
    std::vector<double> scratch(picks.size(), 0.0);
    std::vector<std::uint32_t> touched;
    for (size_t i = 0; i < feed.size(); ++i) {
        auto neighbours = nearest(papers[i], postings, recency, scratch, touched, options.neighbours);
        double knn = 0;
        for (const auto& n : neighbours) knn += n.similarity;
        knn /= std::max(options.neighbours, 1);
        double keyword = prior_weight * (embedded_score(feed[i], prior).relevance - 1) / 9.0;
        double learned = 0;
        if (!classifier.empty()) {
            out[i].margin = dot(papers[i], classifier) + classifier[terms];
            learned = std::tanh(out[i].margin / 4);
        }
        out[i].score = options.neighbour_weight * knn + options.centroid_weight * dot(papers[i], taste) -
                       options.background_weight * dot(papers[i], against) + keyword +
                       options.classifier_weight * learned;
        out[i].comment = neighbour_comment(neighbours, pick_papers);
    }

    rate_by_rank(out, index, background, classifier, options);
    return out;
}

LearnedRanking rank_by_taste(const std::vector<Paper>& feed, const TasteSources& sources, const TopicKeywords& prior,
                             const Date& today, const LearnedScorerOptions& options,
                             std::vector<std::string>& warnings) {
    TasteIndex index = load_taste_index(sources, today, warnings);
    apply_feedback(index, sources.feedback, today);
    if (index.picks.empty() && sources.log)
        sources.log(
            "learned scorer: the archive holds no earlier picks yet, so the topics prompt's keywords rate the papers");
    LearnedRanking ranking;
    ranking.scores = learned_scores(feed, index, prior, today, options);
    ranking.cascade = cascade_size(feed.size(), index, options.cascade_fraction);
    return ranking;
}

std::string describe(EmbeddedScorerKind kind) {
    return kind == EmbeddedScorerKind::learned ? "learned from the archive's picks (scoring.embedded: learned)"
                                               : "the topics prompt's keywords (scoring.embedded: keywords)";
}

std::string describe(PrefilterKind kind) {
    switch (kind) {
        case PrefilterKind::none:
            return "none (scoring.prefilter: none)";
        case PrefilterKind::keywords:
            return "papers matching no topic keyword are dropped (scoring.prefilter: keywords or "
                   "scoring.embedded_prefilter)";
        case PrefilterKind::learned:
            return "the top of the learned ranking (scoring.prefilter: learned)";
    }
    return {};
}

std::vector<Paper> best_papers(const std::vector<Paper>& papers, const std::vector<LearnedScore>& scores,
                               std::size_t count) {
    std::vector<size_t> order(papers.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a].score > scores[b].score; });
    order.resize(std::min(count, order.size()));
    std::vector<Paper> best;
    for (size_t i : order) best.push_back(papers[i]);
    return best;
}

} // namespace pp
