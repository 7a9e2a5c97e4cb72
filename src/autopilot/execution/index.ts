export { createNodeAgents, type NodeAgents } from './node-agents.js';
