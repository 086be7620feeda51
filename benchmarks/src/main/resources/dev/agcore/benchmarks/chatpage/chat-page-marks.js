// Injected by ChatPageLatency into every page before its own scripts run
// (Page.addScriptToEvaluateOnNewDocument), never part of the chat page. It marks, on the
// page's clock (performance.now(), milliseconds since navigation started):
// - interactive: the agents are listed and one is chosen, so a message can be sent;
// - for each send: when Enter was pressed in the message box (the key event's own time),
//   when the page's handlers got the key, when the page called fetch for the stream,
//   when the answer's text block appeared (the first text event was handled), when its
//   text was in the DOM, when the frame that shows it had been rendered (a task queued
//   behind that frame), and when it was painted (Element Timing's renderTime).
// It changes the page only by an elementtiming attribute on the first answer's element, and
// by calling the page's fetch through a function that notes the time.
(() => {
	const marks = { interactive: null, sends: [] };
	window.__agcoreMarks = marks;
	let current = null;

	document.addEventListener('keydown', (event) => {
		if (event.key === 'Enter' && !event.shiftKey && event.target && event.target.id === 'message') {
			current = {
				pressed: event.timeStamp, received: performance.now(), fetched: null, shown: null, dom: null,
				frame: null, painted: null,
				id: `agcore-first-token-${marks.sends.length}`,
			};
			marks.sends.push(current);
		}
	}, true);

	// the page's own fetch, called through: only the time of the stream's call is kept
	const fetch = window.fetch;
	window.fetch = function (resource, init) {
		if (current !== null && current.fetched === null && String(resource).endsWith('/stream')) {
			current.fetched = performance.now();
		}
		return fetch.call(this, resource, init);
	};

	function lastAnswerBlock() {
		const turns = document.querySelectorAll('#transcript .turn');
		const turn = turns[turns.length - 1];
		return turn ? turn.querySelector('.msg.agent .markdown') : null;
	}

	// called at the end of the task or animation frame that changed the DOM, before rendering
	new MutationObserver(() => {
		const now = performance.now();
		if (marks.interactive === null) {
			const info = document.getElementById('agent-info');
			if (info && info.textContent) {
				marks.interactive = now;
			}
		}
		if (current === null || current.dom !== null) {
			return;
		}
		const block = lastAnswerBlock();
		if (block === null) {
			return;
		}
		if (current.shown === null) {
			current.shown = now;
		}
		if (block.textContent.trim()) {
			const send = current;
			send.dom = now;
			// before the frame is painted: Element Timing reports the element's first paint
			(block.firstElementChild || block).setAttribute('elementtiming', send.id);
			const channel = new MessageChannel();
			channel.port1.onmessage = () => {
				send.frame = performance.now();
			};
			channel.port2.postMessage(null);
		}
	}).observe(document, { subtree: true, childList: true, characterData: true });

	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			const send = marks.sends.find((candidate) => candidate.id === entry.identifier);
			if (send && send.painted === null) {
				send.painted = entry.renderTime || entry.loadTime;
			}
		}
	}).observe({ type: 'element', buffered: true });
})();
