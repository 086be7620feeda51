package dev.agcore.autoconfigure.test;

import dev.agcore.testing.ScriptedChatModel;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets the {@link ScriptedChatModel} beans of an {@link AgentTest @AgentTest} before
 * each test, as the context, and so the model, is shared by the tests of a class (and of
 * classes with the same configuration).
 */
class ScriptedChatModelResetListener extends AbstractTestExecutionListener {

	@Override
	public int getOrder() {
		return 2000;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		ApplicationContext context = testContext.getApplicationContext();
		context.getBeanProvider(ScriptedChatModel.class).forEach(ScriptedChatModel::reset);
	}

}
