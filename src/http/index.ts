export { createServer, REDACTED_PATHS, type ServerOptions } from './create-server.js';
export { registerLifecycle, type FeatureLifecycle } from './feature-lifecycle.js';
export { exceedsJsonDepth } from './exceeds-json-depth.js';
export {
  DEFAULT_STREAM_RECHECK_MS,
  registerAuthHooks,
  type AuthHooks,
  type StreamCredentialOptions,
} from './auth-hook.js';
export { watchCredential, type CredentialWatch, type CredentialWatchOptions } from './credential-watch.js';
export { checkCookieRequest, type CookieRequestPolicy } from './check-cookie-request.js';
export { publicUrlVary, resolvePublicBaseUrl, type PublicUrlSettings } from './public-base-url.js';
export { mapError, sendError, type ErrorBody } from './error-handler.js';
export { healthRoutes } from './health.routes.js';
export type { AdmitRun, RouteAuth, RunScope } from './route-auth.js';
export {
  createMetrics,
  GATEWAY_OVERHEAD_HEADER,
  OTHER_LABEL,
  type InboxObservation,
  type Metrics,
  type MetricsOptions,
  type UsageObservation,
} from './metrics.js';
export { registerMetrics } from './metrics.routes.js';
export { CLIENT_BACKLOG_BYTES, watchClientBacklog, type ClientBacklog } from './client-backlog/index.js';
export { startIdleHeapTrim, type IdleHeapTrimOptions } from './idle-heap-trim.js';
export {
  createReplySseWriter,
  createSseWriter,
  DEFAULT_STALLED_TIMEOUT_MS,
  formatSseErrorEvent,
  SSE_HEADERS,
  type ClientGoneReason,
  type SseHeaders,
  type SseWriter,
  type SseWriterOptions,
} from './sse-writer.js';
export { registerRateLimits, type RateLimitRejection, type RateLimits, type RateLimitsOptions } from './rate-limits.js';
export {
  createMemoryRateLimitCounter,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitCheck,
  type RateLimitCounter,
} from './rate-limit-counter.js';
