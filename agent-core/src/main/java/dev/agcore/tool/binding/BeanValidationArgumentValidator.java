package dev.agcore.tool.binding;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.support.LogSafe;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.NoProviderFoundException;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * An {@link ArgumentValidator} that applies Bean Validation constraints: those on a
 * tool method's parameters, on the components of the records the model's arguments bind
 * to, and on nested values marked {@code @Valid}. A parameter whose type is a record or
 * bean is validated as if it were marked {@code @Valid}, just as a typed tool's input
 * record is. Constraints on static methods are not supported by Bean Validation.
 */
public final class BeanValidationArgumentValidator implements ArgumentValidator {

	private static final Logger logger = LoggerFactory.getLogger(BeanValidationArgumentValidator.class);

	private final Validator validator;

	/**
	 * Create an argument validator.
	 * @param validator the Bean Validation validator, e.g. the application's
	 */
	public BeanValidationArgumentValidator(Validator validator) {
		this.validator = Objects.requireNonNull(validator, "'validator' must not be null");
	}

	/** The default validator of the class path's provider, created once; NONE if there is none. */
	static ArgumentValidator createDefault() {
		return DefaultHolder.INSTANCE;
	}

	@Override
	public List<ArgumentViolation> validateParameters(@Nullable Object target, Method method,
			@Nullable Object[] arguments, List<@Nullable String> names) {
		if (target == null) {
			return List.of();
		}
		List<ArgumentViolation> violations = new ArrayList<>();
		for (ConstraintViolation<Object> violation : this.validator.forExecutables()
			.validateParameters(target, method, arguments)) {
			String path = parameterPath(violation.getPropertyPath(), names);
			if (path != null) {
				violations.add(new ArgumentViolation(path, violation.getMessage()));
			}
		}
		for (int i = 0; i < arguments.length; i++) {
			String name = (i < names.size()) ? names.get(i) : null;
			Object argument = arguments[i];
			if (name != null && argument != null && isBean(argument)) {
				for (ArgumentViolation violation : validate(argument)) {
					String path = violation.path().isEmpty() ? name
							: violation.path().startsWith("[") ? name + violation.path() : name + "." + violation.path();
					violations.add(new ArgumentViolation(path, violation.message()));
				}
			}
		}
		return violations;
	}

	@Override
	public List<ArgumentViolation> validate(Object value) {
		Objects.requireNonNull(value, "'value' must not be null");
		Set<ConstraintViolation<Object>> violations = this.validator.validate(value);
		if (violations.isEmpty()) {
			return List.of();
		}
		List<ArgumentViolation> result = new ArrayList<>(violations.size());
		for (ConstraintViolation<Object> violation : violations) {
			StringBuilder path = new StringBuilder();
			for (Path.Node node : violation.getPropertyPath()) {
				append(path, node);
			}
			result.add(new ArgumentViolation(path.toString(), violation.getMessage()));
		}
		return result;
	}

	/** The path below the method, starting with the parameter's name; null for injected parameters. */
	private static @Nullable String parameterPath(Path path, List<@Nullable String> names) {
		StringBuilder result = new StringBuilder();
		for (Path.Node node : path) {
			ElementKind kind = node.getKind();
			if (kind == ElementKind.METHOD || kind == ElementKind.CONSTRUCTOR || kind == ElementKind.RETURN_VALUE) {
				continue;
			}
			if (kind == ElementKind.CROSS_PARAMETER) {
				result.setLength(0);
			}
			else if (kind == ElementKind.PARAMETER) {
				int index = node.as(Path.ParameterNode.class).getParameterIndex();
				String name = (index < names.size()) ? names.get(index) : null;
				if (name == null) {
					return null;
				}
				result.append(name);
			}
			else {
				append(result, node);
			}
		}
		return result.toString();
	}

	private static void append(StringBuilder path, Path.Node node) {
		if (node.isInIterable()) {
			Object position = (node.getIndex() != null) ? node.getIndex() : node.getKey();
			path.append('[').append((position != null) ? position : "").append(']');
		}
		if (node.getKind() == ElementKind.PROPERTY && node.getName() != null) {
			if (!path.isEmpty()) {
				path.append('.');
			}
			path.append(node.getName());
		}
	}

	// records and beans the model's arguments bound to, not JDK or JSON values
	private static boolean isBean(Object value) {
		Class<?> type = value.getClass();
		return !type.isArray() && !type.isEnum() && !type.getName().startsWith("java.")
				&& !(value instanceof JsonNode) && !(value instanceof Collection) && !(value instanceof Map);
	}

	@Override
	public String toString() {
		return "BeanValidationArgumentValidator (" + this.validator + ")";
	}

	private static final class DefaultHolder {

		static final ArgumentValidator INSTANCE = create();

		private static ArgumentValidator create() {
			try {
				return new BeanValidationArgumentValidator(Validation.buildDefaultValidatorFactory().getValidator());
			}
			catch (NoProviderFoundException ex) {
				logger.debug("No Bean Validation provider on the class path; tool arguments are not validated");
				return NONE;
			}
			catch (RuntimeException ex) {
				logger.warn("Bean Validation is on the class path but no validator could be created; "
						+ "tool arguments are not validated: {}", LogSafe.text(ex.getMessage()));
				return NONE;
			}
		}

	}

}
