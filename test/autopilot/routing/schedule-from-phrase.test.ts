import { describe, expect, it } from 'vitest';
import { scheduleFromPhrase } from '../../../src/autopilot/routing/schedule-from-phrase.js';

describe('schedules people say in a goal', () => {
  it.each([
    ['Summarise the news every Monday at 9', '0 9 * * 1'],
    ['daily at 7:30am', '30 7 * * *'],
    ['on weekdays at 18:00', '0 18 * * 1-5'],
    ['every Tuesday and every Thursday at 5pm', '0 17 * * 2,4'],
    ['every morning', '0 8 * * *'],
    ['weekly', '0 9 * * 1'],
    ['monthly at noon', '0 12 1 * *'],
    ['every hour', '0 * * * *'],
    ['on Fridays at 12am', '0 0 * * 5'],
  ])('%s → %s', (goal, cron) => {
    expect(scheduleFromPhrase(goal)).toBe(cron);
  });

  it.each(['write a report on queues', 'meet at 9', 'summarise the monday meeting'])(
    'no recurrence in "%s" → none',
    (goal) => {
      expect(scheduleFromPhrase(goal)).toBeUndefined();
    },
  );
});
