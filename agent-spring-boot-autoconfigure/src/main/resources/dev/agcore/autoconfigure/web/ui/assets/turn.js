// One exchange in the conversation: the user's message, and the agent's answer as it
// streams, with its approvals, usage, cost and duration.
import { el, prettyJson } from './dom.js';
import { Flow } from './transcript.js';
import { MarkdownBlock } from './markdown.js';

export class Turn {

	constructor(parent, userText, agent) {
		this.flowBox = el('div', 'flow');
		this.meta = el('footer', 'meta');
		this.answer = el('div', 'msg agent', el('div', 'who', agent), this.flowBox, this.meta);
		this.el = el('article', 'turn');
		if (userText !== null) {
			this.el.append(el('div', 'msg user', el('div', 'who', 'You'), el('div', 'user-text', userText)));
		}
		this.el.append(this.answer);
		parent.append(this.el);
		this.flow = new Flow(this.flowBox);
		this.elapsed = 0;
		this.started = null;
	}

	/** A phase of streaming begins (the turn, or its resumption). */
	begin() {
		this.started = performance.now();
		this.answer.classList.add('streaming');
		this.flow.terminal = null;
	}

	/** A phase of streaming ended, however it ended. */
	end() {
		if (this.started !== null) {
			this.elapsed += performance.now() - this.started;
			this.started = null;
		}
		this.answer.classList.remove('streaming');
	}

	/** Render an event of the stream; answers the terminal event's type once the stream ends. */
	handle(type, data) {
		this.flow.handle(type, data);
		if (type === 'completed') {
			if (!this.flow.hasText && data.output !== undefined && data.output !== '') {
				this.#output(data.output);
			}
			this.#meta(data, 'completed');
		}
		else if (type === 'interrupt') {
			this.#meta(data, 'waiting for approval');
		}
		else if (type === 'error') {
			this.error(data.error, data.message);
		}
	}

	error(code, message) {
		const box = el('div', 'error', el('strong', null, 'Error'), ' ', message, ' ', el('code', null, code));
		box.setAttribute('role', 'alert');
		this.answer.insertBefore(box, this.meta);
	}

	note(text) {
		this.answer.insertBefore(el('p', 'notice', text), this.meta);
	}

	/** Show the pending tool calls; calls onDecided with a decision per call once each has one. */
	askApproval(pendingToolCalls, onDecided) {
		// in the flow, where the turn paused: what the resumed turn streams comes after it
		this.flow.text = null;
		for (const call of pendingToolCalls) {
			this.flow.cards.get(call.id)?.awaiting();
		}
		const decisions = {};
		const panels = pendingToolCalls.map((call) => new Approval(this.flowBox, call, this.flow.cards.has(call.id), (decision, text) => {
			decisions[call.id] = decision;
			this.flow.cards.get(call.id)?.decided(text.toLowerCase());
			if (Object.keys(decisions).length === pendingToolCalls.length) {
				onDecided(decisions);
			}
		}));
		panels[0]?.focus();
	}

	#output(output) {
		if (typeof output === 'string') {
			new MarkdownBlock(this.flowBox).append(output);
		}
		else {
			this.flowBox.append(el('pre', 'code', prettyJson(output)));
		}
	}

	#meta(result, status) {
		const usage = result.usage || {};
		const parts = [status];
		parts.push(`${usage.inputTokens ?? 0} in / ${usage.outputTokens ?? 0} out tokens`);
		if (usage.cachedInputTokens) {
			parts.push(`${usage.cachedInputTokens} cached`);
		}
		if (usage.reasoningTokens) {
			parts.push(`${usage.reasoningTokens} reasoning`);
		}
		if (result.cost !== undefined && result.cost !== null) {
			parts.push(`$${Number(result.cost).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`);
		}
		const running = this.started !== null ? performance.now() - this.started : 0;
		parts.push(`${((this.elapsed + running) / 1000).toFixed(1)} s`);
		this.meta.textContent = parts.join(' · ');
		this.meta.title = 'Usage and cost as the server reports them; time as this page measured the stream';
	}

}

/** A pending tool call: approve, edit its arguments, or reject it. */
class Approval {

	/** @param shown whether a tool card above shows the call's arguments already */
	constructor(parent, call, shown, decide) {
		this.call = call;
		this.decide = decide;
		const title = el('p', 'approval-title', el('code', null, call.name), ' waits for your approval');
		const reason = call.reason ? el('p', 'muted', call.reason) : null;
		this.args = shown ? null : el('pre', 'code', prettyJson(call.arguments));
		this.approve = button('Approve', 'primary', () => this.#decided({ type: 'approve' }, 'Approved'));
		this.editButton = button('Edit arguments', null, () => this.#edit());
		this.rejectButton = button('Reject', 'danger', () => this.#reject());
		this.buttons = el('div', 'buttons', this.approve, this.editButton, this.rejectButton);
		this.form = el('div', 'approval-form');
		this.el = el('section', 'card approval', title, reason, this.args, this.buttons, this.form);
		this.el.setAttribute('aria-label', `Approval of ${call.name}`);
		this.el.dataset.tool = call.name;
		parent.append(this.el);
	}

	focus() {
		this.approve.focus();
	}

	#edit() {
		const id = `edit-${this.call.id}`;
		const area = el('textarea', 'code', prettyJson(this.call.arguments));
		area.id = id;
		area.rows = Math.min(12, area.value.split('\n').length + 1);
		const problem = el('p', 'error-text');
		problem.setAttribute('role', 'alert');
		const run = button('Run with these arguments', 'primary', () => {
			let args;
			try {
				args = JSON.parse(area.value);
			}
			catch (e) {
				problem.textContent = `Not valid JSON: ${e.message}`;
				return;
			}
			if (args === null || typeof args !== 'object' || Array.isArray(args)) {
				problem.textContent = 'The arguments must be a JSON object.';
				return;
			}
			this.#decided({ type: 'edit', arguments: args }, 'Approved with edited arguments');
		});
		const label = el('label', null, 'Arguments (JSON)');
		label.htmlFor = id;
		this.form.replaceChildren(label, area, problem, el('div', 'buttons', run, button('Cancel', null,
			() => this.form.replaceChildren())));
		area.focus();
	}

	#reject() {
		const id = `reject-${this.call.id}`;
		const input = el('input');
		input.id = id;
		input.type = 'text';
		input.placeholder = 'e.g. the customer changed their mind';
		const label = el('label', null, 'Reason, told to the agent (optional)');
		label.htmlFor = id;
		const confirm = button('Reject the call', 'danger',
			() => this.#decided({ type: 'reject', reason: input.value }, 'Rejected'));
		input.addEventListener('keydown', (event) => {
			if (event.key === 'Enter') {
				confirm.click();
			}
		});
		this.form.replaceChildren(label, input, el('div', 'buttons', confirm, button('Cancel', null,
			() => this.form.replaceChildren())));
		input.focus();
	}

	// folded to one line, so that the resumed turn reads on
	#decided(decision, text) {
		const reason = decision.reason ? `: ${decision.reason}` : '';
		const line = el('p', 'card decision', `${text}: `, el('code', null, this.call.name), reason);
		line.dataset.tool = this.call.name;
		this.el.replaceWith(line);
		this.decide(decision, text);
	}

}

function button(text, className, onClick) {
	const element = el('button', className, text);
	element.type = 'button';
	element.addEventListener('click', onClick);
	return element;
}
