import { z } from 'zod';

/** The admin API (spec 4.3). */
export const adminSchema = z
  .strictObject({
    /** GET /api/v1/admin/sessions lists sessions active within this many minutes. */
    session_window_minutes: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 60)
      .default(30),
  })
  .default({ session_window_minutes: 30 });

export type AdminConfig = z.infer<typeof adminSchema>;
