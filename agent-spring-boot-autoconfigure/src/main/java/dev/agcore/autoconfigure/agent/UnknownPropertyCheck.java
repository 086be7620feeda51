package dev.agcore.autoconfigure.agent;

import java.util.Set;
import java.util.TreeSet;

import dev.agcore.autoconfigure.AgentConfigurationException;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;

/**
 * Reports a misspelled key inside a map value such as {@code agent.agents.<name>} at
 * startup: Spring Boot ignores unknown keys, so {@code max-iteration: 3} would otherwise
 * silently leave the default in place. The check binds each value with Boot's own
 * unbound-elements handler, so every field the properties classes declare is accepted.
 *
 * @since 0.1.0
 */
public final class UnknownPropertyCheck {

	private UnknownPropertyCheck() {
	}

	/**
	 * Fail naming every unknown key.
	 * @param unknown the property names found by {@link #unknown}
	 * @throws AgentConfigurationException naming them, if there are any
	 */
	public static void check(Set<String> unknown) {
		if (!unknown.isEmpty()) {
			throw new AgentConfigurationException("Unknown configuration properties: " + String.join(", ", unknown),
					"Check the spelling against docs/configuration.md (your IDE completes these keys), "
							+ "or remove them.");
		}
	}

	/**
	 * Return the keys under {@code <prefix>.<name>} that no field of the value type takes.
	 * @param binder the binder of the application's environment
	 * @param prefix the map's property, such as {@code agent.agents}
	 * @param names the map's keys
	 * @param valueType the type of its values
	 * @return the unknown property names, sorted
	 */
	public static Set<String> unknown(Binder binder, String prefix, Set<String> names, Class<?> valueType) {
		Set<String> unknown = new TreeSet<>();
		for (String name : names) {
			try {
				// a name such as "my_server" or "v1.2" is only valid in brackets
				String property = ConfigurationPropertyName.isValid(prefix + "." + name) ? prefix + "." + name
						: prefix + "[" + name + "]";
				binder.bind(property, Bindable.of(valueType),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT, new UnboundElementsSourceFilter()));
			}
			catch (BindException ex) {
				if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
					// a value of the wrong type: reported by the regular binding, with its property
					continue;
				}
				for (ConfigurationProperty property : unbound.getUnboundProperties()) {
					unknown.add(property.getName().toString());
				}
			}
		}
		return unknown;
	}

}
