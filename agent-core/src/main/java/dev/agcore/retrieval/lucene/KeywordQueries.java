package dev.agcore.retrieval.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.jspecify.annotations.Nullable;

/**
 * Builds the Lucene queries of {@link LuceneDocumentIndex}: a BM25 query from free text
 * (never parsed as query syntax, so no user text is an operator) and exact-match metadata
 * filters.
 */
final class KeywordQueries {

	// bounds the query's cost whatever the text: 3 clauses per term, under Lucene's 1024
	static final int MAX_TERMS = 128;

	static final int MAX_QUERY_CHARS = 4_000;

	private static final float MIN_MATCHING_FRACTION = 0.25f;

	private static final float TITLE_BOOST = 3f;

	private static final float SUMMARY_BOOST = 2f;

	// a term matching several fields counts mostly once, by its best field
	private static final float TIE_BREAKER = 0.3f;

	private final Analyzer analyzer;

	KeywordQueries(Analyzer analyzer) {
		this.analyzer = analyzer;
	}

	/**
	 * Each distinct term of the text, searched in title, summary and content.
	 * @param text the query text
	 * @param precise whether a query of three or more terms must match at least two (a
	 * quarter of them when more), rather than any one
	 * @return the query, null when the text has no searchable term
	 */
	@Nullable Query text(String text, boolean precise) {
		Set<String> terms = terms((text.length() > MAX_QUERY_CHARS) ? text.substring(0, MAX_QUERY_CHARS) : text);
		if (terms.isEmpty()) {
			return null;
		}
		BooleanQuery.Builder query = new BooleanQuery.Builder();
		for (String term : terms) {
			query.add(new DisjunctionMaxQuery(List.of(
					new BoostQuery(new TermQuery(new Term(LuceneDocuments.TITLE, term)), TITLE_BOOST),
					new BoostQuery(new TermQuery(new Term(LuceneDocuments.SUMMARY, term)), SUMMARY_BOOST),
					new TermQuery(new Term(LuceneDocuments.CONTENT, term))), TIE_BREAKER), BooleanClause.Occur.SHOULD);
		}
		if (precise && terms.size() >= 3) {
			query.setMinimumNumberShouldMatch(Math.max(2, Math.round(terms.size() * MIN_MATCHING_FRACTION)));
		}
		return query.build();
	}

	/**
	 * A query restricted to documents whose metadata match the filter.
	 * @param query the query
	 * @param filter the metadata each result must have
	 * @return the restricted query
	 */
	static Query filtered(Query query, Map<String, String> filter) {
		if (filter.isEmpty()) {
			return query;
		}
		BooleanQuery.Builder filtered = new BooleanQuery.Builder().add(query, BooleanClause.Occur.MUST);
		filter.forEach((key, value) -> filtered.add(term(key, value), BooleanClause.Occur.FILTER));
		return filtered.build();
	}

	/**
	 * The documents whose metadata match a filter.
	 * @param filter the metadata
	 * @return the query, null for an empty filter
	 */
	static @Nullable Query filter(Map<String, String> filter) {
		if (filter.isEmpty()) {
			return null;
		}
		BooleanQuery.Builder query = new BooleanQuery.Builder();
		filter.forEach((key, value) -> query.add(term(key, value), BooleanClause.Occur.FILTER));
		return query.build();
	}

	private static Query term(String key, String value) {
		return new TermQuery(new Term(LuceneDocuments.METADATA_PREFIX + key, value));
	}

	private Set<String> terms(String text) {
		Set<String> terms = new LinkedHashSet<>();
		try (TokenStream tokens = this.analyzer.tokenStream(LuceneDocuments.CONTENT, text)) {
			CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
			tokens.reset();
			while (terms.size() < MAX_TERMS && tokens.incrementToken()) {
				terms.add(term.toString());
			}
			tokens.end();
		}
		catch (IOException ex) {
			// the text is in memory: analysis cannot fail on I/O
			throw new UncheckedIOException(ex);
		}
		return terms;
	}

}
