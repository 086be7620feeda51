package dev.agcore.tool.typed;

import java.time.Duration;
import java.util.Set;

import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

/**
 * A tool whose arguments are one Java type, usually a record: that type produces both
 * the JSON schema the model sees and the value the model's arguments are bound to, so
 * there is no second place to keep in sync. {@link TypedTools#from} adapts a typed tool
 * to a {@link dev.agcore.tool.ToolCallback} for the same registry as {@code @Tool}
 * methods.
 * <pre class="code">
 * public record ForecastInput(&#64;ToolParam(description = "City name") String city,
 * 		&#64;ToolParam(defaultValue = "3") &#64;Min(1) &#64;Max(14) int days) {
 * }
 *
 * public class ForecastTool implements TypedTool&lt;ForecastInput&gt; {
 * 	public String name() { return "forecast"; }
 * 	public String description() { return "Weather forecast for a city"; }
 * 	public Set&lt;String&gt; secretParameters() { return Set.of(); }
 * 	public Object call(ForecastInput input, ToolContext context) { ... }
 * }
 * </pre>
 * A typed tool whose input type is {@code JsonNode} or {@code ObjectNode} receives the
 * model's arguments untouched and declares a free-form schema.
 * <p>
 * Implementations are thread-safe: one instance serves concurrent calls. {@link #call}
 * is synchronous and may block.
 *
 * @param <I> the input type
 */
public interface TypedTool<I> {

	/**
	 * Return the name the model calls the tool by: 1 to 64 letters, digits, {@code _} or
	 * {@code -}.
	 * @return the name
	 */
	String name();

	/**
	 * Return what the tool does and when to use it; the model reads this to decide.
	 * @return the description
	 */
	String description();

	/**
	 * Run the tool.
	 * @param input the model's arguments, bound and validated
	 * @param context the runtime values of this call
	 * @return the result: a {@link CharSequence} is sent to the model as is, {@code null}
	 * as {@code ""}, anything else as JSON
	 * @throws Exception anything; reported to the model
	 */
	@Nullable Object call(I input, ToolContext context) throws Exception;

	/**
	 * Return the top-level parameters (properties of the input type) that may carry a
	 * {@code <secret_ref:NAME>} placeholder. Deliberately without a default: every tool
	 * takes a position, {@code Set.of()} for none.
	 * @return the parameter names
	 */
	Set<String> secretParameters();

	/**
	 * Return the input type. Resolved from the type argument of the implementing class by
	 * default; override when it cannot be (a generic implementation, a lambda).
	 * @return the input type
	 */
	@SuppressWarnings("unchecked")
	default Class<I> inputType() {
		Class<?> resolved = ResolvableType.forClass(TypedTool.class, getClass()).resolveGeneric(0);
		if (resolved == null) {
			throw new IllegalStateException("Cannot resolve the input type of " + getClass().getName()
					+ "; implement TypedTool<YourInput> directly or override inputType()");
		}
		return (Class<I>) resolved;
	}

	/**
	 * Return what the tool may do, for permission policies.
	 * @return the permission; {@link ToolPermission#WRITE} by default
	 */
	default ToolPermission permission() {
		return ToolPermission.WRITE;
	}

	/**
	 * Return the group the tool belongs to, which agents can select it by.
	 * @return the category, or {@code null} for none (the default)
	 */
	default @Nullable String category() {
		return null;
	}

	/**
	 * Return how long one call may run.
	 * @return the timeout, or {@code null} for the agent's tool timeout (the default)
	 */
	default @Nullable Duration timeout() {
		return null;
	}

	/**
	 * Return whether the tool's result becomes the agent's answer without another model
	 * call.
	 * @return whether the result is returned directly; {@code false} by default
	 */
	default boolean returnDirect() {
		return false;
	}

}
