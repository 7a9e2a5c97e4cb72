export { handlerKey, matchesEvent, matchHandlers, type EventHandler } from './match-handlers.js';
export { renderPrompt } from './render-prompt.js';
