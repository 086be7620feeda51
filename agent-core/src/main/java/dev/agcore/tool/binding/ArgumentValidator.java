package dev.agcore.tool.binding;

import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Checks bound arguments before a tool runs. The Bean Validation implementation,
 * {@link BeanValidationArgumentValidator}, enforces the same {@code @Min}, {@code @Size},
 * {@code @Pattern}... constraints the schema shows the model.
 */
public interface ArgumentValidator {

	/** Validates nothing. */
	ArgumentValidator NONE = new ArgumentValidator() {

		@Override
		public List<ArgumentViolation> validateParameters(@Nullable Object target, Method method,
				@Nullable Object[] arguments, List<@Nullable String> names) {
			return List.of();
		}

		@Override
		public List<ArgumentViolation> validate(Object value) {
			return List.of();
		}

		@Override
		public String toString() {
			return "ArgumentValidator.NONE";
		}

	};

	/**
	 * Validate the arguments of a tool method.
	 * @param target the object the method is called on; {@code null} for a static method
	 * @param method the method as it is invoked
	 * @param arguments the arguments, in parameter order
	 * @param names for each parameter, the name the model knows it by; {@code null} for
	 * parameters the model does not fill (injected values), which are not validated
	 * @return the violations; empty if the arguments are valid
	 */
	List<ArgumentViolation> validateParameters(@Nullable Object target, Method method, @Nullable Object[] arguments,
			List<@Nullable String> names);

	/**
	 * Validate a bound arguments object, e.g. the input record of a typed tool.
	 * @param value the value
	 * @return the violations, with paths relative to the value; empty if it is valid
	 */
	List<ArgumentViolation> validate(Object value);

	/**
	 * Return a Bean Validation validator if Bean Validation and a provider (such as
	 * Hibernate Validator) are on the class path, or {@link #NONE}.
	 * @return the validator
	 */
	static ArgumentValidator detect() {
		ClassLoader classLoader = ArgumentValidator.class.getClassLoader();
		if (!ClassUtils.isPresent("jakarta.validation.Validation", classLoader)) {
			return NONE;
		}
		return BeanValidationArgumentValidator.createDefault();
	}

}
