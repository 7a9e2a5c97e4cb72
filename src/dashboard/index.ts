export { dashboardRoutes, UI_BUILD_DIR, type DashboardRoutesOptions } from './dashboard.routes.js';
