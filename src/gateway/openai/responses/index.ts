export { responsesRoutes, type ResponsesRoutesOptions } from './responses.routes.js';
export { createResponsesService, type ResponsesService } from './responses.service.js';
export { createResponseStore, type ResponseStore } from './response.store.js';
