import { z } from 'zod';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;
/** Deep offsets cost a scan of every skipped row; filters narrow a list better than paging that far. */
export const MAX_PAGE_OFFSET = 1_000_000;

/**
 * `limit` and `offset` of every list route, spread into the route's `z.strictObject` query (so unknown
 * parameters are refused with 400 naming them). A leaf like errors.ts: every folder's list routes use it.
 */
export const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`At most this many items (1-${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT})`),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE_OFFSET)
    .default(0)
    .describe(`Skip this many items (0-${MAX_PAGE_OFFSET}, default 0)`),
};

export interface Page {
  limit: number;
  offset: number;
}

/** One page of a list held in memory (agents, tools): the same order, the same bounds as the SQL lists. */
export function slicePage<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.offset, page.offset + page.limit);
}

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

/**
 * A time bound of a list or report (`since`, `until`): an ISO 8601 date (midnight UTC) or date-time with a zone,
 * turned into the stored format (UTC, ms), so it compares as text with stored timestamps.
 */
export const timestampQuery = z
  .string()
  .refine((value) => isoDateTime.safeParse(value).success || isoDate.safeParse(value).success, {
    message: 'must be an ISO 8601 date or date-time with a time zone, e.g. 2026-01-31 or 2026-01-31T12:00:00Z',
  })
  .transform((value) => new Date(isoDate.safeParse(value).success ? `${value}T00:00:00Z` : value).toISOString());
