// What an agent does during a turn, as it streams: text, reasoning, tool calls, plans and
// sub-agents. A Flow renders one agent's events; a sub-agent's events go to a Flow nested
// in the card of the tool call that runs it, and a plan step's to a Flow under the step.
import { el, codeBlock, prettyJson } from './dom.js';
import { MarkdownBlock } from './markdown.js';

const PLAN_EVENTS = new Set(['plan_created', 'plan_replanned', 'step_started', 'step_completed', 'step_failed',
	'step_skipped']);

export class Flow {

	/**
	 * @param container where the flow's blocks go
	 * @param cards the tool cards by call id, shared by a plan's steps
	 */
	constructor(container, cards = new Map()) {
		this.el = container;
		this.cards = cards;
		this.text = null;
		this.reasoning = null;
		this.plan = null;
		this.step = null;
		this.hasText = false;
		this.terminal = null;
	}

	/** Render one event; answers false for the events it leaves to its caller. */
	handle(type, data) {
		if (PLAN_EVENTS.has(type)) {
			this.#planEvent(type, data);
			return true;
		}
		if (this.step && !['completed', 'interrupt', 'error', 'usage'].includes(type)) {
			return this.step.handle(type, data);
		}
		switch (type) {
			case 'text':
				this.reasoning = null;
				if (!this.text) {
					this.text = new MarkdownBlock(this.el);
				}
				this.text.append(data.text);
				this.hasText = true;
				return true;
			case 'reasoning':
				if (!this.reasoning) {
					this.reasoning = new Reasoning(this.el);
				}
				this.reasoning.append(data.text);
				return true;
			case 'text_reset':
				if (this.text) {
					this.text.reset();
				}
				return true;
			case 'tool_call':
				this.text = null;
				this.reasoning = null;
				this.#card(data.id, data.name).started(data.arguments);
				return true;
			case 'tool_result':
				this.#card(data.id, data.name).finished(data.result, data.error);
				return true;
			case 'tool_progress':
				this.#card(data.id, data.name).progress(data);
				return true;
			case 'subagent':
				this.#card(data.toolCallId, data.agent).subAgent(data.agent).handle(data.type, data.data);
				return true;
			case 'runner_fallback':
				this.text = null;
				this.el.append(el('p', 'notice',
					`The ${data.from} runner gave up (${data.reason}); the ${data.to} runner takes over.`));
				return true;
			case 'completed':
			case 'interrupt':
			case 'error':
				this.terminal = { type, data };
				this.#nestedEnd(type, data);
				return false;
			default:
				return false;
		}
	}

	/** A tool call read back from the conversation store. */
	storedToolCall(call) {
		this.text = null;
		this.#card(call.id, call.name).started(call.arguments);
	}

	storedToolResult(message) {
		this.#card(message.toolCallId, message.toolName).finished(message.text, message.error);
	}

	// the end of a sub-agent's own turn, shown in its nested flow
	#nestedEnd(type, data) {
		if (!this.nested) {
			return;
		}
		if (type === 'error') {
			this.el.append(el('p', 'error', `${data.error}: ${data.message}`));
		}
		else if (type === 'completed' && !this.hasText && data.output) {
			this.handle('text', { text: String(data.output) });
		}
	}

	#card(id, name) {
		let card = this.cards.get(id);
		if (!card) {
			card = new ToolCard(this.el, name);
			this.cards.set(id, card);
			this.text = null;
		}
		return card;
	}

	#planEvent(type, data) {
		this.text = null;
		if (!this.plan) {
			this.plan = new PlanView(this.el, this.cards);
		}
		this.plan.update(data.plan);
		if (type === 'step_started') {
			this.step = this.plan.flow(data.stepIndex);
		}
		else if (type !== 'plan_created' && type !== 'plan_replanned') {
			this.step = null;
		}
	}

}

class Reasoning {

	constructor(parent) {
		this.pre = el('div', 'reasoning-text');
		this.details = el('details', 'reasoning', el('summary', null, 'Reasoning'), this.pre);
		parent.append(this.details);
	}

	append(text) {
		this.pre.textContent += text;
	}

}

class ToolCard {

	constructor(parent, name) {
		this.status = el('span', 'status', 'running');
		this.summary = el('summary', null, el('span', 'tool-icon', '⚙', ), ' ', el('code', 'tool-name', name), ' ',
			this.status);
		this.body = el('div', 'tool-body');
		this.details = el('details', 'card tool running', this.summary, this.body);
		// open: its arguments and results fold themselves when long
		this.details.open = true;
		this.details.dataset.tool = name;
		parent.append(this.details);
		this.nested = null;
		this.progressBar = null;
		this.args = null;
	}

	// again when a paused call resumes, with the arguments it runs with (edited, perhaps)
	started(args) {
		const block = codeBlock('Arguments', prettyJson(args ?? ''));
		if (this.args) {
			this.args.replaceWith(block);
		}
		else {
			this.body.prepend(block);
		}
		this.args = block;
	}

	/** The call waits for a human decision before it runs. */
	awaiting() {
		this.details.classList.remove('running');
		this.details.classList.add('awaiting');
		this.status.textContent = 'awaiting approval';
	}

	decided(text) {
		this.details.classList.remove('awaiting');
		this.details.classList.add('running');
		this.status.textContent = text;
	}

	finished(result, error) {
		this.details.classList.remove('running', 'awaiting');
		this.details.classList.add(error ? 'failed' : 'done');
		this.status.textContent = error ? 'failed' : 'done';
		if (this.progressBar) {
			this.progressBar.remove();
		}
		this.body.append(codeBlock(error ? 'Error' : 'Result', prettyJson(result ?? '')));
	}

	progress(data) {
		if (!this.progressBar) {
			this.progressBar = el('progress', null);
			this.progressBar.setAttribute('aria-label', 'Tool progress');
			this.body.append(this.progressBar);
		}
		if (data.total) {
			this.progressBar.max = data.total;
			this.progressBar.value = data.progress;
		}
		this.status.textContent = data.message ? `running: ${data.message}` : 'running';
	}

	subAgent(agent) {
		if (!this.nested) {
			const box = el('div', 'nested', el('div', 'label', `Sub-agent ${agent}`));
			this.body.append(box);
			this.nested = new Flow(box);
			this.nested.nested = true;
			this.details.open = true;
		}
		return this.nested;
	}

}

class PlanView {

	constructor(parent, cards) {
		this.cards = cards;
		this.goal = el('div', 'label', 'Plan');
		this.list = el('ol', 'steps');
		this.el = el('section', 'card plan', this.goal, this.list);
		this.el.setAttribute('aria-label', 'Plan');
		this.steps = new Map();
		parent.append(this.el);
	}

	update(plan) {
		if (plan.goal) {
			this.goal.textContent = `Plan: ${plan.goal}`;
		}
		for (const step of plan.steps) {
			let view = this.steps.get(step.index);
			if (!view) {
				const status = el('span', 'status');
				const flowBox = el('div', 'step-flow');
				const item = el('li', 'step', el('span', 'step-text', step.description), ' ', status, flowBox);
				view = { item, status, flow: new Flow(flowBox, this.cards) };
				this.steps.set(step.index, view);
				this.list.append(item);
			}
			view.item.dataset.status = step.status;
			view.status.textContent = step.status;
			if (step.error) {
				view.status.textContent = `${step.status}: ${step.error}`;
			}
		}
	}

	flow(index) {
		const view = this.steps.get(index);
		return view ? view.flow : null;
	}

}
