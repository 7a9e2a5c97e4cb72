export { dashboardRoutes, UI_BUILD_DIR, type DashboardRoutesOptions } from './dashboard.routes.js';
export { createLoginCodeStore, LOGIN_CODE_TTL_MS, type LoginCodeStore } from './login-code.store.js';
