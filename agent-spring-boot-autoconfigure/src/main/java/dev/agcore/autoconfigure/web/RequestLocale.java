package dev.agcore.autoconfigure.web;

import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Reads the user's locale of an invoke or stream request: the body's {@code locale}
 * field (a language tag such as {@code de-DE}), else the first language of the
 * {@code Accept-Language} header. A field that is no language tag is a 400 naming it.
 */
final class RequestLocale {

	private RequestLocale() {
	}

	static @Nullable Locale read(@Nullable JsonNode field, ServerRequest.Headers headers) {
		if (field != null && !field.isNull()) {
			if (!field.isString() || field.asString().isBlank()) {
				throw AgentHandler.badRequest("'locale' must be a language tag such as de-DE");
			}
			try {
				return new Locale.Builder().setLanguageTag(field.asString().strip()).build();
			}
			catch (IllformedLocaleException ex) {
				throw AgentHandler.badRequest("'locale' must be a language tag such as de-DE, was '"
						+ field.asString().strip() + "'");
			}
		}
		List<Locale.LanguageRange> acceptLanguage;
		try {
			acceptLanguage = headers.acceptLanguage();
		}
		catch (IllegalArgumentException ex) {
			// a malformed header tells nothing; the turn runs without a locale
			return null;
		}
		for (Locale.LanguageRange range : acceptLanguage) {
			if (!range.getRange().contains("*")) {
				return Locale.forLanguageTag(range.getRange());
			}
		}
		return null;
	}

}
