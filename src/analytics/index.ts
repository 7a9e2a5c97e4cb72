export { analyticsRoutes, type AnalyticsRoutesOptions } from './analytics.routes.js';
export { createAnalyticsService, type AnalyticsService, type AnalyticsServiceOptions } from './analytics.service.js';
export { createAnalyticsQueryStore, type AnalyticsQueryStore } from './analytics-query.store.js';
export { createAnalyticsWriteStore, type AnalyticsWriteStore } from './analytics-write.store.js';
export { createUsageRecorder, type UsageRecorder, type UsageRecorderOptions } from './usage-recorder.js';
export { meterUsage } from './meter-usage.js';
export { roundUsd } from './cost-nanos.js';
export type { AgentAnalytics, CostReport, ModelComparison, RiskReport, UsageReport } from './analytics-reports.js';
export type { AnalyticsFilter, RiskEventInput, RiskType, UsageRecordInput } from './analytics.types.js';
