export { createAuthenticator, type Authenticator, type AuthenticatorOptions } from './authenticator.js';
export { loadOrCreateAdminKey, ADMIN_KEY_FILE } from './admin-key.js';
export {
  A2A_METHODS,
  allowsA2aMethod,
  allowsA2aSkill,
  canonicalA2aMethod,
  type A2aRestrictions,
} from './a2a-restrictions.js';
export { ownerOf, readsEverything, SHARED_SESSIONS_SCOPE } from './owner-of.js';
export { GRANTING_SCOPES, type GrantingScope, type Principal } from './principal.js';
export {
  checkTokenAgent,
  createTokenService,
  hashToken,
  ACCESS_TOKEN_PREFIX,
  type TokenService,
  type TokenView,
  type CreatedToken,
  type CreateTokenInput,
} from './token.service.js';
export { createTokenStore, type TokenStore } from './token.store.js';
export { tokensRoutes, type TokenBudgetView, type TokensRoutesOptions } from './tokens.routes.js';
