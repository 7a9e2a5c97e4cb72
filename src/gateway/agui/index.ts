export { aguiRoutes } from './agui.routes.js';
export type { AguiRoutesOptions } from './agui-routes-options.js';
export { createRunFrameCache, type RunFrameCache } from './run-frame-cache.js';
