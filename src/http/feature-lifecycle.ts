import type { FastifyInstance } from 'fastify';

/**
 * A feature's start and stop, hooked to the server's own: a feature registered after another may use it, so it
 * starts after it and closes before it. Shutdown order is registration order reversed, never a list kept by hand.
 */
export interface FeatureLifecycle {
  /** At `ready()`, in registration order (Fastify `onReady`); a failure fails the start. */
  start?(): Promise<void>;
  /**
   * When `close()` begins, alongside the HTTP server's own drain (Fastify `preClose`): stop taking work, let
   * what is running end or cancel it at a deadline. Not awaited there; `close` waits for it.
   */
  stop?(): Promise<void>;
  /**
   * Once the HTTP server closed and `stop` ended (Fastify `onClose`, which runs in reverse registration order):
   * after every feature registered later, so what a feature uses is still open while it stops.
   */
  close?(): Promise<void>;
}

/** Hooks a feature's start and stop to the server's. Register a feature after those it uses. */
export function registerLifecycle(server: FastifyInstance, feature: FeatureLifecycle): void {
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= feature.stop?.() ?? Promise.resolve());
  if (feature.start) server.addHook('onReady', () => feature.start!());
  if (feature.stop)
    server.addHook('preClose', async () => {
      // Awaited in onClose, which reports its failure; here it must not hold the HTTP server's close back.
      stop().catch(() => undefined);
    });
  // A start that failed before ready() (or never reached preClose) still stops and closes what was built.
  server.addHook('onClose', async () => {
    try {
      await stop();
    } finally {
      await feature.close?.();
    }
  });
}
