// Lets @modelcontextprotocol/conformance run on Node.js 20: it imports fs.globSync, which
// Node.js adds in 22, at the top of its one bundle, though only its tier-check command calls
// it. Run node with --import <this file>; on Node.js 22 and later it changes nothing.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
