export type { RoutingResult } from './goal-router.js';
