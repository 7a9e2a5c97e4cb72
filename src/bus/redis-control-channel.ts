import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isRunControlCommand, type ControlHandlers } from './control-handlers.js';
import type { RunControlCommand } from './run-event-bus.js';

export interface RedisControlChannelConfig {
  /** A connection used for nothing but SUBSCRIBE (a subscribed connection can run no other command). */
  subscriber: Redis;
  command: Redis;
  channel: string;
  handlers: ControlHandlers;
  onError: (error: unknown) => void;
}

interface ControlMessage {
  origin: string;
  runId: string;
  command: RunControlCommand;
}

/**
 * Pause/resume/cancel over one pub/sub channel. The sending process delivers to its own handlers at once
 * (so control works even while Redis is slow) and ignores its own echo; every other process delivers the
 * message when it arrives. Pub/sub does not store: a process that is disconnected at that moment misses it.
 */
export class RedisControlChannel {
  private readonly config: RedisControlChannelConfig;
  private readonly origin = randomUUID();
  private subscribed: Promise<boolean>;
  private closed = false;

  constructor(config: RedisControlChannelConfig) {
    this.config = config;
    config.subscriber.on('message', (channel: string, message: string) => {
      if (channel === config.channel) this.receive(message);
    });
    this.subscribed = this.subscribe();
  }

  /** True once this process receives control messages from other processes. */
  get ready(): Promise<boolean> {
    return this.subscribed;
  }

  close(): void {
    this.closed = true;
  }

  async send(runId: string, command: RunControlCommand): Promise<void> {
    this.config.handlers.dispatch(runId, command);
    const message: ControlMessage = { origin: this.origin, runId, command };
    await this.config.command.publish(this.config.channel, JSON.stringify(message));
  }

  private subscribe(): Promise<boolean> {
    // ioredis re-subscribes by itself after a reconnect, but only to channels it had subscribed before.
    return this.config.subscriber.subscribe(this.config.channel).then(
      () => true,
      (error: unknown) => {
        if (this.closed) return false;
        this.config.onError(error);
        this.config.subscriber.once('ready', () => {
          this.subscribed = this.subscribe();
        });
        return false;
      },
    );
  }

  private receive(raw: string): void {
    let message: Partial<ControlMessage>;
    try {
      message = JSON.parse(raw) as Partial<ControlMessage>;
    } catch (error) {
      this.config.onError(error);
      return;
    }
    if (message.origin === this.origin) return;
    if (typeof message.runId !== 'string' || !isRunControlCommand(message.command)) {
      this.config.onError(new Error(`Ignored a malformed run control message: ${raw.slice(0, 200)}`));
      return;
    }
    this.config.handlers.dispatch(message.runId, message.command);
  }
}
