package dev.agcore.tool.schema;

import java.lang.annotation.Annotation;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import jakarta.validation.constraints.AssertFalse;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bean Validation constraints as JSON schema keywords: for record components and fields
 * through victools' Jakarta validation module, and for method parameters (which victools
 * does not see) the same keywords by the same rules. Only loaded when both are on the
 * class path.
 */
final class ValidationKeywords {

	private static final int NO_MAX = Integer.MAX_VALUE;

	private ValidationKeywords() {
	}

	static void configure(SchemaGeneratorConfigBuilder builder) {
		builder.with(new JakartaValidationModule(JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS));
	}

	/**
	 * Add the keywords of a parameter's constraints to its schema.
	 * @param schema the parameter's schema
	 * @param type the parameter's value type
	 * @param annotations the parameter's annotations
	 */
	static void apply(ObjectNode schema, Class<?> type, List<Annotation> annotations) {
		for (Annotation annotation : annotations) {
			if (annotation instanceof Size size) {
				size(schema, type, size.min(), size.max());
			}
			else if (annotation instanceof NotEmpty || annotation instanceof NotBlank) {
				size(schema, type, 1, NO_MAX);
			}
			else if (annotation instanceof Pattern pattern && isText(type)) {
				schema.put("pattern", pattern.regexp());
			}
			else if (annotation instanceof Email email && isText(type)) {
				schema.put("format", "email");
				if (!email.regexp().equals(".*")) {
					schema.putIfAbsent("pattern", schema.stringNode(email.regexp()));
				}
			}
			else {
				number(schema, annotation);
			}
		}
	}

	private static void number(ObjectNode schema, Annotation annotation) {
		if (annotation instanceof Min min) {
			schema.put("minimum", new BigDecimal(min.value()));
		}
		else if (annotation instanceof Max max) {
			schema.put("maximum", new BigDecimal(max.value()));
		}
		else if (annotation instanceof DecimalMin min) {
			schema.put(min.inclusive() ? "minimum" : "exclusiveMinimum", new BigDecimal(min.value()));
		}
		else if (annotation instanceof DecimalMax max) {
			schema.put(max.inclusive() ? "maximum" : "exclusiveMaximum", new BigDecimal(max.value()));
		}
		else if (annotation instanceof Positive) {
			schema.put("exclusiveMinimum", BigDecimal.ZERO);
		}
		else if (annotation instanceof PositiveOrZero) {
			schema.put("minimum", BigDecimal.ZERO);
		}
		else if (annotation instanceof Negative) {
			schema.put("exclusiveMaximum", BigDecimal.ZERO);
		}
		else if (annotation instanceof NegativeOrZero) {
			schema.put("maximum", BigDecimal.ZERO);
		}
		else if (annotation instanceof AssertTrue) {
			schema.put("const", true);
		}
		else if (annotation instanceof AssertFalse) {
			schema.put("const", false);
		}
	}

	private static void size(ObjectNode schema, Class<?> type, int min, int max) {
		String[] keywords = sizeKeywords(type);
		if (keywords == null) {
			return;
		}
		if (min > 0 && (!schema.has(keywords[0]) || schema.get(keywords[0]).asInt() < min)) {
			schema.put(keywords[0], min);
		}
		if (max < NO_MAX) {
			schema.put(keywords[1], max);
		}
	}

	private static String @Nullable [] sizeKeywords(Class<?> type) {
		if (isText(type)) {
			return new String[] { "minLength", "maxLength" };
		}
		if (type.isArray() || Collection.class.isAssignableFrom(type)) {
			return new String[] { "minItems", "maxItems" };
		}
		if (Map.class.isAssignableFrom(type)) {
			return new String[] { "minProperties", "maxProperties" };
		}
		return null;
	}

	private static boolean isText(Class<?> type) {
		return CharSequence.class.isAssignableFrom(type);
	}

}
