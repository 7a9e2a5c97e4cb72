export { createAgentRegistry, type AgentRegistry, type RegisteredAgent } from './agent-registry.js';
export { createAgentStore, type AgentStore } from './agent.store.js';
