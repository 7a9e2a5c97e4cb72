export const SESSION_COOKIE = 'service_auth';

/** The cookie the auth hook reads: scripts cannot read it, other sites' requests do not carry it. */
export function sessionCookie(credential: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(credential)}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
