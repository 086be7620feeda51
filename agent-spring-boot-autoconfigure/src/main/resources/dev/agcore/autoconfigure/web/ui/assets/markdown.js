// Markdown to HTML with marked, always through DOMPurify: model output is untrusted.
import { Marked } from './vendor/marked.esm.js';
import DOMPurify from './vendor/purify.es.mjs';

const parser = new Marked({ gfm: true, breaks: true });

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
	if (node.tagName === 'A' && node.getAttribute('href')) {
		node.setAttribute('target', '_blank');
		node.setAttribute('rel', 'noopener noreferrer nofollow');
	}
});

/** Sanitized HTML of a Markdown text. */
export function toHtml(markdown) {
	return DOMPurify.sanitize(parser.parse(markdown), { USE_PROFILES: { html: true } });
}

/**
 * A block of Markdown that grows as text streams in, rendered at most once a frame.
 */
export class MarkdownBlock {

	constructor(parent) {
		this.text = '';
		this.el = document.createElement('div');
		this.el.className = 'markdown';
		parent.append(this.el);
		this.scheduled = false;
	}

	append(text) {
		this.text += text;
		this.#schedule();
	}

	reset() {
		this.text = '';
		this.#schedule();
	}

	#schedule() {
		if (!this.scheduled) {
			this.scheduled = true;
			requestAnimationFrame(() => {
				this.scheduled = false;
				this.el.innerHTML = toHtml(this.text);
			});
		}
	}

}
