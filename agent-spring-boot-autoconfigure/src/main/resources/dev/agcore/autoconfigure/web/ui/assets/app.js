// The chat page: wires the agent and session choice, the composer and the stream together.
import { Api, ApiError } from './api.js';
import { el } from './dom.js';
import { Turn } from './turn.js';
import { MarkdownBlock } from './markdown.js';

const USER_KEY = 'agcore.ui.userId';
const TITLES_KEY = 'agcore.ui.titles';

const $ = (id) => document.getElementById(id);
const ui = {
	agent: $('agent'), agentInfo: $('agent-info'), sessions: $('sessions'), newSession: $('new-session'),
	userId: $('user-id'), transcript: $('transcript'), empty: $('empty'), status: $('status'),
	composer: $('composer'), message: $('message'), send: $('send'), stop: $('stop'),
	sidebar: $('sidebar'), toggle: $('toggle-sessions'), close: $('close-sessions'),
};

// the page is served at {base}/ui/, this module at {base}/ui/app.js
const base = new URL('..', import.meta.url).pathname.replace(/\/+$/, '');
const api = new Api(base, userId());
const state = { agents: [], agent: null, sessionId: null, controller: null, turn: null };

function userId() {
	let id = localStorage.getItem(USER_KEY);
	if (!id) {
		id = `ui-${newId()}`;
		localStorage.setItem(USER_KEY, id);
	}
	return id;
}

function newId() {
	if (crypto.randomUUID) {
		return crypto.randomUUID();
	}
	// not a secure context (plain http on another host): randomUUID is missing there
	return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function titles() {
	try {
		return JSON.parse(localStorage.getItem(TITLES_KEY)) || {};
	}
	catch {
		return {};
	}
}

function remember(sessionId, text) {
	const all = titles();
	if (!all[sessionId]) {
		all[sessionId] = text.slice(0, 80);
		localStorage.setItem(TITLES_KEY, JSON.stringify(all));
	}
}

function announce(text) {
	ui.status.textContent = text;
}

function busy(streaming) {
	ui.send.disabled = streaming;
	ui.stop.hidden = !streaming;
	ui.transcript.setAttribute('aria-busy', String(streaming));
	ui.agent.disabled = streaming || state.agents.length === 0;
}

function scrollDown() {
	ui.transcript.scrollTop = ui.transcript.scrollHeight;
}

// --- agents -------------------------------------------------------------------------

async function loadAgents() {
	try {
		state.agents = await api.agents();
	}
	catch (e) {
		showError(e, 'Could not list the agents');
		return;
	}
	ui.agent.replaceChildren(...state.agents.map((agent) => {
		const option = el('option', null, agent.name);
		option.value = agent.name;
		return option;
	}));
	ui.agent.disabled = state.agents.length === 0;
	if (state.agents.length === 0) {
		ui.empty.textContent = 'No agents are configured (agent.agents.*).';
	}
}

function selectAgent(name) {
	const agent = state.agents.find((a) => a.name === name) || state.agents[0];
	if (!agent) {
		return;
	}
	state.agent = agent.name;
	ui.agent.value = agent.name;
	const tools = agent.tools.length ? ` · tools: ${agent.tools.join(', ')}` : '';
	ui.agentInfo.textContent = `${agent.provider} / ${agent.model}${tools}`;
}

// --- sessions -----------------------------------------------------------------------

async function loadSessions() {
	let sessions;
	try {
		sessions = await api.sessions();
	}
	catch (e) {
		ui.sessions.replaceChildren(el('li', 'muted small', `Sessions unavailable: ${e.message}`));
		return;
	}
	const known = titles();
	const items = sessions.map((session) => {
		const when = new Date(session.updatedAt).toLocaleString();
		const title = known[session.sessionId] || `Session ${session.sessionId.slice(0, 8)}`;
		const open = el('button', 'session-open', el('span', 'session-title', title),
			el('span', 'muted small', `${session.agentName} · ${when}`));
		open.type = 'button';
		open.addEventListener('click', () => openSession(session.agentName, session.sessionId));
		const remove = el('button', 'icon session-delete', '✕');
		remove.type = 'button';
		remove.setAttribute('aria-label', `Delete session ${title}`);
		remove.title = 'Delete session';
		remove.addEventListener('click', () => deleteSession(session.sessionId, title));
		const item = el('li', session.sessionId === state.sessionId ? 'current' : null, open, remove);
		if (session.sessionId === state.sessionId) {
			open.setAttribute('aria-current', 'true');
		}
		return item;
	});
	if (state.sessionId && !sessions.some((s) => s.sessionId === state.sessionId)) {
		const fresh = el('li', 'current', el('span', 'session-open muted', 'New session (not stored yet)'));
		items.unshift(fresh);
	}
	ui.sessions.replaceChildren(...items);
}

async function deleteSession(sessionId, title) {
	if (!confirm(`Delete "${title}"? Its conversation is removed from the store.`)) {
		return;
	}
	try {
		await api.deleteSession(sessionId);
	}
	catch (e) {
		showError(e, 'Could not delete the session');
		return;
	}
	if (sessionId === state.sessionId) {
		newSession();
	}
	await loadSessions();
	announce('Session deleted');
}

function newSession() {
	stop();
	state.sessionId = newId();
	writeHash();
	ui.transcript.replaceChildren(ui.empty);
	ui.empty.hidden = false;
	loadSessions();
	ui.message.focus();
}

async function openSession(agent, sessionId) {
	stop();
	selectAgent(agent);
	state.sessionId = sessionId;
	writeHash();
	closeSidebar();
	await loadHistory();
	loadSessions();
	ui.message.focus();
}

function writeHash() {
	history.replaceState(null, '', `#${encodeURIComponent(state.agent)}/${encodeURIComponent(state.sessionId)}`);
}

function readHash() {
	const [agent, sessionId] = location.hash.slice(1).split('/').map(decodeURIComponent);
	return { agent, sessionId };
}

// --- history ------------------------------------------------------------------------

async function loadHistory() {
	ui.transcript.replaceChildren();
	let messages;
	let pending;
	try {
		[messages, pending] = await Promise.all([api.messages(state.agent, state.sessionId),
			api.pending(state.agent, state.sessionId)]);
	}
	catch (e) {
		showError(e, 'Could not load the conversation');
		return;
	}
	render(messages, null);
	if (pending.pendingToolCalls.length > 0) {
		// a turn paused for approval is kept apart from the conversation: show it and ask again
		const turn = render(pending.messages, null);
		if (turn) {
			turn.askApproval(pending.pendingToolCalls, (decisions) => run(turn,
				(onEvent, signal) => api.resume(state.agent, state.sessionId, decisions, onEvent, signal)));
			announce('A tool call waits for your approval');
		}
	}
	if (messages.length === 0 && pending.messages.length === 0) {
		ui.transcript.append(ui.empty);
		ui.empty.hidden = false;
	}
	scrollDown();
}

/** Show stored messages as turns; returns the last turn shown. */
function render(messages, turn) {
	for (const message of messages) {
		if (message.role === 'user') {
			turn = new Turn(ui.transcript, message.text, state.agent);
			turn.answer.hidden = true;
		}
		else if (message.role === 'assistant' || message.role === 'tool') {
			if (!turn) {
				turn = new Turn(ui.transcript, null, message.agent || state.agent);
			}
			turn.answer.hidden = false;
			if (message.role === 'assistant') {
				if (message.agent) {
					turn.answer.querySelector('.who').textContent = message.agent;
				}
				if (message.text) {
					new MarkdownBlock(turn.flowBox).append(message.text);
					turn.flow.text = null;
				}
				for (const call of message.toolCalls || []) {
					turn.flow.storedToolCall(call);
				}
			}
			else {
				turn.flow.storedToolResult(message);
			}
		}
	}
	return turn;
}

// --- turns --------------------------------------------------------------------------

async function send(text) {
	ui.empty.hidden = true;
	remember(state.sessionId, text);
	const turn = new Turn(ui.transcript, text, state.agent);
	scrollDown();
	await run(turn, (onEvent, signal) => api.stream(state.agent, state.sessionId, text, onEvent, signal));
	loadSessions();
}

/** Stream one phase of a turn into it; a paused turn asks for approval and resumes. */
async function run(turn, open) {
	const controller = new AbortController();
	state.controller = controller;
	state.turn = turn;
	busy(true);
	announce('The agent is answering');
	turn.begin();
	let last = null;
	try {
		await open((type, data) => {
			turn.handle(type, data);
			if (type === 'completed' || type === 'interrupt' || type === 'error') {
				last = { type, data };
			}
			scrollDown();
		}, controller.signal);
		if (!last) {
			turn.error('stream_ended', 'The stream ended before the turn did.');
		}
	}
	catch (e) {
		if (controller.signal.aborted) {
			turn.note('Stopped. Closing the stream cancelled the turn on the server.');
			last = { type: 'stopped' };
		}
		else {
			turn.error(e instanceof ApiError ? e.code : 'network_error',
				e instanceof ApiError ? e.message : `The request failed: ${e.message}`);
		}
	}
	finally {
		turn.end();
		if (state.controller === controller) {
			state.controller = null;
		}
		busy(false);
	}
	if (last && last.type === 'interrupt') {
		announce('A tool call waits for your approval');
		turn.askApproval(last.data.pendingToolCalls || [], (decisions) => run(turn,
			(onEvent, signal) => api.resume(state.agent, state.sessionId, decisions, onEvent, signal)));
	}
	else if (last && last.type === 'completed') {
		announce('The agent answered');
	}
	else if (last && last.type === 'error') {
		announce(`The turn failed: ${last.data.message}`);
	}
	scrollDown();
}

function stop() {
	if (state.controller) {
		state.controller.abort();
	}
}

function showError(error, context) {
	const box = el('div', 'error', el('strong', null, context), ': ', error.message);
	box.setAttribute('role', 'alert');
	ui.transcript.append(box);
}

// --- layout -------------------------------------------------------------------------

function closeSidebar() {
	document.body.classList.remove('sidebar-open');
	ui.toggle.setAttribute('aria-expanded', 'false');
}

// --- wiring -------------------------------------------------------------------------

ui.composer.addEventListener('submit', (event) => {
	event.preventDefault();
	const text = ui.message.value.trim();
	if (!text || state.controller || !state.agent) {
		return;
	}
	ui.message.value = '';
	send(text);
});
ui.message.addEventListener('keydown', (event) => {
	if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
		event.preventDefault();
		ui.composer.requestSubmit();
	}
});
document.addEventListener('keydown', (event) => {
	if (event.key === 'Escape' && document.body.classList.contains('sidebar-open')) {
		closeSidebar();
		ui.toggle.focus();
	}
	else if (event.key === 'Escape' && state.controller) {
		stop();
	}
});
ui.close.addEventListener('click', () => {
	closeSidebar();
	ui.toggle.focus();
});
ui.stop.addEventListener('click', stop);
ui.newSession.addEventListener('click', () => {
	closeSidebar();
	newSession();
});
ui.agent.addEventListener('change', () => {
	selectAgent(ui.agent.value);
	writeHash();
});
ui.toggle.addEventListener('click', () => {
	const open = document.body.classList.toggle('sidebar-open');
	ui.toggle.setAttribute('aria-expanded', String(open));
	if (open) {
		ui.newSession.focus();
	}
});

ui.userId.textContent = api.userId;
await loadAgents();
const fromHash = readHash();
selectAgent(fromHash.agent);
if (fromHash.sessionId && state.agents.length) {
	state.sessionId = fromHash.sessionId;
	await loadHistory();
	loadSessions();
}
else if (state.agents.length) {
	newSession();
}
