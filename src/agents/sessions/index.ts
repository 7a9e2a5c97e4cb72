export { createSessionService, SESSION_ID_PATTERN, type SessionService } from './session.service.js';
export { createSessionStore, type SessionRecord, type SessionStore } from './session.store.js';
export { mergeSessionHistory, type MergedConversation } from './merge-session-history.js';
