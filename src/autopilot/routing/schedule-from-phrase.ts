const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY = `(${DAYS.join('|')}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)`;

function dayNumber(word: string): number {
  return DAYS.findIndex((day) => day.startsWith(word.toLowerCase().slice(0, 3)));
}

function timeOf(text: string): { minute: number; hour: number } | undefined {
  if (/\bat noon\b|\bmidday\b/.test(text)) return { minute: 0, hour: 12 };
  if (/\bat midnight\b/.test(text)) return { minute: 0, hour: 0 };
  const match = /\bat (\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)/.exec(text);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] ? Number(match[2]) : 0;
  const half = match[3]?.[0];
  if (half === 'p' && hour < 12) hour += 12;
  if (half === 'a' && hour === 12) hour = 0;
  return hour < 24 && minute < 60 ? { minute, hour } : undefined;
}

function defaultHour(text: string): number {
  if (/\bmorning/.test(text)) return 8;
  if (/\bafternoon/.test(text)) return 14;
  if (/\bevening/.test(text)) return 18;
  if (/\bnight/.test(text)) return 21;
  return 9;
}

/**
 * A 5-field cron (UTC) from the way people say a schedule in a goal: "every Monday at 9", "daily at
 * 7:30am", "on weekdays at 18:00", "every hour", "weekly", "every month". Undefined when the goal names
 * no recurrence; the model (when configured) or the blueprint's default then decides.
 */
export function scheduleFromPhrase(goal: string): string | undefined {
  const text = goal.toLowerCase();
  if (/\b(every hour|hourly|each hour)\b/.test(text)) return '0 * * * *';
  const time = timeOf(text) ?? { minute: 0, hour: defaultHour(text) };
  const at = `${time.minute} ${time.hour}`;
  const days = [...text.matchAll(new RegExp(`\\b(?:every|on|each)\\s+${DAY}s?\\b|\\b${DAY}s\\b`, 'g'))].map((match) =>
    dayNumber(match[1] ?? match[2]),
  );
  if (days.length > 0) return `${at} * * ${[...new Set(days)].sort((a, b) => a - b).join(',')}`;
  if (/\b(every|on|each) weekdays?\b|\bweekdays\b/.test(text)) return `${at} * * 1-5`;
  if (/\b(every|on|each) weekends?\b|\bweekends\b/.test(text)) return `${at} * * 0,6`;
  if (/\b(every|each) (day|morning|evening|night|afternoon)\b|\bdaily\b|\bnightly\b/.test(text)) return `${at} * * *`;
  if (/\b(every|each) week\b|\bweekly\b/.test(text)) return `${at} * * 1`;
  if (/\b(every|each) month\b|\bmonthly\b/.test(text)) return `${at} 1 * *`;
  return undefined;
}
