package dev.agcore.prompt;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import com.github.jknack.handlebars.Context;
import com.github.jknack.handlebars.Handlebars;
import com.github.jknack.handlebars.Helper;
import com.github.jknack.handlebars.Options;
import org.jspecify.annotations.Nullable;

/**
 * The helpers that give Handlebars the seeds' semantics: a missing variable is an error,
 * {@code each} binds {@code item} and fails on a missing or non-list value, and raw blocks
 * print their text.
 */
final class TemplateHelpers {

	private TemplateHelpers() {
	}

	static void register(Handlebars handlebars, List<String> raws) {
		handlebars.registerHelperMissing(TemplateHelpers::missing);
		handlebars.registerHelper("each", TemplateHelpers::each);
		handlebars.registerHelper(TemplateSyntax.RAW_HELPER, (Helper<Integer>) (index, options) -> raws.get(index));
	}

	// Handlebars asks this helper for a name that is neither a helper nor a value
	private static Object missing(Object context, Options options) {
		if (options.params.length > 0) {
			throw new PromptException(PromptException.Kind.VARIABLE_NOT_FOUND, null,
					"no helper '" + options.helperName + "'");
		}
		throw new PromptException(PromptException.Kind.VARIABLE_NOT_FOUND, null,
				"variable '" + options.helperName + "' not found");
	}

	private static Object each(@Nullable Object value, Options options) throws IOException {
		String variable = options.hash(TemplateSyntax.EACH_VARIABLE, "the value");
		if (value == null) {
			throw new PromptException(PromptException.Kind.VARIABLE_NOT_FOUND, null,
					"variable '" + variable + "' not found");
		}
		List<Object> items = items(value);
		if (items == null) {
			throw new PromptException(PromptException.Kind.NOT_AN_ARRAY, null, "{{#each " + variable
					+ "}} needs a list or array, but '" + variable + "' is a " + value.getClass().getSimpleName());
		}
		if (items.isEmpty()) {
			return options.inverse();
		}
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < items.size(); i++) {
			Object item = items.get(i);
			Context context = Context.newBuilder(options.context, item)
				.combine("item", item)
				.combine("@index", i)
				.combine("@first", (i == 0) ? "first" : "")
				.combine("@last", (i == items.size() - 1) ? "last" : "")
				.build();
			out.append(options.fn(context));
		}
		return out.toString();
	}

	private static @Nullable List<Object> items(Object value) {
		List<Object> items = new ArrayList<>();
		if (value instanceof Iterable<?> iterable) {
			for (Iterator<?> it = iterable.iterator(); it.hasNext();) {
				items.add(it.next());
			}
			return items;
		}
		if (value.getClass().isArray()) {
			for (int i = 0; i < Array.getLength(value); i++) {
				items.add(Array.get(value, i));
			}
			return items;
		}
		return null;
	}

}
