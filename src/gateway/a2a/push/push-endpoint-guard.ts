/** The SSRF rules for push URLs (the HTTP tools' address policy, wired in app.ts). */
export interface PushEndpointGuard {
  /** Why `url` may not receive notifications; undefined when it may. */
  refusal(url: string): Promise<string | undefined>;
  /** POSTs through a connection that checks each address again; resolves with the HTTP status. */
  post(url: string, request: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<number>;
}
