// Lets @modelcontextprotocol/conformance run on node 20: its bundle imports `globSync` from 'fs' (node >= 22) for a
// report command the server suite never calls. Resolve 'fs' for that package only to node's fs plus a stub.
// Used as: node --import ./test/support/conformance-node20.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js …
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
const SHIM = 'data:text/javascript,' + encodeURIComponent("import fs from 'node:fs'; export * from 'node:fs'; export default fs; export function globSync() { throw new Error('fs.globSync needs node 22'); }");
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/')) return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}`),
);
