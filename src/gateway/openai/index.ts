export { openaiRoutes, type OpenAiRoutesOptions } from './openai.routes.js';
