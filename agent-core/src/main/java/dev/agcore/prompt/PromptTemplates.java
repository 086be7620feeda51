package dev.agcore.prompt;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.jknack.handlebars.Context;
import com.github.jknack.handlebars.EscapingStrategy;
import com.github.jknack.handlebars.Handlebars;
import com.github.jknack.handlebars.HandlebarsError;
import com.github.jknack.handlebars.HandlebarsException;
import com.github.jknack.handlebars.Template;
import com.github.jknack.handlebars.cache.ConcurrentMapTemplateCache;
import com.github.jknack.handlebars.context.JavaBeanValueResolver;
import com.github.jknack.handlebars.context.MapValueResolver;
import com.github.jknack.handlebars.context.MethodValueResolver;
import com.github.jknack.handlebars.io.AbstractTemplateLoader;
import com.github.jknack.handlebars.io.StringTemplateSource;
import com.github.jknack.handlebars.io.TemplateSource;
import org.jspecify.annotations.Nullable;

/**
 * Named prompt templates that include each other as partials ({@code {{> support/header}}}).
 * Templates are compiled once, when registered, or on first use when registered lazily;
 * registering a name again replaces its template. Thread-safe.
 * <p>
 * The syntax is Handlebars' as the seeds use it: {@code {{var}}} (dotted paths allowed),
 * {@code {{#if x}}…{{else}}…{{/if}}}, {@code {{#each list}}…{{item}}…{{/each}}} (the
 * element is also {@code this}, its position {@code @index}), {@code {{#raw}}…{{/raw}}}
 * printed exactly as written, and {@code {{> partial}}}. Output is never HTML-escaped; a
 * variable that is missing or {@code null} fails the rendering, naming it; blocks and
 * partials nest at most {@value #MAX_DEPTH} deep, and partials that include each other
 * fail before anything renders.
 */
public final class PromptTemplates {

	/** How deep blocks and partial inclusions may nest. */
	public static final int MAX_DEPTH = 16;

	private final Map<String, Entry> templates = new ConcurrentHashMap<>();

	private final List<String> raws = new CopyOnWriteArrayList<>();

	private final Handlebars handlebars;

	// the depth of each template with its partials; forgotten whenever a template changes
	private volatile Map<String, Integer> depths = new ConcurrentHashMap<>();

	public PromptTemplates() {
		this.handlebars = new Handlebars(new RegistryLoader()).with(EscapingStrategy.NOOP)
			.with(new ConcurrentMapTemplateCache().setReload(true));
		TemplateHelpers.register(this.handlebars, this.raws);
	}

	/**
	 * Compile a template and register it.
	 * @param name the name it is rendered and included by, such as {@code support/system}
	 * @param text the template
	 * @return the template
	 * @throws PromptException if the text does not parse
	 */
	public PromptTemplate register(String name, String text) {
		Entry entry = entry(name, text);
		entry.compiled(this);
		put(entry);
		return entry.template;
	}

	/**
	 * Register a template to compile on first use.
	 * @param name the name it is rendered and included by
	 * @param text the template
	 */
	public void registerLazy(String name, String text) {
		put(entry(name, text));
	}

	/**
	 * Return a registered template, compiling it if it was registered lazily.
	 * @param name the template's name
	 * @return the template
	 * @throws PromptException if no template has that name, or it does not parse
	 */
	public PromptTemplate get(String name) {
		return find(name).orElseThrow(() -> notFound(name));
	}

	/**
	 * Return a registered template if there is one.
	 * @param name the template's name
	 * @return the template, compiled
	 * @throws PromptException if it does not parse
	 */
	public Optional<PromptTemplate> find(String name) {
		Entry entry = this.templates.get(name);
		if (entry == null) {
			return Optional.empty();
		}
		entry.compiled(this);
		return Optional.of(entry.template);
	}

	/**
	 * Render a registered template.
	 * @param name the template's name
	 * @param variables the values of its variables
	 * @return the text
	 * @throws PromptException as {@link PromptTemplate#render} does, or if no template has
	 * that name
	 */
	public String render(String name, Map<String, ?> variables) {
		Entry entry = this.templates.get(name);
		if (entry == null) {
			throw notFound(name);
		}
		Template compiled = entry.compiled(this);
		depth(name);
		Context context = Context.newBuilder(variables)
			.resolver(MapValueResolver.INSTANCE, JavaBeanValueResolver.INSTANCE, MethodValueResolver.INSTANCE)
			.build();
		try {
			return compiled.apply(context);
		}
		catch (HandlebarsException ex) {
			throw translate(name, ex);
		}
		catch (IOException ex) {
			throw new PromptException(PromptException.Kind.PARSE, name,
					"Template '" + name + "' could not be rendered: " + ex.getMessage(), ex);
		}
		finally {
			context.destroy();
		}
	}

	/**
	 * Check every template: that it parses, that the partials it includes exist, and that
	 * it nests no deeper than the limit. For startup, after all templates are registered.
	 * @throws PromptException for the first template that fails
	 */
	public void validate() {
		for (String name : names()) {
			this.templates.get(name).compiled(this);
			depth(name);
		}
	}

	/** Return the names of the registered templates, sorted. */
	public Set<String> names() {
		return new TreeSet<>(this.templates.keySet());
	}

	private PromptException notFound(String name) {
		return new PromptException(PromptException.Kind.TEMPLATE_NOT_FOUND, name,
				"No prompt template '" + name + "'; templates: " + names());
	}

	private Entry entry(String name, String text) {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(text, "'text' must not be null");
		if (name.isBlank()) {
			throw new IllegalArgumentException("A prompt template's name must not be blank");
		}
		return new Entry(name, text, new PromptTemplate(this, name, text));
	}

	private void put(Entry entry) {
		this.templates.put(entry.name, entry);
		this.depths = new ConcurrentHashMap<>();
	}

	/** The nesting depth of a template, its partials' included; checked against the limit. */
	private int depth(String name) {
		Map<String, Integer> known = this.depths;
		Integer depth = known.get(name);
		if (depth == null) {
			depth = depth(name, new ArrayDeque<>(), known);
		}
		return depth;
	}

	private int depth(String name, Deque<String> path, Map<String, Integer> known) {
		Integer cached = known.get(name);
		if (cached != null) {
			return cached;
		}
		if (path.contains(name)) {
			List<String> cycle = new ArrayList<>(path);
			Collections.reverse(cycle);
			cycle = cycle.subList(cycle.indexOf(name), cycle.size());
			throw new PromptException(PromptException.Kind.MAX_DEPTH, path.peekLast(), "Template '"
					+ path.peekLast() + "': partials include each other (" + String.join(" > ", cycle) + " > "
					+ name + "), which would nest past the depth limit of " + MAX_DEPTH);
		}
		Entry entry = this.templates.get(name);
		String includer = path.peek();
		if (entry == null) {
			throw new PromptException(PromptException.Kind.PARTIAL_NOT_FOUND, includer,
					"Template '" + includer + "' includes the partial '" + name + "', which is not a registered template");
		}
		TemplateSyntax.Prepared prepared = entry.prepared(this);
		path.push(name);
		int depth = prepared.depth();
		for (TemplateSyntax.Inclusion inclusion : prepared.partials()) {
			if (!inclusion.name().startsWith("(")) {
				depth = Math.max(depth, inclusion.depth() + 1 + depth(inclusion.name(), path, known));
			}
		}
		path.pop();
		if (depth > MAX_DEPTH) {
			throw new PromptException(PromptException.Kind.MAX_DEPTH, name,
					"Template '" + name + "' nests blocks and partials " + depth + " deep; the limit is " + MAX_DEPTH);
		}
		known.put(name, depth);
		return depth;
	}

	private PromptException translate(String name, HandlebarsException ex) {
		HandlebarsError error = ex.getError();
		String where = (error != null) ? error.filename : name;
		String line = (error != null) ? " line " + error.line + ", column " + error.column : "";
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof PromptException prompt) {
				return new PromptException(prompt.kind(), where, "Template '" + where + "'" + line + ": "
						+ prompt.getMessage(), ex);
			}
			if (cause instanceof FileNotFoundException missing) {
				return new PromptException(PromptException.Kind.PARTIAL_NOT_FOUND, where,
						"Template '" + where + "': no partial '" + missing.getMessage() + "'", ex);
			}
		}
		String reason = (error != null) ? error.reason : ex.getMessage();
		return new PromptException(PromptException.Kind.PARSE, where, "Template '" + where + "'" + line + ": " + reason,
				ex);
	}

	/** A template as registered, prepared and compiled once, when first needed. */
	private static final class Entry {

		final String name;

		final String text;

		final PromptTemplate template;

		private volatile TemplateSyntax.@Nullable Prepared prepared;

		private volatile @Nullable Template compiled;

		Entry(String name, String text, PromptTemplate template) {
			this.name = name;
			this.text = text;
			this.template = template;
		}

		TemplateSyntax.Prepared prepared(PromptTemplates registry) {
			TemplateSyntax.Prepared result = this.prepared;
			if (result == null) {
				synchronized (this) {
					result = this.prepared;
					if (result == null) {
						result = TemplateSyntax.prepare(this.name, this.text, (raw) -> {
							registry.raws.add(raw);
							return registry.raws.size() - 1;
						});
						this.prepared = result;
					}
				}
			}
			return result;
		}

		Template compiled(PromptTemplates registry) {
			Template result = this.compiled;
			if (result == null) {
				synchronized (this) {
					result = this.compiled;
					if (result == null) {
						try {
							result = registry.handlebars.compile(source(registry));
						}
						catch (HandlebarsException ex) {
							throw registry.translate(this.name, ex);
						}
						catch (IOException ex) {
							throw new PromptException(PromptException.Kind.PARSE, this.name,
									"Template '" + this.name + "' could not be read: " + ex.getMessage(), ex);
						}
						this.compiled = result;
					}
				}
			}
			return result;
		}

		TemplateSource source(PromptTemplates registry) {
			return new StringTemplateSource(this.name, prepared(registry).source());
		}

	}

	/** Finds partials among the registry's templates. */
	private final class RegistryLoader extends AbstractTemplateLoader {

		RegistryLoader() {
			setPrefix("");
			setSuffix("");
		}

		@Override
		public TemplateSource sourceAt(String location) throws IOException {
			String name = location.startsWith("/") ? location.substring(1) : location;
			Entry entry = PromptTemplates.this.templates.get(name);
			if (entry == null) {
				throw new FileNotFoundException(name);
			}
			return entry.source(PromptTemplates.this);
		}

	}

}
