// The public base URL is the http layer's (the dashboard's login link uses it too).
export { publicUrlVary, resolvePublicBaseUrl, type PublicUrlSettings } from '../../../http/index.js';
