import { Cron } from 'croner';
import type { SlotType } from '../blueprints/blueprint.schema.js';

export type SlotCheck = { ok: true; value: unknown } | { ok: false; message: string };

const fail = (message: string): SlotCheck => ({ ok: false, message });

/** Parses a 5-field cron expression with croner (read in `timezone`, UTC by default); throws with croner's reason when it is not one. */
export function parseCron(expression: string, timezone = 'UTC'): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5)
    throw new Error(`expected 5 cron fields (minute hour day month weekday), got ${fields.length}`);
  return new Cron(fields.join(' '), { mode: '5-part', paused: true, timezone });
}

/** Checks a slot value (from JSON or from goal text) against its type and returns it in its typed form. */
export function coerceSlotValue(type: SlotType, raw: unknown): SlotCheck {
  switch (type) {
    case 'str':
      return typeof raw === 'string' || typeof raw === 'number'
        ? { ok: true, value: String(raw) }
        : fail('expected a string');
    case 'int': {
      const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
      return Number.isSafeInteger(value) ? { ok: true, value } : fail('expected an integer');
    }
    case 'float': {
      const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : fail('expected a number');
    }
    case 'bool':
      return coerceBoolean(raw);
    case 'list[str]':
      return coerceList(raw);
    case 'cron':
      return coerceCron(raw);
    case 'url':
      return coerceUrl(raw);
  }
}

function coerceBoolean(raw: unknown): SlotCheck {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (['true', 'yes', '1', 'on'].includes(text)) return { ok: true, value: true };
  if (['false', 'no', '0', 'off'].includes(text)) return { ok: true, value: false };
  return fail('expected true or false');
}

// Goal text gives one string: "acme, globex" is two vendors.
function coerceList(raw: unknown): SlotCheck {
  const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : undefined;
  if (!items || !items.every((item) => typeof item === 'string' || typeof item === 'number'))
    return fail('expected a list of strings');
  const value = items.map((item) => String(item).trim()).filter(Boolean);
  return value.length > 0 ? { ok: true, value } : fail('expected at least one item');
}

function coerceCron(raw: unknown): SlotCheck {
  if (typeof raw !== 'string') return fail('expected a cron expression such as "0 9 * * 1"');
  try {
    parseCron(raw);
    return { ok: true, value: raw.trim().split(/\s+/).join(' ') };
  } catch (error) {
    return fail(`invalid cron expression "${raw}": ${(error as Error).message}`);
  }
}

function coerceUrl(raw: unknown): SlotCheck {
  if (typeof raw !== 'string') return fail('expected an http(s) URL');
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? { ok: true, value: url.toString() }
      : fail('expected an http(s) URL');
  } catch {
    return fail(`invalid URL "${raw}"`);
  }
}
