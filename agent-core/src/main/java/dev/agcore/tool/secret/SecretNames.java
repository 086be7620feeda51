package dev.agcore.tool.secret;

import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An allow-list of secret names, for resolvers that read secrets from a shared place
 * (system properties, environment variables, a Spring {@code Environment}): the name in a
 * {@code <secret_ref:NAME>} placeholder is written by the model, which must not be able
 * to read any value whose name it can guess. Entries are names, or globs with {@code *}
 * (any characters) and {@code ?} (one character). Immutable.
 *
 * @since 0.1.0
 */
public final class SecretNames {

	private final List<String> entries;

	private final List<Pattern> patterns;

	private SecretNames(List<String> entries) {
		this.entries = entries;
		this.patterns = entries.stream().map(SecretNames::glob).toList();
	}

	/**
	 * Return the allow-list of the given entries.
	 * @param entries names or globs; none allows nothing
	 * @return the allow-list
	 * @throws IllegalArgumentException if an entry is blank
	 */
	public static SecretNames of(Collection<String> entries) {
		return new SecretNames(List.copyOf(entries));
	}

	/**
	 * Return whether a secret name is on the list.
	 * @param name the name in a placeholder
	 * @return whether an entry matches the whole name
	 */
	public boolean allows(String name) {
		for (Pattern pattern : this.patterns) {
			if (pattern.matcher(name).matches()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether the list allows no name at all.
	 * @return whether it has no entry
	 */
	public boolean isEmpty() {
		return this.entries.isEmpty();
	}

	// the entries are names, never values
	@Override
	public String toString() {
		return this.entries.toString();
	}

	private static Pattern glob(String glob) {
		if (glob.isBlank()) {
			throw new IllegalArgumentException("an allowed secret name must not be empty");
		}
		StringBuilder regex = new StringBuilder(glob.length() + 8);
		for (char c : glob.strip().toCharArray()) {
			switch (c) {
				case '*' -> regex.append(".*");
				case '?' -> regex.append('.');
				default -> regex.append(Pattern.quote(String.valueOf(c)));
			}
		}
		return Pattern.compile(regex.toString());
	}

}
