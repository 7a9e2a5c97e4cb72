import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { A2aRestrictions } from './a2a-restrictions.js';

type TokenRow = Selectable<Database['access_tokens']>;

/** A stored token, decoded: `scopes` and `a2a_restrictions` parsed, `single_use` a boolean and `use_count` a number. */
export type TokenRecord = Omit<TokenRow, 'scopes' | 'single_use' | 'use_count' | 'a2a_restrictions'> & {
  scopes: string[];
  single_use: boolean;
  use_count: number;
  a2a_restrictions: A2aRestrictions | null;
};

function decodeToken(row: TokenRow): TokenRecord {
  return {
    ...row,
    scopes: JSON.parse(row.scopes) as string[],
    single_use: row.single_use === 1,
    use_count: Number(row.use_count),
    a2a_restrictions: row.a2a_restrictions ? (JSON.parse(row.a2a_restrictions) as A2aRestrictions) : null,
  };
}

const decodeFound = (row: TokenRow | undefined): TokenRecord | undefined => (row ? decodeToken(row) : undefined);

/** What `insert` needs: a new token is active, unused and never used. */
export type NewTokenRow = Omit<
  TokenRecord,
  'status' | 'last_used_at' | 'use_count' | 'requests_per_minute' | 'tokens_per_minute' | 'a2a_restrictions'
> &
  Partial<Pick<TokenRecord, 'requests_per_minute' | 'tokens_per_minute' | 'a2a_restrictions'>>;

export interface TokenStore {
  insert(row: NewTokenRow): Promise<void>;
  findById(tokenId: string): Promise<TokenRecord | undefined>;
  findByHash(tokenHash: string): Promise<TokenRecord | undefined>;
  list(filter: { agentName?: string; page?: { limit: number; offset: number } }): Promise<TokenRecord[]>;
  /**
   * Marks one use of an active, unexpired token in a single conditional update, so a single-use token
   * is consumed exactly once however many requests race for it. Returns undefined when it was not usable.
   */
  consume(tokenId: string, now: string, agentName?: string): Promise<TokenRecord | undefined>;
  revoke(tokenId: string): Promise<TokenRecord | undefined>;
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
    findById: async (tokenId) =>
      decodeFound(await db.selectFrom('access_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst()),
    findByHash: async (tokenHash) =>
      decodeFound(
        await db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),
      ),
    async list({ agentName, page }) {
      let query = db.selectFrom('access_tokens').selectAll().orderBy('created_at', 'desc').orderBy('token_id');
      if (agentName) query = query.where('agent_name', '=', agentName);
      if (page) query = query.limit(page.limit).offset(page.offset);
      return (await query.execute()).map(decodeToken);
    },
    async consume(tokenId, now, agentName) {
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
      return decodeFound(await query.returningAll().executeTakeFirst());
    },
    revoke: async (tokenId) =>
      decodeFound(
        await db
          .updateTable('access_tokens')
          .set({ status: 'revoked' })
          .where('token_id', '=', tokenId)
          .returningAll()
          .executeTakeFirst(),
      ),
    async delete(tokenId) {
      const result = await db.deleteFrom('access_tokens').where('token_id', '=', tokenId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
