import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { A2aRestrictions } from './a2a-restrictions.js';

export type TokenRow = Selectable<Database['access_tokens']>;

export interface NewTokenRow {
  token_id: string;
  token_hash: string;
  token_suffix: string;
  agent_name: string;
  scopes: string[];
  single_use: boolean;
  created_at: string;
  expires_at: string;
  max_cost_usd: number | null;
  /** Absent or null: no A2A restriction. */
  a2a_restrictions?: A2aRestrictions | null;
}

export interface TokenStore {
  insert(row: NewTokenRow): Promise<void>;
  findById(tokenId: string): Promise<TokenRow | undefined>;
  findByHash(tokenHash: string): Promise<TokenRow | undefined>;
  list(filter: { agentName?: string; page?: { limit: number; offset: number } }): Promise<TokenRow[]>;
  /**
   * Marks one use of an active, unexpired token in a single conditional update, so a single-use token
   * is consumed exactly once however many requests race for it. Returns undefined when it was not usable.
   */
  consume(tokenId: string, now: string, agentName?: string): Promise<TokenRow | undefined>;
  revoke(tokenId: string): Promise<TokenRow | undefined>;
  delete(tokenId: string): Promise<boolean>;
}

export function createTokenStore(db: Kysely<Database>): TokenStore {
  return {
    async insert(row) {
      await db
        .insertInto('access_tokens')
        .values({
          ...row,
          scopes: JSON.stringify(row.scopes),
          a2a_restrictions: row.a2a_restrictions ? JSON.stringify(row.a2a_restrictions) : null,
          single_use: row.single_use ? 1 : 0,
          status: 'active',
          last_used_at: null,
        })
        .execute();
    },
    findById: (tokenId) =>
      db.selectFrom('access_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst(),
    findByHash: (tokenHash) =>
      db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),
    list({ agentName, page }) {
      let query = db.selectFrom('access_tokens').selectAll().orderBy('created_at', 'desc').orderBy('token_id');
      if (agentName) query = query.where('agent_name', '=', agentName);
      if (page) query = query.limit(page.limit).offset(page.offset);
      return query.execute();
    },
    consume(tokenId, now, agentName) {
      let query = db
        .updateTable('access_tokens')
        .set((eb) => ({
          last_used_at: now,
          use_count: eb('use_count', '+', 1),
          status: eb
            .case()
            .when('single_use', '=', 1)
            .then(eb.val<TokenRow['status']>('used'))
            .else(eb.ref('status'))
            .end(),
        }))
        .where('token_id', '=', tokenId)
        .where('status', '=', 'active')
        .where('expires_at', '>', now);
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      return query.returningAll().executeTakeFirst();
    },
    revoke: (tokenId) =>
      db
        .updateTable('access_tokens')
        .set({ status: 'revoked' })
        .where('token_id', '=', tokenId)
        .returningAll()
        .executeTakeFirst(),
    async delete(tokenId) {
      const result = await db.deleteFrom('access_tokens').where('token_id', '=', tokenId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
