package dev.agcore.provider.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import io.netty.util.IllegalReferenceCountException;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Hooks;

/**
 * Records buffer mismanagement that Reactor and Netty only log or drop: a logged
 * {@link IllegalReferenceCountException} (a buffer released twice, typically from a
 * discard hook) and values or errors Reactor dropped. Resets the hooks on close.
 */
public final class LogCapture implements AutoCloseable {

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private final Appender appender = new Appender();

	private LogCapture() {
	}

	public static LogCapture start() {
		LogCapture capture = new LogCapture();
		capture.appender.start();
		root().addAppender(capture.appender);
		Hooks.onErrorDropped((ex) -> capture.failures.add("error dropped: " + ex));
		Hooks.onNextDropped((value) -> capture.failures.add("value dropped: " + value));
		return capture;
	}

	/**
	 * Return what went wrong so far.
	 * @return descriptions of the failures, empty when none
	 */
	public List<String> failures() {
		return List.copyOf(this.failures);
	}

	@Override
	public void close() {
		Hooks.resetOnErrorDropped();
		Hooks.resetOnNextDropped();
		root().detachAppender(this.appender);
		this.appender.stop();
	}

	private static Logger root() {
		return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

	private final class Appender extends AppenderBase<ILoggingEvent> {

		@Override
		protected void append(ILoggingEvent event) {
			// Reactor Netty names the exception in the message and keeps the stack for DEBUG
			if (event.getFormattedMessage().contains(IllegalReferenceCountException.class.getSimpleName())) {
				LogCapture.this.failures.add("logged: " + event.getFormattedMessage());
				return;
			}
			for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
				if (IllegalReferenceCountException.class.getName().equals(t.getClassName())) {
					LogCapture.this.failures.add("logged: " + event.getFormattedMessage() + ": " + t.getMessage());
					return;
				}
			}
		}

	}

}
