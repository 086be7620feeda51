// Drives agcore's OpenAI-compatible endpoint with the official `openai` npm client and
// prints what it got as one JSON object, for OpenAiClientTests to assert on.
// Usage: node client.mjs <base URL ending in /v1> <directory holding node_modules/openai>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [baseURL, packages] = process.argv.slice(2);
const { default: OpenAI, NotFoundError } = await import(
	pathToFileURL(join(packages, 'node_modules', 'openai', 'index.mjs')).href);

const client = new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 });
const results = {};

const models = await client.models.list();
results.models = models.data.map((model) => model.id);

const completion = await client.chat.completions.create({
	model: 'assistant',
	messages: [{ role: 'user', content: 'What is the weather in Lima?' }],
});
results.completion = {
	id: completion.id,
	object: completion.object,
	content: completion.choices[0].message.content,
	finishReason: completion.choices[0].finish_reason,
	totalTokens: completion.usage.total_tokens,
};

// the client's own stream helper assembles the chunks
const stream = client.chat.completions.stream({
	model: 'assistant',
	messages: [{ role: 'user', content: 'And in Quito?' }],
	stream_options: { include_usage: true },
});
let deltas = 0;
stream.on('content', () => deltas++);
const streamed = await stream.finalChatCompletion();
results.stream = {
	content: streamed.choices[0].message.content,
	role: streamed.choices[0].message.role,
	finishReason: streamed.choices[0].finish_reason,
	totalTokens: streamed.usage?.total_tokens,
	deltas,
};

try {
	await client.chat.completions.create({ model: 'no-such-agent', messages: [{ role: 'user', content: 'Hi' }] });
	results.error = { thrown: false };
}
catch (error) {
	results.error = {
		thrown: true,
		notFound: error instanceof NotFoundError,
		status: error.status,
		code: error.code,
		param: error.param,
		type: error.type,
	};
}

console.log(JSON.stringify(results));
