#include "score/learned_scorer.h"
#include "score/taste_sources.h"
#include "util/hash.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace pp {

namespace {

// Words that say nothing about a topic.
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
    return count_terms(hashes);
}

TasteIndex assemble_taste_index(const std::vector<IndexSource>& sources) {
    TasteIndex index;
    std::unordered_map<long, std::set<std::string>> picked_on;
    for (const auto& source : sources) {
        if (source.is_feed) continue;
        for (const auto& pick : source.papers) {
            index.picks.push_back(pick);
            picked_on[days_since_epoch(source.date)].insert(pick.id);
        }
        if (!source.papers.empty()) index.picks_per_day.push_back(static_cast<int>(source.papers.size()));
    }
    for (const auto& source : sources) {
        if (!source.is_feed) continue;
        const auto& picked = picked_on[days_since_epoch(source.date)];
        for (const auto& paper : source.papers)
            if (!picked.contains(paper.id)) index.background.push_back(paper);
    }
    auto by_date = [](const IndexedPaper& a, const IndexedPaper& b) { return a.date < b.date; };
    std::stable_sort(index.picks.begin(), index.picks.end(), by_date);
    std::stable_sort(index.background.begin(), index.background.end(), by_date);
    return index;
}

IndexSource day_source(const Day& day) {
    IndexSource source{false, day.date, {}, {}};
    if (day.status != DayStatus::announced) return source;
    for (const auto& paper : day.papers)
        if (paper.unscored.empty()) source.papers.push_back(indexed(day.date, paper)); // unscored: kept, not chosen
    return source;
}

IndexSource feed_source(const PastFeed& feed) {
    IndexSource source{true, feed.date, {}, {}};
    for (const auto& paper : feed.papers) source.papers.push_back(indexed(feed.date, paper));
    return source;
}

TasteIndex build_taste_index(const std::vector<Day>& days, const std::vector<PastFeed>& feeds) {
    std::vector<IndexSource> sources;
    for (const auto& day : days) sources.push_back(day_source(day));
    for (const auto& feed : feeds) sources.push_back(feed_source(feed));
    return assemble_taste_index(sources);
}

double usual_daily_picks(const TasteIndex& index, int recent_days) {
    const auto& counts = index.picks_per_day;
    if (counts.empty()) return 0;
    size_t n = std::min(counts.size(), static_cast<size_t>(std::max(recent_days, 1)));
    return std::accumulate(counts.end() - static_cast<long>(n), counts.end(), 0.0) / static_cast<double>(n);
}

std::size_t cascade_size(std::size_t feed_size, const TasteIndex& index, double fraction) {
    if (index.picks.empty()) return feed_size;
    return std::min(feed_size, static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(feed_size))));
}

namespace {

// A TF-IDF vector of unit length: (dense term id, weight).
using Vector = std::vector<std::pair<std::uint32_t, float>>;

// Every paper of one scoring run with its terms as dense ids, so weights,
// centroids and postings are arrays. Term hashes map to ids through an
// open-addressing table: a std::unordered_map's node per term cost more
// than all the arithmetic.
struct Corpus {
    static constexpr std::uint32_t empty = 0xffffffffu;
    std::vector<std::uint32_t> slots_hash, slots_id = std::vector<std::uint32_t>(1u << 16, empty);
    std::vector<std::uint32_t> df; // background papers holding the term, by id
    double background_papers = 0;

    Corpus() { slots_hash.resize(slots_id.size()); }

    std::uint32_t id_of(std::uint32_t hash) {
        if ((df.size() + 1) * 2 > slots_id.size()) grow();
        std::size_t mask = slots_id.size() - 1;
        for (std::size_t i = (hash * 0x9E3779B1u) & mask;; i = (i + 1) & mask) {
            if (slots_id[i] == empty) {
                slots_hash[i] = hash;
                slots_id[i] = static_cast<std::uint32_t>(df.size());
                df.push_back(0);
                return slots_id[i];
            }
            if (slots_hash[i] == hash) return slots_id[i];
        }
    }
    void grow() {
        std::vector<std::uint32_t> old_hash = std::move(slots_hash), old_id = std::move(slots_id);
        slots_id.assign(old_id.size() * 2, empty);
        slots_hash.assign(old_id.size() * 2, 0);
        std::size_t mask = slots_id.size() - 1;
        for (std::size_t j = 0; j < old_id.size(); ++j) {
            if (old_id[j] == empty) continue;
            std::size_t i = (old_hash[j] * 0x9E3779B1u) & mask;
            while (slots_id[i] != empty) i = (i + 1) & mask;
            slots_hash[i] = old_hash[j];
            slots_id[i] = old_id[j];
        }
    }
    std::vector<std::pair<std::uint32_t, std::uint16_t>> dense(const TermCounts& terms) {
        std::vector<std::pair<std::uint32_t, std::uint16_t>> out;
        out.reserve(terms.size());
        for (auto [hash, count] : terms) out.emplace_back(id_of(hash), count);
        return out;
    }
    void count_background(const std::vector<std::pair<std::uint32_t, std::uint16_t>>& terms) {
        for (auto [id, count] : terms) ++df[id];
        ++background_papers;
    }
};

// idf over the background; terms in more than `max_df_fraction` of it weigh 0.
std::vector<float> inverse_frequencies(const Corpus& corpus, double max_df_fraction) {
    const double n = corpus.background_papers;
    const double max_df = std::max(2.0, max_df_fraction * n);
    std::vector<float> idf(corpus.df.size());
    for (size_t t = 0; t < idf.size(); ++t)
        idf[t] = corpus.df[t] > max_df ? 0.0f : static_cast<float>(std::log((n + 1) / (corpus.df[t] + 1.0)) + 1);
    return idf;
}

// Terms that only one paper of the run holds count in that paper's length
// but can match no other paper: they get no id of their own (`shared`
// maps dense ids to the ids of the terms two or more papers share).
struct SharedTerms {
    static constexpr std::uint32_t none = 0xffffffffu;
    std::vector<std::uint32_t> id;
    std::uint32_t count = 0;
};

using DenseTerms = std::vector<std::pair<std::uint32_t, std::uint16_t>>;

SharedTerms shared_terms(size_t terms, const std::vector<const std::vector<DenseTerms>*>& groups) {
    std::vector<std::uint8_t> seen(terms, 0);
    for (const auto* group : groups)
        for (const auto& paper : *group)
            for (auto [id, count] : paper) seen[id] = static_cast<std::uint8_t>(std::min(seen[id] + 1, 2));
    SharedTerms shared;
    shared.id.assign(terms, SharedTerms::none);
    for (size_t t = 0; t < terms; ++t)
        if (seen[t] == 2) shared.id[t] = shared.count++;
    return shared;
}

Vector weigh(const std::vector<std::pair<std::uint32_t, std::uint16_t>>& terms, const std::vector<float>& idf,
             const SharedTerms& shared) {
    Vector v;
    v.reserve(terms.size());
    double norm = 0;
    for (auto [id, count] : terms) {
        if (idf[id] <= 0) continue;
        float x = (1.0f + std::log(static_cast<float>(count))) * idf[id];
        norm += static_cast<double>(x) * x;
        if (shared.id[id] != SharedTerms::none) v.emplace_back(shared.id[id], x);
    }
    if (norm > 0)
        for (auto& [id, x] : v) x = static_cast<float>(x / std::sqrt(norm));
    return v;
}

double dot(const Vector& a, const std::vector<double>& b) {
    double sum = 0;
    for (auto [id, x] : a) sum += x * b[id];
    return sum;
}

// The weighted sum of `vectors`, of unit length.
std::vector<double> centroid(const std::vector<Vector>& vectors, const std::vector<double>& weight, size_t terms) {
    std::vector<double> sum(terms, 0.0);
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
// recency and both classes count as much in all.
std::vector<double> pick_classifier(const std::vector<Vector>& picks, const std::vector<double>& recency,
                                    const std::vector<Vector>& background, size_t terms, int epochs) {
    std::vector<double> w(terms + 1, 0.0); // the last is the bias
    double pick_weight = 0;
    for (double r : recency) pick_weight += r;
    const double negative_weight = pick_weight / std::max<double>(1.0, static_cast<double>(background.size()));
    // Interleave the classes so each step sees both.
    std::vector<std::pair<std::uint32_t, bool>> order;
    for (size_t i = 0, j = 0; i < picks.size() || j < background.size();) {
        if (i < picks.size()) order.emplace_back(static_cast<std::uint32_t>(i++), true);
        if (j < background.size()) order.emplace_back(static_cast<std::uint32_t>(j++), false);
    }
    const double lambda = 1e-4;
    std::uint64_t state = 0x9e3779b97f4a7c15ull; // a fixed shuffle per epoch
    for (int epoch = 0; epoch < epochs; ++epoch) {
        for (size_t k = order.size(); k > 1; --k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(order[k - 1], order[(state >> 33) % k]);
        }
        const double rate = 0.5 / (1.0 + epoch);
        for (auto [i, positive] : order) {
            const Vector& x = positive ? picks[i] : background[i];
            double margin = dot(x, w) + w[terms];
            double p = 1.0 / (1.0 + std::exp(-margin));
            double g = (positive ? 1.0 - p : -p) * (positive ? recency[i] : negative_weight) * rate;
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

// Earlier picks by term, for the nearest-neighbour search.
using Postings = std::vector<std::vector<std::pair<std::uint32_t, float>>>; // term -> (pick, weight)

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

std::vector<LearnedScore> keyword_only(const std::vector<Paper>& feed, const TopicKeywords& prior) {
    std::vector<LearnedScore> out;
    for (const auto& paper : feed) {
        auto score = embedded_score(paper, prior);
        out.push_back({static_cast<double>(score.relevance), score.relevance,
                       score.comment + " (No earlier picks to learn from yet.)"});
    }
    return out;
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
    Corpus corpus;
    std::vector<const IndexedPaper*> pick_papers;
    std::vector<std::vector<std::pair<std::uint32_t, std::uint16_t>>> pick_terms, background_terms, feed_terms;
    for (const auto& pick : index.picks) {
        if (age(pick.date) > 8 * half_life) continue;
        pick_papers.push_back(&pick);
        pick_terms.push_back(corpus.dense(pick.terms));
    }
    const size_t skipped = index.background.size() - std::min(index.background.size(), options.max_background);
    for (const auto& paper : std::span(index.background).subspan(skipped)) {
        background_terms.push_back(corpus.dense(paper.terms));
        corpus.count_background(background_terms.back());
    }
    for (const auto& paper : feed) {
        feed_terms.push_back(corpus.dense(paper_terms(paper)));
        corpus.count_background(feed_terms.back()); // today's feed is mostly background too
    }
    const auto idf = inverse_frequencies(corpus, options.max_df_fraction);
    const auto shared = shared_terms(corpus.df.size(), {&pick_terms, &background_terms, &feed_terms});
    const size_t terms = shared.count;

    std::vector<Vector> picks, background, papers;
    std::vector<double> recency;
    for (size_t i = 0; i < pick_terms.size(); ++i) {
        picks.push_back(weigh(pick_terms[i], idf, shared));
        recency.push_back(std::exp2(-age(pick_papers[i]->date) / half_life));
    }
    for (const auto& t : background_terms) background.push_back(weigh(t, idf, shared));
    for (const auto& t : feed_terms) papers.push_back(weigh(t, idf, shared));

    Postings postings(terms);
    for (std::uint32_t i = 0; i < picks.size(); ++i) {
        if (age(pick_papers[i]->date) > options.neighbour_window_days) continue;
        for (auto [id, x] : picks[i]) postings[id].emplace_back(i, x);
    }
    const auto taste = centroid(picks, recency, terms);
    // The background: past feeds' unpicked papers, or else today's feed.
    const auto& negatives = background.empty() ? papers : background;
    const auto against = centroid(negatives, std::vector<double>(negatives.size(), 1.0), terms);
    std::vector<double> classifier;
    if (options.classifier_weight > 0)
        classifier = pick_classifier(picks, recency, negatives, terms, options.classifier_epochs);

    std::vector<LearnedScore> out(feed.size());
    std::vector<double> scratch(picks.size(), 0.0);
    std::vector<std::uint32_t> touched;
    for (size_t i = 0; i < feed.size(); ++i) {
        auto neighbours = nearest(papers[i], postings, recency, scratch, touched, options.neighbours);
        double knn = 0;
        for (const auto& n : neighbours) knn += n.similarity;
        knn /= std::max(options.neighbours, 1);
        double keyword = (embedded_score(feed[i], prior).relevance - 1) / 9.0;
        double learned = 0;
        if (!classifier.empty()) learned = std::tanh((dot(papers[i], classifier) + classifier[terms]) / 4);
        out[i].score = knn + options.centroid_weight * dot(papers[i], taste) -
                       options.background_weight * dot(papers[i], against) + options.prior_weight * keyword +
                       options.classifier_weight * learned;
        out[i].comment = neighbour_comment(neighbours, pick_papers);
    }

    // Ratings by rank: the reader's usual number of picks rate 7 or more.
    std::vector<size_t> order(feed.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out[a].score > out[b].score; });
    double keep = options.keep_multiple * usual_daily_picks(index, options.usual_days);
    for (size_t rank = 0; rank < order.size(); ++rank) out[order[rank]].relevance = relevance_for_rank(rank, keep);
    return out;
}

LearnedRanking rank_by_taste(const std::vector<Paper>& feed, const TasteSources& sources, const TopicKeywords& prior,
                             const Date& today, const LearnedScorerOptions& options, std::vector<std::string>& warnings) {
    TasteIndex index = load_taste_index(sources, today, warnings);
    LearnedRanking ranking;
    ranking.scores = learned_scores(feed, index, prior, today, options);
    ranking.cascade = cascade_size(feed.size(), index, options.cascade_fraction);
    return ranking;
}

std::vector<Paper> best_papers(const std::vector<Paper>& papers, const std::vector<LearnedScore>& scores, std::size_t count) {
    std::vector<size_t> order(papers.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a].score > scores[b].score; });
    order.resize(std::min(count, order.size()));
    std::vector<Paper> best;
    for (size_t i : order) best.push_back(papers[i]);
    return best;
}

} // namespace pp
