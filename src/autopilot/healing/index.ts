export type { HealingRecommendation } from './healing.js';
