// node:fs as it is, plus a globSync that says what it needs where Node.js has none.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;
export const globSync = fs.globSync ?? (() => {
	throw new Error('fs.globSync needs Node.js 22 or later');
});
