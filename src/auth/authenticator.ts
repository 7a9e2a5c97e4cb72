import { hash, timingSafeEqual } from 'node:crypto';
import type { AuthConfig } from '../config/index.js';
import { AuthenticationError } from '../errors.js';
import type { Principal } from './principal.js';
import { ACCESS_TOKEN_PREFIX, type TokenService } from './token.service.js';

export interface Authenticator {
  /** Resolves one presented credential, trying JWT, then API key, then access token. Throws 401 when none matches. */
  authenticate(credential: string): Promise<Principal>;
}

export interface AuthenticatorOptions {
  config: AuthConfig;
  /** API keys from config plus a generated admin key, if any. */
  apiKeys: string[];
  tokens: TokenService;
  /** The time a JWT's `exp` is checked against. */
  now?: () => Date;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function createAuthenticator({
  config,
  apiKeys,
  tokens,
  now = () => new Date(),
}: AuthenticatorOptions): Authenticator {
  const jwtSecret = config.jwt ? new TextEncoder().encode(config.jwt.secret) : undefined;
  // Compare digests so every comparison has the same length and takes the same time.
  const keyDigests = apiKeys.map((key) => digest(key));

  async function verifyJwt(credential: string): Promise<Principal | AuthenticationError> {
    if (!jwtSecret) return new AuthenticationError('JWT authentication is not configured', 'invalid_credentials');
    // jose loads with the first JWT, so a deployment on API keys never loads it (start-up time, idle memory).
    const { errors: joseErrors, jwtVerify } = await import('jose');
    try {
      const { payload } = await jwtVerify(credential, jwtSecret, {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        issuer: config.jwt?.issuer,
        audience: config.jwt?.audience,
        currentDate: now(),
      });
      return {
        kind: 'operator',
        method: 'jwt',
        subject: typeof payload.sub === 'string' ? payload.sub : 'jwt',
        // requiredClaims makes exp present.
        expiresAtMs: (payload.exp as number) * 1000,
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return new AuthenticationError('JWT has expired', 'jwt_expired');
      if (error instanceof joseErrors.JWTClaimValidationFailed)
        return new AuthenticationError(`JWT claim "${error.claim}" is invalid: ${error.reason}`, 'jwt_invalid_claims');
      return new AuthenticationError('JWT signature or format is invalid', 'jwt_invalid');
    }
  }

  function matchesApiKey(credential: string): boolean {
    const presented = digest(credential);
    let matched = false;
    for (const key of keyDigests) matched = timingSafeEqual(presented, key) || matched;
    return matched;
  }

  return {
    async authenticate(credential) {
      let jwtFailure: AuthenticationError | undefined;
      if (JWT_SHAPE.test(credential)) {
        const result = await verifyJwt(credential);
        if (!(result instanceof AuthenticationError)) return result;
        jwtFailure = result;
      }
      // The subject tells keys apart (what an operator creates is its own) without revealing the key.
      if (matchesApiKey(credential))
        return {
          kind: 'operator',
          method: 'api_key',
          subject: `key_${digest(credential).toString('hex').slice(0, 16)}`,
        };
      if (credential.startsWith(ACCESS_TOKEN_PREFIX)) return tokens.inspect(credential);
      throw jwtFailure ?? new AuthenticationError('Invalid API key or token', 'invalid_credentials');
    },
  };
}

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
