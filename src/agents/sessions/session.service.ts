import { ConflictError, createError, NotFoundError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { Write } from '../../db/index.js';
import type { ChatMessage } from '../../llm/index.js';
import { mergeSessionHistory, type MergedConversation } from './merge-session-history.js';
import type { SessionRecord, SessionStore } from './session.store.js';

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface SessionService {
  /**
   * Opens (or creates, owned by `owner`) the session and merges its history with the request's
   * messages. 404 when another principal owns it (its history is never read), 409 when it is the
   * caller's own session with another agent. The session counts as active (listed, counted) when it
   * existed already (the caller continues it) or `named` (the caller chose its id; the default). 413
   * session_history_too_large when the history with the request's new turns would pass `maxHistoryBytes`.
   */
  open(
    sessionId: string,
    agentName: string,
    owner: string,
    messages: ChatMessage[],
    named?: boolean,
  ): Promise<MergedConversation>;
  /**
   * A session under an id generated for this request, which nobody else can know yet: nothing to check or
   * merge, so nothing is read. Its record is built here; `insert` is the write that stores it, committed
   * with the run's insert (runtime/start-run.ts), so the run is not stored without its session. It does not
   * count as active until its caller sends its id back (`open`).
   */
  create(sessionId: string, agentName: string, owner: string): { session: SessionRecord; insert: Write };
  /** The turns of a completed run, as a write committed with the run's end (runtime/run.ts). */
  appendWrite(sessionId: string, messages: ChatMessage[]): Write;
  find(sessionId: string): Promise<SessionRecord | undefined>;
  /** The stored turns, oldest first (for operators: no ownership check); the first `count` of them when set. */
  messages(sessionId: string, count?: number): Promise<ChatMessage[]>;
  /**
   * Requested sessions (named or continued by their caller) active at or after `since`, most recent first;
   * one page of them with `page`.
   */
  listActive(since: string, page?: { limit: number; offset: number }): Promise<SessionRecord[]>;
  countActive(since: string): Promise<number>;
}

export function createSessionService({
  store,
  now = () => new Date(),
  maxHistoryBytes,
}: {
  store: SessionStore;
  now?: () => Date;
  /** sessions.max_history_bytes; unset: no cap. */
  maxHistoryBytes?: number;
}): SessionService {
  return {
    async open(sessionId, agentName, owner, messages, named) {
      const session = await store.open(sessionId, agentName, owner, isoNow(now()), named);
      // The same answer as for an id nobody uses, so another principal's session is not even confirmed.
      if (session.owner !== owner) throw new NotFoundError(`No session "${sessionId}" of yours`, 'session_not_found');
      if (session.agent_name !== agentName) {
        throw new ConflictError(
          `Session "${sessionId}" belongs to agent "${session.agent_name}"`,
          'session_agent_mismatch',
        );
      }
      const stored = session.message_count > 0 ? await store.history(sessionId) : { messages: [], bytes: 0 };
      const merged = mergeSessionHistory(stored.messages, messages);
      if (maxHistoryBytes !== undefined) {
        // Refused, not truncated: a conversation that silently loses its start answers differently (docs/decisions/0075).
        const bytes = stored.bytes + merged.pending.reduce((sum, message) => sum + jsonBytes(message), 0);
        if (bytes > maxHistoryBytes)
          throw createError('session_history_too_large', {
            session_id: sessionId,
            bytes,
            limit: maxHistoryBytes,
          });
      }
      return merged;
    },
    create(sessionId, agentName, owner) {
      const at = isoNow(now());
      const session = {
        session_id: sessionId,
        agent_name: agentName,
        owner,
        created_at: at,
        last_active: at,
        message_count: 0,
        requested: 0,
      };
      return { session, insert: store.insertNew(session) };
    },
    appendWrite: (sessionId, messages) => store.appendWrite(sessionId, messages, isoNow(now())),
    find: (sessionId) => store.find(sessionId),
    messages: (sessionId, count) => store.messages(sessionId, count),
    listActive: (since, page) => store.listActive(since, page),
    countActive: (since) => store.countActive(since),
  };
}

/** A message's size as the session stores it. */
function jsonBytes(message: ChatMessage): number {
  return Buffer.byteLength(JSON.stringify(message));
}
