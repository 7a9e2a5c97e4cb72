/** One webhook whose worker handles one delivery at a time, shared by the crash test and its server process. */
export const CRASH_YAML = `
webhook_settings: { concurrency: 1, poll_interval_ms: 20 }
webhooks:
  - { name: orders, verification: hmac-sha256, secret: crash-secret, handlers: [{ event: "*", agent: billing, prompt: "order {{id}}" }] }
`;
