package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a bean as a tool the model may call. The JSON schema the model
 * sees is generated from the method's parameter types, and the model's arguments are
 * bound to those same types, so the two can never drift apart.
 * <p>
 * A tool that may receive secrets says which of its parameters may carry a secret
 * reference with {@link #secrets()}. A tool that leaves it out is never given a
 * secret, and once the application resolves secrets it must declare it, {@code {}} if
 * no parameter may: no tool silently inherits a secret handling nobody chose.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Tool {

	/**
	 * The default of {@link #secrets()}: the tool has not said which parameters may carry
	 * secret references. It receives none, and an application that resolves secrets
	 * refuses to start.
	 */
	String SECRETS_UNDECLARED = "<undeclared>";

	/**
	 * Name of the tool as the model sees it. Defaults to the method name.
	 * @return the tool name
	 */
	String name() default "";

	/**
	 * What the tool does and when to use it; the model reads this to decide.
	 * @return the description
	 */
	String description() default "";

	/**
	 * The group the tool belongs to, which agents can select it by
	 * ({@code group:<category>}). None by default.
	 * @return the category
	 */
	String category() default "";

	/**
	 * How long one call may run, overriding the agent's tool timeout, e.g. {@code "10s"},
	 * {@code "500ms"} or {@code "PT2M"}. The agent's timeout by default.
	 * @return the timeout
	 */
	String timeout() default "";

	/**
	 * Whether the tool's result becomes the agent's answer, with no further model call.
	 * Applies when every tool called in the same model response returns directly and all
	 * of them succeed.
	 * @return whether the result is returned directly
	 */
	boolean returnDirect() default false;

	/**
	 * What the tool may do: {@code "read-only"}, {@code "write"}, {@code "destructive"}, or
	 * a custom namespaced permission such as {@code "billing:refund"}. Permission policies
	 * decide on it before the tool runs.
	 * @return the permission
	 * @see dev.agcore.tool.ToolPermission
	 */
	String permission() default "write";

	/**
	 * The parameters that may carry a {@code <secret_ref:NAME>} placeholder, which is
	 * replaced by the secret's value just before the tool runs. Placeholders anywhere
	 * else are refused. Must be declared, {@code secrets = {}} for none, once the
	 * application resolves secrets.
	 * @return the parameter names
	 */
	String[] secrets() default SECRETS_UNDECLARED;

}
