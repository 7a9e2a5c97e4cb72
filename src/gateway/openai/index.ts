export { openaiRoutes, type OpenAiRoutesOptions } from './openai.routes.js';
export { createResponsesService, createResponseStore } from './responses/index.js';
