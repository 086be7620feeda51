package dev.agcore.tool.schema;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedType;

/**
 * Detects {@code @Nullable} markers. Matched by simple name so that JSpecify, Spring,
 * JSR-305 and the like all count without depending on any of them.
 */
final class Nullness {

	private Nullness() {
	}

	/**
	 * Return whether a declaration or its type carries an annotation named
	 * {@code Nullable}.
	 * @param declaration the annotations on the declaration (method parameter, field)
	 * @param type the annotated type of the declaration, for type-use annotations
	 * @return whether the element is nullable
	 */
	static boolean isNullable(Annotation[] declaration, AnnotatedType type) {
		return hasNullable(declaration) || hasNullable(type.getAnnotations());
	}

	static boolean isNullable(AnnotatedElement element, AnnotatedType type) {
		return isNullable(element.getAnnotations(), type);
	}

	private static boolean hasNullable(Annotation[] annotations) {
		for (Annotation annotation : annotations) {
			if (annotation.annotationType().getSimpleName().equals("Nullable")) {
				return true;
			}
		}
		return false;
	}

}
