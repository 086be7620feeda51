// Small DOM helpers: every text from the server goes in as text, never as HTML.

/** An element with a class, text and children: el('div', 'card', 'text', child, ...). */
export function el(tag, className, ...children) {
	const element = document.createElement(tag);
	if (className) {
		element.className = className;
	}
	for (const child of children) {
		if (child !== null && child !== undefined) {
			element.append(child);
		}
	}
	return element;
}

/** JSON on one line when short, else indented; a string that is not JSON as it is. */
export function prettyJson(text) {
	let value = text;
	if (typeof text === 'string') {
		try {
			value = JSON.parse(text);
		}
		catch {
			return text;
		}
	}
	const line = JSON.stringify(value);
	return line.length <= 72 ? line : JSON.stringify(value, null, 2);
}

const LONG = 400;

/** A labelled block of preformatted text, folded into a <details> when long. */
export function codeBlock(label, text) {
	const pre = el('pre', 'code', text);
	if (text.length <= LONG && text.split('\n').length <= 12) {
		return el('div', 'field', el('div', 'label', label), pre);
	}
	const details = el('details', 'field', el('summary', 'label', `${label} (${text.length} characters)`), pre);
	return details;
}
