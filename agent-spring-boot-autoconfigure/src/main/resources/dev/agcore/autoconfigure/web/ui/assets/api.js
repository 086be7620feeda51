// The agent endpoint's HTTP API, and nothing else: this page has no routes of its own.
import { readEvents } from './sse.js';

/** An error answered by the endpoint: {"error": code, "message": text}. */
export class ApiError extends Error {
	constructor(code, message, status) {
		super(message);
		this.code = code;
		this.status = status;
	}
}

export class Api {

	/**
	 * @param base the endpoint's base path, e.g. "/agents" ("" when mapped at the root)
	 * @param userId who the sessions belong to, unless the server authenticates the user
	 */
	constructor(base, userId) {
		this.base = base;
		this.userId = userId;
	}

	agents() {
		return this.#json('GET', this.base || '/');
	}

	sessions() {
		return this.#json('GET', `${this.base}/-/sessions?limit=100&userId=${encodeURIComponent(this.userId)}`);
	}

	deleteSession(sessionId) {
		return this.#json('DELETE',
			`${this.base}/-/sessions/${encodeURIComponent(sessionId)}?userId=${encodeURIComponent(this.userId)}`);
	}

	messages(agent, sessionId) {
		return this.#json('GET', `${this.#agent(agent)}/sessions/${encodeURIComponent(sessionId)}/messages`);
	}

	/** The session's turn paused for approval: its messages so far and the pending calls (both empty when none). */
	pending(agent, sessionId) {
		return this.#json('GET', `${this.#agent(agent)}/sessions/${encodeURIComponent(sessionId)}/pending`);
	}

	/** Run a turn, calling onEvent for each event; aborting the signal closes the stream. */
	stream(agent, sessionId, message, onEvent, signal) {
		return this.#events(`${this.#agent(agent)}/stream`,
			{ sessionId, message, userId: this.userId }, onEvent, signal);
	}

	/** Continue a paused turn with a decision per pending tool call. */
	resume(agent, sessionId, decisions, onEvent, signal) {
		return this.#events(`${this.#agent(agent)}/sessions/${encodeURIComponent(sessionId)}/resume/stream`,
			{ decisions, userId: this.userId }, onEvent, signal);
	}

	#agent(agent) {
		return `${this.base}/${encodeURIComponent(agent)}`;
	}

	async #events(path, body, onEvent, signal) {
		const response = await fetch(path, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
			body: JSON.stringify(body),
			signal,
		});
		if (!response.ok) {
			throw await apiError(response);
		}
		await readEvents(response, onEvent);
	}

	async #json(method, path) {
		const response = await fetch(path, { method, headers: { Accept: 'application/json' } });
		if (!response.ok) {
			throw await apiError(response);
		}
		return response.status === 204 ? null : response.json();
	}

}

async function apiError(response) {
	try {
		const body = await response.json();
		if (body && body.message) {
			return new ApiError(body.error || `http_${response.status}`, body.message, response.status);
		}
	}
	catch {
		// not the endpoint's JSON: a proxy's page, say
	}
	return new ApiError(`http_${response.status}`, `The server answered ${response.status} ${response.statusText}`,
		response.status);
}
